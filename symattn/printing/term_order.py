"""The order in which SymPy's printers write a sum's terms, with each factor's facts found once.

Expr.as_ordered_terms (the default, lex, order) evaluates every number factor of every term as
a complex float, decomposes every other factor into a power of a generator and sorts the
generators by their sort keys, each time a sum is printed; a derivation prints a row's sum of
exponentials in every entry of the row. ordered_terms runs the same algorithm with those facts
remembered per factor, so it gives the same order (tests/test_summary_shortcuts.py).
"""

from __future__ import annotations

from typing import TypeVar
from collections.abc import Callable

import sympy as sp
from sympy.core.exprtools import decompose_power
from sympy.core.sorting import default_sort_key

T = TypeVar("T")
Fact = tuple[complex | None, tuple[sp.Expr, int] | None]  # (value, or (base, exponent))

_FACTS: dict[sp.Expr, Fact] = {}
_SORT_KEYS: dict[sp.Expr, tuple] = {}
_VALUES: dict[sp.Expr, complex] = {}


def remembered(memo: dict, key: object, make: Callable[[], T], kept: int = 50_000) -> T:
    """memo[key], made by make() the first time; the memo is emptied when it holds kept values
    (a long session prints many problems)."""
    try:
        return memo[key]
    except KeyError:
        if len(memo) >= kept:
            memo.clear()
        value = memo[key] = make()
        return value


def ordered_terms(expr: sp.Add) -> list[sp.Expr]:
    """expr.as_ordered_terms() for a commutative sum without an Order term."""
    terms = expr.args
    special = _number_beside_negative_multiple(terms)
    if special is not None:
        return special
    gens: set[sp.Expr] = set()
    rows = []
    for term in terms:
        coefficient, rest = term.as_coeff_Mul()
        value = remembered(_VALUES, coefficient, lambda c=coefficient: complex(c))
        powers: dict[sp.Expr, int] = {}
        for factor in sp.Mul.make_args(rest) if rest is not sp.S.One else ():
            factor_value, power = remembered(_FACTS, factor, lambda f=factor: _fact(f))
            if factor_value is not None:
                value *= factor_value
            else:
                powers[power[0]] = power[1]
                gens.add(power[0])
        rows.append((term, value, powers))
    index = {g: i for i, g in enumerate(sorted(gens, key=_sort_key))}
    keyed = []
    for term, value, powers in rows:
        monomial = [0] * len(index)
        for base, exponent in powers.items():
            monomial[index[base]] = exponent
        keyed.append(((tuple(-m for m in monomial), (),
                       ((bool(value.imag), value.imag), (value.real, value.imag))), term))
    return [term for _, term in sorted(keyed, key=lambda kt: kt[0])]


def _fact(factor: sp.Expr) -> Fact:
    """A factor's complex value if it is a number that has one, else its power of a generator."""
    if factor.is_number:
        try:
            return complex(factor), None
        except (TypeError, ValueError):
            pass
    return None, decompose_power(factor)


def _sort_key(generator: sp.Expr) -> tuple:
    return remembered(_SORT_KEYS, generator, lambda: default_sort_key(generator))


def _number_beside_negative_multiple(terms: tuple[sp.Expr, ...]) -> list[sp.Expr] | None:
    """as_ordered_terms' special case: a positive number and a negative multiple of something
    keep that order (1 - x, not -x + 1)."""
    def key(x: sp.Expr) -> bool:
        return not isinstance(x, (sp.Number, sp.NumberSymbol))
    ordered = sorted(terms, key=key)
    if len(ordered) != 2 or key(ordered[0]) or not isinstance(ordered[1], sp.Mul):
        return None
    factors = sorted(sp.Mul.make_args(ordered[1]), key=key)
    if len(factors) == 2 and isinstance(factors[0], sp.Number) and ordered[0].is_positive \
            and factors[0].is_negative:
        return ordered
    return None
