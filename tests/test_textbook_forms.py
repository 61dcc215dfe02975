"""Issue 30: the forms a book prints where SymPy's normal form differs (values unchanged)."""

from __future__ import annotations

import pytest
import sympy as sp
from conftest import ROOT

from symattn import attend, check, load_problem, render
from symattn.derivation import derive
from symattn.derivation.forms import joined_logs, radicals
from symattn.printing.printer import math


def _markdown(path: str) -> str:
    return render(attend(load_problem(ROOT / path)), to="markdown", lang="en", detail="full")


def test_ln_99_is_written_as_given_not_as_its_primes():
    text = _markdown("worked_examples/08_same_output_different_weights/problem.toml")
    assert r"K = \left[\begin{array}{c} \ln 99 \\ 0 \end{array}\right]" in text
    assert r"= \left(-1\right) \cdot \ln 99 = - \ln 99 \\" in text
    assert "ln 11" not in text and "2 \\ln 3" not in text


def test_logs_of_a_decimal_problem_join_into_one_decimal():
    text = _markdown("tests/corpus/13_osl_applying_attention_weights/problem.toml")
    assert r"- \ln 10 & \ln 0.7 & - \ln 5 \\" in text
    # V's 2.0 and 5.0 are written so; the 2 of ln(0.5) = −ln 2 is not one of them
    assert r"Q = \left[\begin{array}{ccc} - \ln 2 & \ln 0.3 & - \ln 5 \\" in text
    assert r"\ln 2.0" not in text and r"\ln 5.0" not in text
    assert r"\ln 3 - \ln 5" not in text


def test_joined_logs_keeps_the_value():
    ln = sp.log
    cases = {2 * ln(3) + ln(11): ln(99), -ln(11) - 2 * ln(3): -ln(99),
             ln(3) - ln(2) - ln(5): ln(sp.Rational(3, 10)), 3 * ln(2): 3 * ln(2),
             1 + ln(3) / 2 + ln(11) / 2: 1 + ln(33) / 2}
    for given, joined in cases.items():
        assert joined_logs(given) == joined
        assert abs((joined - given).evalf(60)) < sp.Float("1e-50")


FORMS = ROOT / "tests" / "forms"


def _scores(name: str):
    """(S as the derivation shows it, S as computed) for a stress problem of tests/forms."""
    trace = attend(load_problem(FORMS / f"{name}.toml"))
    return derive(trace, check(trace)).display["S"], trace.S


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("to", ["latex", "markdown"])
def test_a_negative_log_over_a_root_is_minus_ln_5(to, lang):
    text = render(attend(load_problem(FORMS / "negative_logs.toml")), to=to, lang=lang)
    assert (r"S = L &= \frac{R}{\sqrt{2}} = \left[\begin{array}{cc} - \frac{\ln 5}{\sqrt{2}} & "
            r"- \frac{\left(\ln 5\right)^{2}}{\sqrt{2}} \\[1ex]") in text
    assert r"\left(-1\right) \ln" not in text and r"\left(-1\right) \left(" not in text
    shown, exact = _scores("negative_logs")
    assert [math(x) for x in shown.row(0)] == [r"- \frac{\ln 5}{\sqrt{2}}",
                                                r"- \frac{\left(\ln 5\right)^{2}}{\sqrt{2}}"]
    assert [sp.expand(x - y) for x, y in zip(shown, exact)] == [0] * 4  # the same values


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("to", ["latex", "markdown"])
def test_a_radical_times_a_sum_of_radicals_is_expanded(to, lang):
    text = render(attend(load_problem(FORMS / "radicals.toml")), to=to, lang=lang)
    assert (r"S = L &= \frac{R}{\sqrt{2}} = \left[\begin{array}{cc} \frac{\sqrt{2} + \sqrt{6}}{4} & "
            r"\frac{3}{4 \sqrt{2}} \\[1ex] \frac{1 + \sqrt{2}}{2} & \frac{\sqrt{6}}{4}") in text
    assert r"\sqrt{2} \left(" not in text  # √2(1/2 + √3/2)/2 and √2(√2/2 + 1)/2 before
    shown, exact = _scores("radicals")
    assert [math(shown[0, 0]), math(shown[1, 0])] == [r"\frac{\sqrt{2} + \sqrt{6}}{4}",
                                                      r"\frac{1 + \sqrt{2}}{2}"]
    assert [sp.expand(x - y) for x, y in zip(shown, exact)] == [0] * 4  # the same values


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("to", ["latex", "markdown"])
def test_an_input_keeps_its_product_of_radicals_as_written(to, lang):
    text = render(attend(load_problem(FORMS / "radical_input.toml")), to=to, lang=lang,
                  detail="full")
    assert r"K = \left[\begin{array}{cc} \sqrt{2} \left(1/2 + \frac{\sqrt{3}}{2}\right) & 1" in text
    assert (r"R_{1,1} &= \mathbf q_{1} \cdot \mathbf k_{1} = \left(1/2\right) \cdot \sqrt{2} "
            r"\left(1/2 + \sqrt{3}/2\right) + ") in text  # as K is written, on one line's height
    assert (r"\frac{R}{\sqrt{2}} = \left[\begin{array}{cc} \frac{1 + \sqrt{3} + \sqrt{6}}{4} & "
            r"\frac{3}{4 \sqrt{2}} \\[1ex] \frac{\sqrt{6} + 3 \sqrt{2}}{4}") in text  # computed: a book's form
    shown, exact = _scores("radical_input")
    assert [sp.expand(x - y) for x, y in zip(shown, exact)] == [0] * 4


