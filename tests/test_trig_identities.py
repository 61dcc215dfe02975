"""Scores of sinusoids joined by the identities a book uses (issue 30, H1): exact, and shorter."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn import attend, load_problem
from symattn.exact.linear import to_expr
from symattn.exact.trig import trig_reduced

POSITIONAL = ROOT / "tests" / "wide" / "positional_exact.toml"


def test_positional_scores_depend_on_the_offset_alone():
    R = attend(load_problem(POSITIONAL)).R
    one, two = sp.cos(1) + sp.cos(sp.Rational(1, 100)), sp.cos(2) + sp.cos(sp.Rational(1, 50))
    assert R == sp.Matrix([[2, one, two], [one, 2, one], [two, one, 2]])


ANGLES = st.sampled_from([sp.S(1), sp.S(2), sp.Rational(1, 100), sp.Rational(3, 7)])
COEFFICIENTS = st.sampled_from([Fraction(1), Fraction(-1), Fraction(1, 2), Fraction(3)])
FUNCTIONS = st.sampled_from([sp.sin, sp.cos])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(COEFFICIENTS, FUNCTIONS, ANGLES, FUNCTIONS, ANGLES), min_size=1,
                max_size=6))
def test_the_identities_keep_the_value(terms):
    form: dict = {}
    for c, f, a, g, b in terms:
        coefficient, basis = (f(a) * g(b)).as_coeff_Mul()
        form[basis] = form.get(basis, 0) + c * Fraction(int(coefficient.p), int(coefficient.q))
    form = {k: v for k, v in form.items() if v}
    reduced = trig_reduced(form)
    assert abs(sp.N(to_expr(reduced) - to_expr(form), 60)) < sp.Float("1e-50")
    assert len(reduced) <= len(form)


def test_each_identity_on_its_own_case():
    one, half = Fraction(1), Fraction(1, 2)
    s, c = sp.sin, sp.cos
    cases = [({s(1) ** 2: one, c(1) ** 2: one}, {sp.S.One: one}),
             ({s(1) ** 2: half, c(1) ** 2: -half}, {c(2): -half}),
             ({c(1) * c(2): one, s(1) * s(2): one}, {c(1): one}),
             ({c(1) * c(2): one, s(1) * s(2): -one}, {c(3): one}),
             ({s(1) * c(2): one, c(1) * s(2): one}, {s(3): one}),
             ({s(2) * c(1): one, c(2) * s(1): -one}, {s(1): one}),
             ({s(1) * s(2): one, c(1) ** 2: one}, None)]  # no identity joins these
    for form, joined in cases:
        assert trig_reduced(form) == (form if joined is None else joined)
