"""The summary's shortcuts give what plain SymPy and whole-line measurement give: E V expanded
from each entry's terms, a row vector broken from its entries' widths, sums ordered by cached values."""

from __future__ import annotations

from functools import lru_cache

import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_sympy_fast import X, fractions, nonzero, same, terms

from benchmarks.jobs import problem_toml
from symattn import attend, load_problem, numeric, render
from symattn.checks.invariants import check
from symattn.derivation import Options, derive
from symattn.derivation import forms
from symattn.exact import shown
from symattn.derivation.products import expanded, expanded_product
from symattn.exact.sympy_fast import rational
from symattn.exact.heads import attend_any
from symattn.parse.spec import parse_problem
from symattn.printing.fit import SAFETY, Fit, vector
from symattn.printing.measure import width
from symattn.model import ShownDecimal
from symattn.printing.printer import _PRINTER, _denominator, has_denominator

from conftest import ROOT

entries = st.one_of(terms(), st.lists(terms(), min_size=2, max_size=4).map(lambda t: sp.Add(*t)),
                    terms().map(lambda t: sp.exp(sp.Add(1, sp.log(2) * t, evaluate=False))),
                    st.deferred(lambda: row_exponentials))


@st.composite
def products(draw) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
    """E (exponentials, sums, zeros where masked) and V (rational, or with a symbol)."""
    n, m, d = draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 3))
    E = sp.ImmutableMatrix(n, m, [draw(entries) if draw(st.integers(0, 5)) else sp.S.Zero
                                  for _ in range(n * m)])
    values = [rational(draw(fractions)) for _ in range(m * d)]
    if draw(st.integers(0, 5)) == 0:
        values[0] = X
    return E, sp.ImmutableMatrix(m, d, values)


LOGS = (sp.log(2), sp.log(3), sp.log(2) * sp.log(7), sp.log(5) ** 2, sp.Integer(1), X)
exponents_of_e = st.lists(st.builds(lambda c, root, log: rational(c) * root * log, nonzero,
                                    st.sampled_from((sp.S.One, sp.sqrt(2), sp.sqrt(3) / 5)),
                                    st.sampled_from(LOGS)), min_size=1, max_size=5)
powers = st.lists(st.builds(lambda n, c, root: sp.Integer(n) ** (rational(c) * root),
                            st.sampled_from((2, 3, 6, 7)), nonzero,
                            st.sampled_from((sp.sqrt(2), sp.sqrt(2) * sp.log(3), sp.pi))),
                  max_size=3)
row_exponentials = st.builds(lambda c, ps, xs: rational(c) * sp.Mul(*ps) * sp.exp(sp.Add(*xs)),
                             nonzero, powers, exponents_of_e)


@settings(max_examples=300, deadline=None)
@given(row_exponentials)
def test_an_exponential_is_expanded_as_expand_expands_it(x):
    """c·n^(√2/2)·exp(a + b): the shortcut and sp.expand build the very same expression."""
    assert same(expanded(x), sp.expand(x))


@settings(max_examples=200, deadline=None)
@given(products())
def test_expanded_product_is_sympys_expanded_product(pair):
    E, V = pair
    built, expected = expanded_product(E, V), (E * V).applyfunc(sp.expand)
    assert built.shape == expected.shape
    assert all(same(b, e) for b, e in zip(built, expected))


def _whole_line_vector(entries: list[str], fit: Fit) -> list[str] | None:
    """The row vector broken by measuring every candidate line whole (the reference)."""
    def fits(line):
        return width(line) * SAFETY <= fit.points

    whole = r"\bigl(" + ", ".join(entries) + r"\bigr)"
    if fits(whole):
        return [whole]
    lines, current = [], r"\bigl(" + entries[0]
    for entry in entries[1:]:
        if fits(current + ", " + entry + r"\bigr)"):
            current += ", " + entry
        else:
            lines.append(current + ",")
            current = r"\quad " + entry
    lines.append(current + r"\bigr)")
    return lines if all(fits(line) for line in lines) else None


