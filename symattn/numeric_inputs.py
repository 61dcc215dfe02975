"""The cross-check's own Q, K and V, formed in mpmath from X, the projections and their biases.

They are not taken from the exact pipeline's products: a wrong product fails the cross-check.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import sympy as sp

from .model import Problem

Grid = list[list[mpmath.mpf]]


def inputs(ctx: mpmath.MPContext, problem: Problem,
           grid: Callable[[sp.ImmutableMatrix], Grid]) -> tuple[Grid, Grid, Grid]:
    """Q, K and V as numbers: X W_Q + 1 b_Qᵀ, ... when the problem gives X, else Q, K, V
    themselves (`grid` evaluates a matrix of exact entries)."""
    p = problem.projections
    if p is None:
        return grid(problem.Q), grid(problem.K), grid(problem.V)
    X = grid(p.X)
    source = X if p.Y is None else grid(p.Y)
    return (_projected(ctx, X, grid(p.W_Q), p.b_Q, grid),
            _projected(ctx, source, grid(p.W_K), p.b_K, grid),
            _projected(ctx, source, grid(p.W_V), p.b_V, grid))


def _projected(ctx: mpmath.MPContext, X: Grid, W: Grid, bias: sp.ImmutableMatrix | None,
               grid: Callable[[sp.ImmutableMatrix], Grid]) -> Grid:
    """X W + 1 bᵀ, each entry one fsum."""
    b = grid(bias)[0] if bias is not None else [ctx.zero] * len(W[0])
    return [[ctx.fsum([*(x[k] * W[k][c] for k in range(len(W))), b[c]]) for c in range(len(W[0]))]
            for x in X]
