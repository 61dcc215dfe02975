"""Claim + expected facts -> Verdict, entry by entry: exact equivalence, decimal rounding, tolerance.

Equal is decided exactly where SymPy proves it; different is decided by a difference that
high-precision numerics show plainly; anything else is "undecided", never "correct".
"""

from __future__ import annotations

from dataclasses import replace
from math import comb

import sympy as sp

from ..model import Facts, Grading
from ..numeric import PrecisionError, context, to_mpf
from ..numeric_decimals import magnitude
from ..parse.claims import Claim, Given
from ..exact.shown import decimals_shown
from ..limits import MAX_EXPAND_TERMS, MAX_PROOF_TERMS
from .impossible import half_unit, impossible
from .book import BookMistakes
from .head_mistakes import HeadMistakes
from .mistakes import Mistakes
from .proof import ring_zero
from .precision import (FLOATS, Size, Sizes, agreement, off, rule_bound, within_allclose,
                        within_float, written_number)
from .results import EntryVerdict, Verdict, overall
from .rounding import expected_decimal, rounded

SCREEN_DIGITS = 60
CONFIRM_DIGITS = 200


def judge(claim: Claim, facts: Facts, grading: Grading = Grading(),
          mistakes: Mistakes | HeadMistakes | BookMistakes | None = None) -> Verdict:
    """Judge every entry of a claim; a wrong one that fits a known mistake's result says which."""
    verdict = judge_claim(claim, facts, grading)
    return diagnose(verdict, claim, facts, grading, mistakes) if mistakes is not None else verdict


def diagnose(verdict: Verdict, claim: Claim, facts: Facts, grading: Grading,
             mistakes: Mistakes | HeadMistakes | BookMistakes) -> Verdict:
    """A wrong verdict with the first classic mistake whose result the claim matches, if any.

    Each mistake is computed when first needed, under its own CPU budget. No match leaves the
    verdict wrong with diagnosis "none", or "over_budget" when a mistake ran out of its budget.
    """
    stage = claim.target.name.rpartition(".")[2]  # heads[2].A: head 2's A
    if verdict.status != "wrong" or facts.matrices is None or verdict.only_precision \
            or claim.target.kind in ("shape", "scalar") or stage not in ("A", "O", "concat"):
        return verdict
    over_budget = False
    for name in mistakes.names:
        stages = mistakes.stages(name)
        over_budget |= mistakes[name].reason == "over_budget"
        if stages is None:
            continue
        mistaken = replace(facts, matrices={**facts.matrices, **stages})
        if judge_claim(claim, mistaken, grading).status == "correct":
            return replace(verdict, diagnosis=name)
    return replace(verdict, diagnosis="over_budget" if over_budget else "none")


def judge_claim(claim: Claim, facts: Facts, grading: Grading) -> Verdict:
    """Judge every entry of a claim against the exact facts."""
    t = claim.target
    if claim.error:
        return Verdict(claim.key, "invalid", (), "unreadable", claim.reason)
    if t.kind != "scalar" and t.name not in facts.shapes:
        return Verdict(claim.key, "invalid", (), "not_given", (t.name,))
    if t.kind == "shape":
        expected = facts.shapes[t.name]
        ok = "correct" if claim.shape in (expected, facts.batch + expected) else "wrong"
        given = "x".join(map(str, claim.shape))
        return Verdict(claim.key, ok, (EntryVerdict(None, ok, ("shape",), expected, given),))
    if t.kind == "scalar":
        if t.name not in facts.scalars:
            return Verdict(claim.key, "invalid", (), "not_given", (t.name,))
        expected_value = facts.scalars[t.name]
        region = [[(None, expected_value)]]
    else:
        if facts.matrices is None:
            return Verdict(claim.key, "invalid", (), "shapes_only")
        region = _region(facts.matrices[t.name], t)
        if region is None:
            rows, cols = facts.shapes[t.name]
            return Verdict(claim.key, "invalid", (), "out_of_range", (t.row, t.column, rows, cols))
    unreadable = next((g for row in claim.rows for g in row if g.value is None), None)
    if unreadable is not None:
        entry = EntryVerdict(None, "invalid", ("parse", *unreadable.reason), None, unreadable.text,
                             unreadable.error or "")
        return Verdict(claim.key, "invalid", (entry,))
    given = _fit(claim.rows, len(region), len(region[0]))
    if given is None:
        shape = (len(region), len(region[0]), len(claim.rows), max(len(r) for r in claim.rows))
        return Verdict(claim.key, "wrong", (), "size", shape)
    sizes = Sizes(facts)  # a columns book's facts are sized by the engine's rows (Sizes)

    def size(position: tuple[int, int] | None, expected: sp.Expr) -> Size:
        return lambda: sizes.of(t.name, position, expected)

    entries = tuple(judge_entry(position, expected, g, grading, facts, size(position, expected))
                    for row_e, row_g in zip(region, given) for (position, expected), g in zip(row_e, row_g))
    status = overall(e.status for e in entries)
    verdict = Verdict(claim.key, status, entries)
    if status != "wrong" or verdict.only_precision:
        return verdict

    def widen(i: int, j: int) -> sp.Rational:
        expected = facts.matrices[t.name][i, j] if facts.matrices else sp.S.Zero
        return rule_bound(grading, expected, size((i, j), expected))

    return replace(verdict, remarks=impossible(t, given, facts, None if grading == Grading() else widen))


