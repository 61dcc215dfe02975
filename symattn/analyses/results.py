"""What the analyses return: sweeps, gradients, weights with one output, temperature limits."""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from ..model import Axis, Problem, Trace, Upstream


@dataclass(frozen=True)
class RowAtPoint:
    """One query row at one point: exact values and their decimals."""

    row: int  # 0-based
    logits: tuple[sp.Expr, ...]  # -oo where masked
    weights: tuple[sp.Expr, ...]
    output: tuple[sp.Expr, ...]
    entropy: sp.Expr  # H = -sum a ln a = ln Z - sum a L
    top: sp.Expr  # the largest weight
    top_keys: tuple[int, ...]  # 0-based keys that carry it
    weight_decimals: tuple[str, ...]
    output_decimals: tuple[str, ...]
    entropy_decimal: str
    top_decimal: str


@dataclass(frozen=True)
class Point:
    """The values of the swept symbols (in axis order) and the rows computed there."""

    values: tuple[sp.Expr, ...]
    rows: tuple[RowAtPoint, ...]


@dataclass(frozen=True)
class Sweep:
    """A whole sweep: axes, rows, points (series by series, x within), the general weights."""

    problem: Problem
    axes: tuple[Axis, ...]
    rows: tuple[int, ...]
    points: tuple[Point, ...]
    general: tuple[tuple[sp.Expr, ...], ...] | None  # each row's weights in the symbols
    places: int
    digits: int
    max_difference: mpmath.mpf  # exact vs an independent mpmath recomputation, all points
    x_decimals: tuple[str, ...]  # the x values to 6 places (plot coordinates)

    @property
    def x(self) -> Axis:
        return self.axes[0]

    @property
    def series(self) -> Axis | None:
        return self.axes[1] if len(self.axes) == 2 else None

    @property
    def difference(self) -> str:
        """The largest difference of the cross-check, for reading (2 significant digits)."""
        return mpmath.nstr(self.max_difference, 2)

    def curve(self, series_index: int) -> tuple[Point, ...]:
        """The points of one series value (all points when there is one axis)."""
        n = len(self.x.values)
        return self.points[series_index * n:(series_index + 1) * n]


@dataclass(frozen=True)
class ProjectionGradients:
    """dX (and dY when keys and values come from Y), dW_Q, dW_K, dW_V."""

    dX: sp.ImmutableMatrix
    dW_Q: sp.ImmutableMatrix
    dW_K: sp.ImmutableMatrix
    dW_V: sp.ImmutableMatrix
    dY: sp.ImmutableMatrix | None = None


@dataclass(frozen=True)
class Gradients:
    """Every gradient of ℓ = Σ dO ⊙ O, exact; decimals when the problem has no symbols."""

    trace: Trace
    upstream: Upstream
    loss_value: sp.Expr
    matrices: dict[str, sp.ImmutableMatrix]  # dO, dV, dA, dL, dS, dR, dQ, dK
    means: tuple[sp.Expr | None, ...]  # ā_i = Σ_r a_ir dA_ir (None: a row reading no key)
    dtau: sp.Expr
    projections: ProjectionGradients | None
    decimals: dict[str, list[list[str]]]
    places: int
    row: int  # 0-based: the row whose softmax backward is written out
    jacobian: sp.ImmutableMatrix  # that row's softmax Jacobian diag(a) - a aᵀ

    def __getitem__(self, name: str) -> sp.ImmutableMatrix:
        return self.matrices[name]


@dataclass(frozen=True)
class GradientCheck:
    """How many partial derivatives were compared, at what precision, and the worst difference."""

    digits: int
    step: sp.Rational
    compared: int
    max_difference: mpmath.mpf
    where: str  # the entry with the largest difference, e.g. dK[2,1]
    values: tuple[tuple[sp.Symbol, sp.Expr], ...]  # sample values of declared symbols

    @property
    def difference(self) -> str:
        """The largest difference, for reading (2 significant digits)."""
        return mpmath.nstr(self.max_difference, 2)

    @property
    def passed(self) -> bool:
        return self.max_difference <= mpmath.mpf(10) ** -(self.digits // 2)


@dataclass(frozen=True)
class RowSet:
    """The exact set of weights with row i's output, and what it shows (full-length vectors)."""

    row: int  # 0-based
    support: tuple[int, ...]  # keys with a positive weight (0-based)
    weights: tuple[sp.Expr, ...]
    output: tuple[sp.Expr, ...]
    system: sp.ImmutableMatrix  # [V_S^T; 1^T]: (d_v + 1) x |support|
    rank: int
    null_basis: tuple[tuple[sp.Expr, ...], ...]  # directions n with [V^T; 1^T] n = 0
    vertices: tuple[tuple[sp.Expr, ...], ...]
    complete: bool  # vertices are all of them (else: the ends along the first direction)
    segment: tuple[sp.Expr, sp.Expr] | None  # w(t) = a + t n_1 stays in W for t in [t0, t1]
    pair: tuple[tuple[sp.Expr, ...], tuple[sp.Expr, ...]] | None
    distance: sp.Expr | None  # total variation 1/2 ||w - w'||_1 between the pair
    verified: bool  # both of the pair give o_i and sum to 1, checked exactly
    tops: tuple[tuple[int, ...], tuple[int, ...]] | None = None  # largest-weight keys of the pair
    decimals: dict[str, object] | None = None  # weights, output, vertices, pair, distance, segment

    @property
    def unique(self) -> bool:
        return not self.null_basis

    @property
    def dimension(self) -> int:
        return len(self.null_basis)


@dataclass(frozen=True)
class NonUniqueness:
    """The analysis of the chosen rows of one trace (rows reading no key are listed apart)."""

    trace: Trace
    rows: tuple[RowSet, ...]
    skipped: tuple[int, ...]  # fully masked rows whose weights are all 0 (no distribution)
    places: int = 4


@dataclass(frozen=True)
class RowLimit:
    """Where one row's weight goes: the keys with the largest logit, and the readable keys."""

    row: int
    top: tuple[int, ...]
    readable: tuple[int, ...]


@dataclass(frozen=True)
class TemperatureLimits:
    """A as τ → 0⁺ (all weight on the maximal logits, shared equally) and as τ → ∞ (uniform)."""

    cold: sp.ImmutableMatrix
    hot: sp.ImmutableMatrix
    rows: tuple[RowLimit, ...]
    proved: bool  # the rule holds on every entry (SymPy's limit agreed where it was asked)
    by_signs: bool = True  # every row read off the signs of its logit differences; False: a
    # row no precision decided went to SymPy's limit


@dataclass(frozen=True)
class Derivative:
    """∂A/∂x for x = τ or a declared symbol, exact, with its largest numeric disagreement."""

    name: str
    matrix: sp.ImmutableMatrix
    difference: float | None  # vs mpmath central differences (None when symbols remain)


@dataclass(frozen=True)
class ParameterReport:
    """What `symattn limits` shows: both temperature limits and one derivative with decimals."""

    trace: Trace
    limits: TemperatureLimits
    derivative: Derivative
    decimals: list[list[str]] | None  # of the derivative, when it has no symbols
    rounded: bool = False  # its exact entries are too long to write (float64 inputs): decimals only
