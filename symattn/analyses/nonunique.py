"""Non-uniqueness: every weight vector on the simplex that gives a row's output, computed exactly.

For query row i with weights a on the keys it reads (its support) and values v_j, the set is
W = {w >= 0 : sum_j w_j v_j = o_i, sum_j w_j = 1} = a + (null space of [V^T; 1^T]) ∩ simplex.
Softmax weights are e^L/Z > 0, so a lies inside the simplex: a is the only point of W exactly
when the null space is {0}. Otherwise W is a polytope; its vertices are the basic solutions
(|B| = rank columns, the rest 0), found exactly, and the two farthest apart are exhibited.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from math import comb, gcd, lcm

import mpmath
import sympy as sp

from ..errors import ProblemError
from ..exact.tidy import approx, is_zero, sign, tidy
from ..model import Trace
from ..numeric import context, to_mpf
from ..numeric_decimals import decimal_string, scientific
from .results import NonUniqueness, RowSet

MAX_BASES = 3000  # beyond this many candidate bases, only the ends of one null direction


def nonunique(trace: Trace, row: int | None = None, *, places: int = 4) -> NonUniqueness:
    """Analyse one row (1-based) or every row of a trace.

    Raises:
        ProblemError: the row is out of range, it reads no key and its weights are all 0, or
            the problem has symbols (signs need values).
    """
    p = trace.problem
    if p.symbols:
        raise ProblemError("the weights contain symbols; give them values first (non-uniqueness "
                           "needs the signs of the weights)", source=p.source, key="symbols")
    if row is not None and not 1 <= row <= p.n_q:
        raise ProblemError(f"row must be from 1 to {p.n_q}", source=p.source, key="row")
    chosen = range(p.n_q) if row is None else [row - 1]
    sets, skipped = [], []
    for i in chosen:
        support = tuple(j for j in range(p.n_k) if trace.A[i, j] != 0)
        if not support:
            if row is not None:
                raise ProblemError(f"row {row} reads no key and its weights are all 0 (policy "
                                   "'zero'): they are not a distribution", source=p.source, key="row")
            skipped.append(i)
            continue
        sets.append(with_decimals(row_set(trace, i, support), places))
    return NonUniqueness(trace, tuple(sets), tuple(skipped), places)


def _decimal(x: sp.Expr, places: int) -> str:
    """x to the places shown; an exact 0 as 0 and a non-zero value that would round to 0 in
    scientific form (4.5e-5), as the derivation writes them: never 0.0000 for either."""
    if x == 0:
        return "0"
    text = decimal_string(x, places)
    if "e" in text or text.strip("-0.") != "":
        return text
    mantissa, exponent = scientific(to_mpf(context(places + 20), x, {}))
    return f"{mantissa}e{exponent}"


def with_decimals(rs: RowSet, places: int) -> RowSet:
    """The row set with decimals of every value it shows and the largest keys of the pair."""
    def d(values) -> tuple[str, ...]:
        return tuple(_decimal(x, places) for x in values)
    decimals: dict[str, object] = {"weights": d(rs.weights), "output": d(rs.output),
                                   "vertices": tuple(d(w) for w in rs.vertices)}
    tops = None
    if rs.pair is not None:
        decimals["pair"] = tuple(d(w) for w in rs.pair)
        decimals["distance"] = decimal_string(rs.distance, places)
        tops = tuple(_largest(w) for w in rs.pair)
    if rs.segment is not None:
        decimals["segment"] = d(rs.segment)
    return replace(rs, decimals=decimals, tops=tops)


def _largest(w: tuple[sp.Expr, ...]) -> tuple[int, ...]:
    values = [approx(x) for x in w]
    top = max(values)
    return tuple(j for j, x in enumerate(values) if is_zero(w[j] - w[values.index(top)]))


def row_set(trace: Trace, i: int, support: tuple[int, ...]) -> RowSet:
    """The exact set of weights with the output of row i, over the keys in support."""
    p = trace.problem
    a = [trace.A[i, j] for j in support]
    system = sp.ImmutableMatrix([[p.V[j, c] for j in support] for c in range(p.d_v)]
                                + [[1] * len(support)])
    reduced, pivots = sp.Matrix(system).rref(iszerofunc=is_zero, simplify=tidy)
    rank = len(pivots)
    basis = [_integral(v) for v in sp.Matrix(system).nullspace(iszerofunc=is_zero, simplify=tidy)]
    full = tuple(_full(v, support, p.n_k) for v in basis)
    weights = tuple(trace.A.row(i))
    if not basis:
        return RowSet(i, support, weights, tuple(trace.O.row(i)), system, rank, (), (), True,
                      None, None, None, True)
    rows = reduced[:rank, :]
    n_bases = comb(len(support), rank)
    vertices = _vertices(rows, a) if n_bases <= MAX_BASES else []
    segment, ends = _segment(a, basis[0])
    if not vertices:
        vertices = ends
    pair = _farthest(vertices)
    full_pair = tuple(_full(w, support, p.n_k) for w in pair)
    return RowSet(
        row=i, support=support, weights=weights, output=tuple(trace.O.row(i)), system=system,
        rank=rank, null_basis=full, vertices=tuple(_full(w, support, p.n_k) for w in vertices),
        complete=n_bases <= MAX_BASES, segment=segment, pair=full_pair,
        distance=_distance(*pair), verified=all(_gives(trace, i, w) for w in full_pair))


def _integral(v: sp.Matrix) -> tuple[sp.Expr, ...]:
    """A null vector scaled to coprime integers when it is rational, its first entry positive."""
    entries = [tidy(x) for x in v]
    if all(x.is_Rational for x in entries):
        scale = sp.Rational(lcm(*(int(x.q) for x in entries)),
                            gcd(*(int(x.p) for x in entries if x != 0)))
        entries = [x * scale for x in entries]
    first = next(x for x in entries if x != 0)
    if sign(first) < 0:
        entries = [-x for x in entries]
    return tuple(entries)


def _full(w, support: tuple[int, ...], n_k: int) -> tuple[sp.Expr, ...]:
    out = [sp.S.Zero] * n_k
    for j, x in zip(support, w):
        out[j] = x
    return tuple(out)


def _vertices(rows: sp.Matrix, a: list[sp.Expr]) -> list[tuple[sp.Expr, ...]]:
    """Every basic feasible solution of rows·w = rows·a, w >= 0, exactly (duplicates removed)."""
    rank, m = rows.shape
    target = [sp.Add(*(rows[r, j] * a[j] for j in range(m))) for r in range(rank)]
    found: dict[tuple, tuple[sp.Expr, ...]] = {}
    for basis in combinations(range(m), rank):
        block = rows.extract(list(range(rank)), list(basis))
        if is_zero(block.det()):
            continue
        solution = [tidy(x) for x in block.LUsolve(sp.Matrix(target))]
        if any(sign(x) < 0 for x in solution):
            continue
        w = [sp.S.Zero] * m
        for j, x in zip(basis, solution):
            w[j] = x
        key = tuple(mpmath.nstr(approx(x, 40), 35) for x in w)
        found.setdefault(key, tuple(w))
    return list(found.values())


def _segment(a: list[sp.Expr], n: tuple[sp.Expr, ...]):
    """t0 <= 0 <= t1 bounding a + t n >= 0, and the two ends, exactly."""
    below = [(-x / d) for x, d in zip(a, n) if sign(d) > 0]  # t >= -a_j/n_j
    above = [(-x / d) for x, d in zip(a, n) if sign(d) < 0]  # t <= -a_j/n_j
    t0 = tidy(max(below, key=approx)) if below else None
    t1 = tidy(min(above, key=approx)) if above else None
    if t0 is None or t1 is None:  # impossible on the simplex: sum(n) = 0 and n != 0
        raise ProblemError("a null direction does not leave the simplex")
    ends = [tuple(tidy(x + t * d) for x, d in zip(a, n)) for t in (t0, t1)]
    return (t0, t1), ends


def _farthest(points: list[tuple[sp.Expr, ...]]):
    """The two points furthest apart in the 1-norm (decided numerically, values exact)."""
    if len(points) < 2:
        raise ProblemError("the set of weights has fewer than two vertices")
    numbers = [[approx(x) for x in w] for w in points]
    best = max(combinations(range(len(points)), 2),
               key=lambda ij: sum(abs(x - y) for x, y in zip(numbers[ij[0]], numbers[ij[1]])))
    return points[best[0]], points[best[1]]


def _distance(w: tuple[sp.Expr, ...], v: tuple[sp.Expr, ...]) -> sp.Expr:
    """The total variation distance 1/2 sum |w_j - v_j|, exactly."""
    return tidy(sp.Add(*(sign(x - y) * (x - y) for x, y in zip(w, v))) / 2)


def _gives(trace: Trace, i: int, w: tuple[sp.Expr, ...]) -> bool:
    """sum_j w_j v_j = o_i and sum_j w_j = 1, exactly, and w >= 0."""
    p = trace.problem
    outputs = all(is_zero(sp.Add(*(w[j] * p.V[j, c] for j in range(p.n_k))) - trace.O[i, c])
                  for c in range(p.d_v))
    return outputs and is_zero(sp.Add(*w) - 1) and all(sign(x) >= 0 for x in w)