def _region(matrix: sp.ImmutableMatrix, t) -> list[list[tuple[tuple[int, int], sp.Expr]]] | None:
    rows = range(matrix.rows) if t.row is None else [t.row]
    cols = range(matrix.cols) if t.column is None else [t.column]
    if any(i >= matrix.rows for i in rows) or any(j >= matrix.cols for j in cols):
        return None
    if t.kind == "column":
        return [[((i, t.column), matrix[i, t.column])] for i in rows]
    return [[((i, j), matrix[i, j]) for j in cols] for i in rows]


def _fit(rows: tuple[tuple[Given, ...], ...], n_rows: int, n_cols: int):
    """The given entries arranged like the expected region (a vector fits a row or a column)."""
    flat = [g for row in rows for g in row]
    if len(rows) == n_rows and all(len(r) == n_cols for r in rows):
        return [list(r) for r in rows]
    if (n_rows == 1 or n_cols == 1) and len(flat) == n_rows * n_cols:
        return [flat] if n_rows == 1 else [[g] for g in flat]
    return None


def judge_entry(position, expected: sp.Expr, given: Given, grading: Grading, facts: Facts,
                size: Size | None = None) -> EntryVerdict:
    """One entry by the rule that applies to how it was written; `size` is what the expected
    value is computed from (precision.Sizes), by which float precision is measured."""
    def verdict(status: str, rule: tuple, hint: tuple = ()) -> EntryVerdict:
        decimal = None if status == "correct" else expected_decimal(
            expected, given, rule[1] if rule[0] == "sigfigs" else None)
        shown = decimals_shown(expected) if facts.decimals and isinstance(expected, sp.Basic) \
            else expected
        if facts.decimals and decimal is not None and given.places is not None:
            shown = None  # decimals beside decimals: the closed form of decimals helps nobody
        return EntryVerdict(position, status, rule, expected, given.text, given.error or "",
                            decimal, shown, hint)

    if given.value is None:
        return verdict("invalid", ("parse", *given.reason))
    value = given.value
    if sp.S.NegativeInfinity in (expected, value) or value == expected:
        if value != expected and facts.limits and facts.limits.get(expected) == value:
            return verdict("correct", ("masked_infinity",))  # -oo, as mask_bias means it
        return verdict("correct" if value == expected else "wrong", ("exact",))
    numeric = not expected.free_symbols and not value.free_symbols
    written = given.places is not None or given.sigfigs is not None  # a decimal, rounded
    size = size or (lambda: abs(to_mpf(context(40), expected, {})))
    if numeric and written and grading.sigfigs is not None:
        target = rounded(expected, grading.sigfigs - 1 - (magnitude(expected) or 0))
        return verdict("correct" if value == target else "wrong", ("sigfigs", grading.sigfigs))
    if numeric and (grading.tolerance is not None or grading.relative is not None):
        rule, ok = _within(expected, value, grading)
        if ok or written:
            return verdict("correct" if ok else "wrong", rule)
    if numeric and grading.rule in FLOATS:
        ok = within_float(grading.rule, expected, value, half_unit(given), size)
        if ok:
            return verdict("correct", ("float", grading.rule))
        if written and ok is not None:  # a float32 printout judged as float64 says so
            coarser = agreement(expected, value, half_unit(given), size, ("float32",)) \
                if grading.rule == "float64" else None
            return verdict("wrong", ("float", grading.rule, off(expected, value)), coarser or ())
    if numeric and grading.rule == "allclose" and grading.rtol is not None and grading.atol is not None:
        ok = within_allclose(expected, value, grading.rtol, grading.atol)
        if ok or written and ok is not None:
            return verdict("correct" if ok else "wrong",
                           ("allclose", written_number(grading.rtol), written_number(grading.atol)))
    if numeric and written:
        if given.sigfigs is not None:
            status, _ = _decimal(expected, value, given.sigfigs - 1 - (magnitude(expected) or 0))
            rule: tuple = ("sigfigs", given.sigfigs)
        else:
            status, rule = _decimal(expected, value, given.places or 0)
        hint = agreement(expected, value, half_unit(given), size) \
            if status == "wrong" and grading == Grading() else None
        return verdict(status, rule, hint or ())
    status, rule = equivalent(expected, value, facts)
    if status == "undecided" and facts.limits and expected in facts.limits and \
            equivalent(facts.limits[expected], value, facts)[0] == "correct":
        return verdict("correct", ("masked", CONFIRM_DIGITS))  # as mask_bias means it
    return verdict(status, rule)


