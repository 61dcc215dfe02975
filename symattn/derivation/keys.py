"""A row's terms in the order of its keys: which key's exponential each term holds."""

from __future__ import annotations

import sympy as sp

from ..exact.sympy_fast import tail_product
from ..model import ShownDecimal
from .build import Derivation


def key_order(d: Derivation, i: int, x: sp.Expr) -> list[sp.Expr] | None:
    """The terms of x (row i's Z_i, or a numerator of its outputs) in the order of the keys
    whose exponentials they hold, as the row was exponentiated (e^{0.9995} + e^{0.9544} + …);
    None, for SymPy's order, when a term holds no key's or two terms hold one key's."""
    keys, number = _row_keys(d, i)
    if keys is None:
        return None
    found = []
    for term in sp.Add.make_args(x):
        j = keys.get(term)
        if j is None:  # a number times a key's exponential (2 e^{x}, 0.43 e^{x})
            factors = sp.Mul.make_args(term)
            for k in range(1, len(factors)):
                j = keys.get(tail_product(factors[k:])) if all(
                    f.is_Number or isinstance(f, ShownDecimal) for f in factors[:k]) else None
                if j is not None:
                    break
        if j is None and number is not None and term.is_Number:  # c · 1: the key whose L is 0
            j = number
        if j is None:
            return None
        found.append((j, term))
    if len({j for j, _ in found}) != len(found):
        return None
    return [term for _, term in sorted(found, key=lambda pair: pair[0])]


def _row_keys(d: Derivation, i: int) -> tuple[dict[sp.Expr, int] | None, int | None]:
    """Row i's exponentials -> their keys (None if two are equal), and the key of its one
    exponential that is a number (e^0 = 1), if exactly one is."""
    E, readable = d.display["E"], d.trace.readable[i]
    entries = [(j, E[i, j]) for j in range(E.cols) if readable[j]]
    numbers = [j for j, e in entries if e.is_Number]
    keys = {e: j for j, e in entries if not e.is_Number}
    return (keys if len(keys) + len(numbers) == len(entries) else None,
            numbers[0] if len(numbers) == 1 else None)
