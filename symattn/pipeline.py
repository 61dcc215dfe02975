"""Problem -> Trace: the exact pipeline R = QKᵀ, S = sR, M, L = (S+M)/τ, A = softmax(L), O = AV."""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import sympy as sp

from .errors import InputError, ProblemError
from .linear import (Exponentiator, LinearForm, dot, linear_form, multiply, add,
                     rational_matmul_t, to_expr)
from .model import Problem, Trace

NEG_INF = sp.S.NegativeInfinity
Grid = list[list[LinearForm]]


class Softmax(NamedTuple):
    """Row-wise softmax results: E = exp(L), Z = row sums, A, and each row's shared fraction."""

    E: sp.ImmutableMatrix
    Z: tuple[sp.Expr | None, ...]
    A: sp.ImmutableMatrix
    fractions: list[tuple[list[sp.Expr], sp.Expr] | None]


def attend(problem: Problem) -> Trace:
    """Compute every stage of scaled dot-product attention exactly."""
    readable = readable_entries(problem)
    fully_masked = tuple(i for i, row in enumerate(readable) if not any(row))
    _refuse_fully_masked(problem, fully_masked)
    raw = raw_scores(problem)
    scaled = [[multiply(r, linear_form(problem.scale_factor)) for r in row] for row in raw]
    bias = _bias_forms(problem)
    inverse_tau = linear_form(1 / problem.temperature)
    logits = [[multiply(add(scaled[i][j], bias[i][j]), inverse_tau) if readable[i][j] else None
               for j in range(problem.n_k)] for i in range(problem.n_q)]
    soft = softmax_rows(problem, logits, fully_masked)
    return Trace(
        problem=problem,
        R=_matrix(raw), S=_matrix(scaled),
        M=_mask_matrix(bias, readable), L=_matrix(logits),
        E=soft.E, Z=soft.Z, A=soft.A, O=_outputs(problem, soft),
        readable=readable, fully_masked_rows=fully_masked,
    )


def readable_entries(problem: Problem) -> tuple[tuple[bool, ...], ...]:
    """Which keys each query may read: every mask given, combined by AND."""
    n_q, n_k = problem.n_q, problem.n_k
    rows = []
    for i in range(n_q):
        row = []
        for j in range(n_k):
            ok = True
            if problem.mask == "causal":
                ok = j <= i
            elif problem.mask == "causal-bottom-right":
                ok = j <= i + n_k - n_q
            if problem.keep is not None:
                ok = ok and problem.keep[i][j]
            if problem.key_lengths is not None:
                ok = ok and j < problem.key_lengths[i]
            if problem.bias is not None:
                ok = ok and problem.bias[i, j] != NEG_INF
            row.append(ok)
        rows.append(tuple(row))
    return tuple(rows)


def _refuse_fully_masked(problem: Problem, rows: tuple[int, ...]) -> None:
    if rows and problem.fully_masked == "error":
        i = rows[0]
        label = problem.row_labels[i]
        named = f" ({label})" if label != str(i + 1) else ""
        raise ProblemError(
            f"query row {i + 1}{named} may read no key, so its softmax is 0/0; set "
            'attention.fully_masked = "zero" or "uniform" to choose a policy',
            source=problem.source, key="attention")


def raw_scores(problem: Problem) -> Grid:
    """R = Q Kᵀ as linear forms, with an integer fast path for rational Q and K."""
    q_rows = [[linear_form(x) for x in problem.Q.row(i)] for i in range(problem.n_q)]
    k_rows = [[linear_form(x) for x in problem.K.row(j)] for j in range(problem.n_k)]
    if all(set(f) <= {sp.S.One} for row in q_rows + k_rows for f in row):
        rational = rational_matmul_t([[f.get(sp.S.One, Fraction(0)) for f in row] for row in q_rows],
                                     [[f.get(sp.S.One, Fraction(0)) for f in row] for row in k_rows])
        return [[{sp.S.One: x} if x else {} for x in row] for row in rational]
    return [[dot(q, k) for k in k_rows] for q in q_rows]


def _bias_forms(problem: Problem) -> Grid:
    if problem.bias is None:
        return [[{} for _ in range(problem.n_k)] for _ in range(problem.n_q)]
    return [[{} if x == NEG_INF else linear_form(x) for x in problem.bias.row(i)]
            for i in range(problem.n_q)]


def softmax_rows(problem: Problem, logits: list[list[LinearForm | None]],
                 fully_masked: tuple[int, ...]) -> Softmax:
    """exp of every readable logit, the row sums, and the weights as shared-denominator fractions."""
    exponentiator = Exponentiator(f for row in logits for f in row if f is not None)
    n_k = problem.n_k
    E, Z, A, numerators = [], [], [], []
    for i, row in enumerate(logits):
        if i in fully_masked:
            policy = problem.fully_masked
            weight = sp.S.Zero if policy == "zero" else sp.Rational(1, n_k)
            E.append([sp.S.Zero] * n_k)
            Z.append(None)
            A.append([weight] * n_k)
            numerators.append(None)
            continue
        readable = [j for j, f in enumerate(row) if f is not None]
        try:
            plain, shifted = exponentiator.row([row[j] for j in readable])
        except InputError as error:
            raise ProblemError(f"query row {i + 1}: {error.reason}", source=problem.source,
                               key="input") from None
        exps, nums = [sp.S.Zero] * n_k, [sp.S.Zero] * n_k
        for j, p, s in zip(readable, plain, shifted):
            exps[j], nums[j] = p, s
        denominator = sp.Add(*shifted)
        E.append(exps)
        Z.append(sp.Add(*plain))
        A.append([_divide(x, denominator) for x in nums])
        numerators.append((nums, denominator))
    return Softmax(sp.ImmutableMatrix(E), tuple(Z), sp.ImmutableMatrix(A), numerators)


def _divide(numerator: sp.Expr, denominator: sp.Expr) -> sp.Expr:
    if numerator == 0:
        return sp.S.Zero
    return numerator / denominator if denominator.is_Rational else sp.Mul(
        numerator, sp.Pow(denominator, -1))


def _outputs(problem: Problem, soft: Softmax) -> sp.ImmutableMatrix:
    """O = A V, each entry one fraction over its row's shared denominator."""
    V, A = problem.V, soft.A
    rows = []
    for i, fraction in enumerate(soft.fractions):
        if fraction is None:
            rows.append([sp.Add(*(A[i, j] * V[j, c] for j in range(problem.n_k)))
                         for c in range(problem.d_v)])
            continue
        nums, denominator = fraction
        rows.append([_divide(sp.Add(*(nums[j] * V[j, c] for j in range(problem.n_k) if nums[j] != 0)),
                             denominator) for c in range(problem.d_v)])
    return sp.ImmutableMatrix(rows)


def _matrix(grid: list[list[LinearForm | None]]) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix([[NEG_INF if f is None else to_expr(f) for f in row] for row in grid])


def _mask_matrix(bias: Grid, readable: tuple[tuple[bool, ...], ...]) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix([[to_expr(b) if ok else NEG_INF for b, ok in zip(row, oks)]
                               for row, oks in zip(bias, readable)])
