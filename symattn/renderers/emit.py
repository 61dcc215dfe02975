"""Document blocks as LaTeX (fragment, standalone document or preamble lines) or Markdown."""

from __future__ import annotations

from . import latex, markdown
from .blocks import Block

MARKDOWN_DEPTH = {"chapter": 0, "section": 0, "subsection": 1, "subsubsection": 2, "paragraph": 3}
"""Markdown heading depth below `#` for each LaTeX heading level of the title."""


def render_blocks(blocks: list[Block], to: str, lang: str, wide_labels: bool, *,
                  heading: str = "section", numbered: bool = False, label: str | None = None,
                  standalone: bool = False, preamble: bool = False) -> str:
    """Markdown, or LaTeX: with preamble the \\usepackage lines the fragment needs, with
    standalone a complete document, else the fragment (headings at `heading`, numbered or
    not, labels from `label`)."""
    if to == "markdown":
        return markdown.document(blocks, MARKDOWN_DEPTH[heading])
    if preamble:
        return "\n".join(latex.preamble(blocks, lang, wide_labels)) + "\n"
    headings = latex.Headings(heading, numbered, label)
    if not standalone:
        return latex.fragment(blocks, headings, lang, wide_labels)
    return latex.document(blocks, lang, wide_labels, margins=False, headings=headings)
