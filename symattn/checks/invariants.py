"""Invariants proved on the exact trace, and the stage-by-stage cross-check against mpmath."""

from __future__ import annotations

from typing import Mapping

import mpmath
import sympy as sp

from ..exact.attention import attend
from ..model import CheckResult, Problem, Report, Trace, stage_shapes
from ..numeric import context, recompute, to_mpf

COMPARED = ("R", "S", "M", "L", "A", "O")
AFTER_SHAPES = ("rows of A sum to 1", "masked weights are 0", "weights are non-negative",
                "outputs within the readable values", "exact = numeric", "permutation equivariance")


def check(trace: Trace, digits: int = 50) -> Report:
    """Run every invariant and the numeric cross-check; failures are data in the report.

    Symbols, if any, are given sample values for the numeric parts (named in the report).
    """
    values = sample_values(trace)
    shapes = check_shapes(trace)
    if not shapes.passed:  # the other checks index the stages by their shapes
        skipped = tuple(CheckResult(name, None, "not run: a stage has the wrong shape")
                        for name in AFTER_SHAPES)
        return Report(results=(shapes, *skipped), digits=digits, max_difference=None)
    cross, difference = cross_check(trace, digits, values)
    results = (shapes, check_row_sums(trace), check_masked_zero(trace),
               check_nonnegative(trace, digits, values), check_output_bounds(trace, digits, values),
               cross, check_permutation(trace))
    return Report(results=results, digits=digits, max_difference=difference)


def sample_values(trace: Trace) -> dict[sp.Symbol, sp.Expr]:
    """Deterministic sample values for declared symbols: 3/7, 5/7, 9/7, ..."""
    return {symbol: sp.Rational(3 + 2 * k, 7) for k, symbol in enumerate(trace.problem.symbols)}


def _at(values: Mapping[sp.Symbol, sp.Expr]) -> str:
    return f" at {', '.join(f'{s} = {v}' for s, v in values.items())}" if values else ""


def check_shapes(trace: Trace) -> CheckResult:
    p = trace.problem
    expected = stage_shapes(p.n_q, p.n_k, p.d_k, p.d_v)
    wrong = [f"{name} is {trace.stage(name).shape}, expected {shape}"
             for name, shape in expected.items() if trace.stage(name).shape != shape]
    detail = "; ".join(wrong) or (f"R, S, M, L, A are {p.n_q}x{p.n_k}; O is {p.n_q}x{p.d_v}")
    return CheckResult("shapes", not wrong, detail)


def is_exactly_one(total: sp.Expr) -> bool | None:
    """Decide total == 1 exactly: rationals directly, else over a common denominator (read
    off the terms when they already share one, as a row of A does; else by together)."""
    if total.is_Rational:
        return total == 1
    parts = [sp.fraction(term) for term in sp.Add.make_args(total)]
    if len({d for _, d in parts}) == 1:
        numerator, denominator = sp.Add(*(n for n, _ in parts)), parts[0][1]
    else:
        numerator, denominator = sp.fraction(sp.together(total))
    difference = sp.expand(numerator - denominator)
    if difference == 0:
        return True
    return None if difference.is_zero is None else False


def check_row_sums(trace: Trace) -> CheckResult:
    bad, undecided = [], []
    zero_rows = [i for i in trace.fully_masked_rows if trace.problem.fully_masked == "zero"]
    for i in range(trace.A.rows):
        total = sp.Add(*trace.A.row(i))
        verdict = (total == 0) if i in zero_rows else is_exactly_one(total)
        if verdict is False:
            bad.append(str(i + 1))
        elif verdict is None:
            undecided.append(str(i + 1))
    if bad:
        return CheckResult("rows of A sum to 1", False, f"row(s) {', '.join(bad)} do not")
    if undecided:
        return CheckResult("rows of A sum to 1", None, f"not decided for row(s) {', '.join(undecided)}")
    note = f" (fully masked rows {', '.join(str(i + 1) for i in zero_rows)} sum to 0 by policy)" \
        if zero_rows else ""
    return CheckResult("rows of A sum to 1", True, f"all {trace.A.rows} row(s), exactly{note}")


def check_masked_zero(trace: Trace) -> CheckResult:
    uniform = trace.problem.fully_masked == "uniform"
    masked = [(i, j) for i, row in enumerate(trace.readable) for j, ok in enumerate(row)
              if not ok and not (uniform and i in trace.fully_masked_rows)]
    bad = [f"A[{i + 1},{j + 1}]" for i, j in masked if trace.A[i, j] != 0]
    if bad:
        return CheckResult("masked weights are 0", False, f"{', '.join(bad[:5])} not exactly 0")
    return CheckResult("masked weights are 0", True, f"{len(masked)} masked entries, exactly 0")


def _numeric(trace: Trace, digits: int, values: Mapping[sp.Symbol, sp.Expr]):
    ctx = context(digits)
    return ctx, (lambda expr: to_mpf(ctx, expr, values))


def check_nonnegative(trace: Trace, digits: int, values: Mapping[sp.Symbol, sp.Expr]) -> CheckResult:
    ctx, value = _numeric(trace, digits, values)
    negative, numeric_only = [], 0
    for (i, j), a in _entries(trace.A):
        if a.is_nonnegative:
            continue
        numeric_only += 1
        if a.is_negative or value(a) < 0:
            negative.append(f"A[{i + 1},{j + 1}]")
    if negative:
        return CheckResult("weights are non-negative", False, f"{', '.join(negative[:5])} negative")
    how = "exactly" if not numeric_only else \
        f"exactly, {numeric_only} numerically ({digits} digits{_at(values)})"
    return CheckResult("weights are non-negative", True, how)


