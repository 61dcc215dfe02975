"""Renderers: a Trace (and precomputed decimals) -> text or JSON; renderers never compute."""

from __future__ import annotations

from ..model import Report, Trace
from .jsonout import render_json
from .text import render_report, render_text

FORMATS = ("text", "json")


def render(trace: Trace, to: str = "text", *, decimals: dict[str, list[list[str]]] | None = None
           ) -> str:
    """Render a trace in one of FORMATS (decimals: stage -> grid of decimal strings, optional)."""
    if to == "text":
        return render_text(trace, decimals or {})
    if to == "json":
        return render_json(trace)
    raise ValueError(f"unknown format {to!r}; formats are {', '.join(FORMATS)}")


__all__ = ["FORMATS", "render", "render_report"]
