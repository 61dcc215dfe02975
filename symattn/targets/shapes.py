"""A shape argument as LaTeX, Markdown (from documents.shapes' blocks), plain text, JSON and a check."""

from __future__ import annotations

import json
from typing import Any

from ..documents.shapes import shape_blocks
from ..model import ShapeProblem
from ..printing.printer import needs_cjk
from ..words import phrase
from .emit import render_blocks


def render_shapes(p: ShapeProblem, to: str, lang: str = "en", standalone: bool = False,
                  **layout: Any) -> str:
    """The shape argument as "text", "json", "latex" (fragment, document or preamble lines,
    headings as `layout` says: heading, numbered, label, preamble) or "markdown"."""
    if to == "json":
        return json.dumps({"title": p.title, "shapes": {k: list(v) for k, v in p.shapes.items()}},
                          ensure_ascii=False) + "\n"
    if to == "text":
        return shapes_text(p)
    layout.pop("width", None)  # a shape argument has no wide display to fit
    return render_blocks(shape_blocks(p, lang), to, lang, needs_cjk(p.title or ""),
                         standalone=standalone, **layout)


def shapes_text(p: ShapeProblem) -> str:
    """Every stage's shape and the two constraints, in plain text."""
    lines = [p.title] if p.title else []
    lines += [f"{name}: {'x'.join(map(str, shape))}" for name, shape in p.shapes.items()]
    lines += [f"Q and K share d_k = {p.d_k} (Q K^T is defined); "
              f"K and V share n_k = {p.n_k} (A V is defined)",
              f"R, S, M, L, A are n_q x n_k = {p.n_q}x{p.n_k}; "
              f"O = A V is n_q x d_v = {p.n_q}x{p.d_v}"]
    if p.batch:
        lines.append(f"batch: every stage has a leading axis of {p.batch}")
    if p.heads:
        lines.append(f"heads: {p.heads}, each with d_k = {p.d_k // p.heads} and d_v = "
                     f"{p.d_v // p.heads}; their outputs are joined (concat) and multiplied by W_O")
    return "\n".join(lines) + "\n"


def shapes_check(p: ShapeProblem, lang: str = "en") -> str:
    """The two constraints as passed checks."""
    mark = f"[{phrase('mark_ok', lang)}] "
    lines = [mark + phrase(f"shapes_check_{name}", lang, d_k=p.d_k, n_q=p.n_q, n_k=p.n_k,
                           d_v=p.d_v) for name in ("d_k", "n_k")]
    lines.append(phrase("checks_passed", lang))
    return "\n".join(lines) + "\n"
