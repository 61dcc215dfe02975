"""The classic mistakes on a course page: what each gives beside the right A and O, as decimals.

They are computed once, for the problem's own temperature and mask (symattn mistakes does the
same); the page shows the current query row of each.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..answers.mistakes import Mistakes
from ..errors import InputError
from ..exact.attention import attend
from ..model import Problem
from ..numeric_decimals import decimal_string
from ..words.exercises import MISTAKE_FORMULAS, MISTAKE_NAMES


def mistakes_data(problem: Problem, places: int, lang: str) -> dict[str, Any] | None:
    """The right A and O and each mistake's (or why it has none); None for symbols or no state."""
    if problem.symbols:
        return None
    try:
        trace = attend(problem)
    except InputError:
        return None
    items = []
    for found in Mistakes(problem, trace).all():
        item: dict[str, Any] = {"name": MISTAKE_NAMES["mistake_" + found.name][lang],
                                "formula": MISTAKE_FORMULAS["formula_" + found.name][lang],
                                "reason": found.reason or None}
        if found.applies:
            item |= {"A": decimals(found.A, places), "O": decimals(found.O, places)}
        items.append(item)
    return {"A": decimals(trace.A, places), "O": decimals(trace.O, places), "items": items}


def decimals(matrix: sp.ImmutableMatrix, places: int) -> list[list[str]]:
    return [[decimal_string(x, places) for x in matrix.row(i)] for i in range(matrix.rows)]
