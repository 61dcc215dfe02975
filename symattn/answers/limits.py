"""What a large finite mask stands for (mask_bias, the courses' -1e9): the same problem masked to
-oo. A claim in the course's convention (a masked weight 0, an unmasked one 1/10) equals that,
not the exact value with its e^(-10^9) terms, which it agrees with to any printed digit."""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from ..exact.attention import attend
from ..exact.heads import attend_heads
from ..model import MultiHeadTrace, Trace

STAGES_MASKED = ("M", "L", "A", "O")


def masked_limits_heads(trace: MultiHeadTrace) -> dict[sp.Expr, sp.Expr]:
    """masked_limits of every head, and of the concatenation and the output they give."""
    out: dict[sp.Expr, sp.Expr] = {}
    for head in trace.heads:
        out.update(masked_limits(head))
    problem = trace.problem
    heads = tuple(replace(h, mask_bias=None, fully_masked="zero") for h in problem.heads)
    limit = attend_heads(replace(problem, heads=heads))
    for exact, masked in ((trace.concat, limit.concat), (trace.output, limit.output)):
        for x, y in zip(exact, masked):
            if x != y:
                out.setdefault(x, y)
    return out


def masked_limits(trace: Trace) -> dict[sp.Expr, sp.Expr]:
    """Each value of M, L, A and O that the large bias changes, with its value under -oo masks
    (rows whose keys are all masked left out: there the bias cancels, and -oo gives 0/0)."""
    problem = trace.problem
    if problem.mask_bias is None:
        return {}
    limit = attend(replace(problem, mask_bias=None, fully_masked="zero"))
    whole = {i for i, row in enumerate(trace.masked_by_bias) if all(row)}
    out: dict[sp.Expr, sp.Expr] = {}
    for name in STAGES_MASKED:
        exact, masked = trace.stage(name), limit.stage(name)
        for i in range(exact.rows):
            if i in whole:
                continue
            for j in range(exact.cols):
                if exact[i, j] != masked[i, j]:
                    out.setdefault(exact[i, j], masked[i, j])
    return out
