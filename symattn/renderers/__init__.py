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


def render_derivation(derivation: Derivation, to: str, *, standalone: bool = False) -> str:
    """A derivation as LaTeX (a fragment, or a document with standalone) or Markdown."""
    blocks = build(derivation)
    if to == "markdown":
        return markdown.document(blocks)
    if not standalone:
        return latex.fragment(blocks)
    p = derivation.trace.problem
    user_text = "".join((p.title or "",) + p.row_labels + p.column_labels)
    return latex.document(blocks, derivation.options.lang, needs_cjk(user_text))


def render_trace(trace: Trace, to: str, decimals: dict[str, list[list[str]]] | None = None,
                 shown: dict | None = None) -> str:
    """A trace as text (with optional decimals) or JSON; `shown`: display forms of a problem
    written in decimals (derivation's shown_stages)."""
    if to == "text":
        return render_text(trace, decimals or {}, shown)
    return render_json(trace, shown)


__all__ = ["FORMATS", "render_derivation", "render_report", "render_trace"]
