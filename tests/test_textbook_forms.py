"""Issue 30: the forms a book prints where SymPy's normal form differs (values unchanged)."""

from __future__ import annotations

import sympy as sp
from conftest import ROOT

from symattn import attend, load_problem, render
from symattn.derivation.forms import joined_logs


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
