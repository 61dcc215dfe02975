"""Naive SymPy (with/without simplify) and mpmath attention baselines as plain functions."""

from __future__ import annotations

from fractions import Fraction

import mpmath
from sympy import ImmutableMatrix, Matrix, Rational, exp, oo, simplify, sqrt, zeros

from .cases import Case, entry_mpmath, entry_sympy

MPMATH_DPS = 50


def naive_sympy(case: Case, simplify_entries: bool = True
                ) -> tuple[ImmutableMatrix, ImmutableMatrix]:
    """Return (A, O) computed the way a course author would write it in SymPy."""
    Q, K, V = (Matrix([[entry_sympy(x) for x in row] for row in m])
               for m in (case.Q, case.K, case.V))
    tau = Rational(case.temperature)
    R = Q * K.T
    S = R / sqrt(case.d_k)
    n = S.rows
    for i in range(n):
        for j in range(n):
            if not case.allowed(i, j):
                S[i, j] = -oo
    L = S / tau
    E = L.applyfunc(exp)  # exp(-oo) == 0 for masked entries
    A = zeros(n, n)
    for i in range(n):
        rowsum = sum(E[i, j] for j in range(n))
        for j in range(n):
            a = E[i, j] / rowsum
            A[i, j] = simplify(a) if simplify_entries else a
    O = A * V
    if simplify_entries:
        O = O.applyfunc(simplify)
    return ImmutableMatrix(A), ImmutableMatrix(O)


def naive_simplify(case: Case) -> tuple[ImmutableMatrix, ImmutableMatrix]:
    """Naive SymPy attention with simplify on every A and O entry."""
    return naive_sympy(case, simplify_entries=True)


def naive_plain(case: Case) -> tuple[ImmutableMatrix, ImmutableMatrix]:
    """Naive SymPy attention without any simplify."""
    return naive_sympy(case, simplify_entries=False)


def mpmath_attention(case: Case, dps: int = MPMATH_DPS) -> tuple[list[list], list[list]]:
    """Return (A, O) as lists of mpf via a stable softmax in a private mpmath context."""
    ctx = mpmath.MPContext()
    ctx.dps = dps
    tau_frac = Fraction(case.temperature)
    tau = ctx.mpf(tau_frac.numerator) / tau_frac.denominator
    scale = 1 / ctx.sqrt(case.d_k)
    n = case.n
    Q = [[entry_mpmath(ctx, x) for x in row] for row in case.Q]
    K = [[entry_mpmath(ctx, x) for x in row] for row in case.K]
    A = [[ctx.zero] * n for _ in range(n)]
    for i in range(n):
        cols = [j for j in range(n) if case.allowed(i, j)]
        logits = {j: ctx.fdot(Q[i], K[j]) * scale / tau for j in cols}
        top = max(logits.values())
        weights = {j: ctx.exp(v - top) for j, v in logits.items()}
        total = ctx.fsum(weights.values())
        for j, w in weights.items():
            A[i][j] = w / total
    O = [[ctx.fsum(A[i][j] * case.V[j][c] for j in range(n)) for c in range(case.d_v)]
         for i in range(n)]
    return A, O
