"""Checks of a multi-head trace: every head's own checks, and C W_O + 1 b_Oᵀ against mpmath."""

from __future__ import annotations

from ..model import MultiHeadTrace
from ..reports import HeadsReport
from ..numeric import context, recompute, to_mpf
from .invariants import check, sample_values


def check_heads(trace: MultiHeadTrace, digits: int = 50) -> HeadsReport:
    """Check every head, then recompute Concat(heads) W_O + 1 b_Oᵀ numerically and compare."""
    ctx = context(digits)
    values = sample_values(trace.heads[0])  # every head reads the same [symbols]
    outputs = [recompute(t.problem, digits, values)["O"] for t in trace.heads]
    concat = [[x for head in outputs for x in head[i]] for i in range(trace.concat.rows)]
    W_O, b_O = trace.problem.W_O, trace.problem.b_O
    worst = ctx.zero
    for i in range(trace.output.rows):
        for c in range(trace.output.cols):
            bias = to_mpf(ctx, b_O[0, c], values) if b_O is not None else ctx.zero
            value = ctx.fsum([*(concat[i][k] * to_mpf(ctx, W_O[k, c], values)
                                for k in range(W_O.rows)), bias])
            worst = max(worst, abs(value - to_mpf(ctx, trace.output[i, c], values)))
    return HeadsReport(tuple(check(t, digits) for t in trace.heads), worst, digits)
