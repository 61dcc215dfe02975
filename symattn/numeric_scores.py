"""The cross-check's scores and exponentials, each distinct one computed once (rows repeat)."""

from __future__ import annotations

import mpmath
import sympy as sp

from .model import Problem

Grid = list[list[mpmath.mpf]]


def scores(ctx: mpmath.MPContext, problem: Problem, Q: Grid, K: Grid, bias: Grid | None,
           s: mpmath.mpf, tau: mpmath.mpf) -> tuple[Grid, Grid, Grid, Grid]:
    """R = QK^T, S = sR, M (the mask rule restated, with the bias) and L = (S + M)/tau, each
    distinct pair of a query row and a key row (and mask entry) computed once: the same
    arithmetic on the same numbers, done less often."""
    hidden = ctx.ninf if problem.mask_bias is None else \
        ctx.mpf(int(problem.mask_bias.p)) / int(problem.mask_bias.q)  # the masks add it
    M = [[(bias[i][j] if bias else ctx.zero) + (ctx.zero if may_read(problem, i, j) else hidden)
          for j in range(problem.n_k)] for i in range(problem.n_q)]
    rows: dict[tuple, int] = {}
    q_ids = [rows.setdefault(("q",) + tuple(x._mpf_ for x in q), len(rows)) for q in Q]
    k_ids = [rows.setdefault(("k",) + tuple(x._mpf_ for x in k), len(rows)) for k in K]
    pairs: dict[tuple[int, int], tuple[mpmath.mpf, mpmath.mpf]] = {}
    logits: dict[tuple, mpmath.mpf] = {}
    R, S, L = [], [], []
    for i, q in enumerate(Q):
        R.append([]), S.append([]), L.append([])
        for j, k in enumerate(K):
            pair = pairs.get((q_ids[i], k_ids[j]))
            if pair is None:
                r = ctx.fsum(ctx.mpf(a) * b for a, b in zip(q, k))
                pair = pairs[q_ids[i], k_ids[j]] = (r, s * r)
            m = M[i][j]
            if m == ctx.ninf:
                logit = ctx.ninf
            else:
                logit = logits.get((q_ids[i], k_ids[j], m._mpf_))
                if logit is None:
                    logit = logits[q_ids[i], k_ids[j], m._mpf_] = (pair[1] + m) / tau
            R[i].append(pair[0]), S[i].append(pair[1]), L[i].append(logit)
    return R, S, M, L


def may_read(problem: Problem, i: int, j: int) -> bool:
    """The mask rule, restated: top-left causal, bottom-right causal, keep, lengths, -oo bias."""
    offset = problem.n_k - problem.n_q if problem.mask == "causal-bottom-right" else 0
    if problem.mask != "none" and j - i > offset:
        return False
    if problem.keep is not None and not problem.keep[i][j]:
        return False
    if problem.key_lengths is not None and j + 1 > problem.key_lengths[i]:
        return False
    return problem.bias is None or problem.bias[i, j] is not sp.S.NegativeInfinity


def shared_exp(ctx: mpmath.MPContext, x: mpmath.mpf, memo: dict | None) -> mpmath.mpf:
    """exp(x), remembered in memo (if given) by x's exact binary value."""
    if memo is None:
        return ctx.exp(x)
    value = memo.get(x._mpf_)
    if value is None:
        value = memo[x._mpf_] = ctx.exp(x)
    return value
