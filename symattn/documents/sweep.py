"""A Sweep -> blocks (tables, exact values, a plot); nothing is computed here."""

from __future__ import annotations

import sympy as sp

from ..analyses.results import RowAtPoint, Sweep
from ..printing.plain import symbol_text, tick_text
from ..printing.printer import decimal_math, escape_text, math, matrix
from .analysis_layout import subtitle, vector
from .blocks import Block, Curve, Display, Heading, Label, Paragraph, Plot, segments


def _setting(sw: Sweep, k: int) -> str:
    """'\\tau = \\frac{1}{2}' for the k-th series value ('' with one axis)."""
    series = sw.series
    return "" if series is None else f"{math(series.symbol)} = {math(series.values[k])}"


def build_sweep(sw: Sweep, lang: str = "en", image: str | None = None,
                width: float = 345.0) -> list[Block]:
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
