"""One rounding rule: what `solve` prints and what `verify` accepts are the same correctly rounded
decimal, also for a value a hair from a half (x = k/10^p + 5·10^(-p-1) ± e^(-100)), where too
few digits read the half itself and half-to-even picked the wrong side."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from symattn import attend, parse_problem, render
from symattn.answers.rounding import rounded
from symattn.answers.verify import verify
from symattn.numeric_decimals import decimal_string, rounded_units
from symattn.parse.claims import parse_claim

HAIRS = [sp.exp(-100), sp.exp(-90), sp.exp(-700), sp.exp(-sp.sqrt(2) * 300)]
CASES = [(k, p) for p, k in ((1, 3), (2, 12), (2, 62), (3, 999), (4, 1234), (6, 7))]


def boundary(k: int, p: int) -> sp.Rational:
    """k/10^p + 5·10^(-p-1): a half of the p-th place."""
    return sp.Rational(k, 10 ** p) + sp.Rational(5, 10 ** (p + 1))


def written(units: int, p: int) -> str:
    """units of 10^-p as a decimal, by hand (Fraction, no symattn code)."""
    whole, part = divmod(abs(units), 10 ** p)
    return ("-" if units < 0 else "") + f"{whole}.{part:0{p}d}"


@pytest.mark.parametrize("k, p", CASES)
@pytest.mark.parametrize("hair", HAIRS, ids=["e-100", "e-90", "e-700", "e-424"])
@pytest.mark.parametrize("sign", [1, -1], ids=["above", "below"])
def test_a_hair_from_a_half_rounds_to_the_side_it_lies_on(k, p, hair, sign):
    x = boundary(k, p) + sign * hair
    up = k + 1 if sign > 0 else k  # above the half: away from zero; below: towards it
    assert rounded_units(x, p) == up
    assert decimal_string(x, p) == written(up, p)
    assert decimal_string(-x, p) == written(-up, p)
    assert rounded(x, p) == sp.Rational(up, 10 ** p)  # what a decimal answer is judged against


@pytest.mark.parametrize("k, p", CASES)
def test_an_exact_half_rounds_away_from_zero(k, p):
    x = boundary(k, p)
    assert decimal_string(x, p) == written(k + 1, p)
    assert decimal_string(-x, p) == written(-(k + 1), p)
    # the same half reached through an irrational-looking form that SymPy folds to it
    assert decimal_string(sp.sqrt(sp.Integer(4)) * x / 2, p) == written(k + 1, p)


def test_values_away_from_a_half_are_unchanged():
    for x, p in ((sp.sqrt(2), 4), (sp.E / (1 + sp.E), 4), (sp.pi * 10 ** 9, 2), (sp.exp(-5), 6)):
        exact = Fraction(str(sp.N(x, 60)))
        expected = int(exact * 10 ** p + Fraction(1, 2))
        assert decimal_string(x, p) == written(expected, p)


CLAIMED = """[input]
Q = [[1]]
K = [[1]]
V = [["1/8 {sign} exp(-100)"]]
[derivation]
places = 2
"""


@pytest.mark.parametrize("sign, printed", [("+", "0.13"), ("-", "0.12")])
def test_solve_prints_what_verify_accepts(sign, printed):
    """One key: O = V exactly, a hair above or below 1/8."""
    problem = parse_problem(CLAIMED.format(sign=sign))
    assert attend(problem).O[0, 0] == sp.Rational(1, 8) + (1 if sign == "+" else -1) * sp.exp(-100)
    text = render(attend(problem), "text")
    assert text.split("O = A V")[1].split("decimals:")[1].split() == ["1", "1", printed]
    markdown = render(attend(problem), "markdown")
    assert rf"\approx \left[\begin{{array}}{{c}} {printed} \end{{array}}\right]" in markdown
    other = "0.12" if printed == "0.13" else "0.13"
    statuses = [v.status for v in verify(problem, (parse_claim("O[1,1]", printed),
                                                   parse_claim("O[1,1]", other))).verdicts]
    assert statuses == ["correct", "wrong"]
