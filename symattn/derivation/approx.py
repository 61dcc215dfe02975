"""Decimals that do not lie: exact when the value terminates, correctly rounded otherwise, and a
tiny non-zero value in scientific form (4.5 × 10⁻⁵), never 0.0000 beside a masked 0."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import mpmath
import sympy as sp

from ..exact.shown import MAX_SHOWN_DIGITS
from ..model import ShownDecimal
from ..numeric import context, to_mpf
from ..numeric_decimals import decimal_of, decimal_string, rounded_units, scientific


@dataclass(frozen=True)
class Approx:
    """A decimal as shown: digits × 10^exponent; exact when the digits are the value itself."""

    digits: str
    exact: bool
    exponent: int = 0

    @property
    def text(self) -> str:
        """Plain text: 0.1667, 4.5e-5."""
        return self.digits + (f"e{self.exponent}" if self.exponent else "")


def approximate(value: sp.Expr, number: mpmath.mpf | None, places: int) -> Approx | None:
    """The decimal shown for an exact value (number: its value to places + 20 digits, when
    known); None for -∞ and for a value with a symbol."""
    if value is sp.S.NegativeInfinity or not value.is_Rational and _has_symbol(value):
        return None
    if value.is_Rational and (value * 10 ** places).is_Integer:
        exact = _exact(sp.Rational(value))
        if exact is not None:
            return exact
    if number is None:
        number = to_mpf(context(places + 20), value, {})
    if number != 0 and abs(number) < mpmath.mpf(10) ** (-places) / 2:
        return _scientific(number)
    text = decimal_string(value, places) if value.is_Rational else \
        decimal_of(number, places, lambda: rounded_units(value, places))
    digits, _, exponent = text.partition("e")
    return Approx(digits, False, int(exponent) if exponent else 0)


@lru_cache(maxsize=1 << 15)
def _has_symbol(value: sp.Expr) -> bool:
    """Whether a symbol other than a shown decimal occurs in value (free_symbols, with each
    shared subexpression, as a row's sum, looked at once)."""
    if value.is_Atom:
        return value.is_Symbol and not isinstance(value, ShownDecimal)
    if isinstance(value, (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log)):
        return any(_has_symbol(a) for a in value.args)
    return any(not isinstance(s, ShownDecimal) for s in value.free_symbols)


def _exact(r: sp.Rational) -> Approx | None:
    """A terminating rational as its own digits when a line shows them (0.25); None for a
    longer one (10^100 + 1, 81·10^198), which is shown by its leading digits, as E beside it."""
    plain = _plain(r)
    short = len(plain.lstrip("-").replace(".", "").lstrip("0")) <= MAX_SHOWN_DIGITS
    return Approx(plain, True) if short else None


def _plain(r: sp.Rational) -> str:
    """A terminating rational's digits: 0.1, -2.25, 3."""
    if r.q == 1:
        return str(r.p)
    places = 0
    while not (r * 10 ** places).is_Integer:
        places += 1
    whole, part = divmod(int(abs(r) * 10 ** places), 10 ** places)
    return ("-" if r < 0 else "") + f"{whole}.{part:0{places}d}"


def _scientific(number: mpmath.mpf) -> Approx:
    """4.5 × 10⁻⁵: a tiny value's leading digits and its power of ten."""
    mantissa, exponent = scientific(number)
    return Approx(mantissa, False, exponent)
