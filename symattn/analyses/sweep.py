"""Parameter sweeps: weights, output, weight entropy and maximum weight at every point, exactly."""

from __future__ import annotations

from itertools import product

import mpmath
import sympy as sp

from ..errors import InputError, ProblemError
from ..exact.attention import attend
from ..exact.substitute import substitute
from ..model import Axis, Problem, SweepSpec, Trace
from ..numeric import Evaluator, context, recompute
from ..numeric_decimals import decimal_string
from ..parse.primes import log_reduced
from .results import Point, RowAtPoint, Sweep


def sweep(problem: Problem, spec: SweepSpec | None = None, *, row: int | None = None,
          places: int = 4, digits: int = 50) -> Sweep:
    """Compute attention at every point of the problem's [sweep] (or the spec given).

    row (1-based) overrides the table's row; by default every query row is tabulated.

    Raises:
        InputError, ProblemError: a bad [sweep] table, or a point where the problem fails.
    """
    spec = spec or problem.sweep
    if spec is None:
        raise InputError('the problem has no [sweep] table (e.g. theta = {from = "0", to = '
                         '"pi/2", steps = 9})', source=problem.source, key="sweep")
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
        return substitute(problem, assignment)
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
