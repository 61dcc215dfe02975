"""Long decimals (NumPy's float64 prints 17 significant digits): the inputs are shown as written,
every stage too long to write exactly is shown by its decimals, marked ≈, never as a fraction the
author did not write; the values underneath stay exact and agree with an independent mpmath
computation from the same decimals."""

from __future__ import annotations

import contextlib
import io
import re
import tomllib
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from conftest import ROOT

from symattn import cli
from symattn.exact.shown import decimal, long_stages, long_values
from symattn.model import ShownDecimal
from symattn.parse.spec import load_problem
from symattn.exact.attention import attend

FOUR = ROOT / "tests" / "wide" / "float64_four_tokens.toml"
TWO_HEADS = ROOT / "tests" / "wide" / "float64_two_heads.toml"
LONG_FRACTION = re.compile(r"\d{16,}\s*/\s*\d{16,}|\\frac\{\d{16,}\}")


def _independent(path) -> tuple[list[list[mpmath.mpf]], list[list[mpmath.mpf]]]:
    """A and O of a one-head X/W problem without a mask, from the file's decimals read as
    Fractions, by mpmath at 60 digits (no symattn code)."""
    data = tomllib.loads(path.read_text(), parse_float=Fraction)["input"]
    mpmath.mp.dps = 60

    def mat(rows):
        return mpmath.matrix([[mpmath.mpf(x.numerator) / x.denominator for x in row] for row in rows])
    X = mat(data["X"])
    Q, K, V = (X * mat(data[n]) for n in ("W_Q", "W_K", "W_V"))
    S = Q * K.T / mpmath.sqrt(Q.cols)
    weights, out = [], []
    for i in range(S.rows):
        exps = [mpmath.exp(S[i, j]) for j in range(S.cols)]
        weights.append([e / mpmath.fsum(exps) for e in exps])
        out.append([mpmath.fsum(a * V[j, c] for j, a in enumerate(weights[-1]))
                    for c in range(V.cols)])
    return weights, out


def test_a_rational_is_long_past_fifteen_digits():
    assert not long_values(sp.Rational(1, 3))
    assert not long_values(sp.Rational(123456789012345, 10 ** 15))  # 15 digits
    assert long_values(sp.Rational(1234567890123456, 10 ** 16))  # 16 digits
    assert long_values(sp.exp(sp.Rational(1234567890123456, 10 ** 16)) / 7)
    assert not long_values(sp.exp(sp.Rational(1, 3)) + sp.Rational(17, 20))


def test_an_input_decimal_is_shown_as_written_however_long():
    value = sp.Rational(17886284734303186, 10 ** 16)
    assert decimal(value) == value  # a computed value of 17 digits is not shown as a decimal
    assert decimal(value, None) == ShownDecimal("1.7886284734303186")


def test_the_stages_after_float64_inputs_are_long_and_stay_exact():
    trace = attend(load_problem(FOUR))
    assert long_stages(trace) == frozenset({"Q", "K", "V", "R", "S", "L", "E", "A", "O"})
    assert all(x.is_Rational for x in trace.Q)  # exact products of the decimals
    assert trace.Q[0, 0] == sp.Rational("0.0012301533574825742") * sp.Rational("0.10541424899789856") \
        + sp.Rational("0.2987455375084699") * sp.Rational("-0.02925182246327349") \
        + sp.Rational("-0.2741378553622176") * sp.Rational("-1.344214547285082")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_derivation_shows_decimals_not_fractions(capsys, lang):
    assert cli.main(["solve", str(FOUR), "--format", "latex", "--lang", lang]) == 0
    tex = capsys.readouterr().out
    assert not LONG_FRACTION.search(tex)
    assert "-0.8905918387572742" in tex  # an input as written
    assert r"Q &= XW_Q \approx" in tex or r"Q = XW_Q \approx" in tex
    assert r"O &= AV \approx" in tex or r"O = AV \approx" in tex
    assert ("have more digits than a line holds" if lang == "en" else "一行写不下") in tex
    assert len(tex) < 20000


