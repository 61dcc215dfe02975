"""Targets: text, JSON, LaTeX, Markdown and SVG from a Trace, a Derivation or a result; they never compute."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model import Trace
from .jsonout import render_json
from .text import render_report, render_text

if TYPE_CHECKING:
    from ..derivation import Derivation  # lazy: text and JSON start without the derivations

FORMATS = ("text", "json", "latex", "markdown")


def render_derivation(derivation: Derivation, to: str, *, standalone: bool = False,
                      preamble: bool = False) -> str:
    """A derivation as LaTeX (a fragment, a document with standalone, or with preamble the
    \\usepackage lines the fragment needs) or Markdown."""
    from ..documents.derivation import build  # lazy: text and JSON start without the document builders
    from .emit import render_blocks  # lazy: as above
    from ..printing.printer import needs_cjk  # lazy: as above
    o, p = derivation.options, derivation.trace.problem
    wide = needs_cjk("".join((p.title or "",) + p.row_labels + p.column_labels))
    return render_blocks(build(derivation), to, o.lang, wide, heading=o.heading,
                         numbered=o.numbered, label=o.label, standalone=standalone,
                         preamble=preamble)


def render_trace(trace: Trace, to: str, decimals: dict[str, list[list[str]]] | None = None,
                 shown: dict | None = None, long: frozenset[str] = frozenset()) -> str:
    """A trace as text (with optional decimals) or JSON; `shown`: display forms of a problem
    written in decimals (derivation's shown_stages); `long`: the stages a text shows by their
    decimals alone."""
    if to == "text":
        return render_text(trace, decimals or {}, shown, long)
    return render_json(trace, shown, decimals)


def __getattr__(name: str) -> Any:
    """render_blocks and MARKDOWN_DEPTH, loaded when first asked for (start-up stays light)."""
    if name in ("render_blocks", "MARKDOWN_DEPTH"):
        from . import emit  # lazy: the LaTeX and Markdown emitters load only when used
        return getattr(emit, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FORMATS", "MARKDOWN_DEPTH", "render_blocks", "render_derivation", "render_report", "render_trace"]
