"""The nouns: a Problem to solve, the Trace of every stage, and check Reports (all immutable)."""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

STAGES = ("Q", "K", "V", "R", "S", "M", "L", "A", "O")
MASK_KINDS = ("none", "causal", "causal-bottom-right")
FULLY_MASKED_POLICIES = ("error", "zero", "uniform")


@dataclass(frozen=True)
class Problem:
    """One attention problem, every value exact; rows and columns as in the course (0-based here)."""

    Q: sp.ImmutableMatrix
    K: sp.ImmutableMatrix
    V: sp.ImmutableMatrix
    mask: str = "none"
    keep: tuple[tuple[bool, ...], ...] | None = None
    key_lengths: tuple[int, ...] | None = None
    bias: sp.ImmutableMatrix | None = None
    temperature: sp.Expr = sp.S.One
    scale: sp.Expr | None = None  # None: 1/sqrt(d_k)
    fully_masked: str = "error"
    title: str | None = None
    tokens: tuple[str, ...] | None = None
    key_tokens: tuple[str, ...] | None = None
    symbols: tuple[sp.Symbol, ...] = ()
    source: str = "<problem>"

    @property
    def n_q(self) -> int:
        return self.Q.rows

    @property
    def n_k(self) -> int:
        return self.K.rows

    @property
    def d_k(self) -> int:
        return self.Q.cols

    @property
    def d_v(self) -> int:
        return self.V.cols

    @property
    def scale_factor(self) -> sp.Expr:
        """The factor s in S = s * R."""
        return 1 / sp.sqrt(self.d_k) if self.scale is None else self.scale

    @property
    def row_labels(self) -> tuple[str, ...]:
        return self.tokens or tuple(str(i) for i in range(1, self.n_q + 1))

    @property
    def column_labels(self) -> tuple[str, ...]:
        if self.key_tokens:
            return self.key_tokens
        if self.tokens and self.n_q == self.n_k:
            return self.tokens
        return tuple(str(j) for j in range(1, self.n_k + 1))


@dataclass(frozen=True)
class Trace:
    """Every stage of one exact computation, plus what the softmax did row by row.

    E holds exp(L) (0 where masked), Z the row sums of E (None for a fully masked row);
    A_ij = E_ij / Z_i, written as one fraction over the row's shared denominator.
    """

    problem: Problem
    R: sp.ImmutableMatrix
    S: sp.ImmutableMatrix
    M: sp.ImmutableMatrix
    L: sp.ImmutableMatrix
    E: sp.ImmutableMatrix
    Z: tuple[sp.Expr | None, ...]
    A: sp.ImmutableMatrix
    O: sp.ImmutableMatrix
    readable: tuple[tuple[bool, ...], ...]
    fully_masked_rows: tuple[int, ...] = ()

    @property
    def Q(self) -> sp.ImmutableMatrix:
        return self.problem.Q

    @property
    def K(self) -> sp.ImmutableMatrix:
        return self.problem.K

    @property
    def V(self) -> sp.ImmutableMatrix:
        return self.problem.V

    def stage(self, name: str) -> sp.ImmutableMatrix:
        """The matrix of a stage by its letter (Q, K, V, R, S, M, L, A, O)."""
        if name not in STAGES:
            raise KeyError(f"no stage {name!r}; stages are {', '.join(STAGES)}")
        return getattr(self, name)

    @property
    def shapes(self) -> dict[str, tuple[int, int]]:
        return {name: self.stage(name).shape for name in STAGES}

    def _repr_markdown_(self) -> str:
        """Jupyter shows the derivation (summary detail)."""
        from .api import render
        return render(self, "markdown", detail="summary")

    def _repr_latex_(self) -> str:
        """For front ends that prefer LaTeX: the weights and the output as display math."""
        from .renderers.latex import weights_and_output
        return weights_and_output(self)


@dataclass(frozen=True)
class CheckResult:
    """One invariant or cross-check: passed is True, False, or None (could not be decided)."""

    name: str
    passed: bool | None
    detail: str


@dataclass(frozen=True)
class Report:
    """The outcome of all checks on one trace; a failed check is data, not an exception."""

    results: tuple[CheckResult, ...]
    digits: int
    max_difference: object = field(default=None)  # an mpmath mpf, or None

    @property
    def passed(self) -> bool:
        return all(result.passed is True for result in self.results)
