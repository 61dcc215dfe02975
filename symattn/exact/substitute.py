"""The one substitution: declared symbols replaced by exact values in every input of a problem.

Used by --subs, sweeps (each point), temperature derivatives (central differences) and the
course page (a symbolic temperature at listed values). X, Y, W_Q, W_K, W_V, the heads, W_O, the
bias, τ, the scale and dO are all substituted, Q, K and V are formed again from the projections,
and an entry that is not finite and real there (τ and the scale: not positive) is refused,
named by its key.
"""

from __future__ import annotations

import dataclasses
from typing import Mapping

import mpmath
import sympy as sp

from ..errors import ProblemError
from ..limits import MAX_EXP_ARGUMENT, MAX_TRIG_ARGUMENT
from ..model import MultiHeadProblem, Problem, Projections, ShapeProblem
from ..numeric import Evaluator
from ..parse.heads import project

Values = Mapping[sp.Symbol, sp.Expr]
AnyProblem = Problem | ShapeProblem | MultiHeadProblem


def substitute(problem: AnyProblem, values: Values) -> AnyProblem:
    """The problem with the given symbols replaced by exact values everywhere.

    Raises:
        ProblemError: an entry that is not finite and real at these values, e.g.
            "p.toml, input.Q[1][1]: at theta = 0 this entry is not a finite real number (zoo)".
    """
    values = {s: sp.Integer(v) if isinstance(v, int) else v for s, v in values.items()}
    if not values or isinstance(problem, ShapeProblem):
        return problem
    at = _At(values, problem.source)
    if isinstance(problem, MultiHeadProblem):
        heads = tuple(_single(head, at, f"heads[{k}].") for k, head in enumerate(problem.heads, 1))
        return dataclasses.replace(problem, heads=heads,
                                   W_O=at.matrix(problem.W_O, "input.W_O"))
    return _single(problem, at, "input.")


def _single(p: Problem, at: _At, weights: str) -> Problem:
    """One head: its projections (W keys under `weights`) or Q, K, V, and its options."""
    changes: dict[str, object] = {}
    if p.projections is not None:
        projections = _projections(p.projections, at, weights)
        changes["projections"] = projections
        changes["Q"], changes["K"], changes["V"] = project(projections, p.source, weights[:-1])
    else:
        changes.update({name: at.matrix(getattr(p, name), f"input.{name}") for name in "QKV"})
    changes["bias"] = None if p.bias is None else at.matrix(p.bias, "attention.bias")
    changes["temperature"] = at.value(p.temperature, "attention.temperature", positive=True)
    changes["scale"] = None if p.scale is None else at.value(p.scale, "attention.scale",
                                                             positive=True)
    if p.gradient is not None:
        changes["gradient"] = dataclasses.replace(
            p.gradient, dO=at.matrix(p.gradient.dO, "gradient.dO"))
    if p.sweep is not None and any(a.symbol in at.values for a in p.sweep.axes):
        changes["sweep"] = None  # its symbols have values now: nothing is left to sweep
    changes["symbols"] = tuple(s for s in p.symbols if s not in at.values)
    return dataclasses.replace(p, **changes)


def _projections(p: Projections, at: _At, weights: str) -> Projections:
    return Projections(
        X=at.matrix(p.X, "input.X"), Y=None if p.Y is None else at.matrix(p.Y, "input.Y"),
        **{name: at.matrix(getattr(p, name), weights + name) for name in ("W_Q", "W_K", "W_V")})


class _At:
    """Substitution at one assignment of values, each entry checked as it is replaced."""

    def __init__(self, values: dict[sp.Symbol, sp.Expr], source: str) -> None:
        self.values = values
        self.source = source
        self.where = ", ".join(f"{s.name} = {sp.sstr(v)}" for s, v in values.items())

    def matrix(self, m: sp.ImmutableMatrix, key: str) -> sp.ImmutableMatrix:
        if not m.free_symbols & set(self.values):
            return m
        new = m.xreplace(self.values)
        for k, x in enumerate(new):
            i, j = divmod(k, new.cols)
            self.check(x, f"{key}[{i + 1}][{j + 1}]", positive=False,
                       minus_infinity=key == "attention.bias")
        return sp.ImmutableMatrix(new)

    def value(self, x: sp.Expr, key: str, positive: bool) -> sp.Expr:
        if not x.free_symbols & set(self.values):
            return x
        new = x.xreplace(self.values)
        self.check(new, key, positive)
        return new

    def check(self, x: sp.Expr, key: str, positive: bool, minus_infinity: bool = False) -> None:
        """Refuse a value that is not finite and real (not positive, when it must be)."""
        if x is sp.S.NegativeInfinity and minus_infinity:
            return
        bad = x.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I) or x.is_real is False
        if not bad:
            try:
                number = _Guarded().real(x)
                bad = positive and not number > 0
            except (ValueError, ZeroDivisionError, OverflowError):
                bad = True
        if bad:
            need = "a positive" if positive else "a finite real"
            raise ProblemError(f"at {self.where} this entry is not {need} number ({sp.sstr(x)})",
                               source=self.source, key=key)


class _Guarded(Evaluator):
    """A 30-digit Evaluator that refuses exp and trig arguments beyond the parser's limits."""

    def __init__(self) -> None:
        super().__init__(20)
        for function, limit in ((sp.exp, MAX_EXP_ARGUMENT), (sp.sin, MAX_TRIG_ARGUMENT),
                                (sp.cos, MAX_TRIG_ARGUMENT), (sp.tan, MAX_TRIG_ARGUMENT)):
            self._nodes[function] = self._limited(self._nodes[function], limit)

    def _limited(self, evaluate, limit: int):
        def run(expr: sp.Expr) -> mpmath.mpf:
            argument = self(expr.args[0])
            if not isinstance(argument, self.ctx.mpf) or abs(argument) > limit:
                raise ValueError(f"{expr.func.__name__} argument beyond ±{limit}")
            return evaluate(expr)
        return run

    def real(self, expr: sp.Expr) -> mpmath.mpf:
        """The value, or ValueError when it is not finite and real."""
        value = self(expr)
        if not isinstance(value, self.ctx.mpf) or not self.ctx.isfinite(value):
            raise ValueError("not a finite real number")
        return value
