"""Small exact operations shared by the analyses: zero and sign tests, one-fraction forms."""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from collections.abc import Sequence

import mpmath
import sympy as sp

from ..errors import UndecidedError
from ..numeric import Evaluator

SIGN_DIGITS = 60
DEEP_DIGITS = 400  # the second look at a numerator that vanishes to SIGN_DIGITS


_EVALUATORS: dict[int, Evaluator] = {}


def _evaluator(digits: int) -> Evaluator:
    """One memoizing Evaluator per precision (building an mpmath context is not free)."""
    if digits not in _EVALUATORS:
        _EVALUATORS[digits] = Evaluator(digits)
    return _EVALUATORS[digits]


def _as_fraction(x: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(numerator, denominator); SymPy's together only when a fraction is nested in a sum."""
    numerator, denominator = sp.fraction(x)
    nested = any(a.is_Pow and a.exp.is_negative for a in sp.preorder_traversal(numerator)
                 if a.is_Pow)
    return sp.fraction(sp.together(x)) if nested else (numerator, denominator)


def tidy(x: sp.Expr) -> sp.Expr:
    """One fraction with an expanded numerator (per entry; never on a whole pipeline)."""
    if x.is_Rational:
        return x
    numerator, denominator = _as_fraction(x)
    return _over(sp.expand(numerator), denominator)


def _over(numerator: sp.Expr, denominator: sp.Expr) -> sp.Expr:
    """numerator/denominator with the integer content they share divided out."""
    if numerator == 0:
        return sp.S.Zero
    if denominator.is_Rational:
        return numerator / denominator
    constant = _constant_ratio(numerator, denominator)
    if constant is not None:
        return constant
    top, _ = numerator.as_content_primitive()
    bottom, _ = sp.expand(denominator).as_content_primitive()
    if top.is_Integer and bottom.is_Integer and gcd(int(top), int(bottom)) > 1:
        common = gcd(int(top), int(bottom))
        numerator = sp.expand(numerator / common)
        denominator = sp.expand(denominator / common)
    return sp.Mul(numerator, sp.Pow(denominator, -1))


def _constant_ratio(numerator: sp.Expr, denominator: sp.Expr) -> sp.Rational | None:
    """numerator/denominator when it is a rational constant (guessed numerically, proved exactly)."""
    evaluator = _evaluator(30)
    try:
        ratio = evaluator(numerator) / evaluator(denominator)
        if not ratio or not -80 < evaluator.ctx.mag(ratio) < 80:  # no p/q with q <= 10^6 is that
            return None  # size, and its text would be an integer as large as the value
        guess = Fraction(mpmath.nstr(ratio, 25, min_fixed=-30, max_fixed=30)).limit_denominator(10 ** 6)
        close = abs(ratio - evaluator.ctx.mpf(guess.numerator) / guess.denominator) <= \
            abs(ratio) * evaluator.ctx.mpf(10) ** -20
    except (ValueError, TypeError, ZeroDivisionError):
        return None
    if not close:
        return None
    constant = sp.Rational(guess.numerator, guess.denominator)
    return constant if sp.expand(numerator - constant * denominator) == 0 else None


def fraction_sum(terms: Sequence[sp.Expr]) -> sp.Expr:
    """A sum of fractions, the terms over one denominator added into one fraction each.

    Terms over different denominators stay separate (a product of them would be unreadable).
    """
    if all(t.is_Rational for t in terms):
        return sp.Add(*terms)
    groups: dict[sp.Expr, list[sp.Expr]] = {}
    for term in terms:
        numerator, denominator = _as_fraction(term)
        content, denominator = denominator.as_content_primitive()  # 867 D² -> 867, D²
        groups.setdefault(denominator, []).append(numerator / content)
    parts = []
    for denominator, numerators in groups.items():
        numerator = sp.expand(sp.Add(*numerators))
        content, _ = numerator.as_content_primitive()
        if content.is_Rational and content.q != 1:  # integer coefficients over q·D
            numerator, denominator = sp.expand(numerator * content.q), content.q * denominator
        parts.append(_over(numerator, denominator))
    return sp.Add(*parts)


def _clearly_nonzero(numerator: sp.Expr, digits: int) -> bool:
    """Does the sum evaluate, to `digits`, clear of 0 relative to its largest term?"""
    evaluator = _evaluator(digits)
    value, ctx = evaluator(numerator), evaluator.ctx
    scale = max(abs(evaluator(t)) for t in sp.Add.make_args(numerator))
    return isinstance(value, ctx.mpf) and abs(value) > scale * ctx.mpf(10) ** -(digits - 10)


def is_zero(x: sp.Expr) -> bool:
    """Exactly zero? Over a common denominator the expanded numerator must vanish.

    Logarithms of rationals are reduced to primes and exponentials of them collapse when
    parsed, so this decides the values the pipeline builds; a numerator that is not
    syntactically 0 but is tiny numerically is expanded once more (logarithms, powers) and
    evaluated to DEEP_DIGITS; still undecided, it raises UndecidedError (no unbounded simplify).
    """
    if x.is_Rational:
        return x == 0
    numerator, _ = _as_fraction(x)
    numerator = sp.expand(numerator)
    if numerator == 0:
        return True
    if _clearly_nonzero(numerator, SIGN_DIGITS):
        return False
    numerator = sp.expand(sp.powsimp(sp.expand_log(numerator), combine="exp"))
    if numerator == 0:
        return True
    if _clearly_nonzero(numerator, DEEP_DIGITS):
        return False
    raise UndecidedError(f"a value is 0 to {DEEP_DIGITS} digits but could not be proved exactly "
                         "0 by expanding logarithms and powers; no answer is given rather than a "
                         "guess")


def sign(x: sp.Expr) -> int:
    """-1, 0 or 1, exactly: zero by is_zero, the sign of anything else from 60 digits."""
    if x.is_Rational:
        return 1 if x > 0 else -1 if x < 0 else 0
    if is_zero(x):
        return 0
    value = _evaluator(SIGN_DIGITS)(x)
    return 1 if value > 0 else -1


def approx(x: sp.Expr, digits: int = 50) -> mpmath.mpf:
    """A number to compare and sort by (mpmath, private context)."""
    return _evaluator(digits)(x)
