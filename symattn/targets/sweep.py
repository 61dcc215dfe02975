"""A sweep as LaTeX, Markdown (from documents.sweep's blocks), SVG, plain text and JSON."""

from __future__ import annotations

import json

import sympy as sp

from ..analyses.results import Sweep
from ..derivation import Derivation
from ..documents.sweep import build_sweep, sweep_plot
from ..printing.plain import TextPrinter
from .emit import ARTICLE, Page, render_page, wide_labels
from .svg import render_svg
from .text import grid


_TEXT = TextPrinter()


def render_sweep(sw: Sweep, to: str, lang: str = "en", *, page: Page = ARTICLE,
                 image: str | None = None, problem: Derivation | None = None) -> str:
    """A sweep as "text", "json", "latex" (fragment, document or preamble), "markdown" or
    "svg", laid out as the page says; problem: the derivation whose setup, scores and logits
    state the problem first, in solve's words."""
    if to == "text":
        return sweep_text(sw)
    if to == "json":
        return sweep_json(sw)
    if to == "svg":
        return render_svg([sweep_plot(sw, k, lang) for k in range(len(sw.rows))])
    blocks = build_sweep(sw, lang, image, page.width, problem)
    return render_page(blocks, to, lang, wide_labels(sw.problem), page)


def _s(x: sp.Expr) -> str:
    return _TEXT.doprint(x)


def sweep_text(sw: Sweep) -> str:
    """Decimal tables per row and series, then every exact value."""
    p = sw.problem
    lines = [p.title] if p.title else []
    for axis in sw.axes:
        if axis.is_range:
            lines.append(f"{axis.symbol.name}: {_s(axis.start)} to {_s(axis.stop)}, "
                         f"{len(axis.values)} values")
        else:
            lines.append(f"{axis.symbol.name}: {', '.join(_s(v) for v in axis.values)}")
    n_series = len(sw.series.values) if sw.series else 1
    columns = tuple(f"a_{j + 1}" for j in range(p.n_k)) + \
        tuple(f"o_{c + 1}" for c in range(p.d_v)) + ("H", "max a")
    for k, i in enumerate(sw.rows):
        for s in range(n_series):
            setting = f", {sw.series.symbol.name} = {_s(sw.series.values[s])}" if sw.series else ""
            rows = [point.rows[k] for point in sw.curve(s)]
            lines += ["", f"row {i + 1}{setting}"]
            lines += grid(tuple(_s(x) for x in sw.x.values), columns,
                          [[*r.weight_decimals, *r.output_decimals, r.entropy_decimal,
                            r.top_decimal] for r in rows])
            lines.append("  exact:")
            for x, r in zip(sw.x.values, rows):
                lines.append(f"    {sw.x.symbol.name} = {_s(x)}: a = ({', '.join(map(_s, r.weights))}); "
                             f"o = ({', '.join(map(_s, r.output))}); H = {_s(r.entropy)}")
    lines += ["", f"cross-check: exact = mpmath at every point ({sw.digits} digits), "
                  f"largest difference {sw.difference}"]
    return "\n".join(lines) + "\n"


def sweep_json(sw: Sweep) -> str:
    """Every exact value as a string in SymPy syntax, with its decimal."""
    document = {
        "title": sw.problem.title,
        "parameters": [{"name": a.symbol.name, "values": [str(v) for v in a.values]}
                       for a in sw.axes],
        "rows": [i + 1 for i in sw.rows],
        "points": [{
            "values": {a.symbol.name: str(v) for a, v in zip(sw.axes, point.values)},
            "rows": [{"row": r.row + 1, "weights": [str(x) for x in r.weights],
                      "weights_decimal": list(r.weight_decimals),
                      "output": [str(x) for x in r.output], "output_decimal": list(r.output_decimals),
                      "entropy": str(r.entropy), "entropy_decimal": r.entropy_decimal,
                      "max_weight": str(r.top), "max_weight_decimal": r.top_decimal,
                      "max_keys": [j + 1 for j in r.top_keys]} for r in point.rows]}
            for point in sw.points],
        "cross_check": {"digits": sw.digits, "max_difference": sw.difference},
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
