"""Parameter sweeps: weights, output, weight entropy and maximum weight at every point, exactly."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
import mpmath
import sympy as sp

from .errors import ProblemError
from .model import Problem, Trace
from .numeric import Evaluator, context, decimal_string, recompute
from .pipeline import attend
from .primes import log_reduced
from .sweep_spec import Axis, SweepSpec, at_point, read_sweep


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


def sweep(problem: Problem, spec: SweepSpec | None = None, *, row: int | None = None,
          places: int = 4, digits: int = 50) -> Sweep:
    """Compute attention at every point of the problem's [sweep] (or the spec given).

    row (1-based) overrides the table's row; by default every query row is tabulated.

    Raises:
        InputError, ProblemError: a bad [sweep] table, or a point where the problem fails.
    """
    spec = spec or read_sweep(problem)
    chosen = spec.row if row is None else row - 1
    if chosen is not None and not 0 <= chosen < problem.n_q:
        raise ProblemError(f"row must be from 1 to {problem.n_q}", source=problem.source,
                           key="sweep.row")
    rows = tuple(range(problem.n_q)) if chosen is None else (chosen,)
    series = spec.axes[1].values if len(spec.axes) == 2 else (None,)
    points, worst = [], mpmath.mpf(0)
    for s, x in product(series, spec.axes[0].values):
        values = (x,) if s is None else (x, s)
        point_problem = _at(problem, spec.axes, values)
        trace = attend(point_problem)
        point, difference = _point(trace, rows, values, places, digits)
        points.append(point)
        worst = max(worst, difference)
    return Sweep(problem, spec.axes, rows, tuple(points), _general(problem, rows), places,
                 digits, worst, tuple(decimal_string(x, 6) for x in spec.axes[0].values))


def _at(problem: Problem, axes: tuple[Axis, ...], values: tuple[sp.Expr, ...]) -> Problem:
    assignment = {axis.symbol: value for axis, value in zip(axes, values)}
    try:
        return at_point(problem, assignment)
    except ProblemError:
        raise
    except (ValueError, ArithmeticError) as error:  # SymPy refusing a substituted value
        where = ", ".join(f"{s.name} = {sp.sstr(v)}" for s, v in assignment.items())
        raise ProblemError(f"at {where}: {error}", source=problem.source, key="sweep") from None


def _general(problem: Problem, rows: tuple[int, ...]) -> tuple[tuple[sp.Expr, ...], ...] | None:
    """Each row's weights as functions of the symbols, when the exact pipeline gives them."""
    try:
        trace = attend(problem)
    except ProblemError:
        return None
    return tuple(tuple(trace.A.row(i)) for i in rows)


def entropy(trace: Trace, i: int) -> sp.Expr:
    """H_i = -sum_j a_ij ln a_ij, written ln Z_i - sum_j a_ij L_ij (ln a_ij = L_ij - ln Z_i)."""
    a = trace.A.row(i)
    if trace.Z[i] is None:  # a fully masked row under a policy: the weights themselves
        return sp.Add(*(-x * sp.log(x) for x in a if x != 0))
    terms = [a[j] * trace.L[i, j] for j, ok in enumerate(trace.readable[i]) if ok]
    return _log(trace.Z[i]) - sp.Add(*terms)


def _log(z: sp.Expr) -> sp.Expr:
    """ln z for z > 0, logarithms of rationals reduced to primes (ln 6 = ln 2 + ln 3)."""
    if z.is_Rational:
        return log_reduced(z)
    expanded = sp.expand_log(sp.log(z), force=True)  # ln(2 e^x) = ln 2 + x
    return expanded.xreplace({atom: log_reduced(atom.args[0]) for atom in expanded.atoms(sp.log)
                              if atom.args[0].is_Rational})


def _point(trace: Trace, rows: tuple[int, ...], values: tuple[sp.Expr, ...], places: int,
           digits: int) -> tuple[Point, mpmath.mpf]:
    exact = Evaluator(digits)
    numeric = recompute(trace.problem, digits)
    ctx = context(digits)
    worst = ctx.zero
    out = []
    for i in rows:
        weights = tuple(trace.A.row(i))
        approx = [exact(x) for x in weights]
        h = entropy(trace, i)
        top = max(approx)
        ties = tuple(j for j, x in enumerate(approx) if abs(x - top) <= ctx.mpf(10) ** -(digits - 5))
        out.append(RowAtPoint(
            row=i, logits=tuple(trace.L.row(i)), weights=weights, output=tuple(trace.O.row(i)),
            entropy=h, top=weights[ties[0]], top_keys=ties,
            weight_decimals=tuple(decimal_string(x, places) for x in weights),
            output_decimals=tuple(decimal_string(x, places) for x in trace.O.row(i)),
            entropy_decimal=decimal_string(h, places), top_decimal=decimal_string(weights[ties[0]], places)))
        a = numeric["A"][i]
        h_numeric = -ctx.fsum(x * ctx.log(x) for x in a if x > 0)
        pairs = list(zip(approx, a)) + list(zip((exact(x) for x in trace.O.row(i)), numeric["O"][i]))
        pairs.append((exact(h), h_numeric))
        worst = max([worst] + [abs(x - y) for x, y in pairs])
    return Point(values, tuple(out)), worst
