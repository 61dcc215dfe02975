"""A problem set as LaTeX or Markdown, from documents.problemset's blocks."""

from __future__ import annotations

from ..documents.problemset import Exercise, problemset_blocks
from .emit import ARTICLE, Page, render_page


def render_problemset(exercises: list[Exercise], lang: str, to: str, page: Page = ARTICLE) -> str:
    """LaTeX (a fragment, a complete document or the preamble lines, as the page says) or
    Markdown (KaTeX-safe)."""
    blocks = problemset_blocks(exercises, lang)
    return render_page(blocks, to, lang, any(e.wide_labels for e in exercises), page)
