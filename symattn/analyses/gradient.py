"""Exact gradients of attention: dV, dA, dL (softmax Jacobian per row), dS, dR, dQ, dK, dτ.

For a scalar loss ℓ with upstream gradient dO = ∂ℓ/∂O (ℓ = Σ dO ⊙ O for a fixed dO):
dV = Aᵀ dO, dA = dO Vᵀ, dL_i = (diag(a_i) - a_i a_iᵀ) dA_i, i.e. dL_ij = a_ij (dA_ij - ā_i)
with ā_i = Σ_r a_ir dA_ir; dS = dL/τ (the mask is constant), dR = s dS, dQ = dR K,
dK = dRᵀ Q, dτ = -Σ dL_ij L_ij / τ over readable entries; with projections
Q = X W_Q, K = X W_K, V = X W_V: dW_Q = Xᵀ dQ, dW_K = Xᵀ dK, dW_V = Xᵀ dV and
dX = dQ W_Qᵀ + dK W_Kᵀ + dV W_Vᵀ (keys and values from Y: their part goes to dY instead).
"""

from __future__ import annotations

import sympy as sp

from ..answers.budget import OverBudget, cpu_budget
from ..errors import InputError
from ..limits import GRADIENT_CPU_SECONDS
from ..exact.tidy import fraction_sum, tidy
from ..model import Projections, Trace, Upstream
from ..numeric_decimals import decimal_string
from .results import Gradients, ProjectionGradients

SHOWN = ("dO", "dV", "dA", "dL", "dS", "dR", "dQ", "dK")


def gradients(trace: Trace, upstream: Upstream | None = None, *, places: int = 4,
              row: int | None = None) -> Gradients:
    """Backpropagate dO through O = A V, the row softmax, the temperature, the scale and R = Q Kᵀ.

    row (1-based; default the table's row, else the last) is the row written out in derivations.
    """
    if trace.problem.start != "Q":
        raise InputError(f"the problem gives {trace.problem.start} rather than Q and K: gradients "
                         "follow Q, K and V", source=trace.problem.source, key=f"input.{trace.problem.start}")
    upstream = upstream or trace.problem.gradient
    if upstream is None:
        raise InputError('the problem has no [gradient] table (loss = "sum" or dO = [[...]], '
                         "one row per query)", source=trace.problem.source, key="gradient")
    p, dO = trace.problem, upstream.dO
    shown = (row - 1) if row is not None else upstream.row if upstream.row is not None else p.n_q - 1
    if not 0 <= shown < p.n_q:
        raise InputError(f"row must be from 1 to {p.n_q}", source=p.source, key="gradient.row")
    if dO.shape != (p.n_q, p.d_v):
        raise InputError(f"dO must be {p.n_q}x{p.d_v}", source=p.source, key="gradient.dO")
    try:
        with cpu_budget(GRADIENT_CPU_SECONDS):
            return _backward(trace, upstream, places, shown)
    except OverBudget:  # exact gradients of many long decimals grow past any page (corpus 33)
        raise InputError(f"the exact gradients took more than {GRADIENT_CPU_SECONDS:g} s of CPU "
                         "time; give shorter entries or fewer tokens", source=p.source) from None


