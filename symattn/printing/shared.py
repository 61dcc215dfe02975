"""A sum that many entries share as their denominator, named once (Z = 6 + e^{10}) and the
entries written over the name (2/Z, (14 + 100 e^{10})/Z), for the analyses' matrices."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sympy as sp

from .printer import math

REPEATS = 3  # a denominator written this often or more is named once


def split(x: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """x as (numerator, denominator) when its terms share one denominator that is a sum
    (2/(6 + e^{10}), 14/(6 + e^{10}) + 100 e^{10}/(6 + e^{10})); None otherwise."""
    parts = [sp.fraction(term) for term in sp.Add.make_args(x)]
    denominators = {den for _, den in parts}
    if len(denominators) != 1:
        return None
    den = denominators.pop()
    return (sp.Add(*[num for num, _ in parts]), den) if den.is_Add else None


def shared_sums(grids: Sequence[Iterable[sp.Expr]], letter: str = "Z") -> dict[sp.Expr, str]:
    """The denominators written REPEATS times or more across the grids, each with its name:
    Z for one, Z_1, Z_2, … in the order they first appear for several; letter: Z' for a
    mistake's sums, which are not the rows' Z_i (column sums, sums of unscaled logits)."""
    counts: dict[sp.Expr, int] = {}
    for grid in grids:
        for x in grid:
            found = split(x)
            if found is not None:
                counts[found[1]] = counts.get(found[1], 0) + 1
    shared = [den for den, n in counts.items() if n >= REPEATS]
    if len(shared) == 1:
        return {shared[0]: letter}
    return {den: f"{letter}_{{{k + 1}}}" for k, den in enumerate(shared)}


def over_name(x: sp.Expr, names: dict[sp.Expr, str], slash: bool = True) -> str:
    """The LaTeX of x, over its named denominator as num/Z ((a + b)/Z for a sum)."""
    found = split(x)
    if found is None or found[1] not in names:
        return math(x, slash=slash)
    num = math(found[0], slash=True)
    return f"{f'({num})' if found[0].is_Add else num}/{names[found[1]]}"


def over_names(m: sp.MatrixBase, names: dict[sp.Expr, str]) -> list[list[str]]:
    """The LaTeX of every entry, one over a named denominator as num/Z."""
    return [[over_name(x, names) for x in row] for row in m.tolist()]


def definitions(names: dict[sp.Expr, str]) -> list[str]:
    """Z = 6 + e^{10}, one inline formula per name (for the sentence before the display)."""
    return [f"{name} = {math(den, slash=True)}" for den, name in names.items()]
