"""Why a wrong claim cannot be right for any weights: a weight row that does not sum to 1, or an
output row outside every weighting of the values its query may read (their convex hull).

Decimals count as what they may round from: a claim is impossible only when no value within half
a unit of its last written digit would do.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from sympy.solvers.simplex import InfeasibleLPError, linprog

from ..model import Facts
from ..numeric import context, to_mpf
from ..numeric_decimals import decimal_string
from ..parse.claims import Given, Target
from .book import engine_facts

CONTEXT = context(30)
MAX_HULL_KEYS = 64  # beyond this many readable keys only the bounding box is tested
EPSILON = CONTEXT.mpf(10) ** -25  # numbers are compared at 30 digits: closer is "equal"


def _number(x: sp.Expr):
    return to_mpf(CONTEXT, x, {})


def impossible(target: Target, given: list[list[Given]], facts: Facts,
               widen: Callable[[int, int], sp.Rational] | None = None
               ) -> tuple[tuple[str, tuple], ...]:
    """Remarks (key, values) on the claimed rows of A or O that no weights could produce (the
    claimed columns, in a problem laid out in columns: each is one query's); widen(i, j): how
    much further than its rounding entry (i, j) may be under the judging rule."""
    if facts.columns:
        return _by_columns(target, given, facts, widen)
    head, _, stage = target.name.rpartition(".")
    if target.kind not in ("stage", "row") or stage not in ("A", "O") or not facts.matrices \
            or f"{head}.V".lstrip(".") not in facts.matrices:
        return ()  # a multi-head problem's O is projected by W_O, no weighting of V
    rows = range(facts.shapes[target.name][0]) if target.kind == "stage" else [target.row]
    out = []
    for i, entries in zip(rows, given):
        if any(g.value is None or g.value.free_symbols for g in entries):
            continue
        values = [g.value for g in entries]
        slack = [half_unit(g) + (widen(i, j) if widen else 0) for j, g in enumerate(entries)]
        if stage == "A":
            total = sp.Add(*values)
            if abs(_number(total) - 1) > _number(sp.Add(*slack)) + EPSILON:
                out.append(("row_sum", (i + 1, sum_text(total))))
        elif not reachable(facts, i, values, slack, head):
            out.append(("outside_hull", (i + 1,)))
    return tuple(out)


def _by_columns(target: Target, given: list[list[Given]], facts: Facts,
                widen: Callable[[int, int], sp.Rational] | None = None
                ) -> tuple[tuple[str, tuple], ...]:
    """impossible() of the book's columns, as the engine's rows (each remark says column);
    widen is the book's, so the engine's entry (i, j) is the book's (j, i)."""
    if target.kind == "stage":
        rows, turned = [list(column) for column in zip(*given)], target
    elif target.kind == "column":
        rows, turned = [[g for row in given for g in row]], Target("row", target.name,
                                                                  row=target.column)
    else:
        return ()  # a row of the book's A or O is one key's, or one value dimension's
    book_widen = None if widen is None else (lambda i, j: widen(j, i))
    return tuple((f"{key}_columns", values)
                 for key, values in impossible(turned, rows, engine_facts(facts), book_widen))


def sum_text(total: sp.Expr) -> str:
    """A row sum that is not 1, with enough places to show that it is not (1.00000001, never
    1): six, or one past its first digit that differs from 1."""
    difference = abs(_number(total) - 1)
    places = 6 if difference >= CONTEXT.mpf(10) ** -6 else \
        min(30, 1 - int(CONTEXT.floor(CONTEXT.log10(difference))))
    text = decimal_string(total, places)
    return text.rstrip("0").rstrip(".") if "." in text else text


def half_unit(g: Given) -> sp.Rational:
    """Half a unit in the last written digit of a decimal (0 for an exact value)."""
    return sp.S.Zero if g.places is None else sp.Rational(1, 2) * sp.Rational(10) ** -g.places


def reachable(facts: Facts, i: int, output: list[sp.Expr], slack: list[sp.Expr],
              head: str = "") -> bool:
    """Whether some weights on the keys row i reads give `output` within `slack` per column
    (head: "heads[2]" for the weights and values of head 2 of a multi-head problem)."""
    prefix = f"{head}." if head else ""
    A, V = facts.matrices[prefix + "A"], facts.matrices[prefix + "V"]
    keys = [j for j in range(A.cols) if A[i, j] != 0]
    if not keys or len(output) != V.cols:
        return True
    for c, (o, s) in enumerate(zip(output, slack)):
        column = [_number(V[j, c]) for j in keys]
        if not min(column) - _number(s) - EPSILON <= _number(o) <= max(column) + _number(s) + EPSILON:
            return False
    exact = all(x.is_Rational for x in output) and all(
        V[j, c].is_Rational for j in keys for c in range(V.cols))
    if not exact or len(keys) > MAX_HULL_KEYS or V.cols < 2:
        return True
    rows = [[V[j, c] for j in keys] for c in range(V.cols)]
    upper = rows + [[-x for x in row] for row in rows]
    bounds = [o + s for o, s in zip(output, slack)] + [s - o for o, s in zip(output, slack)]
    try:
        linprog(sp.Matrix([[0] * len(keys)]), sp.Matrix(upper), sp.Matrix(bounds),
                sp.Matrix([[1] * len(keys)]), sp.Matrix([1]))
    except InfeasibleLPError:
        return False
    return True
