"""The exact gradients cross-checked by mpmath central differences of ℓ = Σ dO ⊙ O."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import mpmath
import sympy as sp

from ..model import Problem, sample_values
from ..numeric import Evaluator, context, recompute
from .gradient import Gradients
from .results import GradientCheck

STEP = sp.Rational(1, 10 ** 20)
MAX_ENTRIES = 60  # partial derivatives compared; larger problems are sampled evenly


def check_gradients(g: Gradients, digits: int = 60) -> GradientCheck:
    """Central differences (ℓ(x + h) - ℓ(x - h))/(2h), h = 10^-20, at `digits` digits, for the
    entries of Q, K, V, τ (and X, W_Q, W_K, W_V when given), against the exact gradients."""
    p = g.trace.problem
    values = sample_values(p.symbols)
    exact = Evaluator(digits, values)
    ctx = context(digits)
    dO = [[exact(x) for x in row] for row in g.upstream.dO.tolist()]
    targets = list(_targets(g))
    if len(targets) > MAX_ENTRIES:
        stride = len(targets) / MAX_ENTRIES
        targets = [targets[int(k * stride)] for k in range(MAX_ENTRIES)]
    worst, where = ctx.zero, ""
    for _name, label, perturb, gradient in targets:
        up, down = (_loss(ctx, perturb(sign * STEP), dO, digits, values) for sign in (1, -1))
        numeric = (up - down) / (2 * ctx.mpf(STEP.p) / STEP.q)
        difference = abs(ctx.mpf(exact(gradient)) - numeric)
        if difference > worst:
            worst, where = difference, label
    return GradientCheck(digits, STEP, len(targets), worst, where, tuple(values.items()))


def _loss(ctx: mpmath.MPContext, problem: Problem, dO, digits: int, values) -> mpmath.mpf:
    O = recompute(problem, digits, values)["O"]
    return ctx.fsum(dO[i][c] * O[i][c] for i in range(len(O)) for c in range(len(O[0])))


def _targets(g: Gradients) -> Iterator[tuple]:
    """(matrix name, label, problem with that entry moved by h, exact derivative) per entry."""
    p = g.trace.problem
    if p.projections is None:
        for name in ("Q", "K", "V"):
            matrix = getattr(p, name)
            for i in range(matrix.rows):
                for j in range(matrix.cols):
                    yield (name, f"d{name}[{i + 1},{j + 1}]",
                           _mover(p, name, i, j), g[f"d{name}"][i, j])
    else:
        for name in ("X", "Y", "W_Q", "W_K", "W_V"):
            matrix = getattr(p.projections, name)
            if matrix is None:
                continue
            for i in range(matrix.rows):
                for j in range(matrix.cols):
                    yield (name, f"d{name}[{i + 1},{j + 1}]",
                           _projection_mover(p, name, i, j), g[f"d{name}"][i, j])
    yield ("tau", "dtau", lambda h: dataclasses.replace(p, temperature=p.temperature + h), g.dtau)


def _moved(matrix: sp.ImmutableMatrix, i: int, j: int, h: sp.Expr) -> sp.ImmutableMatrix:
    entries = matrix.as_mutable()
    entries[i, j] = entries[i, j] + h
    return sp.ImmutableMatrix(entries)


def _mover(p: Problem, name: str, i: int, j: int):
    return lambda h: dataclasses.replace(p, **{name: _moved(getattr(p, name), i, j, h)})


def _projection_mover(p: Problem, name: str, i: int, j: int):
    def move(h: sp.Expr) -> Problem:
        proj = dataclasses.replace(p.projections, **{name: _moved(getattr(p.projections, name), i, j, h)})
        source = proj.source_of_keys
        return dataclasses.replace(p, Q=sp.ImmutableMatrix(proj.X * proj.W_Q),
                                   K=sp.ImmutableMatrix(source * proj.W_K),
                                   V=sp.ImmutableMatrix(source * proj.W_V), projections=proj)
    return move