def _backward(trace: Trace, upstream: Upstream, places: int, shown: int) -> Gradients:
    """Every gradient exactly, and the decimals the documents show."""
    p, A, dO = trace.problem, trace.A, upstream.dO
    dV = _product(A.T, dO)
    dA = _product(dO, p.V.T)
    means, dL = softmax_backward(trace, dA)
    dS = dL.applyfunc(lambda x: tidy(x / p.temperature))
    dR = dS.applyfunc(lambda x: tidy(x * p.scale_factor))
    dQ = _product(dR, p.K)
    dK = _product(dR.T, p.Q)
    readable = [(i, j) for i in range(p.n_q) for j in range(p.n_k) if trace.readable[i][j]]
    dtau = fraction_sum([-dL[i, j] * trace.L[i, j] / p.temperature for i, j in readable])
    matrices = {"dO": dO, "dV": dV, "dA": dA, "dL": dL, "dS": dS, "dR": dR, "dQ": dQ, "dK": dK}
    projections = projection_gradients(dQ, dK, dV, p.projections) if p.projections else None
    if projections is not None:
        matrices.update({name: getattr(projections, name) for name in ("dX", "dW_Q", "dW_K", "dW_V")})
        if projections.dY is not None:
            matrices["dY"] = projections.dY
    loss = fraction_sum([dO[i, c] * trace.O[i, c] for i in range(p.n_q) for c in range(p.d_v)])
    decimals = {} if p.symbols else {
        name: [[decimal_string(x, places) for x in m.row(i)] for i in range(m.rows)]
        for name, m in matrices.items()}
    if not p.symbols:
        decimals["dtau"] = [[decimal_string(dtau, places)]]
        decimals["loss"] = [[decimal_string(loss, places)]]
    return Gradients(trace, upstream, loss, matrices, means, dtau, projections, decimals, places,
                     shown, jacobian(trace, shown))


def softmax_backward(trace: Trace, dA: sp.ImmutableMatrix
                     ) -> tuple[tuple[sp.Expr | None, ...], sp.ImmutableMatrix]:
    """ā_i = Σ_r a_ir dA_ir and dL_ij = a_ij (dA_ij - ā_i); 0 where masked or the row reads no key."""
    A, p = trace.A, trace.problem
    means, rows = [], []
    for i in range(p.n_q):
        if i in trace.fully_masked_rows:  # the policy's weights do not depend on L
            means.append(None)
            rows.append([sp.S.Zero] * p.n_k)
            continue
        mean = fraction_sum([A[i, r] * dA[i, r] for r in range(p.n_k) if A[i, r] != 0])
        means.append(mean)
        rows.append([tidy(A[i, j] * (dA[i, j] - mean)) if trace.readable[i][j] else sp.S.Zero
                     for j in range(p.n_k)])
    return tuple(means), sp.ImmutableMatrix(rows)


def jacobian(trace: Trace, i: int) -> sp.ImmutableMatrix:
    """The softmax Jacobian of row i, ∂a_i/∂L_i = diag(a_i) - a_i a_iᵀ (zero where masked)."""
    a = trace.A.row(i)
    n = len(a)
    if i in trace.fully_masked_rows:
        return sp.ImmutableMatrix.zeros(n, n)
    return sp.ImmutableMatrix(n, n, lambda j, k: tidy((a[j] if j == k else 0) - a[j] * a[k]))


def projection_gradients(dQ: sp.ImmutableMatrix, dK: sp.ImmutableMatrix, dV: sp.ImmutableMatrix,
                         projections: Projections) -> ProjectionGradients:
    """dW_Q = Xᵀ dQ, dW_K = Sᵀ dK, dW_V = Sᵀ dV with S = Y or X; dX (and dY) by the chain rule."""
    X, source = projections.X, projections.source_of_keys
    from_keys = _sum(_product(dK, projections.W_K.T), _product(dV, projections.W_V.T))
    from_queries = _product(dQ, projections.W_Q.T)
    self_attention = projections.Y is None
    return ProjectionGradients(
        dX=_sum(from_queries, from_keys) if self_attention else from_queries,
        dW_Q=_product(X.T, dQ), dW_K=_product(source.T, dK), dW_V=_product(source.T, dV),
        dY=None if self_attention else from_keys)


def _product(a: sp.MatrixBase, b: sp.MatrixBase) -> sp.ImmutableMatrix:
    """a b, each entry a sum of fractions over as few denominators as possible."""
    return sp.ImmutableMatrix(a.rows, b.cols, lambda i, j: fraction_sum(
        [a[i, k] * b[k, j] for k in range(a.cols) if a[i, k] != 0 and b[k, j] != 0]))


def _sum(a: sp.ImmutableMatrix, b: sp.ImmutableMatrix) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix(a.rows, a.cols, lambda i, j: fraction_sum([a[i, j], b[i, j]]))
