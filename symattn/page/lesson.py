"""What the course page shows around its lab: the [page] predictions and claim in the page's
language, and the names of one state (p, t, a ...) as a legend the page compares across states."""

from __future__ import annotations

from typing import Any

from ..derivation import Derivation
from ..limits import MAX_SIDE
from ..model import Lesson
from ..printing.printer import approx as approx_math
from ..printing.printer import math

PAGE_TAKEN = frozenset({"q", *(f"q_{i}" for i in range(1, MAX_SIDE + 1))})
"""Names no name on a page takes: the page writes the query vectors q_1, q_2 ... in italics
(k and v are never names: derivation.names reserves them)."""


def lesson_data(lesson: Lesson | None, lang: str) -> dict[str, Any] | None:
    """The predictions and the claim (text, answer, reason), Chinese where given for a Chinese
    page; None when the file has no [page] table."""
    if lesson is None:
        return None
    zh = lang == "zh"
    predictions = lesson.predictions_zh if zh and lesson.predictions_zh else lesson.predictions
    claim = None
    if lesson.claim is not None:
        chinese = zh and lesson.claim_zh is not None
        claim = {"text": lesson.claim_zh if chinese else lesson.claim,
                 "answer": lesson.claim_answer,
                 "reason": lesson.claim_reason_zh if chinese else lesson.claim_reason}
    return {"predictions": list(predictions), "claim": claim}


def legend(d: Derivation, store: Any) -> list[dict[str, Any]]:
    """Each name of this state: its letter, its math, its definition (with a decimal when the
    value is not exact) and that decimal, for the page's legend and its notes on redefinitions."""
    out = []
    for n in d.names:
        near = n.decimal.text if n.decimal is not None else None
        approx = rf" \approx {approx_math(n.decimal)}" if n.decimal and not n.decimal.exact else ""
        out.append({"n": str(n.symbol), "s": store.add(math(n.symbol)),
                    "m": store.add(f"{math(n.symbol)} = {math(n.value)}{approx}"), "dec": near})
    return out
