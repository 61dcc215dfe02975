"""Post-run measurements: expression size (count_ops) and numeric agreement with mpmath."""

from __future__ import annotations

from typing import Any

import mpmath
from sympy import Float, count_ops

EVAL_DIGITS = 60
TOLERANCE_DIGITS = 40  # must agree to 1e-40


def rows_of(matrix: Any) -> list[list[Any]]:
    """Return a SymPy matrix or nested list as a list of rows."""
    return matrix.tolist() if hasattr(matrix, "tolist") else [list(r) for r in matrix]


def total_ops(A: Any, O: Any) -> int:
    """Return sympy.count_ops summed over all entries of A and O."""
    return sum(int(count_ops(e)) for M in (A, O) for row in rows_of(M) for e in row)


def to_decimal_strings(M: Any) -> list[list[str]]:
    """Evaluate each SymPy entry to EVAL_DIGITS digits and return decimal strings."""
    return [[str(Float(e.evalf(EVAL_DIGITS), EVAL_DIGITS)) for e in row] for row in rows_of(M)]


def summarize_symbolic(result: tuple[Any, Any]) -> dict[str, Any]:
    """Return size and numeric values for a symbolic (A, O) result."""
    A, O = result
    return {"size": total_ops(A, O), "A": to_decimal_strings(A), "O": to_decimal_strings(O)}


def max_difference(reference: list[list[Any]], candidate: list[list[str]]) -> Any:
    """Return max |reference - candidate| over entries, in a private 60-digit context."""
    ctx = mpmath.MPContext()
    ctx.dps = EVAL_DIGITS
    if len(reference) != len(candidate) or any(len(r) != len(c) for r, c in zip(reference, candidate)):
        return ctx.inf
    diffs = [abs(ctx.mpf(r) - ctx.mpf(c)) for rr, cr in zip(reference, candidate) for r, c in zip(rr, cr)]
    return max(diffs, default=ctx.zero)


def verdict(ref_A: list[list[Any]], ref_O: list[list[Any]], values: dict[str, Any]) -> str:
    """Return "agree" if A and O match the mpmath reference to 1e-40, else the max difference."""
    worst = max(max_difference(ref_A, values["A"]), max_difference(ref_O, values["O"]))
    if worst <= mpmath.mpf(10) ** -TOLERANCE_DIGITS:
        return "agree"
    return f"max diff {mpmath.nstr(worst, 3)}"
