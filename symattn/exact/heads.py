"""Multi-head attention, exactly: every head, their concatenation, and MHA(X) = C W_O."""

from __future__ import annotations

import sympy as sp

from ..model import MultiHeadProblem, MultiHeadTrace
from .attention import attend


def attend_heads(problem: MultiHeadProblem) -> MultiHeadTrace:
    """Every head, their concatenation and the output projection, exactly."""
    traces = tuple(attend(head) for head in problem.heads)
    concat = sp.ImmutableMatrix.hstack(*(t.O for t in traces))
    output = sp.ImmutableMatrix((concat * problem.W_O).applyfunc(sp.expand))
    return MultiHeadTrace(problem, traces, concat, output)