def test_the_text_shows_every_long_stage_by_decimals_that_agree_with_mpmath(capsys):
    assert cli.main(["solve", str(FOUR), "--places", "6"]) == 0
    text = capsys.readouterr().out
    assert not LONG_FRACTION.search(text)
    assert max(len(line) for line in text.splitlines()) < 100
    section = text[text.index("O = A V (output)"):]
    rows = [line.split()[1:] for line in section.splitlines()[3:7]]
    expected = _independent(FOUR)[1]
    assert rows == [[f"{float(x):.6f}" for x in row] for row in expected]


def test_verify_judges_a_float64_problem_exactly(tmp_path, capsys):
    expected = _independent(FOUR)[1]
    right = f"{float(expected[1][0]):.6f}"
    wrong = f"{float(expected[1][0]) + 2e-6:.6f}"
    problem = tmp_path / "p.toml"
    problem.write_text(FOUR.read_text() + f'\n[answers]\n"O[2,1]" = "{right}"\n')
    assert cli.main(["verify", str(problem)]) == 0
    problem.write_text(FOUR.read_text() + f'\n[answers]\n"O[2,1]" = "{wrong}"\n')
    assert cli.main(["verify", str(problem)]) == 1
    capsys.readouterr()


def test_two_float64_heads_are_written_by_their_decimals(capsys):
    assert cli.main(["solve", str(TWO_HEADS), "--format", "latex"]) == 0
    tex = capsys.readouterr().out
    assert not LONG_FRACTION.search(tex)
    assert r"\operatorname{MHA}(X) &= C\,W_O" in tex and r"\approx" in tex
    assert "too long for a line" not in tex  # said once, where the rounding begins
    assert len(tex) < 40000
    assert cli.main(["solve", str(TWO_HEADS)]) == 0
    text = capsys.readouterr().out
    assert max(len(line) for line in text.splitlines()) < 100


def test_the_page_of_a_float64_problem_says_why_each_row_is_not_written_out():
    from symattn.page.data import MathStore, variant
    problem = load_problem(FOUR)
    state = variant(problem, sp.S.One, "none", "en", 4, MathStore())
    assert len(state["rows"]) == problem.n_q
    assert all("have more digits than a line holds" in str(row) for row in state["rows"])
    assert state["weights"][0][0] == f"{float(_independent(FOUR)[0][0][0]):.4f}"



TRAILING = ('[input]\nQ = [["1.5440", "0.20"]]\nK = [["1.0", "0.5"], ["0.25", "-2.50"]]\n'
            'V = [[1, 2], [3, 4]]\n')


def _solved(tmp_path, text: str, *extra: str) -> str:
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["solve", str(path), *extra]) == 0
    return out.getvalue()


@pytest.mark.parametrize("to", ["text", "latex", "markdown", "json"])
def test_inputs_keep_the_trailing_zeros_they_are_written_with(tmp_path, to):
    """1.5440 is shown as 1.5440 (a course's printout), a computed 1.644 without padding; the
    value is the same exact rational either way."""
    text = _solved(tmp_path, TRAILING, "--format", to)
    for written in ("1.5440", "0.20", "1.0", "-2.50"):
        assert re.search(rf"(?<![\d.]){re.escape(written)}(?![\d])", text), (to, written)
    assert "1.644" in text and "1.6440" not in text  # R = QKᵀ is computed, not written
    problem = load_problem(tmp_path / "p.toml")
    assert problem.Q[0, 0] == sp.Rational(193, 125) and problem.K[1, 1] == sp.Rational(-5, 2)


def test_w_o_keeps_its_trailing_zeros_in_a_multi_head_derivation(tmp_path):
    text = TWO_HEADS.read_text(encoding="utf-8")
    first = re.search(r"W_O = \[\[(-?\d+\.\d+)", text).group(1)
    padded = first + "000"
    latex = _solved(tmp_path, text.replace(first, padded, 1), "--format", "latex")
    assert padded in latex