@lru_cache(maxsize=1)
def _rows() -> list[list[str]]:
    """Rows of cells as derivations print them: worked examples, the wide cases and the
    benchmark's integer and root families (rows starting with a minus sign)."""
    problems = [load_problem(ROOT / "worked_examples" / name / "problem.toml") for name in (
        "05_five_tokens_temperature", "11_policy_raises_wages_jobs", "14_symbolic_temperature")]
    problems += [load_problem(path) for path in sorted((ROOT / "tests" / "wide").glob("*.toml"))]
    problems += [parse_problem(problem_toml(family, 8)) for family in ("integers", "roots")]
    rows = []
    for problem in problems:
        text = render(attend_any(problem), "latex", detail="full")
        for line in text.splitlines():
            if r"\bigl(" in line and r"\bigr)" in line:
                inner = line[line.index(r"\bigl(") + 6:line.rindex(r"\bigr)")]
                if "(" not in inner and "{," not in inner:
                    rows.append([e.strip() for e in inner.split(", ")])
    return rows


@pytest.mark.parametrize("points", [60.0, 120.0, 200.0, 345.0])
def test_a_vector_breaks_where_measuring_whole_lines_breaks_it(points):
    rows = _rows()
    assert len(rows) > 60
    for row in rows:
        assert vector(row, Fit(points)) == _whole_line_vector(row, Fit(points)), row


constants = st.sampled_from([sp.sqrt(2), sp.sqrt(3) / 2, sp.pi, sp.log(3), sp.E, sp.I, sp.Integer(2)])
exponents = st.builds(lambda c, x: rational(c) * x, fractions, constants.filter(lambda x: x != sp.I))
constant_terms = st.one_of(
    st.builds(lambda c, x: rational(c) * sp.exp(x), fractions, exponents),
    st.builds(lambda c, x, y: rational(c) * sp.exp(x) * y, fractions, exponents, constants),
    fractions.map(rational))


@settings(max_examples=300, deadline=None)
@given(st.lists(constant_terms, min_size=1, max_size=12))
def test_a_constant_sum_is_ordered_as_sympy_orders_it(summands):
    total = sp.Add(*summands)
    assert _PRINTER._as_ordered_terms(total) == total.as_ordered_terms()


T = sp.Symbol("t", positive=True)
D = (ShownDecimal("0.425"), ShownDecimal("0.1"), ShownDecimal("0.85"))
symbolic_factors = st.sampled_from((X, T, 1 / T, X ** 2, *D, sp.exp(-D[0] * sp.sqrt(2)),
                                    sp.exp(D[1] * sp.sqrt(10)), sp.exp(3 / T), sp.exp(-X),
                                    sp.sqrt(2) * D[2], sp.sqrt(X)))
symbolic_terms = st.builds(lambda c, fs, k: rational(c) * sp.Mul(*fs) * k, nonzero,
                           st.lists(symbolic_factors, max_size=3), constants)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(symbolic_terms, constant_terms), min_size=1, max_size=10))
def test_a_sum_with_symbols_and_decimals_is_ordered_as_sympy_orders_it(summands):
    total = sp.Add(*summands)
    assume(total.is_Add)
    assert _PRINTER._as_ordered_terms(total) == total.as_ordered_terms()


@pytest.mark.parametrize("total", [1 - X, 2 - 3 * X, sp.pi - 2 * sp.sqrt(X), -1 + X, X - 2 * T,
                                   sp.Rational(1, 2) - D[0], 1 + sp.exp(-D[0])])
def test_a_number_beside_a_negative_multiple_keeps_sympys_order(total):
    assert _PRINTER._as_ordered_terms(total) == total.as_ordered_terms()


@pytest.mark.parametrize("path", [ROOT / "worked_examples" / "05_five_tokens_temperature" / "problem.toml",
                                  ROOT / "tests" / "wide" / "eight_causal.toml"])
def test_decimals_from_the_checks_numbers_are_the_decimals_computed_afresh(path):
    trace = attend(load_problem(path))
    report = check(trace, digits=50)  # leaves its 50-digit numbers for the derivation
    assert numeric._LAST_RECOMPUTED and numeric._LAST_RECOMPUTED[0][0] is trace.problem
    reused = derive(trace, report, Options(detail="summary")).decimals
    numeric._LAST_RECOMPUTED.clear()
    fresh = derive(trace, report, Options(detail="summary")).decimals
    assert numeric._LAST_RECOMPUTED[0][1] == 24  # computed afresh at places + 20 digits
    assert reused == fresh and set(fresh) >= {"A", "O", "Z"}


