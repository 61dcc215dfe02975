"""Positivity read off a weight's form: proved for what the pipeline builds, never claimed for
what is not positive (those go to SymPy and the numeric check, as before)."""

from __future__ import annotations

import sympy as sp

import symattn
from symattn.checks.signs import Signs

THETA = sp.Symbol("theta", real=True)
TAU = sp.Symbol("tau", positive=True)


def test_weights_of_every_kind_are_positive_by_form():
    signs = Signs()
    e = sp.exp(sp.sqrt(2) * sp.log(3) * sp.log(7) / 2 + sp.sqrt(2) * sp.log(5) ** 2 / 2)
    weight = 7 ** (sp.sqrt(2) / 4) / (7 ** (sp.sqrt(2) / 4) + e)
    assert signs.positive(weight)
    assert signs.positive(sp.exp(THETA / TAU) / (1 + 2 * sp.exp(THETA / TAU)))
    assert signs.nonnegative(sp.S.Zero) and signs.positive(sp.Rational(1, 3))


def test_what_is_not_positive_is_not_claimed():
    signs = Signs()
    for x in (sp.Integer(-1), sp.exp(1) - 3, sp.log(sp.Rational(1, 2)), THETA,
              sp.exp(sp.I), sp.sqrt(2) - 1, sp.exp(THETA) * (THETA - 1), sp.log(THETA),
              sp.Integer(-2) ** sp.Rational(1, 2)):
        assert not signs.positive(x), x
    assert signs.real(sp.log(5) ** 2) and not signs.real(sp.I)
    assert not signs.real(sp.log(-THETA))


def test_the_check_proves_every_family_exactly():
    trace = symattn.attention([["ln(2)", "sqrt(2)"], [1, "0.85"], ["-ln(3)", 0]],
                              [[1, "ln(5)"], ["1/sqrt(5)", -1], [0, 2]], [[1, 0], [0, 1], [2, 3]],
                              mask="causal", temperature="tau", symbols={"tau": "positive"})
    result = {r.check: r for r in symattn.check(trace).results}["nonnegative"]
    assert result.passed is True and result.detail == "exactly"


def test_a_row_sum_is_read_off_the_shared_denominator_and_only_when_it_is_one():
    from symattn.checks.invariants import is_exactly_one
    e1, e2 = sp.exp(sp.sqrt(2) / 3), 7 ** (sp.sqrt(2) / 4) * sp.exp(sp.log(2) * sp.log(3))
    d = 1 + 2 * e1 + 3 * e2
    assert is_exactly_one([1 / d, 2 * e1 / d, 3 * e2 / d]) is True
    assert is_exactly_one([1 / d, 2 * e1 / d, 2 * e2 / d]) is not True
    assert is_exactly_one([1 / d, 2 * e1 / d, 3 * e2 / d, sp.Rational(1, 10**9)]) is not True
    assert is_exactly_one([sp.Rational(1, 3), sp.Rational(2, 3), sp.S.Zero]) is True
