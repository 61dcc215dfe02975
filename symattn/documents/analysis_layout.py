"""Layout helpers shared by the sweep, non-uniqueness and gradient documents."""

from __future__ import annotations

from collections.abc import Iterable

import sympy as sp

from ..derivation import Derivation
from ..printing.fit import Fit
from ..printing.printer import math, matrix
from .blocks import Block, Paragraph, Segment, fill, segments, titled
from .notation import explain_blocks
from .setup import setup
from .textbook import logits, scores


def mat(m: sp.MatrixBase) -> str:
    """A bracketed array of the exact entries."""
    return matrix([[math(x) for x in m.row(i)] for i in range(m.rows)])


def vector(values: Iterable[sp.Expr]) -> str:
    """(x_1, ..., x_n) with exact entries."""
    return r"\left(" + ", ".join(math(x) for x in values) + r"\right)"


def title(problem, lang: str) -> str | None:
    """The problem's title in the document's language: title_zh in Chinese when the file gives
    one, else the title (None: no title)."""
    return (lang == "zh" and getattr(problem, "title_zh", None)) or problem.title


def subtitle(problem, lang: str = "en") -> list[Block]:
    """The problem's title in the document's language under the heading, said to be the
    problem's ("The problem: …."; a bare line read as a stray heading), user text escaped by
    each target."""
    text = title(problem, lang)
    return [Paragraph(problem_title(text, lang))] if text else []


def problem_title(text: str, lang: str) -> tuple[Segment, ...]:
    """"The problem: Five tokens, causal mask, temperature 0.85." (题目：…。), no second stop
    after a title that ends with one."""
    stopped = text.rstrip().endswith((".", "?", "!", "。", "？", "！"))
    return fill(segments("problem_title_stopped" if stopped else "problem_title", lang,
                         title="\x00"), titled(text))


def statement(d: Derivation | None, fit: Fit) -> list[Block]:
    """The problem an analysis analyses, stated with solve's own blocks: the setup sentence and
    the inputs, the scores (the scale in words) and the logits; nothing without a derivation."""
    return explain_blocks([*setup(d, fit), *scores(d, fit), *logits(d, fit)],
                          d.options.lang) if d is not None else []