def test_radicals_keep_the_value():
    ln, root = sp.log, sp.sqrt
    cases = {root(2) * (sp.S.Half + root(3) / 2) / 2: r"\frac{\sqrt{2} + \sqrt{6}}{4}",
             root(2) * (-ln(5) + root(2) * ln(5) / 2 + root(6) * ln(5) / 2) / 2:
                 r"\frac{\left(- \sqrt{2} + 1 + \sqrt{3}\right) \ln 5}{2}",
             2 * (1 + root(3)): r"2 + 2 \sqrt{3}",  # SymPy distributes a number itself
             root(3) * (1 + sp.E): r"\sqrt{3} \left(1 + e\right)",  # with e: kept
             root(3) * (1 + root(2) * ln(7)) ** 2: r"\sqrt{3} \left(1 + \sqrt{2} \ln 7\right)^{2}"}
    assert [math(radicals(given)) for given in cases] == list(cases.values())
    for given in cases:
        assert sp.expand(radicals(given) - given) == 0
        assert abs((radicals(given) - given).evalf(60)) < sp.Float("1e-50")


def _forms(name: str, to: str, lang: str, detail: str = "textbook") -> str:
    return render(attend(load_problem(FORMS / f"{name}.toml")), to=to, lang=lang, detail=detail)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("to", ["latex", "markdown"])
def test_an_exact_one_of_named_weights_is_1_not_2p_plus_q(to, lang):
    text = _forms("ones", to, lang)
    assert (r"= \left[\begin{array}{cc} 1 & 1 \\ 1 & 1 \end{array}\right]") in text
    assert text.count("2 p + q") == text.count("2 p + q = 1")  # in the row's check alone
    full = _forms("ones", to, lang, "full")
    assert r"O_{1,1} &= \sum\nolimits_j A_{1,j} V_{j,1} = p \cdot 1 + p \cdot 1 + q \cdot 1 = 1 \\" in full
    assert r"O_{1,2} &= \sum\nolimits_j A_{1,j} V_{j,2} = p \cdot 2 + p \cdot 0 + q \cdot 1 = 1" in full
    trace = attend(load_problem(FORMS / "ones.toml"))
    assert derive(trace, check(trace)).display["O"] == trace.O == sp.ones(2, 2)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("to", ["latex", "markdown"])
def test_ones_and_zeros_of_five_named_weights(to, lang):
    text = _forms("ones_and_zeros", to, lang)
    assert r"= \left[\begin{array}{cc} 1 & 0 \\ 1 & 0 \\ 1 & 0 \end{array}\right]" in text
    assert text.count("2 p + 2 q + r") == text.count("2 p + 2 q + r = 1")  # the check alone
    full = _forms("ones_and_zeros", to, lang, "full")
    assert r"q \cdot 1 + r \cdot 1 = 1 \\" in full
    assert r"q \cdot 2 + q \cdot \left(-2\right) + r \cdot 0 = 0" in full


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("to", ["latex", "markdown"])
def test_a_symbolic_output_over_its_own_sum_is_said_to_be_1(to, lang):
    full = _forms("ones_symbolic", to, lang, "full")
    assert (r"O_{1,1} &= \sum\nolimits_j A_{1,j} V_{j,1} = (e^{\sin{\left(\theta \right)}/\tau} "
            r"e^{\cos{\left(\theta \right)}/\tau} + e^{\sin{\left(\theta \right)}/\tau} + "
            r"e^{\cos{\left(\theta \right)}/\tau})/Z_{1} \\" + "\n" + r"&= 1 \\") in \
        full.replace("\\\\*\n", "\\\\\n")  # LaTeX keeps the two lines on one page (\\*)
    assert r"p \cdot 1 + p \cdot 1 + q \cdot 1 = 1 \\" in full  # row 2, named
