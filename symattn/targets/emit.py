"""Document blocks as LaTeX (fragment, standalone document or preamble lines) or Markdown."""

from __future__ import annotations

from dataclasses import dataclass

from ..documents.blocks import Block
from .latex import Headings, fragment
from .latex import document as latex_document
from .latex import preamble as latex_preamble
from .markdown import document as markdown_document
from ..printing.printer import needs_cjk

MARKDOWN_DEPTH = {"chapter": 0, "section": 0, "subsection": 1, "subsubsection": 2, "paragraph": 3}
"""Markdown heading depth below `#` for each LaTeX heading level of the title."""


@dataclass(frozen=True)
class Page:
    """How one document is laid out: its text width in points (for the builders' fits), its
    headings, and which LaTeX is written (a fragment, a standalone document, or the preamble)."""

    width: float = 345.0
    heading: str = "section"
    numbered: bool = False
    label: str | None = None
    standalone: bool = False
    preamble: bool = False


ARTICLE = Page()
"""The default: a fragment for an article's (or a book's) 345 pt text block."""


def render_page(blocks: list[Block], to: str, lang: str, wide_labels: bool, page: Page) -> str:
    """render_blocks under a Page: Markdown, the LaTeX fragment, document or preamble lines."""
    return render_blocks(blocks, to, lang, wide_labels, heading=page.heading,
                         numbered=page.numbered, label=page.label, standalone=page.standalone,
                         preamble=page.preamble)


def render_blocks(blocks: list[Block], to: str, lang: str, wide_labels: bool, *,
                  heading: str = "section", numbered: bool = False, label: str | None = None,
                  standalone: bool = False, preamble: bool = False) -> str:
    """Markdown, or LaTeX: with preamble the \\usepackage lines the fragment needs, with
    standalone a complete document, else the fragment (headings at `heading`, numbered or
    not, labels from `label`)."""
    if to == "markdown":
        return markdown_document(blocks, MARKDOWN_DEPTH[heading])
    if preamble:
        return "\n".join(latex_preamble(blocks, lang, wide_labels)) + "\n"
    headings = Headings(heading, numbered, label)
    if not standalone:
        return fragment(blocks, headings, lang, wide_labels)
    return latex_document(blocks, lang, wide_labels, headings=headings)


def wide_labels(problem) -> bool:
    """Whether a problem's own text (its title, token labels) needs CJK fonts in English LaTeX."""
    return needs_cjk("".join((problem.title or "",) + tuple(problem.row_labels)
                             + tuple(getattr(problem, "column_labels", ()))))
