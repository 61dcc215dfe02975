"""The summary derivation of a wide problem: a row whose sum of exponentials is too wide for the
text is written over its Z_i, defined once; products of exponentials print as SymPy prints them;
a display longer than a page may break."""

from __future__ import annotations

import sympy as sp
from conftest import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.printing.latex import LatexPrinter

import symattn
from symattn.api import render
from symattn.checks.invariants import check
from symattn.derivation import Options, derive
from symattn.model import ShownDecimal
from symattn.documents.blocks import Display
from symattn.targets.latex import display
from symattn.printing.matrices import terms
from symattn.printing.printer import MathPrinter, math

FIVE = EXAMPLES / "05_five_tokens_temperature" / "problem.toml"


def solve(path):
    return symattn.attend(symattn.load_problem(path))


def _summary(path, fmt: str = "latex") -> str:
    return render(solve(path), fmt, detail="summary")


def _sums(trace) -> tuple:
    """Each row's Z_i as the derivation shows it."""
    return derive(trace, check(trace), Options(detail="summary")).sums


def test_a_wide_row_is_written_over_its_sum_of_exponentials():
    trace, text = solve(FIVE), _summary(FIVE)
    L, sums = trace.L, _sums(trace)
    for i in (2, 3, 4):  # rows 3-5: sums of three to five exponentials
        readable = [j for j in range(L.cols) if trace.readable[i][j]]
        numerators = [math(sp.exp(L[i, j]), slash=True) if j in readable else "0"
                      for j in range(L.cols)]
        row = rf"A_{{{i + 1},\cdot}} &= Z_{{{i + 1}}}^{{-1}}\bigl(" + ", ".join(numerators)
        assert row in text
        # Z_i's terms in the keys' order, as the row's exponentials above it
        definition = rf"Z_{{{i + 1}}} &= " + " + ".join(numerators[j] for j in readable)
        assert text.count(definition) == 1
        assert sp.simplify(sums[i] - sum(sp.exp(L[i, j]) for j in readable)) == 0
        for j in readable:  # what the line claims: A_ij = e^{L_ij} / Z_i, exactly
            assert sp.simplify(trace.A[i, j] * sums[i] - sp.exp(L[i, j])) == 0
    assert r"Z_i &= \sum_j e^{L_{i,j}}" in text


def test_a_row_with_a_short_sum_keeps_its_fractions_and_defines_no_name():
    text = _summary(FIVE)
    assert r"A_{2,\cdot} &= \bigl(\frac{e^{40 \sqrt{3}/51}}{1 + e^{40 \sqrt{3}/51}}" in text
    assert "Z_{2}" not in text and "Z_{1}" not in text


def test_the_sum_is_not_repeated_in_every_entry():
    trace, text = solve(FIVE), _summary(FIVE, "markdown")
    readable = [j for j in range(trace.L.cols) if trace.readable[4][j]]
    z5 = " + ".join(math(sp.exp(trace.L[4, j]), slash=True) for j in readable)  # keys' order
    assert text.count(z5) == 1  # Z_5: its definition only
    assert " ".join(terms(_sums(trace)[4])) not in text  # nor in SymPy's order elsewhere


def test_rational_weights_are_summarised_as_before():
    text = _summary(EXAMPLES / "02_causal_three_positions" / "problem.toml")
    assert "Z_" not in text
    assert r"\frac{1}{6}" in text or "1/6" in text


def test_every_display_of_several_lines_may_break_between_its_entries():
    """Two lines already go to align* (gather* centred) with page breaks allowed, so that a page
    fills; a line going on at the alignment point stays with its entry (\\\\*)."""
    two = display(Display(("x_1 &= 1", "x_2 &= 2")))
    assert two == "{\\allowdisplaybreaks\n\\begin{align*}\nx_1 &= 1 \\\\\nx_2 &= 2\n\\end{align*}}\\ignorespaces"
    entry = display(Display(("S &= 1/2", r"&\approx 0.5", "x &= 3")))
    assert "S &= 1/2 \\\\*\n&\\approx 0.5 \\\\\nx &= 3" in entry
    centred = display(Display(tuple(f"x_{k} = {k}" for k in range(3))))
    assert centred.startswith("{\\allowdisplaybreaks\n\\begin{gather*}")
    assert display(Display(("x", "y"), kept=True)) == "\\[\n\\begin{gathered}\nx \\\\\ny\n\\end{gathered}\n\\]"


t = sp.Symbol("t", positive=True)
a = sp.Symbol("a", real=True)
EXPONENTS = [sp.Rational(3, 17) * sp.sqrt(2), -sp.Rational(3) / t, sp.log(2) / 3, 5 * a, -a,
             sp.Rational(-7, 2), sp.sqrt(3) / 2 - 1 / t, sp.log(3) - sp.log(2), 2 * t, -2 * t,
             1 - sp.sqrt(2), -sp.sqrt(2) * ShownDecimal("0.425"), sp.sqrt(10) * ShownDecimal("0.1"),
             sp.Integer(-1), sp.Integer(2), sp.Rational(1, 3) - 2 / t]


@settings(max_examples=300, deadline=None)
@given(st.integers(-40, 40), st.lists(st.sampled_from(EXPONENTS), min_size=1, max_size=3),
       st.booleans(), st.booleans())
def test_products_of_exponentials_print_as_sympy_prints_them(c, exponents, slash, with_e):
    """The printer's shortcut for c e^{x} e^{y} (and c e e^{y}) gives SymPy's own LaTeX, where
    it applies, but for a power of e with a negative number in its exponent, which stays in the
    numerator as a book writes it (2 e^{-7/2}, where SymPy writes \\frac{2}{e^{7/2}})."""
    x = sp.Integer(c) * sp.Mul(*(sp.exp(e) for e in exponents)) * (sp.E if with_e else 1)
    if not x.is_Mul:
        return
    printer = MathPrinter({"slash": slash})
    below = [f for f in x.args if isinstance(f, sp.exp) and f.exp.is_number and f.exp.is_negative
             and f.exp != -1]
    powers_of_e = all(f.is_Integer or f is sp.E or isinstance(f, sp.exp) and (
        f.exp.is_positive or f.exp.is_negative) for f in x.args)  # the shortcut's own case
    if below and powers_of_e:
        printed = printer._print_Mul(x)
        assert all(f"e^{{{printer._exponent(f.exp)}}}" in printed for f in below)
        over_e = any(isinstance(f, sp.exp) and f.exp == -1 for f in x.args)
        assert printed.count(r"\frac") == int(over_e)  # the one stacked fraction: …/e
        return
    assert printer._print_Mul(x) == LatexPrinter._print_Mul(printer, x)
