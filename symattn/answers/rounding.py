"""Exact values rounded: what a decimal answer is compared with, and the expected value as
feedback shows it beside an answer, to that answer's own precision."""

from __future__ import annotations

import sympy as sp

from ..limits import MAX_DECIMAL_EXPONENT, MAX_DIGITS
from ..numeric_decimals import decimal_string, magnitude, rounded_units
from ..parse.claims import Given

FEEDBACK_PLACES = 4  # beside an answer written without decimals (7/3, 1/2)
MORE_DIGITS = 12  # at most this many digits more, until the expected value differs from the answer
DECIMAL_RANGE = MAX_DIGITS + MAX_DECIMAL_EXPONENT + 1
"""A decimal the parser reads lies below 10^DECIMAL_RANGE in size, and if not 0 above
10^-DECIMAL_RANGE: a rounded value outside can equal no given decimal."""


def rounded(expected: sp.Expr, places: int) -> sp.Rational | None:
    """The exact value rounded to `places` decimal places (negative: tens, hundreds, ...);
    None when that is no decimal the parser reads (beyond 10^±DECIMAL_RANGE in size).

    Rounded by `numeric_decimals.rounded_units`, as `solve` prints decimals: never to an integer of the
    value's size, refined near a half.
    """
    size = magnitude(expected)
    if size is None or size + places < -1:  # below half a unit of the last place
        return sp.S.Zero
    if not -DECIMAL_RANGE <= size <= DECIMAL_RANGE:
        return None
    return sp.Rational(rounded_units(expected, places)) / sp.Rational(10) ** places


def expected_decimal(expected: sp.Expr, given: Given, sigfigs: int | None = None) -> str | None:
    """The expected value as a decimal written like the answer: with its places (0.23500371
    beside 0.23500372), its significant figures in e-notation (6.0338e-06 beside 6.0337e-06),
    or the rule's `sigfigs`; FEEDBACK_PLACES beside an exact answer. Digits are added while it
    would read the same as the answer; a value that would read 0.000 is written 4.5e-05. None
    for an integer or a symbolic value."""
    if expected.free_symbols or expected.is_Integer or expected is sp.S.NegativeInfinity:
        return None
    size = magnitude(expected)
    if size is None or not -DECIMAL_RANGE <= size <= DECIMAL_RANGE:
        return decimal_string(expected, FEEDBACK_PLACES)
    figures = sigfigs or given.sigfigs
    places = figures - 1 - size if figures else \
        FEEDBACK_PLACES if given.places is None else given.places
    scientific = given.sigfigs is not None or places < 0
    if not scientific and rounded(expected, places) == 0:  # it would read 0.0: 0.013, 4.5e-05
        scientific, places = size < -FEEDBACK_PLACES, 1 - size
    for extra in range(MORE_DIGITS + 1):
        value = rounded(expected, places + extra)
        if value is None or value != given.value:
            break
    places += extra
    if not scientific:
        return decimal_string(expected, places)
    return _scientific(value or sp.S.Zero, places, places + size + 1)


def _scientific(value: sp.Rational, places: int, figures: int) -> str:
    """A rounded value (units of 10^-places) in e-notation with `figures` digits."""
    units = abs(int(value * sp.Rational(10) ** places))
    digits = str(units)
    exponent = len(digits) - 1 - places  # 9.99e-06 rounded up to 1.00e-05 moves the exponent
    digits = digits[:max(1, figures)]
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    sign = "-" if value < 0 else ""
    return f"{sign}{mantissa}e{exponent:+03d}"
