"""Decimals of exact values: correctly rounded to a number of places (halves away from zero,
refined near a half), fixed below 10^15 and scientific from there on, and tiny values in
scientific form; what every output and the judge of a decimal answer use."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import mpmath
import sympy as sp
from mpmath.libmp import to_digits_exp

from .limits import MAX_ROUNDING_DIGITS
from .numeric import GUARD_DIGITS, LOG10_2, context, to_mpf

SCIENTIFIC_FROM = 15  # values of at least 10^15 are written 8.1000e+199


def decimal_string(expr: sp.Expr, places: int, values: Mapping[sp.Symbol, sp.Expr] | None = None
                   ) -> str:
    """The value correctly rounded to a fixed number of places (halves away from zero), or in
    scientific form with as many places from 10^SCIENTIFIC_FROM on (8.1000e+199).

    Rationals are rounded exactly; other values are evaluated to places + 20 significant digits
    (the Evaluator refines large exp arguments), never through an integer of the value's size.
    """
    if expr is sp.S.NegativeInfinity:
        return "-oo"
    if expr.is_Rational:
        return _rational_decimal(Fraction(int(expr.p), int(expr.q)), places)
    return decimal_of(to_mpf(context(places + 20), expr, values or {}), places,
                      lambda: rounded_units(expr, places, values))


def decimal_of(x: mpmath.mpf, places: int, near_half: Callable[[], int] | None = None) -> str:
    """A number known to at least places + 20 significant digits, as decimal_string writes it;
    near_half: its units of 10^-places, correctly rounded, when x lies too near a half to tell."""
    if abs(x) >= 10 ** SCIENTIFIC_FROM:
        # to_digits_exp returns (sign, digits, exponent); mypy misreads mpmath's untyped body
        return _scientific(*to_digits_exp(x._mpf_, places + 12), places)  # type: ignore[call-arg]
    ctx = context(places + SCIENTIFIC_FROM + 20)
    scaled = ctx.mpf(x) * ctx.mpf(10) ** places
    if near_half and _near_half(ctx, scaled, places + 20):
        return _fixed(near_half(), places)
    return _fixed(_away(ctx, scaled), places)


def rounded_units(expr: sp.Expr, places: int, values: Mapping[sp.Symbol, sp.Expr] | None = None
                  ) -> int:
    """expr·10^places rounded to an integer, halves away from zero, correctly: a value too near
    a half for its digits to tell is evaluated at twice as many, up to MAX_ROUNDING_DIGITS
    (1/8 + e^-100 to 2 places is 13, not 12); one that near is taken as the half. What
    `decimal_string` prints and what a decimal answer is judged against."""
    if expr.is_Rational:
        return _half_away(Fraction(int(expr.p), int(expr.q)) * Fraction(10) ** places)
    digits = max(places + (magnitude(expr, values) or 0), 0) + 30
    while True:
        ctx = context(digits)
        scaled = to_mpf(ctx, expr, values or {}) * ctx.mpf(10) ** places
        if digits >= MAX_ROUNDING_DIGITS or not _near_half(ctx, scaled, digits):
            return _away(ctx, scaled)
        digits = min(2 * digits, MAX_ROUNDING_DIGITS)


def _near_half(ctx: mpmath.MPContext, scaled: mpmath.mpf, digits: int) -> bool:
    """Whether scaled, known to `digits` significant digits, lies within its error of a half."""
    size = abs(scaled)
    return bool(abs(size - ctx.floor(size) - ctx.mpf(0.5)) <=
                max(size, 1) * ctx.mpf(10) ** (GUARD_DIGITS // 2 - digits))


def _away(ctx: mpmath.MPContext, scaled: mpmath.mpf) -> int:
    """scaled rounded to an integer, halves away from zero."""
    units = int(ctx.floor(abs(scaled) + ctx.mpf(0.5)))
    return units if scaled >= 0 else -units


def _rational_decimal(value: Fraction, places: int) -> str:
    """Exact rounding of a rational: fixed below 10^SCIENTIFIC_FROM, scientific from there on."""
    size = abs(value)
    if size < 10 ** SCIENTIFIC_FROM:
        return _fixed(_half_away(value * 10 ** places), places)
    exponent = _rational_magnitude(size)
    units = _half_away(size / Fraction(10) ** (exponent - places))
    sign = "-" if value < 0 else ""
    if units == 10 ** (places + 1):  # 9.99995e20 rounds up to 1.0000e21
        units, exponent = units // 10, exponent + 1
    return _scientific(sign, str(units), exponent, places)


def _half_away(value: Fraction) -> int:
    units = int(abs(value) + Fraction(1, 2))
    return units if value >= 0 else -units


def _fixed(units: int, places: int) -> str:
    sign = "-" if units < 0 else ""
    whole, part = divmod(abs(units), 10 ** places)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


def _scientific(sign: str, digits: str, exponent: int, places: int) -> str:
    """sign, at least places + 1 significant digits (the first of them nonzero; rounded here
    when there are more) and the exponent of the first -> 8.1000e+199."""
    if len(digits) > places + 1:
        units = int(digits[:places + 1]) + (digits[places + 1] >= "5")
        if units == 10 ** (places + 1):
            units, exponent = units // 10, exponent + 1
        digits = str(units)
    mantissa = digits[0] + ("." + digits[1:places + 1] if places else "")
    return f"{sign}{mantissa}e{exponent:+d}"


def magnitude(expr: sp.Expr, values: Mapping[sp.Symbol, sp.Expr] | None = None) -> int | None:
    """floor(log10 |value|) (None for zero): exact for rationals, else from 30 digits."""
    if expr.is_zero:
        return None
    if expr.is_Rational:
        return _rational_magnitude(abs(Fraction(int(expr.p), int(expr.q))))
    value = to_mpf(context(30), expr, values or {})
    if not value:
        return None
    _, digits, exponent = to_digits_exp(value._mpf_, 30)
    return exponent + 1 if digits.startswith("9" * 25) else exponent  # 0.000999...9 is 1e-3


def _rational_magnitude(size: Fraction) -> int:
    """floor(log10 size) of a positive rational, from its bit lengths and a few exact steps."""
    exponent = int((size.numerator.bit_length() - size.denominator.bit_length()) * LOG10_2) - 2
    while size >= Fraction(10) ** (exponent + 1):
        exponent += 1
    return exponent


def decimal_grid(matrix: sp.ImmutableMatrix, places: int = 4,
                 values: Mapping[sp.Symbol, sp.Expr] | None = None) -> list[list[str]]:
    """Every entry of a matrix as shown: decimal_string, or a non-zero value that rounds to
    zero in scientific form (4.5e-5), never 0.0000."""
    def shown(x: sp.Expr) -> str:
        text = decimal_string(x, places, values)
        if text.lstrip("-").strip("0.") or x is sp.S.Zero or not x.is_number:
            return text
        value = to_mpf(context(places + 20), x, values or {})
        if not value and x.is_zero:  # asked only of a value that evaluates to 0
            return text
        mantissa, exponent = scientific(value)
        return f"{mantissa}e{exponent}"
    return [[shown(x) for x in row] for row in matrix.tolist()]


SIGNIFICANT = 2  # digits of a tiny value's scientific form


def scientific(number: mpmath.mpf) -> tuple[str, int]:
    """SIGNIFICANT digits and a power of ten, halves away from zero: ("4.5", -5)."""
    sign, digits, exponent = to_digits_exp(number._mpf_, 30)
    x = Decimal(f"{sign}{digits[0]}.{digits[1:]}")
    step = Decimal(10) ** -(SIGNIFICANT - 1)
    mantissa = x.quantize(step, ROUND_HALF_UP)
    if abs(mantissa) >= 10:  # 9.96e-7 rounds to 1.0e-6
        mantissa, exponent = (mantissa / 10).quantize(step, ROUND_HALF_UP), exponent + 1
    return str(mantissa), exponent
