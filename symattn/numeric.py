"""An independent numeric recomputation of every stage in a private mpmath context.

It shares nothing with the exact pipeline but the parsed inputs: masks are re-derived, the
softmax subtracts the row maximum as float code does, and the global ``mpmath.mp`` is untouched.
"""

from __future__ import annotations

from typing import Mapping

import mpmath
import sympy as sp

from .model import Problem

Grid = list[list[mpmath.mpf]]
GUARD_DIGITS = 10


def context(digits: int) -> mpmath.MPContext:
    """A private mpmath context working at digits plus guard digits."""
    ctx = mpmath.MPContext()
    ctx.dps = digits + GUARD_DIGITS
    return ctx


def to_mpf(ctx: mpmath.MPContext, expr: sp.Expr, values: Mapping[sp.Symbol, sp.Expr]) -> mpmath.mpf:
    """Evaluate an exact value to the context's precision (symbols replaced by values)."""
    if expr is sp.S.NegativeInfinity:
        return ctx.ninf
    if expr.is_Rational:
        return ctx.mpf(int(expr.p)) / int(expr.q)
    value = expr.evalf(ctx.dps + 5, subs=dict(values)) if values else expr.evalf(ctx.dps + 5)
    if not value.is_Number:
        raise ValueError(f"cannot evaluate {expr} numerically")
    return ctx.mpf(str(value))


def _grid(ctx: mpmath.MPContext, matrix: sp.ImmutableMatrix,
          values: Mapping[sp.Symbol, sp.Expr]) -> Grid:
    return [[to_mpf(ctx, matrix[i, j], values) for j in range(matrix.cols)]
            for i in range(matrix.rows)]


def may_read(problem: Problem, i: int, j: int) -> bool:
    """The mask rule, restated: top-left causal, bottom-right causal, keep, lengths, -oo bias."""
    offset = problem.n_k - problem.n_q if problem.mask == "causal-bottom-right" else 0
    if problem.mask != "none" and j - i > offset:
        return False
    if problem.keep is not None and not problem.keep[i][j]:
        return False
    if problem.key_lengths is not None and j + 1 > problem.key_lengths[i]:
        return False
    return problem.bias is None or problem.bias[i, j] is not sp.S.NegativeInfinity


def recompute(problem: Problem, digits: int = 50,
              values: Mapping[sp.Symbol, sp.Expr] | None = None) -> dict[str, Grid]:
    """Every stage R, S, M, L, A, O as mpmath numbers (masked entries of M and L are -inf)."""
    ctx = context(digits)
    values = values or {}
    Q, K, V = (_grid(ctx, m, values) for m in (problem.Q, problem.K, problem.V))
    s = to_mpf(ctx, problem.scale_factor, values)
    tau = to_mpf(ctx, problem.temperature, values)
    bias = _grid(ctx, problem.bias, values) if problem.bias is not None else None
    R = [[ctx.fsum(ctx.mpf(a) * b for a, b in zip(q, k)) for k in K] for q in Q]
    S = [[s * r for r in row] for row in R]
    M = [[(bias[i][j] if bias else ctx.zero) if may_read(problem, i, j) else ctx.ninf
          for j in range(problem.n_k)] for i in range(problem.n_q)]
    L = [[(S[i][j] + M[i][j]) / tau if M[i][j] != ctx.ninf else ctx.ninf
          for j in range(problem.n_k)] for i in range(problem.n_q)]
    A = [stable_softmax(ctx, row, problem.fully_masked) for row in L]
    O = [[ctx.fsum(a * V[j][c] for j, a in enumerate(weights)) for c in range(problem.d_v)]
         for weights in A]
    return {"R": R, "S": S, "M": M, "L": L, "A": A, "O": O}


def stable_softmax(ctx: mpmath.MPContext, logits: list[mpmath.mpf], policy: str) -> list[mpmath.mpf]:
    """Softmax after subtracting the largest finite logit; a row with none follows the policy."""
    finite = [x for x in logits if x != ctx.ninf]
    if not finite:
        weight = ctx.zero if policy == "zero" else ctx.one / len(logits)
        return [weight] * len(logits)
    top = max(finite)
    exps = [ctx.exp(x - top) if x != ctx.ninf else ctx.zero for x in logits]
    total = ctx.fsum(exps)
    return [x / total for x in exps]


def decimal_string(expr: sp.Expr, places: int, values: Mapping[sp.Symbol, sp.Expr] | None = None
                   ) -> str:
    """The value correctly rounded to a fixed number of places (halves away from zero)."""
    if expr is sp.S.NegativeInfinity:
        return "-oo"
    if expr.is_Rational:
        scaled = sp.Rational(expr) * 10 ** places
        units = int(abs(scaled) + sp.Rational(1, 2)) * (1 if scaled >= 0 else -1)
    else:
        ctx = context(places + 20)
        units = int(ctx.nint(to_mpf(ctx, expr, values or {}) * ctx.mpf(10) ** places))
    sign = "-" if units < 0 else ""
    whole, part = divmod(abs(units), 10 ** places)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


def decimal_grid(matrix: sp.ImmutableMatrix, places: int = 4,
                 values: Mapping[sp.Symbol, sp.Expr] | None = None) -> list[list[str]]:
    """decimal_string of every entry of a matrix."""
    return [[decimal_string(matrix[i, j], places, values) for j in range(matrix.cols)]
            for i in range(matrix.rows)]
