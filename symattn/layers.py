"""Self-attention from X with projections, and multi-head attention: reading and computing.

Q = X W_Q, K = X W_K (or Y W_K), V = X W_V (or Y W_V) are exact products; each head is an
ordinary Problem, and MHA(X) = Concat(head_1, ..., head_h) W_O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import mpmath
import sympy as sp

from .errors import ProblemError
from .model import MultiHeadProblem, MultiHeadTrace, Projections, Report

PROJECTION_KEYS = ("X", "Y", "W_Q", "W_K", "W_V")
HEAD_KEYS = frozenset({"W_Q", "W_K", "W_V", "attention"})


def _product(a: sp.ImmutableMatrix, b: sp.ImmutableMatrix, names: tuple[str, str], source: str,
             key: str) -> sp.ImmutableMatrix:
    if a.cols != b.rows:
        raise ProblemError(f"{names[0]} is {a.rows}x{a.cols} and {names[1]} is {b.rows}x{b.cols}: "
                           f"{names[0]} {names[1]} needs {names[0]}'s columns to equal "
                           f"{names[1]}'s rows", source=source, key=key)
    return sp.ImmutableMatrix((a * b).applyfunc(sp.expand))


def project(projections: Projections, source: str, where: str = "input"
            ) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix, sp.ImmutableMatrix]:
    """Q = X W_Q, K = X W_K, V = X W_V (keys and values from Y when it is given)."""
    p = projections
    other = "X" if p.Y is None else "Y"
    return (_product(p.X, p.W_Q, ("X", "W_Q"), source, f"{where}.W_Q"),
            _product(p.source_of_keys, p.W_K, (other, "W_K"), source, f"{where}.W_K"),
            _product(p.source_of_keys, p.W_V, (other, "W_V"), source, f"{where}.W_V"))


def read_projections(reader: Any, inputs: Mapping[str, Any], symbols: Mapping[str, sp.Symbol],
                     where: str = "input") -> Projections:
    """X (and Y) from [input], W_Q, W_K, W_V from `inputs` (the [input] table or a head)."""
    for name in ("X", "W_Q", "W_K", "W_V"):
        if name not in inputs:
            raise reader.fail(f"{where}.{name}", "missing (X with W_Q, W_K and W_V, or Q, K and V)")
    read = {name: reader.matrix(inputs[name], f"{where}.{name}", symbols)
            for name in PROJECTION_KEYS if name in inputs}
    return Projections(**read)


def read_multi_head(reader: Any, data: Mapping[str, Any], inputs: Mapping[str, Any],
                    symbols: Mapping[str, sp.Symbol]) -> MultiHeadProblem:
    """[[heads]] entries, each with its projections and optional attention options, and W_O."""
    heads = data["heads"]
    if not isinstance(heads, list) or not heads or not all(isinstance(h, dict) for h in heads):
        raise reader.fail("heads", "must be one or more [[heads]] tables")
    if "W_O" not in inputs:
        raise reader.fail("input.W_O", "missing (the output projection of the heads)")
    problems = []
    for k, head in enumerate(heads, start=1):
        reader.only(head, HEAD_KEYS, f"heads[{k}]")
        options = {**data.get("attention", {}), **reader.table(head, "attention", required=False)}
        single = {key: value for key, value in data.items() if key not in ("heads", "answers")}
        single["input"] = {**{n: inputs[n] for n in ("X", "Y") if n in inputs},
                           **{n: head[n] for n in ("W_Q", "W_K", "W_V") if n in head}}
        single["attention"] = options
        single["title"] = f"{data.get('title', 'Head')} — head {k}" if "title" in data else f"Head {k}"
        problems.append(reader.problem(single, where=f"heads[{k}]"))
    W_O = reader.matrix(inputs["W_O"], "input.W_O", symbols)
    width = sum(h.d_v for h in problems)
    if W_O.rows != width:
        raise ProblemError(f"W_O has {W_O.rows} rows but the heads' outputs together have {width} "
                           "columns", source=reader.source, key="input.W_O")
    title = reader.label(data["title"], "title") if "title" in data else None
    from .answers import read_answers, read_grading
    return MultiHeadProblem(tuple(problems), W_O, title, reader.source, problems[0].presentation,
                            read_answers(data, symbols, reader.source),
                            read_grading(data, reader.source))


def attend_heads(problem: MultiHeadProblem) -> MultiHeadTrace:
    """Every head, their concatenation and the output projection, exactly."""
    from .pipeline import attend

    traces = tuple(attend(head) for head in problem.heads)
    concat = sp.ImmutableMatrix.hstack(*(t.O for t in traces))
    output = sp.ImmutableMatrix((concat * problem.W_O).applyfunc(sp.expand))
    return MultiHeadTrace(problem, traces, concat, output)


@dataclass(frozen=True)
class HeadsReport:
    """Each head's check report and the output's agreement with mpmath."""

    reports: tuple[Report, ...]
    difference: mpmath.mpf
    digits: int

    @property
    def passed(self) -> bool:
        limit = mpmath.mpf(10) ** (-(self.digits - 5))
        return all(r.passed for r in self.reports) and self.difference <= limit


def check_heads(trace: MultiHeadTrace, digits: int = 50) -> HeadsReport:
    """Check every head, then recompute Concat(heads) W_O numerically and compare."""
    from .checks import check
    from .numeric import context, recompute, to_mpf

    ctx = context(digits)
    outputs = [recompute(t.problem, digits)["O"] for t in trace.heads]
    concat = [[x for head in outputs for x in head[i]] for i in range(trace.concat.rows)]
    W_O = trace.problem.W_O
    worst = ctx.zero
    for i in range(trace.output.rows):
        for c in range(trace.output.cols):
            value = ctx.fsum(concat[i][k] * to_mpf(ctx, W_O[k, c], {}) for k in range(W_O.rows))
            worst = max(worst, abs(value - to_mpf(ctx, trace.output[i, c], {})))
    return HeadsReport(tuple(check(t, digits) for t in trace.heads), worst, digits)


@dataclass(frozen=True)
class HeadsDerivation:
    """Each head's derivation, the output's decimals and the checks, for the renderers."""

    trace: MultiHeadTrace
    heads: tuple
    report: HeadsReport
    decimals: list[list[str]]
    difference: str


def derive_heads(trace: MultiHeadTrace, options, digits: int = 50) -> HeadsDerivation:
    """Derive every head (its own checks) and decide the output's decimals."""
    from .derivation import derive
    from .numeric import decimal_grid

    report = check_heads(trace, digits)
    heads = tuple(derive(t, r, options) for t, r in zip(trace.heads, report.reports))
    return HeadsDerivation(trace, heads, report, decimal_grid(trace.output, options.places),
                           mpmath.nstr(report.difference, 2))
