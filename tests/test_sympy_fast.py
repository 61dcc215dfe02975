"""Conformance of the fast builders with SymPy's own constructors, on random inputs of the forms the
pipeline builds. A SymPy release that changes its internals fails here, not silently in results:
.ci/run runs this file on the oldest and the newest SymPy that pyproject.toml allows."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from symattn.exact.sympy_fast import (add_term, build_sums, collect, immutable_matrix, rational,
                                      scaled, times_inverse)

X, Y = sp.Symbol("x", real=True), sp.Symbol("y", positive=True)
BASES = (sp.S.One, sp.sqrt(2), sp.sqrt(3), sp.pi, sp.E, sp.cos(X), Y, sp.sqrt(5) / 5)


def _fraction(numerator: int, denominator: int) -> Fraction:
    return Fraction(numerator, denominator)


fractions = st.builds(_fraction, st.integers(-40, 40), st.integers(1, 17))
nonzero = fractions.filter(bool)


@st.composite
def units(draw) -> sp.Expr:
    """exp of a rational multiple of a basis term, times roots of integers and symbols: what a
    row's exponentials look like."""
    unit = sp.exp(rational(draw(nonzero)) * draw(st.sampled_from(BASES)))
    if draw(st.booleans()):
        unit *= sp.Integer(draw(st.sampled_from((2, 3, 5)))) ** sp.Rational(draw(st.integers(1, 16)), 17)
    if draw(st.booleans()):
        unit *= sp.Integer(draw(st.sampled_from((2, 3, 6)))) ** (
            sp.Rational(draw(st.integers(-16, 16).filter(bool)), 17) * sp.sqrt(2))
    if draw(st.booleans()):
        unit *= draw(st.sampled_from((X, Y, X ** 2, sp.sqrt(Y))))
    return unit


@st.composite
def terms(draw) -> sp.Expr:
    """A rational, or a rational times a unit."""
    if draw(st.integers(0, 4)) == 0:
        return rational(draw(fractions))
    return rational(draw(nonzero)) * draw(units())


groups = st.lists(st.lists(terms(), min_size=1, max_size=8), min_size=1, max_size=5)


def same(built: sp.Expr, expected: sp.Expr) -> bool:
    """Structurally identical: equal, and the same arguments in the same order."""
    return built == expected and sp.srepr(built) == sp.srepr(expected)


@settings(max_examples=300, deadline=None)
@given(groups)
def test_build_sums_is_sympy_add(groups):
    split = [[add_term(x) for x in group] for group in groups]
    assume(all(t is not None for group in split for t in group))
    built = build_sums([collect(group) for group in split])
    for value, group in zip(built, groups):
        assert same(value, sp.Add(*group))


@settings(max_examples=300, deadline=None)
@given(terms())
def test_add_term_splits_as_add_does(x):
    split = add_term(x)
    assume(split is not None)
    c, unit = split
    assert sp.Mul(rational(c), unit) == x


@settings(max_examples=300, deadline=None)
@given(nonzero, units())
def test_scaled_is_sympy_mul(c, unit):
    assert same(scaled(c, unit), sp.Mul(rational(c), unit))


@settings(max_examples=300, deadline=None)
@given(st.lists(terms(), min_size=2, max_size=6), st.integers(0, 5), nonzero, terms())
def test_times_inverse_is_sympy_mul(denominator_terms, kind, c, term):
    inverse = sp.Pow(sp.Add(*denominator_terms), -1)
    assume(inverse.is_Pow)
    numerator = [sp.exp(sp.sqrt(2) / 3), rational(c) * sp.exp(sp.pi / 7), rational(c),
                 rational(c) * 6 ** (sp.sqrt(2) / 2) * 7 ** (-sp.sqrt(3) / 4) * sp.exp(sp.log(2) ** 2),
                 2 ** (sp.sqrt(2) * sp.log(3)) * sp.exp(sp.sqrt(2) / 3), term][kind]
    assert same(times_inverse(numerator, inverse), sp.Mul(numerator, inverse))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_immutable_matrix_is_the_public_constructor(rows, cols, data):
    flat = [data.draw(st.one_of(terms(), st.just(sp.S.Zero), st.just(sp.S.NegativeInfinity)))
            for _ in range(rows * cols)]
    built, expected = immutable_matrix(rows, cols, flat), sp.ImmutableMatrix(rows, cols, flat)
    assert type(built) is type(expected) and built == expected and hash(built) == hash(expected)
    assert all(same(a, b) for a, b in zip(built, expected))


@pytest.mark.parametrize("values", [
    [sp.exp(sp.Rational(3, 17)), 2 * sp.exp(sp.Rational(3, 17)), sp.Integer(1), sp.Integer(2)],
    [sp.exp(sp.sqrt(2) / 3), 3 * sp.exp(-sp.sqrt(2)), sp.Rational(1, 2)],
    [sp.Symbol("x") ** 2 * sp.exp(1 + sp.Symbol("y")), 5 * sp.Symbol("x") ** 2
     * sp.exp(1 + sp.Symbol("y")), sp.Integer(2) ** sp.Rational(14, 17) * sp.exp(3)],
    [sp.exp(sp.Rational(2, 5))],
    [sp.Integer(3), sp.Integer(-3)],
], ids=["rational-exps", "sqrt2-exps", "symbols", "one-term", "cancelling"])
def test_build_sums_on_the_pipelines_own_cases(values):
    built = build_sums([collect(add_term(x) for x in values)])[0]
    assert same(built, sp.Add(*values))


def test_the_sympy_in_use_is_in_the_declared_range():
    from importlib.metadata import requires

    declared = next(r for r in requires("symattn") if r.startswith("sympy"))
    low, high = (re.search(pattern, declared)[1] for pattern in (r">=\s*([\d.]+)", r"<\s*([\d.]+)"))

    def version(text):
        return tuple(int(x) for x in text.split(".")[:2])

    assert version(low) <= version(sp.__version__) < version(high)
