"""Post-run measurements: expression size (count_ops) and numeric agreement with mpmath.

Values of symbolic results are computed here, not by symattn: a small memoizing walk over
Add, Mul, Pow and exp at 60 digits (a naive result repeats each row's sum in every entry;
evaluating it once per row keeps the check of an n = 128 result to seconds), with SymPy's
evalf for any other node and for sums that cancel badly.
"""

from __future__ import annotations

from typing import Any

import mpmath
from sympy import Add, Mul, Pow, count_ops, exp

EVAL_DIGITS = 60
TOLERANCE_DIGITS = 40  # must agree to 1e-40
SIZE_MAX_N = 64  # count_ops is quadratic in n per entry; larger results are not sized


def rows_of(matrix: Any) -> list[list[Any]]:
    """Return a SymPy matrix or nested list as a list of rows."""
    return matrix.tolist() if hasattr(matrix, "tolist") else [list(r) for r in matrix]


def total_ops(A: Any, O: Any) -> int:
    """Return sympy.count_ops summed over all entries of A and O."""
    return sum(int(count_ops(e)) for M in (A, O) for row in rows_of(M) for e in row)


class Values:
    """60-digit values of SymPy expressions, each distinct subexpression evaluated once."""

    def __init__(self) -> None:
        self.ctx = mpmath.MPContext()
        self.ctx.dps = EVAL_DIGITS + 10
        self.memo: dict[Any, Any] = {}

    def __call__(self, e: Any) -> Any:
        if e in self.memo:
            return self.memo[e]
        ctx = self.ctx
        if e.is_Rational:
            value = ctx.mpf(int(e.p)) / int(e.q)
        elif isinstance(e, Add):
            terms = [self(a) for a in e.args]
            value = ctx.fsum(terms)
            if not value or ctx.mag(value) < max(ctx.mag(t) for t in terms) - 30:
                value = self.evalf(e)  # cancellation: let evalf choose the precision
        elif isinstance(e, Mul):
            value = ctx.fprod(self(a) for a in e.args)
        elif isinstance(e, Pow) and e.exp.is_Integer:
            value = self(e.base) ** int(e.exp)
        elif isinstance(e, exp):
            value = ctx.exp(self(e.args[0]))
        else:
            value = self.evalf(e)
        self.memo[e] = value
        return value

    def evalf(self, e: Any) -> Any:
        return self.ctx.mpf(str(e.evalf(EVAL_DIGITS + 10)))


def to_decimal_strings(M: Any, values: Values | None = None) -> list[list[str]]:
    """Evaluate each SymPy entry to EVAL_DIGITS digits and return decimal strings."""
    values = values or Values()
    return [[mpmath.nstr(values(e), EVAL_DIGITS) for e in row] for row in rows_of(M)]


def summarize_symbolic(result: tuple[Any, Any]) -> dict[str, Any]:
    """Size (count_ops, for n <= SIZE_MAX_N), values and rationality of a symbolic (A, O)."""
    A, O = result
    values = Values()
    n = len(rows_of(A))
    return {"size": total_ops(A, O) if n <= SIZE_MAX_N else None,
            "A": to_decimal_strings(A, values), "O": to_decimal_strings(O, values),
            "rational": all(e.is_Rational for M in (A, O) for row in rows_of(M) for e in row)}


def max_difference(reference: list[list[Any]], candidate: list[list[str]]) -> Any:
    """Return max |reference - candidate| over entries, in a private 60-digit context."""
    ctx = mpmath.MPContext()
    ctx.dps = EVAL_DIGITS
    if len(reference) != len(candidate) or any(len(r) != len(c)
                                               for r, c in zip(reference, candidate)):
        return ctx.inf
    diffs = [abs(ctx.mpf(r) - ctx.mpf(c))
             for rr, cr in zip(reference, candidate) for r, c in zip(rr, cr)]
    return max(diffs, default=ctx.zero)


def verdict(ref_A: list[list[Any]], ref_O: list[list[Any]], values: dict[str, Any]) -> str:
    """Return "agree" if A and O match the mpmath reference to 1e-40, else the max difference."""
    worst = max(max_difference(ref_A, values["A"]), max_difference(ref_O, values["O"]))
    if worst <= mpmath.mpf(10) ** -TOLERANCE_DIGITS:
        return "agree"
    return f"max diff {mpmath.nstr(worst, 3)}"
