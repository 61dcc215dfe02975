"""The one substitution: declared symbols replaced by exact values in every input of a problem.

Used by --subs, sweeps (each point), temperature derivatives (central differences) and the
course page (a symbolic temperature at listed values). X, Y, W_Q, W_K, W_V and their biases,
the heads, W_O and b_O, the bias, τ, the scale and dO are all substituted, Q, K and V are formed
again from the projections, and each substituted entry is rebuilt through the parser's cost gates
(parse/gates.py: regated), so a value given here meets the same limits, with the same errors, as
one written in the file; an entry that is not finite and real there (τ and the scale: not
positive) is refused, named by its key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..errors import InputError, ProblemError
from ..model import MultiHeadProblem, Problem, Projections, ShapeProblem
from ..numeric import Evaluator
from ..parse.gates import regated
from ..parse.heads import project

Values = Mapping[sp.Symbol, sp.Expr]
AnyProblem = Problem | ShapeProblem | MultiHeadProblem


def substitute(problem: AnyProblem, values: Values) -> AnyProblem:
    """The problem with the given symbols replaced by exact values everywhere.

    Raises:
        ProblemError: an entry refused at these values, as the parser refuses a file's entry,
            e.g. "p.toml, input.Q[1][1]: at theta = 0: division by zero", or not finite and
            real: "... at theta = 1 this entry is not a positive number (-1)".
    """
    values = {s: sp.Integer(v) if isinstance(v, int) else v for s, v in values.items()}
    if not values or isinstance(problem, ShapeProblem):
        return problem
    at = _At(values, problem.source)
    if isinstance(problem, MultiHeadProblem):
        heads = tuple(_single(head, at, f"heads[{k}].") for k, head in enumerate(problem.heads, 1))
        b_O = None if problem.b_O is None else at.matrix(problem.b_O, "input.b_O")
        return dataclasses.replace(problem, heads=heads, b_O=b_O,
                                   W_O=at.matrix(problem.W_O, "input.W_O"))
    return _single(problem, at, "input.")


def _single(p: Problem, at: _At, weights: str) -> Problem:
    """One head: its projections (W keys under `weights`) or Q, K, V, and its options."""
    changes: dict[str, Any] = {}  # fields of Problem, each of its own type
    if p.projections is not None:
        projections = _projections(p.projections, at, weights)
        changes["projections"] = projections
        changes["Q"], changes["K"], changes["V"] = project(projections, p.source, weights[:-1],
                                                           p.layout == "columns")
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
    """X, Y, the weights and the biases at the values (each named by its key)."""
    biases = {name: at.matrix(getattr(p, name), weights + name) for name in ("b_Q", "b_K", "b_V")
              if getattr(p, name) is not None}
    return Projections(
        X=at.matrix(p.X, "input.X"), Y=None if p.Y is None else at.matrix(p.Y, "input.Y"),
        **{name: at.matrix(getattr(p, name), weights + name) for name in ("W_Q", "W_K", "W_V")},
        **biases)


class _At:
    """Substitution at one assignment of values, each entry rebuilt through the gates."""

    def __init__(self, values: dict[sp.Symbol, sp.Expr], source: str) -> None:
        self.values = values
        self.source = source
        self.where = ", ".join(f"{s.name} = {sp.sstr(v)}" for s, v in values.items())
        self.gated = {s: regated(v, {}) for s, v in values.items()}  # constants: no symbols

    def matrix(self, m: sp.ImmutableMatrix, key: str) -> sp.ImmutableMatrix:
        if not m.free_symbols & set(self.values):
            return m
        return sp.ImmutableMatrix(m.rows, m.cols, [
            self.value(x, f"{key}[{k // m.cols + 1}][{k % m.cols + 1}]", positive=False)
            for k, x in enumerate(m)])

    def value(self, x: sp.Expr, key: str, positive: bool) -> sp.Expr:
        """x at these values, refused as the parser refuses an entry (and when it is not
        finite and real, or not positive when it must be)."""
        if not x.free_symbols & set(self.values):
            return x
        try:
            new = regated(x, self.gated).expr
        except InputError as error:
            raise ProblemError(f"at {self.where}: {error.reason}", source=self.source,
                               key=key) from None
        bad = new.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I) or new.is_real is False
        if not bad and positive and new.is_positive is not True:
            number = Evaluator(20)(new)
            bad = not (hasattr(number, "_mpf_") and number > 0)
        if bad:
            need = "a positive" if positive else "a finite real"
            raise ProblemError(f"at {self.where} this entry is not {need} number ({sp.sstr(new)})",
                               source=self.source, key=key)
        return new
