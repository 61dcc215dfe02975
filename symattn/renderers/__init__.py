"""Renderers: text, JSON, LaTeX and Markdown from a Trace or a Derivation; they never compute."""

from __future__ import annotations

from ..derivation import Derivation
from ..model import Trace
from .document import build
from .emit import MARKDOWN_DEPTH, render_blocks
from .jsonout import render_json
from .printer import needs_cjk
from .text import render_report, render_text

FORMATS = ("text", "json", "latex", "markdown")


def render_derivation(derivation: Derivation, to: str, *, standalone: bool = False,
                      preamble: bool = False) -> str:
    """A derivation as LaTeX (a fragment, a document with standalone, or with preamble the
    \\usepackage lines the fragment needs) or Markdown."""
    o, p = derivation.options, derivation.trace.problem
    wide = needs_cjk("".join((p.title or "",) + p.row_labels + p.column_labels))
    return render_blocks(build(derivation), to, o.lang, wide, heading=o.heading,
                         numbered=o.numbered, label=o.label, standalone=standalone,
                         preamble=preamble)


def render_trace(trace: Trace, to: str, decimals: dict[str, list[list[str]]] | None = None,
                 shown: dict | None = None) -> str:
    """A trace as text (with optional decimals) or JSON; `shown`: display forms of a problem
    written in decimals (derivation's shown_stages)."""
    if to == "text":
        return render_text(trace, decimals or {}, shown)
    return render_json(trace, shown)


__all__ = ["FORMATS", "MARKDOWN_DEPTH", "render_blocks", "render_derivation", "render_report", "render_trace"]