def _decimal(expected: sp.Expr, value: sp.Expr, places: int) -> tuple[str, tuple]:
    """A decimal with k places is correct when it is the exact value correctly rounded."""
    scaled = expected * sp.Integer(10) ** places
    if scaled.is_Rational and (scaled - sp.floor(scaled)) == sp.Rational(1, 2):
        low, high = sp.floor(scaled), sp.ceiling(scaled)
        ok = value * 10 ** places in (low, high)
        return ("correct" if ok else "wrong"), ("tie", places)
    return ("correct" if value == rounded(expected, places) else "wrong"), ("places", places)


def _within(expected: sp.Expr, value: sp.Expr, grading: Grading) -> tuple[tuple, bool]:
    ctx = context(SCREEN_DIGITS)
    difference = abs(to_mpf(ctx, expected - value, {}))
    if grading.tolerance is not None:
        return ("tolerance", grading.tolerance), difference <= to_mpf(ctx, grading.tolerance, {})
    bound = to_mpf(ctx, grading.relative, {}) * abs(to_mpf(ctx, expected, {}))
    return ("relative", grading.relative), difference <= bound


def equivalent(expected: sp.Expr, value: sp.Expr, facts: Facts) -> tuple[str, tuple]:
    """Exact equivalence: screened numerically, then proved within a cost bound; else undecided."""
    points = facts.sample_points()
    if _differs(expected, value, points, SCREEN_DIGITS):
        return "wrong", ("exact",)
    if proved_zero(expected - value):
        return "correct", ("exact",)
    if _differs(expected, value, points, CONFIRM_DIGITS):
        return "wrong", ("exact",)
    return "undecided", ("numeric", CONFIRM_DIGITS)


def proved_zero(difference: sp.Expr) -> bool:
    """difference == 0 proved over one denominator: the numerator zero in a polynomial ring of
    its exponentials and atoms (answers.proof), else zero once SymPy expands it (sqrt(2) sqrt(3)
    = sqrt(6)). Each way runs only under its bound of terms (limits), so that the work, and the
    verdict, never depend on the machine; past both: False."""
    if difference == 0:
        return True
    numerator = sp.numer(sp.together(difference))
    size = expansion_size(numerator)
    if size <= MAX_PROOF_TERMS and ring_zero(numerator):
        return True
    return size <= MAX_EXPAND_TERMS and sp.expand(numerator) == 0


def expansion_size(expr: sp.Expr, limit: int = MAX_PROOF_TERMS) -> int:
    """An upper bound of the number of terms expand() gives (counting stops past limit)."""
    if expr.is_Add:
        return min(limit + 1, sum(expansion_size(a, limit) for a in expr.args))
    if expr.is_Mul:
        size = 1
        for factor in expr.args:
            size = min(limit + 1, size * expansion_size(factor, limit))
        return size
    if expr.is_Pow and expr.exp.is_Integer and expr.exp > 0:  # distinct monomials of degree k
        n, k = expansion_size(expr.base, limit), int(expr.exp)
        return min(limit + 1, comb(n + k - 1, k) if n <= limit else limit + 1)
    if isinstance(expr, sp.exp) and expr.args[0].is_Add:  # exp(a + b) -> e^a e^b: one term
        return max((expansion_size(a, limit) for a in expr.args[0].args), default=1)
    return 1


def _differs(expected: sp.Expr, value: sp.Expr, points, digits: int) -> bool:
    """Whether the two values differ plainly at some sample point (False where the numerics
    cannot tell: exp of a huge argument at a point)."""
    ctx = context(digits)
    for values in points:
        try:
            a, b = to_mpf(ctx, expected, values), to_mpf(ctx, value, values)
        except PrecisionError:
            continue
        if abs(a - b) > ctx.mpf(10) ** (5 - digits) * max(ctx.one, abs(a)):
            return True
    return False

