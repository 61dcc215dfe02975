"""Document blocks as LaTeX (fragment, standalone document or preamble lines) or Markdown."""

from __future__ import annotations

from ..documents.blocks import Block
from .latex import Headings, fragment
from .latex import document as latex_document
from .latex import preamble as latex_preamble
from .markdown import document as markdown_document

MARKDOWN_DEPTH = {"chapter": 0, "section": 0, "subsection": 1, "subsubsection": 2, "paragraph": 3}
"""Markdown heading depth below `#` for each LaTeX heading level of the title."""


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
    return latex_document(blocks, lang, wide_labels, margins=False, headings=headings)
