"""Multi-head attention, exactly: every head, their concatenation, and MHA(X) = C W_O + 1 b_Oᵀ."""

from __future__ import annotations

import sympy as sp

from ..model import MultiHeadProblem, MultiHeadTrace, Problem, Trace
from .attention import attend
from .shown import long_values


def attend_any(problem: Problem | MultiHeadProblem) -> Trace | MultiHeadTrace:
    """One head's trace or every head's: the computation a problem of either kind asks for."""
    return attend_heads(problem) if isinstance(problem, MultiHeadProblem) else attend(problem)


def attend_heads(problem: MultiHeadProblem) -> MultiHeadTrace:
    """Every head, their concatenation and the output projection, exactly."""
    traces = tuple(attend(head) for head in problem.heads)
    concat = sp.ImmutableMatrix.hstack(*(t.O for t in traces))
    return MultiHeadTrace(problem, traces, concat, projected(concat, problem))


def projected(concat: sp.ImmutableMatrix, problem: MultiHeadProblem) -> sp.ImmutableMatrix:
    """C W_O + 1 b_Oᵀ (the bias, when given, added to every row), each entry combined."""
    product = concat * problem.W_O
    if problem.b_O is not None:
        product += sp.ones(product.rows, 1) * problem.b_O
    return sp.ImmutableMatrix(product.applyfunc(combined))


def combined(x: sp.Expr) -> sp.Expr:
    """An entry of C W_O expanded, or over its terms' one shared denominator when that is
    shorter (1/(2 + 2e) + e/(2 + 2e) is 1/2); terms over different denominators stay apart
    (putting them over one would multiply the heads' row sums out); an entry with a rational
    too long to show (long_values) as it is: it is only ever shown by its decimals."""
    if long_values(x):
        return x
    x = sp.expand(x)
    if not x.is_Add or len({sp.fraction(term)[1] for term in x.args}) != 1:
        return x
    together = sp.together(x)
    return together if sp.count_ops(together) < sp.count_ops(x) else x