def check_output_bounds(trace: Trace, digits: int,
                        values: Mapping[sp.Symbol, sp.Expr]) -> CheckResult:
    """Each O_ic lies between the least and greatest readable V_jc: O is a convex combination."""
    ctx, value = _numeric(trace, digits, values)
    tolerance = ctx.mpf(10) ** (-(digits - 5))
    outside, numeric_only = [], 0
    for i in range(trace.O.rows):
        readable = [j for j, ok in enumerate(trace.readable[i]) if ok]
        if not readable:
            continue
        for c in range(trace.O.cols):
            column = [trace.V[j, c] for j in readable]
            out = trace.O[i, c]
            if out.is_Rational and all(v.is_Rational for v in column):
                inside = min(column) <= out <= max(column)
            else:
                numeric_only += 1
                x, vs = value(out), [value(v) for v in column]
                slack = tolerance * max([ctx.one] + [abs(v) for v in vs])  # relative for big values
                inside = min(vs) - slack <= x <= max(vs) + slack
            if not inside:
                outside.append(f"O[{i + 1},{c + 1}]")
    if outside:
        return CheckResult("outputs within the readable values", False,
                           f"{', '.join(outside[:5])} outside")
    how = "exactly" if not numeric_only else \
        f"{numeric_only} entries numerically ({digits} digits{_at(values)}), the rest exactly"
    return CheckResult("outputs within the readable values", True, how)


def cross_check(trace: Trace, digits: int,
                values: Mapping[sp.Symbol, sp.Expr]) -> tuple[CheckResult, mpmath.mpf]:
    """Compare every stage with the independent mpmath recomputation; a difference is taken
    relative to max(1, |value|), so huge logits are judged at the same number of digits."""
    ctx, value = _numeric(trace, digits, values)
    numeric = recompute(trace.problem, digits, values)
    tolerance = ctx.mpf(10) ** (-(digits - 5))
    worst, where = ctx.zero, ""
    for name in COMPARED:
        for (i, j), exact in _entries(trace.stage(name)):
            x, y = value(exact), numeric[name][i][j]
            if x == ctx.ninf or y == ctx.ninf:
                difference = ctx.zero if x == y else ctx.inf
            else:
                difference = abs(x - y) / max(ctx.one, abs(x))
            if difference > worst:
                worst, where = difference, f" at {name}[{i + 1},{j + 1}]"
    passed = worst <= tolerance
    detail = (f"largest difference {mpmath.nstr(worst, 3)}{where if not passed else ''} "
              f"(limit 1e-{digits - 5}; mpmath, {digits} digits{_at(values)})")
    return CheckResult("exact = numeric", passed, detail), worst


def _entries(matrix: sp.ImmutableMatrix):
    for i in range(matrix.rows):
        for j in range(matrix.cols):
            yield (i, j), matrix[i, j]


def _reversed_problem(trace: Trace, queries: bool) -> tuple[Problem, list[int]]:
    """The problem with its queries (or its keys and values together) in reverse order; the
    mask travels with them as an explicit keep matrix, the bias likewise."""
    p = trace.problem
    n = p.n_q if queries else p.n_k
    order = list(range(n - 1, -1, -1))
    keep = [list(row) for row in trace.readable]
    bias = p.bias.tolist() if p.bias is not None else None
    if queries:
        keep, Q, K, V = [keep[i] for i in order], p.Q.extract(order, list(range(p.d_k))), p.K, p.V
        bias = [bias[i] for i in order] if bias else None
    else:
        keep = [[row[j] for j in order] for row in keep]
        Q, K, V = p.Q, p.K.extract(order, list(range(p.d_k))), p.V.extract(order, list(range(p.d_v)))
        bias = [[row[j] for j in order] for row in bias] if bias else None
    return Problem(Q=Q, K=K, V=V, keep=tuple(tuple(r) for r in keep), key_lengths=None,
                   bias=sp.ImmutableMatrix(bias) if bias else None, temperature=p.temperature,
                   scale=p.scale, fully_masked=p.fully_masked,
                   symbols=p.symbols, source=p.source), order


def _same(a: sp.Expr, b: sp.Expr) -> bool:
    return a == b or sp.expand(sp.numer(sp.together(a - b))) == 0


def check_permutation(trace: Trace) -> CheckResult:
    """Without positions attention does not see order: reversing the queries reverses the rows
    of O, and reversing the keys with their values leaves O unchanged (masks moved along)."""
    O = trace.O
    by_queries, order = _reversed_problem(trace, queries=True)
    moved = attend(by_queries).O
    rows_ok = all(_same(moved[k, c], O[i, c]) for k, i in enumerate(order) for c in range(O.cols))
    by_keys, _ = _reversed_problem(trace, queries=False)
    kept = attend(by_keys).O
    keys_ok = all(_same(kept[i, c], O[i, c]) for i in range(O.rows) for c in range(O.cols))
    detail = ("reversing the queries reverses the rows of O; reversing keys with values "
              "leaves O unchanged; exactly")
    if not (rows_ok and keys_ok):
        detail = "O did not follow: " + ", ".join(
            what for what, ok in (("query order", rows_ok), ("key order", keys_ok)) if not ok)
    return CheckResult("permutation equivariance", rows_ok and keys_ok, detail)
