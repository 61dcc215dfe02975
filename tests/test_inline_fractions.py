"""Running text writes fractions with a slash (a = 1/√2, p = e^a/(e^a + 1), 5/6 ≈ 0.8333), as the
README promises; displays keep \\frac. Every document kind of every worked example (solve in
textbook and full, gradient, limits, sweep, nonunique, mistakes, and a problem set), LaTeX and
Markdown, English and Chinese: no \\frac inside inline math."""

from __future__ import annotations

import contextlib
import io
import re

import pytest
import sympy as sp
from conftest import EXAMPLE_FILES, EXAMPLES

from symattn.cli.main import main
from symattn.exercises.generator import KINDS as SET_KINDS
from symattn.exercises.generator import Settings, generate, write_problems
from symattn.printing.printer import math

COMMANDS = (("solve", "--detail", "textbook"), ("solve", "--detail", "full"), ("gradient",),
            ("limits",), ("sweep",), ("nonunique",), ("mistakes",))
"""Every document kind a worked example is written as (a command refusing a kind is skipped)."""
FORMATS = ("latex", "markdown")
LANGS = ("en", "zh")


def _run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse refusing an option a command does not take
            code = int(stop.code or 0)
    return code, out.getvalue()


def inline_math(text: str, to: str) -> list[str]:
    """The inline math of a document: \\( … \\) in LaTeX, $ … $ outside $$ displays in Markdown."""
    if to == "latex":
        return re.findall(r"\\\((.*?)\\\)", text, re.S)
    prose = re.sub(r"\$\$\n.*?\n\$\$", "", text, flags=re.S)
    return re.findall(r"(?<![\\$])\$([^$\n]+?)(?<!\\)\$", prose)


def _stacked(argv: list[str]) -> dict[str, list[str]]:
    """Each document's inline math holding \\frac, by the document's command line."""
    found: dict[str, list[str]] = {}
    written = 0
    for to in FORMATS:
        for lang in LANGS:
            code, text = _run([*argv, "--format", to, "--lang", lang])
            if code != 0:
                continue
            written += 1
            pieces = [m for m in inline_math(text, to) if r"\frac" in m]
            if pieces:
                found[" ".join(argv[:1] + argv[2:] + [to, lang])] = pieces
    assert written, argv  # every command line given here writes a document
    return found


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.parent.name for p in EXAMPLE_FILES])
def test_no_stacked_fraction_in_running_text(path):
    found: dict[str, list[str]] = {}
    for command, *extra in COMMANDS:
        if _run([command, str(path), *extra, "--format", "latex"])[0] == 0:
            found |= _stacked([command, str(path), *extra])
    assert found == {}


def test_no_stacked_fraction_in_a_problem_set(tmp_path):
    write_problems([p for k in SET_KINDS if k != "multihead"
                    for p in generate(Settings(kind=k), 1, seed=11)], tmp_path)
    assert _stacked(["problemset", str(tmp_path)]) == {}


def _solve(name: str, *extra: str, to: str = "latex", lang: str = "en") -> str:
    code, text = _run(["solve", str(EXAMPLES / name / "problem.toml"), "--format", to,
                       "--lang", lang, *extra])
    assert code == 0
    return text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("to", FORMATS)
def test_the_names_of_example_1_are_slashed_in_the_text(to, lang):
    text = _solve("01_two_positions", "--detail", "textbook", to=to, lang=lang)
    said = inline_math(text, to)
    assert r"a = 1/\sqrt{2} \approx 0.7071" in said
    assert r"p = e^{a}/(e^{a} + 1) \approx 0.6698" in said
    assert r"q = 1 - p = 1/(e^{a} + 1) \approx 0.3302" in said
    full = _solve("01_two_positions", "--detail", "full", to=to, lang=lang)
    # the row walk's lines are one line high too: its quotients slashed, as the text's
    assert r"A_{1,1} &= e^{L_{1,1}}/Z_{1} = e^{a}/Z_{1} = e^{a}/(e^{a} + 1) = p \approx 0.6698" in full
    assert not [m for m in inline_math(full, to) if r"\frac" in m]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("to", FORMATS)
def test_example_9_checks_and_worked_entry_are_slashed(to, lang):
    full = inline_math(_solve("09_parameter_sweep", "--detail", "full", to=to, lang=lang), to)
    assert r"(t_{1} + t_{2})/Z_{1} = 1" in full  # the row's check over its named sum
    textbook = inline_math(_solve("09_parameter_sweep", to=to, lang=lang), to)
    assert r"O_{1,1} = (t_{1} \cdot 2 + t_{2} \cdot 0)/Z_{1} = 2 t_{1}/Z_{1}" in textbook


def test_the_nonunique_distance_and_the_sweep_axis_are_slashed():
    code, text = _run(["nonunique", str(EXAMPLES / "04_causal_four_positions" / "problem.toml"),
                       "--format", "latex"])
    assert code == 0 and r"5/6 \approx 0.8333" in inline_math(text, "latex")
    code, text = _run(["sweep", str(EXAMPLES / "09_parameter_sweep" / "problem.toml"),
                       "--format", "markdown", "--lang", "zh"])
    said = inline_math(text, "markdown")
    assert code == 0 and r"\pi/2" in said and "1/2, 1, 2" in said and r"\tau = 1/2" in said


def test_the_inline_printer_parenthesises_a_compound_numerator_or_denominator():
    a, t1, t2 = sp.symbols("a t_1 t_2", positive=True)
    cases = {
        sp.exp(a) / (sp.exp(a) + 1): r"e^{a}/(e^{a} + 1)",
        (14 + 100 * sp.exp(10)) / (6 + sp.exp(10)): r"(14 + 100 e^{10})/(6 + e^{10})",
        1 / (2 * sp.sqrt(3) * a): r"\sqrt{3}/(6 a)",
        sp.Pow(sp.sqrt(2), -1, evaluate=False): r"1/\sqrt{2}",
        -sp.sqrt(3) / 6: r"- \sqrt{3}/6",
        2 * t2 / (t1 + t2): r"2 t_{2}/(t_{1} + t_{2})",
        sp.Rational(-5, 6): "-5/6",
        sp.exp(sp.sqrt(3) / 2) / 2: r"e^{\sqrt{3}/2}/2",  # the exponent as exponents are today
    }
    assert {math(x, inline=True) for x in cases} == set(cases.values())
    assert [math(x, inline=True) for x in cases] == list(cases.values())
    assert math(sp.exp(a) / (sp.exp(a) + 1)) == r"\frac{e^{a}}{e^{a} + 1}"  # displays: stacked


def test_a_log_over_a_number_is_never_read_as_the_log_of_a_quotient():
    """ln 5/√2 in a sentence or a row walk reads as ln(5/√2): the numerator holding a log is
    set in parentheses, (ln 5)/√2, (√2 ln 5)/2; the value is the same."""
    ln, root = sp.log, sp.sqrt
    cases = {ln(3) / 2: r"(\ln 3)/2", ln(5) / root(2): r"(\sqrt{2} \ln 5)/2",
             ln(3) / sp.Symbol("t", positive=True): r"(\ln 3)/t", sp.Rational(1, 6): "1/6"}
    assert [math(x, inline=True) for x in cases] == list(cases.values())
    out = io.StringIO()
    wide = EXAMPLES.parent / "tests" / "wide" / "six_symbolic.toml"
    with contextlib.redirect_stdout(out):
        assert main(["solve", str(wide), "--detail", "full", "--format", "latex"]) == 0
    assert r"(\ln 5/\sqrt{2})" not in out.getvalue() and not re.search(r"\\ln \d+/", out.getvalue())
