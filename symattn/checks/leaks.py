"""What a large finite mask leaves (mask_bias, the courses' -1e9): each masked weight is not 0 but
below a bound, proved from the logits: A_ij = e^(L_ij) / Z_i and Z_i > e^(L_ik) for every key k,
so A_ij < e^(L_ij - L_ik) with k the row's largest unmasked logit."""

from __future__ import annotations

from collections.abc import Mapping

import mpmath
import sympy as sp

from ..model import Trace
from ..numeric import PrecisionError, context, to_mpf
from ..reports import CheckResult

NEGLIGIBLE_DIGITS = 15
"""The masked weights pass as negligible below 10^-15 (float64's resolution next to 1: a weight
of 1 - 10^-15 and 1 print alike), so that mask_bias masks in effect."""
LN_10 = mpmath.log(10)


def check_masked_small(trace: Trace, digits: int, values: Mapping[sp.Symbol, sp.Expr]
                       ) -> CheckResult:
    """The masked weights of a mask_bias problem, each below 10^-N (passed when N reaches
    NEGLIGIBLE_DIGITS); rows whose keys are all masked are softmax of their scores, and named."""
    hidden = trace.masked_by_bias
    whole = tuple(str(i + 1) for i, row in enumerate(hidden) if all(row))
    count = sum(x for row in hidden if not all(row) for x in row)
    found = (("count", count), ("rows", whole), ("at", _at(values)))
    try:
        exponent = leak_exponent(trace, digits, values)
    except PrecisionError:
        return CheckResult("masked_small", None, "masked_small_undecided", found)
    if exponent is None:
        return CheckResult("masked_small", True, "masked_small_none", found)
    below = below_digits(exponent)
    if below < NEGLIGIBLE_DIGITS:
        return CheckResult("masked_small", False, "masked_small_bad", (("below", below),) + found)
    return CheckResult("masked_small", True, "masked_small_rows" if whole else "masked_small_ok",
                       (("below", below),) + found)


def leak_exponent(trace: Trace, digits: int, values: Mapping[sp.Symbol, sp.Expr]
                  ) -> mpmath.mpf | None:
    """The largest L_ij - max_k L_ik over the masked (i, j) of rows with an unmasked key: every
    masked weight is below e to it (None when no such entry)."""
    ctx = context(max(digits, 30))
    L, hidden = trace.L, trace.masked_by_bias
    worst = None
    for i, row in enumerate(hidden):
        if all(row) or not any(row):
            continue
        logits = [to_mpf(ctx, L[i, j], values) for j in range(L.cols)]
        top = max(x for x, masked in zip(logits, row) if not masked)
        for x, masked in zip(logits, row):
            if masked and (worst is None or x - top > worst):
                worst = x - top
    return worst


def below_digits(exponent: mpmath.mpf | None) -> int:
    """N with e^exponent < 10^-N (the largest such whole N; 0 when none)."""
    if exponent is None:
        return 0
    return max(0, int(mpmath.floor(-exponent / LN_10)))


def _at(values: Mapping[sp.Symbol, sp.Expr]) -> tuple[tuple[str, str], ...]:
    return tuple((str(s), str(v)) for s, v in values.items())
