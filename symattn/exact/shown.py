"""Display forms of exact values: a problem written in decimals is shown in decimals.

0.42 · 0.3 = 0.126 is shown as 0.126, e^(1999/2000) as e^0.9995, -17/25 as -0.68: every rational
whose decimal expansion ends within MAX_SHOWN_DIGITS significant digits becomes a ShownDecimal
(which prints as its digits); exponents of powers stay as they are (√2, not 2^0.5) and so does
any rational that does not terminate (1/3). The values underneath stay exact; only what a
person reads changes, and only for problems written in decimals.
"""

from __future__ import annotations

from typing import Callable

import sympy as sp

from ..model import STAGES, Problem, ShownDecimal, Trace

MAX_SHOWN_DIGITS = 15
Form = Callable[[sp.Basic], sp.Basic]


def shown_form(problem: Problem) -> Form:
    """The display form for this problem's values: decimals when it is written in decimals
    (one memo for all the values shown: entries share their rows' sums)."""
    if not problem.decimals:
        return _same
    memo: dict[sp.Basic, sp.Basic] = {}
    return lambda value: decimals_shown(value, memo)


def _same(value: sp.Basic) -> sp.Basic:
    return value


def decimals_shown(value: sp.Basic, memo: dict[sp.Basic, sp.Basic] | None = None) -> sp.Basic:
    """The value (or matrix) with every terminating rational written as a decimal; each
    distinct subexpression is rewritten once (memo: shared by the entries of a stage, whose
    rows share their denominators)."""
    memo = {} if memo is None else memo
    if isinstance(value, sp.MatrixBase):
        return sp.ImmutableMatrix(value.rows, value.cols, [decimals_shown(x, memo)
                                                           for row in value.tolist() for x in row])
    known = memo.get(value)
    if known is not None:
        return known
    if value.is_Rational:
        shown = decimal(value)
    elif value.is_Atom or not value.args:
        shown = value
    elif value.is_Pow:  # the exponent of a root or a power keeps its form
        shown = sp.Pow(decimals_shown(value.base, memo), value.exp, evaluate=False)
    else:
        shown = value.func(*(decimals_shown(a, memo) for a in value.args))
    memo[value] = shown
    return shown


def decimal(r: sp.Rational) -> sp.Expr:
    """±ShownDecimal for a terminating rational that is not an integer; else r itself."""
    if r.q == 1:
        return r
    twos, fives, rest = _power_of(int(r.q), 2), _power_of(int(r.q), 5), int(r.q)
    rest //= 2 ** twos * 5 ** fives
    places = max(twos, fives)
    if rest != 1:
        return r
    units = abs(int(r.p)) * 10 ** places // int(r.q)
    if len(str(units).lstrip("0")) > MAX_SHOWN_DIGITS:
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


def shown_stages(trace: Trace) -> dict[str, sp.Basic]:
    """Every stage (and tau and s) as a problem written in decimals shows them; {} otherwise."""
    p = trace.problem
    if not p.decimals:
        return {}
    memo: dict[sp.Basic, sp.Basic] = {}
    shown: dict[str, sp.Basic] = {name: decimals_shown(trace.stage(name), memo) for name in STAGES}
    shown.update(tau=decimals_shown(p.temperature),
                 s=p.scale_factor if p.scale is None else decimals_shown(p.scale_factor))
    return shown
