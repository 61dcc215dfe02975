"""Agreement with PyTorch: symattn's exact A and O, evaluated to float64, against
torch.nn.functional.scaled_dot_product_attention in float64 on several hundred seeded cases.

Every kind the two share: boolean masks (true = may read), causal top-left (`is_causal`) and
bottom-right (`causal_lower_right`), padding, cross-attention with n_q != n_k, temperature
through scale = s/τ with attn_mask = M/τ, additive biases, and rows that may read no key under
fully_masked = "zero" (PyTorch >= 2.5 returns 0 there). A is read from PyTorch as the output for
V = I (the identity), so both A and O come from the function itself. docs/semantics.md lists
the deliberate differences. Needs torch (CPU build); CI installs it and a missing torch fails
there (SYMATTN_REQUIRE_CLIENTS=1), elsewhere the suite is skipped with the reason.
"""

from __future__ import annotations

import math
import random
import warnings
from dataclasses import dataclass, field
from typing import Any

import pytest
import sympy as sp
from clients import need

from symattn.api import attention
from symattn.parse.expressions import parse_expression

try:
    with warnings.catch_warnings():  # torch warns at import when NumPy is absent; none is needed
        warnings.simplefilter("ignore", UserWarning)
        import torch
        import torch.nn.functional as F
        from torch.nn.attention.bias import causal_lower_right
except ImportError:  # judged per test by need(): a skip, or a failure in CI
    torch = None

TOLERANCE = 1e-12
IRRATIONAL = ["ln(2)", "ln(3)", "-ln(2)", "sqrt(2)", "-sqrt(3)/2", "ln(5)/2", "1/sqrt(2)"]
TEMPERATURES = ["1", "1/2", "2", "17/20", "3/2", "sqrt(2)", "0.1"]
SCALES = ["auto", "none", "1/2", "sqrt(3)"]
KINDS = {  # kind: number of cases (at least 300 in all)
    "plain": 30, "keep": 50, "causal": 40, "causal-bottom-right": 40, "padding": 30,
    "cross": 40, "temperature": 40, "bias": 40, "fully-masked": 40, "everything": 30,
}


@dataclass
class Case:
    """One problem, as symattn's keyword arguments and as what PyTorch is given."""

    kind: str
    Q: list[list[str]]
    K: list[list[str]]
    V: list[list[str]]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def n_q(self) -> int:
        return len(self.Q)

    @property
    def n_k(self) -> int:
        return len(self.K)


def _entry(rng: random.Random, irrational: bool) -> str:
    if irrational and rng.random() < 0.3:
        return rng.choice(IRRATIONAL)
    return str(sp.Rational(rng.randint(-4, 4), rng.choice([1, 1, 2, 3, 4])))


def _matrix(rng: random.Random, rows: int, cols: int, irrational: bool = True) -> list[list[str]]:
    return [[_entry(rng, irrational) for _ in range(cols)] for _ in range(rows)]


def _case(kind: str, seed: int) -> Case:
    rng = random.Random(f"{kind}-{seed}")
    n_q, n_k = rng.randint(1, 4), rng.randint(1, 4)
    if kind == "cross":
        while n_k == n_q:
            n_k = rng.randint(1, 5)
    d_k, d_v = rng.randint(1, 3), rng.randint(1, 3)
    case = Case(kind, _matrix(rng, n_q, d_k), _matrix(rng, n_k, d_k), _matrix(rng, n_k, d_v))
    everything = kind == "everything"
    o = case.options
    if kind in ("causal", "causal-bottom-right"):
        o["mask"] = kind
    if everything:
        o["mask"] = rng.choice(["none", "causal", "causal-bottom-right"])
    if kind in ("keep", "fully-masked") or everything and rng.random() < 0.5:
        o["keep"] = [[rng.random() < 0.7 for _ in range(n_k)] for _ in range(n_q)]
        if kind == "keep":
            for row in o["keep"]:
                row[rng.randrange(n_k)] = True  # every row reads a key
    if kind == "fully-masked":
        o["keep"][rng.randrange(n_q)] = [False] * n_k
    if kind == "padding" or everything and rng.random() < 0.5:
        o["key_lengths"] = [rng.randint(1 if kind == "padding" else 0, n_k) for _ in range(n_q)]
    if kind in ("bias", "everything"):
        choices = ["0", "1", "-1", "1/2", "-oo", "ln(2)", "-3/2", "sqrt(2)"]
        o["bias"] = [[rng.choice(choices) for _ in range(n_k)] for _ in range(n_q)]
        if kind == "bias":
            for row in o["bias"]:
                row[rng.randrange(n_k)] = "0"  # every row reads a key
    if kind in ("temperature", "everything"):
        o["temperature"] = rng.choice(TEMPERATURES)
    if kind in ("temperature", "everything", "plain"):
        o["scale"] = rng.choice(SCALES)
    if kind in ("fully-masked", "everything", "causal-bottom-right"):
        o["fully_masked"] = "zero"
    return case


CASES = [_case(kind, seed) for kind, count in KINDS.items() for seed in range(count)]
assert len(CASES) >= 300


def _float(text: str) -> float:
    return float(sp.N(parse_expression(text, allow_neg_infinity=True), 30))


def _tensor(rows: list[list[str]]) -> torch.Tensor:
    return torch.tensor([[_float(x) for x in row] for row in rows], dtype=torch.float64)


