"""A problem set as LaTeX or Markdown, from documents.problemset's blocks."""

from __future__ import annotations

from ..documents.problemset import Exercise, problemset_blocks
from . import latex, markdown


def render_problemset(exercises: list[Exercise], lang: str, to: str) -> str:
    """LaTeX (a complete document) or Markdown (KaTeX-safe)."""
    blocks = problemset_blocks(exercises, lang)
    if to == "markdown":
        return markdown.document(blocks)
    return latex.document(blocks, lang, any(e.wide_labels for e in exercises))
