"""Numbers in private mpmath contexts (the global ``mpmath.mp`` is untouched).

``recompute`` is the independent cross-check: it shares nothing with the exact pipeline but
the parsed inputs (Q, K, V are formed again from X, the projections and their biases, masks are
re-derived, the softmax subtracts the row maximum as float code does). ``Evaluator`` and
``exact_values`` evaluate the exact results themselves, fast: each distinct subexpression (a
row's shared denominator, every exp atom) is evaluated once.
"""

from __future__ import annotations

import functools

from collections.abc import Callable, Mapping

import mpmath
import sympy as sp
from mpmath.libmp import to_str

from .limits import MAX_EXP_ARGUMENT, MAX_WORKING_DIGITS
from .model import Problem
from .numeric_inputs import inputs
from .numeric_scores import scores, shared_exp

Grid = list[list[mpmath.mpf]]
GUARD_DIGITS = 10
LOG10_2 = 0.30103
REFINE_BITS = 16
"""An exp argument (a logit) beyond 2^16 is evaluated again with as many more digits as it
has before the binary point: exp turns its absolute error into relative error. Below it the
guard digits absorb the loss, and results are the same as without refining."""


class PrecisionError(ArithmeticError):
    """A value that cannot be known to the digits asked within MAX_WORKING_DIGITS digits."""

    def __init__(self, needed: int) -> None:
        self.needed = needed
        super().__init__(f"needs about {needed} working digits (limit {MAX_WORKING_DIGITS})")


