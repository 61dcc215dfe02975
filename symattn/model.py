"""The nouns: a Problem to solve, the Trace of every stage, and check Reports (all immutable)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from .lazy import Lazy as Lazy
from .lazy import Stage as _Stage
from .vocabulary import FULLY_MASKED_POLICIES as FULLY_MASKED_POLICIES, MASK_KINDS as MASK_KINDS
from .vocabulary import STAGES as STAGES


class ShownDecimal(sp.Symbol):
    """A terminating decimal as a problem written in decimals shows it (0.85, not 17/20): it
    stands for its exact rational in display forms only (exact.shown), nothing computes with
    it, and every printer prints it as its digits, being a symbol named by them."""

    def __new__(cls, digits: str, **assumptions: bool) -> ShownDecimal:  # pickle passes them
        return super().__new__(cls, digits, positive=True)


@dataclass(frozen=True)
class Grading:
    """How decimal answers are judged when not by correct rounding (a problem's [grading] table)."""

    tolerance: sp.Expr | None = None  # absolute
    relative: sp.Expr | None = None
    sigfigs: int | None = None
    rule: str | None = None  # "float32" | "float64" | "allclose" (vocabulary.GRADING_RULES)
    rtol: sp.Expr | None = None  # allclose: |given - exact| <= atol + rtol |exact|
    atol: sp.Expr | None = None


@dataclass(frozen=True)
class Projections:
    """Self-attention from X (cross-attention when Y gives the keys and values), with optional
    biases, each one row: Q = X W_Q + 1 b_Qᵀ."""

    X: sp.ImmutableMatrix
    W_Q: sp.ImmutableMatrix
    W_K: sp.ImmutableMatrix
    W_V: sp.ImmutableMatrix
    Y: sp.ImmutableMatrix | None = None
    b_Q: sp.ImmutableMatrix | None = None
    b_K: sp.ImmutableMatrix | None = None
    b_V: sp.ImmutableMatrix | None = None

    @property
    def source_of_keys(self) -> sp.ImmutableMatrix:
        return self.X if self.Y is None else self.Y

    @property
    def biased(self) -> bool:
        return any(b is not None for b in (self.b_Q, self.b_K, self.b_V))


@dataclass(frozen=True)
class Axis:
    """One swept symbol: a range from..to in equal steps, or listed values (all exact)."""

    symbol: sp.Symbol
    values: tuple[sp.Expr, ...]
    start: sp.Expr | None = None  # set for a range
    stop: sp.Expr | None = None

    @property
    def is_range(self) -> bool:
        return self.start is not None


@dataclass(frozen=True)
class SweepSpec:
    """What a sweep varies ([sweep]): one or two axes (the first along x) and the rows shown."""

    axes: tuple[Axis, ...]
    row: int | None = None  # 0-based; None = every row


@dataclass(frozen=True)
class Upstream:
    """Where the backward pass starts ([gradient]): dO = ∂ℓ/∂O (all ones for loss = "sum")."""

    dO: sp.ImmutableMatrix
    loss: str | None  # "sum", or None when dO is given
    row: int | None = None  # 0-based: the row whose softmax backward a derivation writes out


@dataclass(frozen=True)
class Lesson:
    """What a course page asks before its lab (a problem file's [page] table): predictions to
    write down and a claim to judge true or false, with the reason; English and Chinese."""

    predictions: tuple[str, ...] = ()
    predictions_zh: tuple[str, ...] | None = None
    claim: str | None = None
    claim_zh: str | None = None
    claim_answer: bool | None = None
    claim_reason: str | None = None
    claim_reason_zh: str | None = None


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
    title_zh: str | None = None  # the title of a Chinese derivation, when the file gives one
    tokens: tuple[str, ...] | None = None
    key_tokens: tuple[str, ...] | None = None
    symbols: tuple[sp.Symbol, ...] = ()
    source: str = "<problem>"
    answers: tuple[Any, ...] = ()  # Claims (symattn.claims) from the file's [answers] table
    grading: Grading = Grading()
    presentation: tuple[tuple[str, object], ...] = ()  # the file's [derivation] options
    projections: Projections | None = None  # Q = X W_Q, K = X W_K, V = X W_V when given
    sweep: SweepSpec | None = None  # the file's [sweep]
    gradient: Upstream | None = None  # the file's [gradient]
    decimals: bool = False  # the problem writes its numbers as decimals: show them so
    written: tuple[tuple[sp.Rational, str], ...] = ()  # decimals written with trailing zeros
    batch: tuple[int, ...] = ()  # the batch axes X (or Q) was picked from by index: (2,)
    start: str = "Q"  # where the problem starts: Q and K, or given scores R, S or logits L
    given_d_k: int | None = None  # d_k stated with given scores (R: its 1/√d_k is the scale)
    mask_bias: sp.Expr | None = None  # masks add this large negative number, not -oo (-10^9)
    page: Lesson | None = None  # the file's [page] table (predictions and a claim)
    layout: str = "rows"  # "columns": the file, and all it is shown as, one token per column

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
    def shown_stages(self) -> tuple[str, ...]:
        """The stages this problem has: from Q and K, or from the given scores or logits on
        (given scores are carried as Q = scores, K = I, which nothing shows)."""
        return STAGES if self.start == "Q" else ("V",) + STAGES[STAGES.index(self.start):]

    @property
    def key_dimension(self) -> int | None:
        """d_k as the problem states it (None: scores given without it)."""
        return self.d_k if self.start == "Q" else self.given_d_k

    @property
    def scale_factor(self) -> sp.Expr:
        """The factor s in S = s * R."""
        return 1 / sp.sqrt(self.key_dimension) if self.scale is None else self.scale

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


def stage_shapes(n_q: int, n_k: int, d_k: int, d_v: int) -> dict[str, tuple[int, int]]:
    """The shape of every stage from the four sizes."""
    return {"Q": (n_q, d_k), "K": (n_k, d_k), "V": (n_k, d_v),
            **dict.fromkeys("RSMLA", (n_q, n_k)), "O": (n_q, d_v)}


@dataclass(frozen=True)
class ShapeProblem:
    """A problem that gives only the shapes of Q, K and V (the course's first exercise), with a
    batch axis and heads if it says so: d_k and d_v split over the heads, W_O after them."""

    n_q: int
    n_k: int
    d_k: int
    d_v: int
    title: str | None = None
    title_zh: str | None = None
    source: str = "<problem>"
    answers: tuple[Any, ...] = ()
    grading: Grading = Grading()
    batch: int | None = None  # a leading batch axis of this size
    heads: int | None = None  # heads over which d_k and d_v are split
    d_out: int | None = None  # columns of W_O (with heads; default d_v)
    page: Lesson | None = None  # the file's [page] table (predictions and a claim)

    @property
    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Every stage's shape; with heads, R..A are (batch, heads, n_q, n_k), each head's
        output is concatenated (concat: n_q x d_v) and O = concat W_O."""
        front = (self.batch,) if self.batch else ()
        if not self.heads:
            return {name: front + shape for name, shape in
                    stage_shapes(self.n_q, self.n_k, self.d_k, self.d_v).items()}
        h = self.heads
        shapes = {"Q": (self.n_q, self.d_k), "K": (self.n_k, self.d_k), "V": (self.n_k, self.d_v),
                  **dict.fromkeys("RSMLA", (h, self.n_q, self.n_k)),
                  "concat": (self.n_q, self.d_v), "W_O": (self.d_v, self.d_out or self.d_v),
                  "O": (self.n_q, self.d_out or self.d_v)}
        return {name: (shape if name == "W_O" else front + shape) for name, shape in shapes.items()}

    def facts(self) -> Facts:
        """Shapes and sizes only: claims about values cannot be judged here."""
        scalars = {name: sp.Integer(getattr(self, name)) for name in ("n_q", "n_k", "d_k", "d_v")}
        scalars.update({name: sp.Integer(getattr(self, name)) for name in ("batch", "heads")
                        if getattr(self, name)})
        return Facts(self.shapes, scalars)


@dataclass(frozen=True)
class Facts:
    """What answers are judged against: shapes, scalars, and the exact stages when known."""

    shapes: dict[str, tuple[int, ...]]
    scalars: dict[str, sp.Expr]
    matrices: dict[str, sp.ImmutableMatrix] | None = None
    symbols: tuple[sp.Symbol, ...] = ()
    decimals: bool = False  # the problem is written in decimals: feedback shows values so
    columns: bool = False  # the matrices as a columns book shows them: a query's weights a column
    limits: dict[sp.Expr, sp.Expr] | None = None  # mask_bias: each value as with -oo masks
    batch: tuple[int, ...] = ()  # a shape claim may also give these axes first: torch's (2, 6, 2)

    def sample_points(self) -> list[dict[sp.Symbol, sp.Expr]]:
        """Points where expressions in the declared symbols are compared (all positive)."""
        if not self.symbols:
            return [{}]
        return [sample_values(self.symbols, start) for start in SAMPLE_STARTS]


SAMPLE_STARTS = (sp.Rational(3, 7), sp.Rational(13, 11), sp.Rational(2, 5))
"""Where the declared symbols' sample points start: the first is every check's, all three the
judge's (an expression equal at all three is compared exactly)."""


def sample_values(symbols: tuple[sp.Symbol, ...], start: sp.Rational = SAMPLE_STARTS[0]
                  ) -> dict[sp.Symbol, sp.Expr]:
    """Deterministic positive values for declared symbols: start, start + 2/7, start + 4/7, ..."""
    return {symbol: start + sp.Rational(2 * k, 7) for k, symbol in enumerate(symbols)}


LAZY_STAGES = ("R", "S", "M", "L", "E", "Z")


@dataclass(frozen=True)
class Trace:
    """Every stage of one exact computation, plus what the softmax did row by row.

    E holds exp(L) (0 where masked), Z the row sums of E (None for a fully masked row);
    A_ij = E_ij / Z_i, written as one fraction over the row's shared denominator.
    R, S, M, L, E and Z may be given as Lazy(function): they are built when first read.
    """

    problem: Problem
    R: _Stage[sp.ImmutableMatrix] = _Stage()
    S: _Stage[sp.ImmutableMatrix] = _Stage()
    M: _Stage[sp.ImmutableMatrix] = _Stage()
    L: _Stage[sp.ImmutableMatrix] = _Stage()
    E: _Stage[sp.ImmutableMatrix] = _Stage()
    Z: _Stage[tuple[sp.Expr | None, ...]] = _Stage()
    # _Stage() is no default (dataclass reads none from the class), which mypy cannot know
    A: sp.ImmutableMatrix  # type: ignore[misc]
    O: sp.ImmutableMatrix  # type: ignore[misc]
    readable: tuple[tuple[bool, ...], ...]  # type: ignore[misc]
    fully_masked_rows: tuple[int, ...] = ()
    masked_by_bias: tuple[tuple[bool, ...], ...] = ()  # mask_bias: keys hidden, yet read

    def __getstate__(self) -> dict[str, Any]:
        """Pickling and copying build the lazy stages first."""
        return dict(self.complete().__dict__)

    def complete(self) -> Trace:
        """This trace with every lazy stage built; documents and targets take complete traces only."""
        for name in LAZY_STAGES:
            getattr(self, name)
        return self

    @property
    def is_complete(self) -> bool:
        """True when no stage is left to build."""
        return not any(isinstance(self.__dict__[name], Lazy) for name in LAZY_STAGES)

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

    def facts(self) -> Facts:
        """What claims about this trace are judged against."""
        p = self.problem
        scalars = {"n_q": sp.Integer(p.n_q), "n_k": sp.Integer(p.n_k), "d_v": sp.Integer(p.d_v),
                   "tau": p.temperature, "s": p.scale_factor}
        if p.key_dimension is not None:  # given S or L already hold the book's 1/√d_k: s
            scalars["d_k"] = sp.Integer(p.key_dimension)
            scalars["s"] = scalars["s"] if p.start in "QR" else 1 / sp.sqrt(p.key_dimension)
        shapes = stage_shapes(p.n_q, p.n_k, p.d_k, p.d_v)
        return Facts({name: shapes[name] for name in p.shown_stages}, scalars,
                     {name: self.stage(name) for name in p.shown_stages}, p.symbols, p.decimals,
                     batch=p.batch)


@dataclass(frozen=True)
class MultiHeadProblem:
    """Several heads over the same X, concatenated and projected: MHA(X) = Concat(heads) W_O."""

    heads: tuple[Problem, ...]
    W_O: sp.ImmutableMatrix
    title: str | None = None
    source: str = "<problem>"
    presentation: tuple[tuple[str, object], ...] = ()
    answers: tuple[Any, ...] = ()  # claims about the output: O is MHA(X) here
    grading: Grading = Grading()
    title_zh: str | None = None
    page: Lesson | None = None  # the file's [page] table (predictions and a claim)
    b_O: sp.ImmutableMatrix | None = None  # the output bias, one row: C W_O + 1 b_Oᵀ
    num_heads: int | None = None  # the heads split from whole projections (nn.MultiheadAttention)

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """The declared symbols (every head reads the same [symbols] table)."""
        return self.heads[0].symbols

    @property
    def layout(self) -> str:
        return self.heads[0].layout


@dataclass(frozen=True)
class MultiHeadTrace:
    """Each head's trace, their concatenation C (n x h·d_v) and the output C W_O (+ 1 b_Oᵀ)."""

    problem: MultiHeadProblem
    heads: tuple[Trace, ...]
    concat: sp.ImmutableMatrix
    output: sp.ImmutableMatrix

    def complete(self) -> MultiHeadTrace:
        """This trace with every head's lazy stages built."""
        for head in self.heads:
            head.complete()
        return self

    def facts(self) -> Facts:
        """Claims on a multi-head problem: O (and n_q) means MHA(X); concat is the heads'
        outputs side by side before W_O; heads[h].A (any stage) is head h's (1-based)."""
        matrices = {"O": self.output, "concat": self.concat, "W_O": self.problem.W_O}
        for h, head in enumerate(self.heads, start=1):
            matrices.update({f"heads[{h}].{name}": head.stage(name) for name in STAGES})
        return Facts({name: m.shape for name, m in matrices.items()},
                     {"n_q": sp.Integer(self.output.rows)}, matrices, self.problem.symbols,
                     batch=self.heads[0].problem.batch)