def test_a_products_denominator_is_its_factors_denominators():
    d = ShownDecimal("0.85")
    for expr in (d * sp.sqrt(2) * sp.exp(-d * sp.sqrt(3)), d * sp.exp(d) / 3, -2 * d * sp.pi,
                 d * X ** -2 * sp.exp(sp.sqrt(2)), sp.Rational(3, 7) * d * sp.exp(-X)):
        assert sp.Mul(*map(_denominator, expr.args)) == sp.fraction(expr)[1], expr


@pytest.mark.parametrize("family", ["logs", "roots", "symbolic"])
def test_powers_from_unexpanded_exponents_are_those_from_expanded_ones(family, tmp_path, monkeypatch):
    """integer_powers reads an exponent's terms as they are when each expands to itself; the
    forms are the ones it builds from sp.expand of every exponent."""
    path = tmp_path / "problem.toml"
    path.write_text(problem_toml(family, 12), encoding="utf-8")
    trace = attend(load_problem(path))
    stages = [trace.E, trace.A, trace.stage("O")]
    forms._powers.cache_clear()
    forms._expands_to_itself.cache_clear()
    shortcut = [forms.integer_powers(m) for m in stages]
    read = forms._expands_to_itself.cache_info().currsize  # exponent terms read as they are
    forms._powers.cache_clear()
    monkeypatch.setattr(forms, "_expands_to_itself", lambda term: False)
    reference = [forms.integer_powers(m) for m in stages]
    forms._powers.cache_clear()
    assert read > 10 or family != "logs"
    for built, expected in zip(shortcut, reference):
        assert all(same(b, e) for b, e in zip(built, expected))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(symbolic_terms, constant_terms), min_size=2, max_size=6))
def test_a_sum_whose_terms_have_no_denominator_has_none_when_put_together(summands):
    """The printer writes such an exponent as it is, without asking together()."""
    total = sp.Add(*summands)
    assume(total.is_Add)
    assert has_denominator(total) or sp.fraction(sp.together(total))[1] == 1
    assert has_denominator(total) == any(sp.fraction(t)[1] != 1 for t in total.args)


@pytest.mark.parametrize("total", [-D[0] * sp.sqrt(2) + D[1] * sp.sqrt(10), 2 * sp.sqrt(2) + 4 * sp.sqrt(3),
                                   X + 2 * T, 3 * sp.log(2) * sp.sqrt(2) - 6 * sp.log(3),
                                   D[2] * X - 2 * sp.pi])
def test_exponents_without_denominators_are_written_as_they_are(total):
    assert not has_denominator(total) and sp.fraction(sp.together(total))[1] == 1
    assert _PRINTER._written_exponent(total) == _PRINTER._print(total)


@pytest.mark.parametrize("source", ["roots", "tests/wide/eight_causal.toml",
                                    "tests/wide/six_symbolic.toml"])
def test_decimal_display_forms_are_what_rebuilding_each_node_gives(source, tmp_path, monkeypatch):
    """decimals_shown puts a product's or a sum's rewritten parts in canonical order itself;
    the forms are those that rebuilding each node through its class gives."""
    if source == "roots":
        path = tmp_path / "problem.toml"
        path.write_text(problem_toml(source, 12), encoding="utf-8")
    else:
        path = ROOT / source
    trace = attend(load_problem(path))
    assert trace.problem.decimals
    values = [trace.E, trace.A, trace.stage("O"), *(z for z in trace.Z if z is not None)]
    fast = [shown.decimals_shown(v) for v in values]
    monkeypatch.setattr(shown, "rebuilt", lambda value, args: value.func(*args))
    reference = [shown.decimals_shown(v) for v in values]

    def flat(v):
        return list(v) if isinstance(v, sp.MatrixBase) else [v]

    assert any(b != x for f, v in zip(fast, values) for b, x in zip(flat(f), flat(v)))
    for built, expected in zip(fast, reference):
        assert all(same(b, e) for b, e in zip(flat(built), flat(expected)))