def working_digits(digits: int, bits: int) -> int:
    """digits, plus enough for an exp argument of `bits` bits, in steps of 100 (so that nearby
    magnitudes share one precision); PrecisionError past MAX_WORKING_DIGITS."""
    needed = digits + -(-int(bits * LOG10_2 + GUARD_DIGITS) // 100) * 100
    if needed > MAX_WORKING_DIGITS:
        raise PrecisionError(needed)
    return needed


@functools.lru_cache(maxsize=64)
def context(digits: int) -> mpmath.MPContext:
    """A private mpmath context working at digits plus guard digits, one per precision (making
    one costs half a millisecond): share it, never change its precision."""
    ctx = mpmath.MPContext()
    ctx.dps = digits + GUARD_DIGITS
    return ctx


def to_mpf(ctx: mpmath.MPContext, expr: sp.Expr, values: Mapping[sp.Symbol, sp.Expr]) -> mpmath.mpf:
    """Evaluate an exact value to the context's precision (symbols replaced by values).

    Calls with the same precision and values share one memoizing Evaluator, so evaluating
    every entry of a stage evaluates each row's shared denominator once. The value is
    rounded to dps + 5 digits, as SymPy's evalf(dps + 5) gives it.
    """
    if expr is sp.S.NegativeInfinity:
        return ctx.ninf
    if expr.is_Rational:
        return ctx.mpf(int(expr.p)) / int(expr.q)
    value = _shared_evaluator(ctx.dps, values)(expr)
    if not hasattr(value, "_mpf_"):  # a complex value (mpc) is not a real number
        raise ValueError(f"cannot evaluate {expr} numerically")
    # Rounded to dps + 5 significant digits, as evalf(dps + 5) printed it before: the same
    # numbers (so derivations print the same cross-check differences), found faster.
    return ctx.mpf(to_str(value._mpf_, ctx.dps + 5))


def evalf_mpf(ctx: mpmath.MPContext, expr: sp.Expr,
              values: Mapping[sp.Symbol, sp.Expr]) -> mpmath.mpf:
    """SymPy's evalf (adaptive precision) of one value; the Evaluator's fallback."""
    value = expr.evalf(ctx.dps + 5, subs=dict(values)) if values else expr.evalf(ctx.dps + 5)
    if not value.is_Number:
        raise ValueError(f"cannot evaluate {expr} numerically")
    return ctx.mpf(str(value))


EXTRA_DIGITS = 10  # the Evaluator works this far beyond the precision asked for
CANCELLED_BITS = int(EXTRA_DIGITS * 3.32)  # a sum that lost more than this goes to evalf
MEMO_LIMIT = 200_000  # entries an Evaluator remembers before starting afresh


class Evaluator:
    """Values of exact SymPy expressions at a fixed precision, memoized by subexpression.

    A walk over Add, Mul, Pow, exp, log, sin, cos, tan, pi, E, rationals and declared symbols
    (given values), working EXTRA_DIGITS beyond `digits`; any other node, and any sum whose
    terms cancel more than EXTRA_DIGITS digits, goes to SymPy's adaptive evalf. The
    weights of one row share their denominator and atoms repeat across rows, so an n = 32
    result needs a few hundred exponentials, not tens of thousands.
    """

    def __init__(self, digits: int = 50, values: Mapping[sp.Symbol, sp.Expr] | None = None
                 ) -> None:
        self.digits = digits
        self.ctx = context(digits + EXTRA_DIGITS)
        self.values = dict(values or {})
        self.memo: dict[sp.Expr, mpmath.mpf] = {}
        self._finer: dict[int, Evaluator] = {}
        c = self.ctx
        self._nodes: dict[type, Callable[[sp.Expr], mpmath.mpf]] = {
            sp.Add: self._sum,
            sp.Mul: lambda e: c.fprod(self(a) for a in e.args),
            sp.Pow: self._power,
            sp.exp: self._exp,
            sp.log: lambda e: c.log(self(e.args[0])),
            sp.sin: lambda e: c.sin(self(e.args[0])),
            sp.cos: lambda e: c.cos(self(e.args[0])),
            sp.tan: lambda e: c.tan(self(e.args[0])),
        }

    def __call__(self, expr: sp.Expr) -> mpmath.mpf:
        value = self.memo.get(expr)
        if value is None:
            value = self._evaluate(expr)
            if len(self.memo) >= MEMO_LIMIT:
                self.memo.clear()
            self.memo[expr] = value
        return value

    def _evaluate(self, expr: sp.Expr) -> mpmath.mpf:
        c = self.ctx
        if expr.is_Rational:
            return c.mpf(int(expr.p)) / int(expr.q) if expr.q != 1 else c.mpf(int(expr.p))
        if expr is sp.S.NegativeInfinity:
            return c.ninf
        if expr is sp.pi:
            return +c.pi
        if expr is sp.E:
            return +c.e
        if expr.is_Symbol and expr in self.values:
            return self(self.values[expr])
        node = self._nodes.get(type(expr))
        return node(expr) if node is not None else evalf_mpf(c, expr, self.values)

    def _sum(self, expr: sp.Expr) -> mpmath.mpf:
        """fsum of the terms; where they cancel more than EXTRA_DIGITS, evalf (adaptive)."""
        c = self.ctx
        terms = [self(a) for a in expr.args]
        total = c.fsum(terms)
        if c.isfinite(total):
            largest = max(c.mag(t) for t in terms if t)
            if not total or c.mag(total) < largest - CANCELLED_BITS:
                return evalf_mpf(c, expr, self.values)
        return total

    def _exp(self, expr: sp.Expr) -> mpmath.mpf:
        """exp, its argument evaluated again with more digits when it is large (REFINE_BITS)."""
        argument = expr.args[0]
        x = self(argument)
        if hasattr(x, "_mpf_") and x and self.ctx.isfinite(x) and self.ctx.mag(x) > REFINE_BITS:
            digits = working_digits(self.digits, self.ctx.mag(x))
            finer = self._finer.get(digits)
            if finer is None:
                finer = self._finer[digits] = Evaluator(digits, self.values)
            x = finer(argument)
        return self.ctx.exp(x)

    def _power(self, expr: sp.Expr) -> mpmath.mpf:
        base, exponent = expr.args
        x = self(base)
        if exponent.is_Integer:
            return x ** int(exponent)
        if exponent.is_Rational and x > 0:
            p, q = int(exponent.p), int(exponent.q)
            root = self.ctx.sqrt(x) if q == 2 else self.ctx.root(x, q)
            return root ** p
        return self.ctx.power(x, self(exponent))

    def grid(self, matrix: sp.ImmutableMatrix) -> Grid:
        """Every entry of a matrix, as rows of numbers."""
        return [[self(x) for x in row] for row in matrix.tolist()]


_EVALUATORS: dict[tuple, Evaluator] = {}


def _shared_evaluator(digits: int, values: Mapping[sp.Symbol, sp.Expr]) -> Evaluator:
    key = (digits, tuple(values.items()))
    evaluator = _EVALUATORS.get(key)
    if evaluator is None:
        if len(_EVALUATORS) >= 8:
            _EVALUATORS.clear()
        evaluator = _EVALUATORS[key] = Evaluator(digits, values)
    return evaluator


def forget() -> None:
    """Drop the values to_mpf remembers (benchmarks start each run from nothing)."""
    _EVALUATORS.clear()


def exact_values(trace, digits: int = 50, stages: tuple[str, ...] = ("A", "O"),
                 values: Mapping[sp.Symbol, sp.Expr] | None = None) -> dict[str, Grid]:
    """The trace's exact stages evaluated to `digits` digits (A and O by default).

    Evaluates the exact expressions themselves; recompute() is the independent check of them.
    """
    evaluator = Evaluator(digits, values)
    out = {name: evaluator.grid(trace.stage(name)) for name in stages}
    ctx = context(digits)
    return {name: [[ctx.mpf(x) for x in row] for row in grid] for name, grid in out.items()}


def _grid(ctx: mpmath.MPContext, matrix: sp.ImmutableMatrix,
          values: Mapping[sp.Symbol, sp.Expr]) -> Grid:
    return [[to_mpf(ctx, matrix[i, j], values) for j in range(matrix.cols)]
            for i in range(matrix.rows)]


def recompute(problem: Problem, digits: int = 50,
              values: Mapping[sp.Symbol, sp.Expr] | None = None) -> dict[str, Grid]:
    """Every stage R, S, M, L, A, O as mpmath numbers (masked entries of M and L are -inf).

    Logits beyond 2^REFINE_BITS are computed again with as many more digits as they have
    before the point, so that the softmax's differences of logits keep `digits` digits.

    Raises:
        PrecisionError: the logits need more than MAX_WORKING_DIGITS digits.
    """
    kept = _LAST_RECOMPUTED[0] if _LAST_RECOMPUTED and not values else None
    if kept is not None and kept[0] is problem and kept[1] >= digits:
        return dict(kept[2])  # the check's numbers serve the derivation's decimals
    stages = _recompute(problem, digits, values)
    bits = max((mpmath.mag(x) for row in stages["L"] for x in row if x and mpmath.isfinite(x)),
               default=0)
    if bits > REFINE_BITS:
        stages = _recompute(problem, working_digits(digits, bits), values)
    if not values:
        _LAST_RECOMPUTED[:] = [(problem, digits, stages)]
    return dict(stages)


_LAST_RECOMPUTED: list[tuple[Problem, int, dict[str, Grid]]] = []
"""The last recomputation of a problem without values, reused when the same problem is asked
for as many digits or fewer (a command checks at 50 digits, then writes decimals from 24)."""


def _recompute(problem: Problem, digits: int,
               values: Mapping[sp.Symbol, sp.Expr] | None) -> dict[str, Grid]:
    ctx = context(digits)
    values = values or {}
    Q, K, V = inputs(ctx, problem, lambda m: _grid(ctx, m, values))
    s = to_mpf(ctx, problem.scale_factor, values)
    tau = to_mpf(ctx, problem.temperature, values)
    bias = _grid(ctx, problem.bias, values) if problem.bias is not None else None
    R, S, M, L = scores(ctx, problem, Q, K, bias, s, tau)
    exps: dict = {}  # equal differences of logits share one exp
    A = [stable_softmax(ctx, row, problem.fully_masked, exps) for row in L]
    O = [[ctx.fsum(a * V[j][c] for j, a in enumerate(weights)) for c in range(problem.d_v)]
         for weights in A]
    return {"R": R, "S": S, "M": M, "L": L, "A": A, "O": O}


def stable_softmax(ctx: mpmath.MPContext, logits: list[mpmath.mpf], policy: str,
                   memo: dict | None = None) -> list[mpmath.mpf]:
    """Softmax after subtracting the largest finite logit; a row with none follows the policy.
    memo: the exponentials of the differences already met (rows repeat)."""
    finite = [x for x in logits if x != ctx.ninf]
    if not finite:
        weight = ctx.zero if policy == "zero" else ctx.one / len(logits)
        return [weight] * len(logits)
    top = max(finite)
    exps = [ctx.zero if x == ctx.ninf else shared_exp(ctx, x - top, memo) for x in logits]
    total = ctx.fsum(exps)
    return [x / total for x in exps]


def has_huge_exp(expr: sp.Expr) -> bool:
    """Whether expr holds exp of a number beyond MAX_EXP_ARGUMENT (only logits are that
    large): SymPy's simplify guesses such values numerically and overflows."""
    ctx = context(5)
    return any(a.args[0].is_number and abs(to_mpf(ctx, a.args[0], {})) > MAX_EXP_ARGUMENT
               for a in expr.atoms(sp.exp))
