"""Printing the pipeline's own canonical form in one pass: each distinct subexpression once, terms
in the order SymPy keeps them (no sorting by numeric value), so SymPy reads the text back as the
same expression."""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.printing.str import StrPrinter


class OnePass:
    """A StrPrinter that keeps SymPy's stored order of terms and factors (order="none": the
    default order sorts every sum's terms by evaluating them) and prints each distinct
    subexpression once. Make one per document: it remembers what it printed."""

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        super().__init__({"order": "none", **(settings or {})})  # type: ignore[call-arg]
        self._printed: dict[sp.Basic, str] = {}

    def _print(self, expr: Any, **kwargs: Any) -> str:
        if kwargs or not isinstance(expr, sp.Basic):
            return super()._print(expr, **kwargs)  # type: ignore[misc]
        text = self._printed.get(expr)
        if text is None:
            text = self._printed[expr] = super()._print(expr)  # type: ignore[misc]
        return text


class CanonicalPrinter(OnePass, StrPrinter):
    """SymPy's str() syntax (E, log), in one pass: the JSON output's entries."""
