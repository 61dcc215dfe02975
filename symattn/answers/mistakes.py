"""The course's classic mistakes: the weights and output each one produces, computed exactly.

Every mistake is attention computed by the exact pipeline on a changed problem (no scale, no
causal mask, K and V swapped, the bias times τ, the logits transposed for a softmax down the
columns) or a plain exact operation on its stages (masking after the softmax, normalising by a
sum): no simplification, so each costs about what solving the problem costs. `Mistakes` computes
one only when it is asked for, so a right answer never pays for the diagnosis of a wrong one.
"""

from __future__ import annotations

from dataclasses import replace
from collections.abc import Callable

import sympy as sp

from ..errors import SymattnError
from ..exact.attention import attend
from ..limits import MAX_MISTAKE_ENTRIES, MISTAKE_CPU_SECONDS
from ..model import Problem, Trace
from ..numeric import context, to_mpf
from .budget import OverBudget, cpu_budget
from .results import Mistake

MISTAKES = ("columns", "no_scale", "mask_after_softmax", "no_causal_mask", "mask_after_tau",
            "swap_kv", "sum_normalised")
"""Every mistake by its machine name, in the course's order (then the textbook's sum rule)."""

Stages = tuple[sp.ImmutableMatrix, sp.ImmutableMatrix, sp.ImmutableMatrix | None]
"""A mistake's A, O and the logits its softmax took (None: no softmax of its own)."""


def _columns(problem: Problem, trace: Trace) -> Stages | None:
    """Softmax down each column of L (over the queries) instead of along each row: the row
    softmax of Lᵀ, which is attention with queries and keys exchanged and the mask transposed."""
    transposed = tuple(zip(*trace.readable))  # key j may be read by query i
    bias = None if problem.bias is None else problem.bias.T.applyfunc(
        lambda x: sp.S.Zero if x is sp.S.NegativeInfinity else x)
    turned = replace(problem, Q=problem.K, K=problem.Q, V=sp.ImmutableMatrix.zeros(problem.n_q, 1),
                     mask="none", keep=transposed, key_lengths=None, bias=bias,
                     fully_masked="zero", projections=None, tokens=None, key_tokens=None)
    turned_trace = attend(turned)
    A = turned_trace.A.T
    return A, _product(A, problem.V), turned_trace.L.T


def _no_scale(problem: Problem, trace: Trace) -> Stages | None:
    """Forgetting 1/sqrt(d_k): S = R (given S or L already hold the scale)."""
    return None if problem.start in ("S", "L") else _attend(replace(problem, scale=sp.S.One))


def _mask_after_softmax(problem: Problem, trace: Trace) -> Stages | None:
    """Softmax of the unmasked logits, masked weights set to 0 afterwards, not renormalised."""
    if all(all(row) for row in trace.readable):
        return None
    bias = None if problem.bias is None else problem.bias.applyfunc(
        lambda x: sp.S.Zero if x is sp.S.NegativeInfinity else x)
    open_trace = attend(replace(problem, mask="none", keep=None, key_lengths=None, bias=bias))
    A = sp.ImmutableMatrix(open_trace.A.rows, open_trace.A.cols,
                           lambda i, j: open_trace.A[i, j] if trace.readable[i][j] else sp.S.Zero)
    return A, _product(A, problem.V), open_trace.L


def _no_causal_mask(problem: Problem, trace: Trace) -> Stages | None:
    """Omitting the causal mask."""
    return None if problem.mask == "none" else _attend(replace(problem, mask="none"))


def _mask_after_tau(problem: Problem, trace: Trace) -> Stages | None:
    """L = S/tau + M instead of (S + M)/tau: the same as the bias multiplied by tau."""
    if problem.bias is None or problem.temperature == 1:
        return None
    tau = problem.temperature
    bias = problem.bias.applyfunc(lambda x: x if x is sp.S.NegativeInfinity else x * tau)
    return _attend(replace(problem, bias=bias))


def _swap_kv(problem: Problem, trace: Trace) -> Stages | None:
    """Using V as the keys and K as the values (needs d_v = d_k)."""
    if problem.start != "Q" or problem.d_v != problem.d_k:
        return None
    return _attend(replace(problem, K=problem.V, V=problem.K, projections=None))


