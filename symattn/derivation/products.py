"""E V expanded (the numerators of O over the row sums), built from each entry's terms once."""

from __future__ import annotations

import sympy as sp

from ..exact.sympy_fast import add_term, build_sums, collect, immutable_matrix, python_rational

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
    terms = [add_term(t) for t in sp.Add.make_args(sp.expand(x))]
    return None if any(t is None for t in terms) else terms