def _readable(case: Case) -> list[list[bool]]:
    """The keys each query may read, built here from the options (not taken from symattn)."""
    o, n_q, n_k = case.options, case.n_q, case.n_k
    mask = o.get("mask", "none")
    rows = []
    for i in range(n_q):
        row = []
        for j in range(n_k):
            ok = (mask != "causal" or j <= i) and (mask != "causal-bottom-right" or
                                                    j <= i + n_k - n_q)
            ok = ok and (o.get("keep") is None or o["keep"][i][j])
            ok = ok and (o.get("key_lengths") is None or j < o["key_lengths"][i])
            ok = ok and (o.get("bias") is None or o["bias"][i][j] != "-oo")
            row.append(ok)
        rows.append(row)
    return rows


def _torch_arguments(case: Case) -> dict[str, Any]:
    """scale and attn_mask (or is_causal) as PyTorch takes them: s/τ and M/τ.

    The plainest form PyTorch offers is used for each case, so its own mask paths are
    exercised: is_causal for top-left causal alone, the causal_lower_right bias object for
    bottom-right alone, a boolean mask (true = may read) when there is no bias and τ = 1,
    else a float mask with -inf where a key may not be read.
    """
    o = case.options
    tau = _float(o.get("temperature", "1"))
    scale = o.get("scale", "auto")
    s = 1 / math.sqrt(len(case.Q[0])) if scale == "auto" else 1.0 if scale == "none" \
        else _float(scale)
    arguments: dict[str, Any] = {"scale": s / tau}
    others = {k for k in ("keep", "key_lengths", "bias") if o.get(k) is not None}
    if o.get("mask") == "causal" and not others:
        return {**arguments, "is_causal": True}
    if o.get("mask") == "causal-bottom-right" and not others and tau == 1:
        with warnings.catch_warnings():  # it warns of NaNs that PyTorch >= 2.5 no longer makes
            warnings.simplefilter("ignore", UserWarning)
            return {**arguments, "attn_mask": causal_lower_right(case.n_q, case.n_k)}
    readable = torch.tensor(_readable(case), dtype=torch.bool)
    if o.get("bias") is None and tau == 1:
        return {**arguments, "attn_mask": readable}
    bias = torch.zeros(case.n_q, case.n_k, dtype=torch.float64) if o.get("bias") is None \
        else torch.tensor([[0.0 if b == "-oo" else _float(b) for b in row] for row in o["bias"]],
                          dtype=torch.float64)
    return {**arguments, "attn_mask": (bias / tau).masked_fill(~readable, -math.inf)}


def _sdpa(case: Case, values: torch.Tensor) -> list[list[float]]:
    out = F.scaled_dot_product_attention(_tensor(case.Q), _tensor(case.K), values,
                                         **_torch_arguments(case))
    return out.tolist()


def _exact(matrix: sp.ImmutableMatrix) -> list[list[float]]:
    return [[float(sp.N(matrix[i, j], 30)) for j in range(matrix.cols)]
            for i in range(matrix.rows)]


def _max_difference(a: list[list[float]], b: list[list[float]]) -> float:
    assert len(a) == len(b) and all(len(x) == len(y) for x, y in zip(a, b))
    return max(abs(x - y) if math.isfinite(y) else math.inf
               for row_a, row_b in zip(a, b) for x, y in zip(row_a, row_b))


@pytest.mark.parametrize("case", CASES, ids=[f"{c.kind}-{i}" for i, c in enumerate(CASES)])
def test_exact_result_agrees_with_scaled_dot_product_attention(case):
    need(torch is not None, "PyTorch is not installed (pip install torch==2.13.0, the CPU build)")
    trace = attention(case.Q, case.K, case.V, **case.options)
    A = _sdpa(case, torch.eye(case.n_k, dtype=torch.float64))  # A = A·I
    O = _sdpa(case, _tensor(case.V))
    assert _max_difference(_exact(trace.A), A) <= TOLERANCE
    assert _max_difference(_exact(trace.O), O) <= TOLERANCE
    for i, row in enumerate(_readable(case)):  # masked weights are 0 in both, exactly
        for j, ok in enumerate(row):
            if not ok:
                assert trace.A[i, j] is sp.S.Zero and A[i][j] == 0.0


def test_the_cases_cover_every_kind():
    assert sum(KINDS.values()) == len(CASES) >= 300
    assert any(c.n_q != c.n_k for c in CASES if c.kind == "cross")
    fully = [c for c in CASES if any(not any(r) for r in _readable(c))]
    assert len(fully) >= 40 and all(c.options.get("fully_masked") == "zero" for c in fully)
    arguments = [_torch_arguments(c) for c in CASES] if torch is not None else []
    if arguments:
        assert any(a.get("is_causal") for a in arguments)
        assert any(type(a.get("attn_mask")).__name__ == "CausalBias" for a in arguments)
        assert any(getattr(a.get("attn_mask"), "dtype", None) == torch.bool for a in arguments)
        assert any(getattr(a.get("attn_mask"), "dtype", None) == torch.float64 for a in arguments)


def test_uniform_policy_differs_from_pytorch_as_documented():
    """fully_masked = "uniform" is JAX's boolean-mask behaviour; PyTorch gives 0 (semantics.md)."""
    need(torch is not None, "PyTorch is not installed (pip install torch==2.13.0, the CPU build)")
    keep = [[False, False], [True, True]]
    trace = attention([[1], [2]], [[0], ["ln(3)"]], [[2], [6]], keep=keep, scale="none",
                      fully_masked="uniform")
    assert list(trace.A.row(0)) == [sp.Rational(1, 2)] * 2 and trace.O[0, 0] == 4
    mask = torch.tensor(keep)
    q, k, v = (torch.tensor(m, dtype=torch.float64) for m in ([[1.0], [2.0]],
                                                                 [[0.0], [math.log(3)]],
                                                                 [[2.0], [6.0]]))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=1.0).tolist()
    assert out[0] == [0.0]
    assert abs(out[1][0] - float(trace.O[1, 0])) <= TOLERANCE
