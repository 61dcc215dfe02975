"""Renderers: text, JSON, LaTeX and Markdown from a Trace or a Derivation; they never compute."""

from __future__ import annotations

from ..derivation import Derivation
from ..model import Trace
from . import latex, markdown
from .document import build
from .jsonout import render_json
from .printer import needs_cjk
from .text import render_report, render_text

FORMATS = ("text", "json", "latex", "markdown")


MARKDOWN_DEPTH = {"chapter": 0, "section": 0, "subsection": 1, "subsubsection": 2, "paragraph": 3}


def render_derivation(derivation: Derivation, to: str, *, standalone: bool = False,
                      preamble: bool = False) -> str:
    """A derivation as LaTeX (a fragment, a document with standalone, or with preamble the
    \\usepackage lines the fragment needs) or Markdown."""
    blocks = build(derivation)
    options = derivation.options
    if to == "markdown":
        return markdown.document(blocks, MARKDOWN_DEPTH[options.heading])
    p = derivation.trace.problem
    user_text = "".join((p.title or "",) + p.row_labels + p.column_labels)
    wide = needs_cjk(user_text)
    if preamble:
        return "\n".join(latex.preamble(blocks, options.lang, wide)) + "\n"
    headings = latex.Headings(options.heading, options.numbered, options.label)
    if not standalone:
        return latex.fragment(blocks, headings, options.lang, wide)
    return latex.document(blocks, options.lang, wide, margins=False, headings=headings)


def render_trace(trace: Trace, to: str, decimals: dict[str, list[list[str]]] | None = None,
                 shown: dict | None = None) -> str:
    """A trace as text (with optional decimals) or JSON; `shown`: display forms of a problem
    written in decimals (derivation's shown_stages)."""
    if to == "text":
        return render_text(trace, decimals or {}, shown)
    return render_json(trace, shown)


__all__ = ["FORMATS", "render_derivation", "render_report", "render_trace"]
