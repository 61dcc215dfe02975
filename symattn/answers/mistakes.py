"""The course's classic mistakes: the weights and output each one produces, computed exactly."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import sympy as sp

from ..errors import SymattnError
from ..exact.attention import attend
from ..limits import MAX_MISTAKE_ENTRIES
from ..model import Problem, Trace
from ..numeric import context, has_huge_exp, to_mpf
from .results import Mistake

MISTAKES = ("columns", "no_scale", "mask_after_softmax", "no_causal_mask", "mask_after_tau",
            "swap_kv")
"""Every mistake by its machine name, in the course's order."""
SIMPLIFY_UP_TO = 36  # entries of a mistaken matrix simplified for display


def _columns(problem: Problem, trace: Trace) -> tuple[sp.ImmutableMatrix, ...] | None:
    """Softmax down each column of L (over the queries) instead of along each row."""
    E = trace.L.applyfunc(lambda x: sp.S.Zero if x is sp.S.NegativeInfinity else sp.exp(x))
    sums = [sum(E[:, j]) for j in range(E.cols)]
    A = sp.ImmutableMatrix(E.rows, E.cols, lambda i, j: sp.S.Zero if sums[j] == 0
                           else _tidy(E[i, j] / sums[j], E))
    return A, sp.ImmutableMatrix(A * problem.V).applyfunc(lambda x: _tidy(x, E))


def _no_scale(problem: Problem, trace: Trace) -> tuple[sp.ImmutableMatrix, ...] | None:
    """Forgetting 1/sqrt(d_k): S = R."""
    return _attend(replace(problem, scale=sp.S.One))


def _mask_after_softmax(problem: Problem, trace: Trace) -> tuple[sp.ImmutableMatrix, ...] | None:
    """Softmax of the unmasked logits, masked weights set to 0 afterwards, not renormalised."""
    if all(all(row) for row in trace.readable):
        return None
    bias = None if problem.bias is None else problem.bias.applyfunc(
        lambda x: sp.S.Zero if x is sp.S.NegativeInfinity else x)
    open_trace = _trace(replace(problem, mask="none", keep=None, key_lengths=None, bias=bias))
    A = sp.ImmutableMatrix(open_trace.A.rows, open_trace.A.cols,
                           lambda i, j: open_trace.A[i, j] if trace.readable[i][j] else sp.S.Zero)
    return A, sp.ImmutableMatrix(A * problem.V).applyfunc(lambda x: _tidy(x, A))


def _tidy(value: sp.Expr, matrix: sp.ImmutableMatrix) -> sp.Expr:
    """Simplified for display when the matrix is small (a large one, or exp of a huge logit,
    stays as computed)."""
    return sp.simplify(value) if len(matrix) <= SIMPLIFY_UP_TO and not has_huge_exp(value) \
        else value


def _no_causal_mask(problem: Problem, trace: Trace) -> tuple[sp.ImmutableMatrix, ...] | None:
    """Omitting the causal mask."""
    return None if problem.mask == "none" else _attend(replace(problem, mask="none"))


def _mask_after_tau(problem: Problem, trace: Trace) -> tuple[sp.ImmutableMatrix, ...] | None:
    """L = S/tau + M instead of (S + M)/tau: the same as the bias multiplied by tau."""
    if problem.bias is None or problem.temperature == 1:
        return None
    tau = problem.temperature
    bias = problem.bias.applyfunc(lambda x: x if x is sp.S.NegativeInfinity else x * tau)
    return _attend(replace(problem, bias=bias))


def _swap_kv(problem: Problem, trace: Trace) -> tuple[sp.ImmutableMatrix, ...] | None:
    """Using V as the keys and K as the values (needs d_v = d_k)."""
    if problem.d_v != problem.d_k:
        return None
    return _attend(replace(problem, K=problem.V, V=problem.K, projections=None))


RULES: dict[str, Callable[[Problem, Trace], tuple[sp.ImmutableMatrix, ...] | None]] = {
    "columns": _columns, "no_scale": _no_scale, "mask_after_softmax": _mask_after_softmax,
    "no_causal_mask": _no_causal_mask, "mask_after_tau": _mask_after_tau, "swap_kv": _swap_kv}


def _trace(problem: Problem) -> Trace:
    return attend(problem)


def _attend(problem: Problem) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
    trace = _trace(problem)
    return trace.A, trace.O


def mistakes(problem: Problem, trace: Trace | None = None) -> tuple[Mistake, ...]:
    """Each mistake's A and O; a mistake that does not apply or changes nothing says so."""
    trace = _trace(problem) if trace is None else trace
    out = []
    for name in MISTAKES:
        skip = problem.symbols or problem.n_q * problem.n_k > MAX_MISTAKE_ENTRIES
        result = None if skip else _apply(name, problem, trace)
        if result is None:
            out.append(Mistake(name, None, None, "not_applicable"))
        elif not _differs(result[0], trace.A) and not _differs(result[1], trace.O):
            out.append(Mistake(name, None, None, "same_result"))
        else:
            out.append(Mistake(name, *result))
    return tuple(out)


def _apply(name: str, problem: Problem, trace: Trace) -> tuple[sp.ImmutableMatrix, ...] | None:
    """One mistake's result, or None when it does not apply (e.g. a row left with no key)."""
    try:
        return RULES[name](problem, trace)
    except SymattnError:
        return None


def mistaken_stages(found: tuple[Mistake, ...]) -> dict[str, dict[str, sp.ImmutableMatrix]]:
    """name -> {"A": ..., "O": ...} for the mistakes that give a different result (for judge)."""
    return {m.name: {"A": m.A, "O": m.O} for m in found if m.applies}


def _differs(a: sp.ImmutableMatrix, b: sp.ImmutableMatrix) -> bool:
    """Exactly different, decided by a 40-digit difference (the results are closed forms)."""
    if a.shape != b.shape:
        return True
    ctx = context(40)
    return any(abs(to_mpf(ctx, x - y, {})) > ctx.mpf(10) ** -30 for x, y in zip(a, b))


def distractors(found: tuple[Mistake, ...], correct: sp.ImmutableMatrix, stage: str = "O",
                row: int = -1) -> list[tuple[str, sp.ImmutableMatrix]]:
    """Multiple-choice distractors: each mistake's row of a stage, distinct from the correct row
    and from each other (the first mistake giving a value keeps it)."""
    target = correct.row(row)
    out: list[tuple[str, sp.ImmutableMatrix]] = []
    for mistake in found:
        if not mistake.applies:
            continue
        value = getattr(mistake, stage).row(row)
        if _differs(value, target) and all(_differs(value, other) for _, other in out):
            out.append((mistake.name, value))
    return out
