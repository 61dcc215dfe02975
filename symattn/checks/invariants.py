"""Invariants proved on the exact trace, and the stage-by-stage cross-check against mpmath."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from collections.abc import Mapping

import mpmath
import sympy as sp
from mpmath.libmp import finf, fninf, fone, fzero, mpf_abs, mpf_div, mpf_gt, mpf_sub

from ..exact.attention import expressions, logit_grid
from ..limits import MAX_WORKING_DIGITS
from ..model import Problem, Trace, stage_shapes
from ..model import sample_values as model_sample_values
from ..numeric import PrecisionError, context, recompute, to_mpf
from ..reports import CHECKS, CheckResult, Report
from .leaks import check_masked_small
from .signs import Signs

COMPARED = ("R", "S", "M", "L", "A", "O")


def check(trace: Trace, digits: int = 50) -> Report:
    """Run every invariant and the numeric cross-check; failures are data in the report.

    Symbols, if any, are given sample values for the numeric parts (named in the report).
    """
    values = sample_values(trace)
    shapes = check_shapes(trace)
    if not shapes.passed:  # the other checks index the stages by their shapes
        skipped = tuple(CheckResult(name, None, "not_run") for name in CHECKS[1:])
        return Report(results=(shapes, *skipped), digits=digits, max_difference=None)
    cross, difference = cross_check(trace, digits, values)
    masked = check_masked_small(trace, digits, values) if trace.masked_by_bias else \
        check_masked_zero(trace)
    results = (shapes, check_row_sums(trace), masked,
               check_nonnegative(trace, digits, values), check_output_bounds(trace, digits, values),
               cross, check_permutation(trace))
    return Report(results=results, digits=digits, max_difference=difference)


def sample_values(trace: Trace) -> dict[sp.Symbol, sp.Expr]:
    """Deterministic sample values for declared symbols: 3/7, 5/7, 9/7, ..."""
    return model_sample_values(trace.problem.symbols)


def _at(values: Mapping[sp.Symbol, sp.Expr]) -> tuple[tuple[str, str], ...]:
    """The sample values a numeric part used, (name, value) pairs for the report."""
    return tuple((str(s), str(v)) for s, v in values.items())


def check_shapes(trace: Trace) -> CheckResult:
    p = trace.problem
    expected = stage_shapes(p.n_q, p.n_k, p.d_k, p.d_v)
    wrong = tuple((name, str(trace.stage(name).shape), str(shape))
                  for name, shape in expected.items() if trace.stage(name).shape != shape)
    if wrong:
        return CheckResult("shapes", False, "shapes_wrong", (("items", wrong),))
    return CheckResult("shapes", True, "shapes_ok", (("n_q", p.n_q), ("n_k", p.n_k), ("d_v", p.d_v)))


def is_exactly_one(total: sp.Expr | list[sp.Expr]) -> bool | None:
    """Decide total == 1 exactly (total a sum, or the list of its terms, as a row of A):
    rationals directly, else over a common denominator (read off the terms when they already
    share one, as a row of A does; else by together)."""
    terms = total if isinstance(total, list) else list(sp.Add.make_args(total))
    if all(term.is_Rational for term in terms):
        return sum(Fraction(int(term.p), int(term.q)) for term in terms) == 1
    if _over_one_sum(terms):
        return True
    parts = [sp.fraction(term) for term in terms if term is not sp.S.Zero]
    if len({d for _, d in parts}) == 1:
        numerator, denominator = sp.Add(*(n for n, _ in parts)), parts[0][1]
    else:
        numerator, denominator = sp.fraction(sp.together(sp.Add(*terms)))
    difference = sp.expand(numerator - denominator)
    if difference == 0:
        return True
    return None if difference.is_zero is None else False


def _over_one_sum(terms: list[sp.Expr]) -> bool:
    """True when every term is c * (factors) / D for one sum D and the numerators' terms
    cancel D's term by term, as a row of A's do; read off the form, no assumption asked
    (sp.fraction asks the sign of every exponent). False means "not shown this way"."""
    counts: dict[frozenset, sp.Rational] = {}
    denominator = None
    for term in terms:
        if term is sp.S.Zero:
            continue
        c, rest = term.as_coeff_Mul()
        factors = sp.Mul.make_args(rest)
        over = [f for f in factors if f.is_Pow and f.exp is sp.S.NegativeOne and f.base.is_Add]
        if len(over) != 1 or (denominator is not None and over[0].base != denominator):
            return False
        denominator = over[0].base
        unit = frozenset(Counter(f for f in factors if f is not over[0] and f is not sp.S.One).items())
        counts[unit] = counts.get(unit, 0) + c
    if denominator is None:
        return False
    for term in denominator.args:
        c, rest = term.as_coeff_Mul()
        unit = frozenset(Counter(f for f in sp.Mul.make_args(rest) if f is not sp.S.One).items())
        counts[unit] = counts.get(unit, 0) - c
    return all(c == 0 for c in counts.values())


def check_row_sums(trace: Trace) -> CheckResult:
    bad, undecided = [], []
    zero_rows = [i for i in trace.fully_masked_rows if trace.problem.fully_masked == "zero"]
    for i, row in enumerate(trace.A.tolist()):
        verdict = all(x == 0 for x in row) if i in zero_rows else is_exactly_one(row)
        if verdict is False:
            bad.append(str(i + 1))
        elif verdict is None:
            undecided.append(str(i + 1))
    if bad:
        return CheckResult("row_sums", False, "rows_bad", (("rows", tuple(bad)),))
    if undecided:
        return CheckResult("row_sums", None, "rows_undecided", (("rows", tuple(undecided)),))
    if zero_rows:
        return CheckResult("row_sums", True, "rows_ok_zero", (
            ("count", trace.A.rows), ("rows", tuple(str(i + 1) for i in zero_rows))))
    return CheckResult("row_sums", True, "rows_ok", (("count", trace.A.rows),))


def check_masked_zero(trace: Trace) -> CheckResult:
    uniform = trace.problem.fully_masked == "uniform"
    masked = [(i, j) for i, row in enumerate(trace.readable) for j, ok in enumerate(row)
              if not ok and not (uniform and i in trace.fully_masked_rows)]
    A = trace.A.tolist()
    bad = [f"A[{i + 1},{j + 1}]" for i, j in masked if A[i][j] != 0]
    if bad:
        return CheckResult("masked_zero", False, "masked_bad", (("entries", tuple(bad[:5])),))
    return CheckResult("masked_zero", True, "masked_ok", (("count", len(masked)),))


def _numeric(trace: Trace, digits: int, values: Mapping[sp.Symbol, sp.Expr]):
    ctx = context(digits)
    return ctx, (lambda expr: to_mpf(ctx, expr, values))


def _unresolved(name: str, digits: int, values: Mapping[sp.Symbol, sp.Expr],
                error: PrecisionError) -> CheckResult:
    """A numeric check not decided: its values need more working digits than the numerics
    may use (exp of a huge argument, at the symbols' sample values)."""
    return CheckResult(name, None, "numeric_unresolved", (
        ("digits", digits), ("needed", error.needed), ("limit", MAX_WORKING_DIGITS),
        ("at", _at(values))))


def check_nonnegative(trace: Trace, digits: int, values: Mapping[sp.Symbol, sp.Expr]) -> CheckResult:
    try:
        return _nonnegative(trace, digits, values)
    except PrecisionError as error:
        return _unresolved("nonnegative", digits, values, error)


def _nonnegative(trace: Trace, digits: int, values: Mapping[sp.Symbol, sp.Expr]) -> CheckResult:
    ctx, value = _numeric(trace, digits, values)
    negative, numeric_only = [], 0
    signs = Signs()
    for (i, j), a in _entries(trace.A):
        if signs.nonnegative(a) or (not a.is_Rational and a.is_nonnegative):
            continue
        numeric_only += 1
        if a.is_negative or value(a) < 0:
            negative.append(f"A[{i + 1},{j + 1}]")
    if negative:
        return CheckResult("nonnegative", False, "nonnegative_bad",
                           (("entries", tuple(negative[:5])),))
    if not numeric_only:
        return CheckResult("nonnegative", True, "exactly")
    return CheckResult("nonnegative", True, "nonnegative_numeric", (
        ("count", numeric_only), ("digits", digits), ("at", _at(values))))


def check_output_bounds(trace: Trace, digits: int,
                        values: Mapping[sp.Symbol, sp.Expr]) -> CheckResult:
    """Each O_ic lies between the least and greatest readable V_jc: O is a convex combination."""
    try:
        return _output_bounds(trace, digits, values)
    except PrecisionError as error:
        return _unresolved("output_bounds", digits, values, error)


def _output_bounds(trace: Trace, digits: int, values: Mapping[sp.Symbol, sp.Expr]) -> CheckResult:
    ctx, value = _numeric(trace, digits, values)
    tolerance = ctx.mpf(10) ** (-(digits - 5))
    outside, numeric_only = [], 0
    V, O = trace.V.tolist(), trace.O.tolist()
    exact = [[Fraction(int(v.p), int(v.q)) if v.is_Rational else None for v in row] for row in V]
    for i in range(trace.O.rows):
        readable = [j for j, ok in enumerate(trace.readable[i]) if ok]
        if not readable:
            continue
        for c in range(trace.O.cols):
            column = [V[j][c] for j in readable]
            out = O[i][c]
            fractions = [exact[j][c] for j in readable]
            if out.is_Rational and None not in fractions:
                inside = min(fractions) <= Fraction(int(out.p), int(out.q)) <= max(fractions)
            else:
                numeric_only += 1
                x, vs = value(out), [value(v) for v in column] if None in fractions else [
                    ctx.mpf(f.numerator) / f.denominator for f in (min(fractions), max(fractions))]
                slack = tolerance * max([ctx.one] + [abs(v) for v in vs])  # relative for big values
                inside = min(vs) - slack <= x <= max(vs) + slack
            if not inside:
                outside.append(f"O[{i + 1},{c + 1}]")
    if outside:
        return CheckResult("output_bounds", False, "bounds_bad", (("entries", tuple(outside[:5])),))
    if not numeric_only:
        return CheckResult("output_bounds", True, "exactly")
    return CheckResult("output_bounds", True, "bounds_numeric", (
        ("count", numeric_only), ("digits", digits), ("at", _at(values))))


def cross_check(trace: Trace, digits: int, values: Mapping[sp.Symbol, sp.Expr]
                ) -> tuple[CheckResult, mpmath.mpf | None]:
    """Compare every stage with the independent mpmath recomputation; a difference is taken
    relative to max(1, |value|), so huge logits are judged at the same number of digits.

    Both sides raise their working precision with the size of the logits (exp needs a logit
    of 10^200 to 200 more digits than the digits asked); where that would pass
    MAX_WORKING_DIGITS the check is not decided (passed None) and says so.
    """
    ctx, value = _numeric(trace, digits, values)
    try:
        numeric = recompute(trace.problem, digits, values)
        worst, where = fzero, ""
        known: dict[sp.Expr, tuple] = {}  # equal scores and logits are evaluated once
        prec = ctx.prec
        for name in COMPARED:
            for i, (exacts, numbers) in enumerate(zip(trace.stage(name).tolist(), numeric[name])):
                for j, (exact, y) in enumerate(zip(exacts, numbers)):
                    x = known.get(exact)
                    if x is None:
                        x = known[exact] = value(exact)._mpf_
                    difference = _relative_difference(x, y._mpf_, prec)
                    if difference is not fzero and mpf_gt(difference, worst):
                        worst, where = difference, f"{name}[{i + 1},{j + 1}]"
        worst = ctx.make_mpf(worst)
    except PrecisionError as error:
        return _unresolved("numeric", digits, values, error), None
    tolerance = ctx.mpf(10) ** (-(digits - 5))
    passed = worst <= tolerance
    shown = (("difference", mpmath.nstr(worst, 3)), ("where", "" if passed else where),
             ("limit", digits - 5), ("digits", digits), ("at", _at(values)))
    return CheckResult("numeric", passed, "numeric", shown), worst


def _relative_difference(x: tuple, y: tuple, prec: int) -> tuple:
    """|x - y| / max(1, |x|) of two mpmath raw values (-inf against -inf: 0, against a number:
    inf), rounded as mpf arithmetic at prec bits rounds it, without making mpf objects."""
    if x == y:
        return fzero
    if x == fninf or y == fninf:
        return finf
    size = mpf_abs(x)
    return mpf_div(mpf_abs(mpf_sub(x, y, prec, "n")), size if mpf_gt(size, fone) else fone,
                   prec, "n")


def _entries(matrix: sp.ImmutableMatrix):
    for i, row in enumerate(matrix.tolist()):
        for j, x in enumerate(row):
            yield (i, j), x


def _reversed_problem(trace: Trace, queries: bool, keys: bool
                      ) -> tuple[Problem, list[int], list[int]]:
    """The problem with its queries and/or its keys and values (together) in reverse order;
    the mask travels with them as an explicit keep matrix, the bias likewise. Returns the
    query and key orders."""
    p = trace.problem
    rows = list(range(p.n_q - 1, -1, -1)) if queries else list(range(p.n_q))
    columns = list(range(p.n_k - 1, -1, -1)) if keys else list(range(p.n_k))
    hidden = trace.masked_by_bias  # with mask_bias the keep matrix carries its masks
    keep = [[trace.readable[i][j] and not (hidden and hidden[i][j]) for j in columns] for i in rows]
    bias = p.bias.tolist() if p.bias is not None else None
    bias = [[bias[i][j] for j in columns] for i in rows] if bias else None
    Q = p.Q.extract(rows, list(range(p.d_k)))
    K, V = p.K.extract(columns, list(range(p.d_k))), p.V.extract(columns, list(range(p.d_v)))
    return replace(p, Q=Q, K=K, V=V, mask="none", keep=tuple(tuple(r) for r in keep),
                   key_lengths=None, bias=sp.ImmutableMatrix(bias) if bias else None,
                   projections=None, tokens=None, key_tokens=None), rows, columns


def check_permutation(trace: Trace) -> CheckResult:
    """Without positions attention does not see order: reversing the queries reverses the rows
    of O, and reversing the keys with their values leaves O unchanged (masks moved along).

    Proved from the logits: a row's weights and output depend on its logits, readable keys and
    values as a set of pairs (softmax and the sum a_j v_j are symmetric in the keys), so O
    follows the order once the reversed problem's L is the trace's L in that order. Both orders
    at once first; only if that fails are the two tried apart, to say which one L depends on."""
    if _permuted_ok(trace, queries=True, keys=True):
        return CheckResult("permutation", True, "permutation_ok")
    rows_ok = _permuted_ok(trace, queries=True, keys=False)
    keys_ok = _permuted_ok(trace, queries=False, keys=True)
    broken = tuple(what for what, ok in (("query_order", rows_ok), ("key_order", keys_ok)) if not ok)
    return CheckResult("permutation", False, "permutation_bad",
                       (("orders", broken or ("query_order", "key_order")),))


def _permuted_ok(trace: Trace, queries: bool, keys: bool) -> bool:
    """The reversed problem's logits are the trace's L, moved along (-∞ where a key is masked)."""
    problem, rows, columns = _reversed_problem(trace, queries, keys)
    L, moved = trace.L.tolist(), expressions(logit_grid(problem)[1])
    return all(moved[k][m] == L[i][j] for k, i in enumerate(rows) for m, j in enumerate(columns))
