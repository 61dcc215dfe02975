"""What the page needs to let a student edit Q, K and V and recompute in float64: each entry's
float, its text as the input shows it, and its exact value as a fraction (to know an edit undone).

A problem whose only symbol is its temperature (a symbolic τ) has float inputs all the same: R, S,
M, Q, K and V do not depend on τ, so the page computes any numeric τ and any edit in float64."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from ..exact.substitute import substitute
from ..model import Problem

LIMIT = 1000  # an edited entry lies in [-LIMIT, LIMIT]: exp() of its scores stays finite


def edit_data(problem: Problem) -> dict[str, Any] | None:
    """Q, K, V as float64, as text and as exact fractions; the scale s of S = sR as float64;
    which matrices the student edits ("editable"): X and the projections when the problem gives
    them (Q, K, V are then computed from them), else Q, K, V. None for a problem with symbols
    other than a symbolic temperature (the page has no float values for it)."""
    problem = float_problem(problem)
    if problem is None:
        return None
    given = problem.projections
    names = ["X", "W_Q", "W_K", "W_V"] + (["Y"] if given is not None and given.Y is not None else [])
    editable = names if given is not None else ["Q", "K", "V"]
    out: dict[str, Any] = {"scale": float(problem.scale_factor), "limit": LIMIT,
                           "editable": editable}
    for name in ("Q", "K", "V"):
        out[name] = entries(getattr(problem, name))
    for name in editable if given is not None else ():
        out[name] = entries(getattr(given, name))
    return out


def float_problem(problem: Problem) -> Problem | None:
    """The problem with float inputs: itself without symbols; with a symbolic temperature t its
    only symbol (not in Q, K, V, the bias or the scale), the problem at t = 1 (whatever τ the
    page computes, its inputs are these); None when another entry depends on a symbol."""
    if not problem.symbols:
        return problem
    t = problem.temperature
    inputs = [problem.Q, problem.K, problem.V, problem.bias, problem.scale]
    if problem.symbols != (t,) or any(x is not None and x.free_symbols for x in inputs):
        return None
    return substitute(problem, {t: sp.S.One})


def entries(matrix: sp.ImmutableMatrix) -> list[list[list[Any]]]:
    """Each entry as [float, text, exact fraction "p/q" or None (an irrational entry)]."""
    return [[entry(matrix[i, j]) for j in range(matrix.cols)] for i in range(matrix.rows)]


def entry(value: sp.Expr) -> list[Any]:
    if not value.is_Rational:
        return [float(value), f"{float(value):.6g}", None]
    exact = Fraction(int(value.p), int(value.q))
    return [float(value), text(exact), f"{exact.numerator}/{exact.denominator}"]


def text(value: Fraction) -> str:
    """A rational as a student would type it: 2, -1.3, 1.34, or 1/3 when no short decimal is exact."""
    if value.denominator == 1:
        return str(value.numerator)
    for places in range(1, 13):
        scaled = value * 10 ** places
        if scaled.denominator == 1:
            whole, part = divmod(abs(scaled.numerator), 10 ** places)
            sign = "-" if value < 0 else ""
            return f"{sign}{whole}.{part:0{places}d}"
    return f"{value.numerator}/{value.denominator}"
