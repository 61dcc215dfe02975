"""A Sweep -> blocks (tables, exact values, a plot), plain text and JSON; nothing is computed here."""

from __future__ import annotations

import json

import sympy as sp

from ..analyses.results import RowAtPoint, Sweep
from . import latex, markdown
from .analysis_layout import standalone_document, subtitle, vector
from .blocks import Block, Display, Heading, Label, Paragraph, segments
from .plot import Curve, Plot, symbol_text, tick_text
from .printer import decimal_math, escape_text, math, matrix
from .svg_plot import render_svg
from .text import TextPrinter, grid

_TEXT = TextPrinter()


def _setting(sw: Sweep, k: int) -> str:
    """'\\tau = \\frac{1}{2}' for the k-th series value ('' with one axis)."""
    series = sw.series
    return "" if series is None else f"{math(series.symbol)} = {math(series.values[k])}"


def build_sweep(sw: Sweep, lang: str = "en", image: str | None = None) -> list[Block]:
    """Every block of a sweep document, in reading order."""
    p = sw.problem
    blocks: list[Block] = [Heading(1, segments("sweep_title", lang)), *subtitle(p),
                           Paragraph(_axes_text(sw, lang))]
    given = [f"{name} = {matrix([[math(x) for x in m.row(i)] for i in range(m.rows)])}"
             for name, m in (("Q", p.Q), ("K", p.K), ("V", p.V))]
    given += [rf"s = {math(p.scale_factor)}"] + \
        ([rf"\tau = {math(p.temperature)}"] if math(p.temperature) != r"\tau" else [])
    blocks.append(Display((r",\qquad ".join(given),)))
    blocks.append(Paragraph(segments("sweep_measures", lang)))
    if sw.general is not None:
        lines = tuple(rf"a_{{{i + 1},{j + 1}}} &= {math(x)}" for i, row in zip(sw.rows, sw.general)
                      for j, x in enumerate(row) if x != 0)
        blocks += [Heading(2, segments("sweep_general", lang)),
                   Paragraph(segments("sweep_general_text", lang)), Display(lines)]
    for k, i in enumerate(sw.rows):
        blocks += _row_blocks(sw, k, i, lang, image)
    blocks.append(Paragraph(segments("sweep_checked", lang, digits=sw.digits,
                                     difference=sw.difference)))
    blocks.append(Paragraph(segments("decimals_note", lang, places=sw.places)))
    return blocks


def _axes_text(sw: Sweep, lang: str):
    words: tuple = ()
    for axis in sw.axes:
        name = math(axis.symbol)
        if axis.is_range:
            words += segments("sweep_range", lang, name=name, start=math(axis.start),
                              stop=math(axis.stop), steps=len(axis.values))
        else:
            values = ", ".join(math(v) for v in axis.values)
            words += segments("sweep_list", lang, name=name, values=values)
        words += (("text", " "),)
    return words + segments("sweep_fixed", lang)


def _row_blocks(sw: Sweep, k: int, i: int, lang: str, image: str | None) -> list[Block]:
    p = sw.problem
    label = p.row_labels[i]
    heading = segments("sweep_row_label", lang, row=i + 1, label=Label(label)) \
        if label != str(i + 1) else segments("sweep_row", lang, row=i + 1)
    out: list[Block] = [Heading(2, heading), sweep_plot(sw, k, lang, image)]
    n_series = len(sw.series.values) if sw.series else 1
    for s in range(n_series):
        setting = _setting(sw, s)
        points = [point.rows[k] for point in sw.curve(s)]
        head = segments("sweep_table", lang, series=setting) if setting else \
            segments("sweep_table_plain", lang)
        out += [Heading(3, head), Display((_table(sw, points),))]
        head = segments("sweep_exact", lang, series=setting) if setting else \
            segments("sweep_exact_plain", lang)
        out.append(Heading(3, head))
        for x, row in zip(sw.x.values, points):
            out.append(Display(_exact_lines(sw, x, row)))
    return out


def _table(sw: Sweep, rows: list[RowAtPoint]) -> str:
    p = sw.problem
    head = [math(sw.x.symbol)] + [f"a_{{{j + 1}}}" for j in range(p.n_k)] + \
        [f"o_{{{c + 1}}}" for c in range(p.d_v)] + ["H", r"\max_j a_j"]
    body = []
    for x, row in zip(sw.x.values, rows):
        decimals = [*row.weight_decimals, *row.output_decimals, row.entropy_decimal, row.top_decimal]
        body.append(" & ".join([math(x), *map(decimal_math, decimals)]))
    spec = "c|" + "c" * p.n_k + "|" + "c" * p.d_v + "|cc"
    return rf"\begin{{array}}{{{spec}}} " + " & ".join(head) + r" \\ \hline " + \
        r" \\ ".join(body) + r" \end{array}"


def _exact_lines(sw: Sweep, x: sp.Expr, row: RowAtPoint) -> tuple[str, ...]:
    top = " = ".join(f"a_{{{j + 1}}}" for j in row.top_keys)
    return (rf"{math(sw.x.symbol)} = {math(x)}:\quad a &= {vector(row.weights)}",
            rf"o &= {vector(row.output)}",
            rf"H &= {math(row.entropy)}",
            rf"\max_j a_j &= {top}")


def sweep_plot(sw: Sweep, k: int, lang: str, image: str | None = None) -> Plot:
    """The weight of each key against x for row k of the sweep, one curve per series value."""
    p = sw.problem
    n_series = len(sw.series.values) if sw.series else 1
    curves = []
    for s in range(n_series):
        setting = _setting(sw, s)
        setting_text = "" if not sw.series else \
            f"{symbol_text(sw.series.symbol.name)} = {tick_text(sp.sstr(sw.series.values[s]))}"
        for j in range(p.n_k):
            name = p.column_labels[j]
            key = f"a_{{{j + 1}}}" + (rf"\ (\text{{{escape_text(name)}}})" if name != str(j + 1) else "")
            legend = key + (rf",\ {setting}" if setting else "")
            text = f"a{j + 1}" + (f" ({name})" if name != str(j + 1) else "") + \
                (f", {setting_text}" if setting_text else "")
            coordinates = tuple((x, point.rows[k].weight_decimals[j])
                                for x, point in zip(sw.x_decimals, sw.curve(s)))
            curves.append(Curve(j, s, legend, text, coordinates))
    ticks = tuple((x, math(v), tick_text(sp.sstr(v))) for x, v in zip(sw.x_decimals, sw.x.values))
    x = math(sw.x.symbol)
    caption = segments("sweep_plot_row", lang, x=x, row=sw.rows[k] + 1) if len(sw.rows) > 1 \
        else segments("sweep_plot", lang, x=x)
    return Plot(caption, x, symbol_text(sw.x.symbol.name), segments("sweep_weight", lang),
                ticks if len(ticks) <= 13 else (), tuple(curves), image)


def render_sweep(sw: Sweep, to: str, lang: str = "en", *, standalone: bool = False,
                 image: str | None = None) -> str:
    """A sweep as "text", "json", "latex" (fragment or document), "markdown" or "svg"."""
    if to == "text":
        return sweep_text(sw)
    if to == "json":
        return sweep_json(sw)
    if to == "svg":
        return render_svg([sweep_plot(sw, k, lang) for k in range(len(sw.rows))])
    blocks = build_sweep(sw, lang, image)
    if to == "markdown":
        return markdown.document(blocks)
    if not standalone:
        return "% " + "".join(c for _, c in segments("sweep_fragment", "en")) + "\n" + \
            latex.fragment(blocks)
    return standalone_document(blocks, lang, sw.problem)


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
