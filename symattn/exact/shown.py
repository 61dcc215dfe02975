"""Display forms of exact values: a problem written in decimals is shown in decimals.

0.42 · 0.3 = 0.126 is shown as 0.126, e^(1999/2000) as e^0.9995, -17/25 as -0.68: every rational
whose decimal expansion ends within MAX_SHOWN_DIGITS significant digits becomes a ShownDecimal
(which prints as its digits); exponents of powers stay as they are (√2, not 2^0.5) and so does
any rational that does not terminate (1/3). The values underneath stay exact; only what a
person reads changes, and only for problems written in decimals.

An input is shown as written, however many digits it has (a NumPy float64 prints 17); a value
computed from such inputs whose exact form is longer than MAX_SHOWN_DIGITS digits (1.7886… ·
0.4365… has 34) is not written exactly at all: `long_values` finds it, and the derivation shows
that stage by its decimals, marked ≈.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from ..model import STAGES, Problem, ShownDecimal, Trace
from ..numeric_decimals import decimal_grid
from .exp_eval import exp_eval
from .sympy_fast import ordered_product, ordered_sum

MAX_SHOWN_DIGITS = 15
PIPELINE = ("R", "S", "L", "E", "A", "O")  # each computed from the one before
Form = Callable[[sp.Basic], sp.Basic]


def shown_form(problem: Problem, limit: int | None = MAX_SHOWN_DIGITS) -> Form:
    """The display form for this problem's values: decimals when it is written in decimals
    (one memo for all the values shown: entries share their rows' sums); limit None: the
    form of its inputs, every decimal as long as it is written."""
    if not problem.decimals:
        return _same
    if limit is None:
        texts = written(problem)
        return lambda value: as_written(value, texts)
    memo: dict[sp.Basic, sp.Basic] = {}
    return lambda value: decimals_shown(value, memo, limit)


def written(problem: Problem) -> dict[sp.Basic, sp.Basic]:
    """The inputs' decimals that end in zeros, as written (1.5440, 2.0): a memo for
    decimals_shown, which shows every other terminating rational by its shortest digits."""
    return {value: signed(text) for value, text in problem.written}


def as_written(value: sp.Basic, texts: dict[sp.Basic, sp.Basic]) -> sp.Basic:
    """An input (or matrix of them) as written: an entry written with trailing zeros keeps
    them (2.0), any other decimal its shortest digits. Whole entries only: the 2 of
    ln(0.5) = −ln 2 is not the 2.0 another entry was written as."""
    memo: dict[sp.Basic, sp.Basic] = {}

    def entry(x: sp.Basic) -> sp.Basic:
        text = texts.get(x)
        return text if text is not None else decimals_shown(x, memo, None)
    if isinstance(value, sp.MatrixBase):
        return sp.ImmutableMatrix(value.rows, value.cols, [entry(x) for x in value])
    return entry(value)


def _same(value: sp.Basic) -> sp.Basic:
    return value


def decimals_shown(value: sp.Basic, memo: dict[sp.Basic, sp.Basic] | None = None,
                   limit: int | None = MAX_SHOWN_DIGITS) -> sp.Basic:
    """The value (or matrix) with every terminating rational written as a decimal (of at most
    `limit` significant digits; None: any, as an input is written); each distinct
    subexpression is rewritten once (memo: shared by the entries of a stage, whose rows share
    their denominators)."""
    memo = {} if memo is None else memo
    if isinstance(value, sp.MatrixBase):
        return sp.ImmutableMatrix(value.rows, value.cols, [decimals_shown(x, memo, limit)
                                                           for row in value.tolist() for x in row])
    known = memo.get(value)
    if known is not None:
        return known
    if value.is_Rational:
        shown = decimal(value, limit)
    elif value.is_Atom or not value.args:
        shown = value
    elif value.is_Pow:  # the exponent of a root or a power keeps its form
        shown = sp.Pow(decimals_shown(value.base, memo, limit), value.exp, evaluate=False)
    else:
        shown = rebuilt(value, [decimals_shown(a, memo, limit) for a in value.args])
    memo[value] = shown
    return shown


def long_values(value: sp.Basic, memo: dict[sp.Basic, bool] | None = None) -> bool:
    """Whether a rational longer than MAX_SHOWN_DIGITS digits occurs in the value (or matrix):
    its exact decimal when it terminates, else its numerator or denominator (memo: the
    subexpressions already looked at, shared by a stage's entries)."""
    memo = {} if memo is None else memo
    if isinstance(value, sp.MatrixBase):
        return any(long_values(x, memo) for x in value)
    known = memo.get(value)
    if known is not None:
        return known
    if value.is_Rational:
        found = _digits(sp.Rational(value)) > MAX_SHOWN_DIGITS
    else:
        found = any(long_values(a, memo) for a in value.args)
    memo[value] = found
    return found


def long_stages(t: Trace) -> frozenset[str]:
    """The stages whose exact entries hold a rational too long to write (long_values): a
    projected Q, K or V, and from the first such stage of R … O on, every later one; none in a
    problem with symbols, which has no decimals to show instead."""
    p = t.problem
    if p.symbols:
        return frozenset()
    memo: dict[sp.Basic, bool] = {}
    found = {name for name in ("Q", "K", "V")
             if p.projections is not None and long_values(t.stage(name), memo)}
    for k, name in enumerate(PIPELINE):
        if name in p.shown_stages and long_values(t.E if name == "E" else t.stage(name), memo):
            found.update(PIPELINE[k:])
            break
    return frozenset(found)


def as_decimals(matrix: sp.ImmutableMatrix, places: int) -> sp.ImmutableMatrix:
    """A matrix holding a long value (long_values) as its decimals to `places` (each a
    ShownDecimal, printed as its digits); any other matrix as it is."""
    if not long_values(matrix):
        return matrix
    return sp.ImmutableMatrix([[signed(t) for t in row] for row in decimal_grid(matrix, places)])


def signed(digits: str) -> sp.Expr:
    """Decimal digits as shown: ShownDecimal, negated for a leading minus (-0.25)."""
    return -ShownDecimal(digits[1:]) if digits.startswith("-") else ShownDecimal(digits)


def _digits(r: sp.Rational) -> int:
    """The significant digits of r's exact decimal when it terminates, else of its longer part."""
    q = int(r.q)
    twos, fives = _power_of(q, 2), _power_of(q, 5)
    if q == 2 ** twos * 5 ** fives:
        units = abs(int(r.p)) * 10 ** max(twos, fives) // q
        return len(str(units).strip("0")) or 1
    return max(len(str(abs(int(r.p)))), len(str(q)))


def rebuilt(value: sp.Basic, args: list[sp.Basic]) -> sp.Basic:
    """value.func(*args): an exp through exp_eval, and a product of one exp, decimals and
    inverses of sums in Mul's canonical order, without Mul.flatten (which evaluates the exp
    again, asking the sign of its decimal exponent); anything else through its class."""
    if isinstance(value, sp.exp):
        return exp_eval(args[0])
    if value.is_Mul:
        product = _product(args)
        if product is not None:
            return product
    if value.is_Add:
        total = _sum(args)
        if total is not None:
            return total
    return value.func(*args)


def _sum(args: list[sp.Basic]) -> sp.Expr | None:
    """Add(*args) when it only orders its terms: at most one number (a rational), no sums or
    orders among them, and no two with one unit (rewriting rationals as decimals makes no
    terms alike)."""
    numbers = [a for a in args if a.is_Number]
    terms = [a for a in args if not a.is_Number]
    if len(numbers) > 1 or not all(n.is_Rational for n in numbers) or \
            any(a.is_Add or a.is_Order or not a.is_commutative for a in terms):
        return None
    units = [a.as_coeff_Mul()[1] for a in terms]
    if len(set(units)) < len(units):
        return None
    return ordered_sum(terms, numbers[0] if numbers else None)


def _product(args: list[sp.Basic]) -> sp.Expr | None:
    """Mul(*args) when it only orders its factors: a rational coefficient, at most one exp,
    and symbols and powers of sums that Pow leaves as they are, no two with one base."""
    coefficient, factors = sp.S.One, []
    for factor in (f for a in args for f in sp.Mul.make_args(a)):
        if factor.is_Rational:
            coefficient *= factor
        elif isinstance(factor, sp.exp) or factor.is_Symbol or (
                factor.is_Pow and factor.base.is_Add and sp.Pow(*factor.args) == factor):
            factors.append(factor)
        else:
            return None
    bases = [f.as_base_exp()[0] for f in factors]
    if coefficient == 0 or sum(isinstance(f, sp.exp) for f in factors) > 1 or \
            len(set(bases)) < len(bases):
        return None
    return ordered_product(factors, coefficient)


def decimal(r: sp.Rational, limit: int | None = MAX_SHOWN_DIGITS) -> sp.Expr:
    """±ShownDecimal for a terminating rational that is not an integer (of at most `limit`
    significant digits; None: any); else r itself."""
    if r.q == 1:
        return r
    twos, fives, rest = _power_of(int(r.q), 2), _power_of(int(r.q), 5), int(r.q)
    rest //= 2 ** twos * 5 ** fives
    places = max(twos, fives)
    if rest != 1:
        return r
    units = abs(int(r.p)) * 10 ** places // int(r.q)
    if limit is not None and len(str(units).lstrip("0")) > limit:
        return r
    whole, part = divmod(units, 10 ** places)
    text = f"{whole}.{part:0{places}d}".rstrip("0")
    shown = ShownDecimal(text)
    return -shown if r < 0 else shown


def _power_of(n: int, p: int) -> int:
    count = 0
    while n % p == 0:
        n //= p
        count += 1
    return count


def shown_stages(trace: Trace, long: frozenset[str] = frozenset()) -> dict[str, sp.Basic]:
    """Every stage (and tau and s) as a problem written in decimals shows them, the inputs as
    written; {} otherwise; the long stages (long_stages) are left out: they are shown by
    their decimals."""
    p = trace.problem
    if not p.decimals:
        return {}
    memo: dict[sp.Basic, sp.Basic] = {}
    texts = written(p)
    given = ("Q", "K", "V", "M") if p.projections is None else ("M",)
    shown: dict[str, sp.Basic] = {
        name: as_written(trace.stage(name), texts) if name in given else
        decimals_shown(trace.stage(name), memo, MAX_SHOWN_DIGITS)
        for name in STAGES if name not in long}
    shown.update(tau=decimals_shown(p.temperature),
                 s=p.scale_factor if p.scale is None else decimals_shown(p.scale_factor))
    return shown