def _sum_normalised(problem: Problem, trace: Trace) -> Stages | None:
    """Each logit divided by the sum of its row's readable logits instead of the softmax (a
    normalisation some textbooks show before the softmax); not applicable where a sum is 0."""
    rows = []
    for i, readable in enumerate(trace.readable):
        logits = [trace.L[i, j] for j, ok in enumerate(readable) if ok]
        total = sp.Add(*logits)
        if not logits or total.is_zero is not False:
            return None
        rows.append([trace.L[i, j] / total if ok else sp.S.Zero for j, ok in enumerate(readable)])
    A = sp.ImmutableMatrix(rows)
    return A, _product(A, problem.V), None


RULES: dict[str, Callable[[Problem, Trace], Stages | None]] = {
    "columns": _columns, "no_scale": _no_scale, "mask_after_softmax": _mask_after_softmax,
    "no_causal_mask": _no_causal_mask, "mask_after_tau": _mask_after_tau, "swap_kv": _swap_kv,
    "sum_normalised": _sum_normalised}


def _attend(problem: Problem) -> Stages:
    trace = attend(problem)
    return trace.A, trace.O, trace.L


def _product(A: sp.ImmutableMatrix, V: sp.ImmutableMatrix) -> sp.ImmutableMatrix:
    """A V entry by entry as plain sums (no simplification: the terms are shown as computed)."""
    return sp.ImmutableMatrix(A.rows, V.cols, lambda i, c: sp.Add(
        *(A[i, j] * V[j, c] for j in range(A.cols) if A[i, j] != 0)))


class Mistakes:
    """The classic mistakes of one problem, each computed the first time it is asked for."""

    names = MISTAKES

    def __init__(self, problem: Problem, trace: Trace | None = None) -> None:
        self.problem = problem
        self._trace = trace
        self._found: dict[str, Mistake] = {}

    @property
    def trace(self) -> Trace:
        if self._trace is None:
            self._trace = attend(self.problem)
        return self._trace

    def __getitem__(self, name: str) -> Mistake:
        """One mistake's A and O, or why it has none (not applicable, or the same result)."""
        if name not in self._found:
            self._found[name] = self._compute(name)
        return self._found[name]

    def _compute(self, name: str) -> Mistake:
        p = self.problem
        if p.symbols or p.n_q * p.n_k > MAX_MISTAKE_ENTRIES:
            return Mistake(name, None, None, "not_applicable")
        try:
            with cpu_budget(MISTAKE_CPU_SECONDS):
                result = RULES[name](p, self.trace)
                differs = result is not None and (_differs(result[0], self.trace.A)
                                                  or _differs(result[1], self.trace.O))
        except SymattnError:  # e.g. a row left with no key to read
            result = None
        except OverBudget:
            return Mistake(name, None, None, "over_budget")
        if result is None:
            return Mistake(name, None, None, "not_applicable")
        if not differs:
            return Mistake(name, None, None, "same_result")
        return Mistake(name, result[0], result[1], logits=result[2])

    def stages(self, name: str) -> dict[str, sp.ImmutableMatrix] | None:
        """{"A": ..., "O": ..., "L": ...} of a mistake that gives a result of its own (for
        judging; L, the logits it took, measures float precision)."""
        found = self[name]
        if not found.applies:
            return None
        logits = {} if found.logits is None else {"L": found.logits}
        return {"A": found.A, "O": found.O, **logits}

    def all(self) -> tuple[Mistake, ...]:
        """Every mistake, in MISTAKES order."""
        return tuple(self[name] for name in MISTAKES)


def mistakes(problem: Problem, trace: Trace | None = None) -> tuple[Mistake, ...]:
    """Each mistake's A and O; a mistake that does not apply or changes nothing says so."""
    return Mistakes(problem, trace).all()


def _differs(a: sp.ImmutableMatrix, b: sp.ImmutableMatrix) -> bool:
    """Exactly different, decided by a 40-digit difference (the results are closed forms)."""
    if a.shape != b.shape:
        return True
    ctx = context(40)
    return any(abs(to_mpf(ctx, x, {}) - to_mpf(ctx, y, {})) > ctx.mpf(10) ** -30
               for x, y in zip(a, b))


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
