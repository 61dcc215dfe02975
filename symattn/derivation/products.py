"""E V expanded (the numerators of O over the row sums), built from each entry's terms once."""

from __future__ import annotations

import sympy as sp

from ..exact.exp_eval import stays
from ..exact.sympy_fast import (add_term, build_sums, collect, immutable_matrix, irrational_power,
                                ordered_product, python_rational)

Terms = list[tuple[object, sp.Expr]]


def expanded_product(E: sp.ImmutableMatrix, V: sp.ImmutableMatrix) -> sp.ImmutableMatrix:
    """(E V).applyfunc(sp.expand), the same expressions: with V rational, each entry of E is
    expanded once and its terms, scaled by V's entries, summed by unit (no matrix of sums
    multiplied out and expanded again)."""
    split: dict[sp.Expr, Terms | None] = {}
    for x in E:
        if x not in split:
            split[x] = _terms(x)
    if not all(v.is_Rational for v in V) or any(t is None for t in split.values()):
        return (E * V).applyfunc(sp.expand)
    rational_v = [[python_rational(v) for v in row] for row in V.tolist()]
    polynomials = []
    for e_row in E.tolist():
        row_terms = [(split[x], v_row) for x, v_row in zip(e_row, rational_v)]
        for c in range(V.cols):
            polynomials.append(collect((k * v_row[c], unit) for terms, v_row in row_terms
                                       if v_row[c] for k, unit in terms))
    return immutable_matrix(E.rows, V.cols, build_sums(polynomials))


def _terms(x: sp.Expr) -> Terms | None:
    """x expanded, as (rational coefficient, unit) terms; None where a term does not split."""
    terms = [add_term(t) for t in sp.Add.make_args(expanded(x))]
    return None if any(t is None for t in terms) else terms


def expanded(x: sp.Expr) -> sp.Expr:
    """sp.expand(x); a row's exponential c·n^(√2/2)·exp(a + b + …) read off its form as
    c·n^(√2/2)·exp(a)·exp(b)·… when every exp(a) stays as it is and nothing in x expands
    further (what expand returns, without rebuilding and re-evaluating every factor)."""
    factors = list(sp.Mul.make_args(x))
    coefficient = factors.pop(0) if factors[0].is_Rational else sp.S.One
    exps = [f for f in factors if isinstance(f, sp.exp)]
    if len(exps) != 1 or not all(f in exps or irrational_power(f) and not f.exp.has(sp.Add)
                                 for f in factors):
        return sp.expand(x)
    terms = sp.Add.make_args(exps[0].args[0])
    if not all(stays(t) and not t.has(sp.Add) for t in terms):
        return sp.expand(x)
    return ordered_product([f for f in factors if f not in exps] +
                           [sp.exp(t, evaluate=False) for t in terms], coefficient)

