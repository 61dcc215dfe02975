"""A Sweep -> blocks (tables, exact values, a plot); nothing is computed here."""

from __future__ import annotations

import sympy as sp

from ..analyses.results import RowAtPoint, Sweep
from ..derivation import Derivation
from ..printing.plain import symbol_text, tick_text
from ..printing.entries import entry_lines, fits, side_by_side, vector_lines
from ..printing.fit import Fit, pack
from ..printing.matrices import sum_lines
from ..printing.printer import decimal_math, escape_text, indexed_label, math
from .analysis_layout import statement, subtitle
from .checks import scientific
from .blocks import (Block, Curve, Display, Heading, Label, Paragraph, Plot, segments,
                     unaligned)


def _setting(sw: Sweep, k: int) -> str:
    """'\\tau = 1/2' for the k-th series value, set in a heading ('' with one axis)."""
    series = sw.series
    return "" if series is None else \
        f"{math(series.symbol)} = {math(series.values[k], inline=True)}"


def build_sweep(sw: Sweep, lang: str = "en", image: str | None = None,
                width: float = 345.0, problem: Derivation | None = None) -> list[Block]:
    """Every block of a sweep document, in reading order: the problem as solve states it
    (from the derivation given: the inputs, the scale in words, the logits), then the axes."""
    p, fit = sw.problem, Fit(width)
    blocks: list[Block] = [Heading(1, segments("sweep_title", lang)), *subtitle(p, lang),
                           *statement(problem, fit), Paragraph(_axes_text(sw, lang))]
    if problem is None:  # no statement: the inputs at least
        given = side_by_side([("Q", p.Q), ("K", p.K), ("V", p.V)], fit)
        blocks.append(Display(tuple(pack(given, fit) or given)))
    blocks.append(Paragraph(segments("sweep_measures", lang)))
    if sw.general is not None:
        lines = tuple(line for i, row in zip(sw.rows, sw.general) for j, x in enumerate(row)
                      if x != 0 for line in entry_lines(rf"a_{{{i + 1},{j + 1}}}", x, fit))
        blocks += [Heading(2, segments("sweep_general", lang)),
                   Paragraph(segments("sweep_general_text", lang)), Display(lines)]
    for k, i in enumerate(sw.rows):
        blocks += _row_blocks(sw, k, i, lang, image, fit)
    blocks.append(Paragraph(segments("sweep_checked", lang, digits=sw.digits,
                                     difference=scientific(sw.difference))))
    blocks.append(Paragraph(segments("decimals_note", lang, places=sw.places)))
    return blocks


def _axes_text(sw: Sweep, lang: str):
    words: tuple = ()
    for axis in sw.axes:
        name = math(axis.symbol)
        if axis.is_range:
            words += segments("sweep_range", lang, name=name, start=math(axis.start, inline=True),
                              stop=math(axis.stop, inline=True), steps=len(axis.values))
        else:
            values = ", ".join(math(v, inline=True) for v in axis.values)
            words += segments("sweep_list", lang, name=name, values=values)
        words += (("text", " "),)
    return words + segments("sweep_fixed", lang)


def _row_blocks(sw: Sweep, k: int, i: int, lang: str, image: str | None,
                fit: Fit) -> list[Block]:
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
        out += [Heading(3, head), *(Display((table,)) for table in _tables(sw, points, fit))]
        head = segments("sweep_exact", lang, series=setting) if setting else \
            segments("sweep_exact_plain", lang)
        out.append(Heading(3, head))
        shown = [(x, row) for x, row in zip(sw.x.values, points) if _simpler(sw, k, row)]
        out += [Display(_exact_lines(sw, x, row, fit), kept=True) for x, row in shown]
        if len(shown) < len(points):
            out.append(Paragraph(segments("sweep_exact_rest" if shown else "sweep_exact_none",
                                          lang, x=math(sw.x.symbol))))
    return out


def _simpler(sw: Sweep, k: int, row: RowAtPoint) -> bool:
    """Whether a point's exact values are worth writing out: its weights print in at most half
    the length of the general weights (e^2/(1+e^2) at theta = 0, not the formula with pi/16
    put in, which the reader has already); every point when there is no general formula."""
    if sw.general is None:
        return True
    general = sum(len(math(w)) for w in sw.general[k])
    return 2 * sum(len(math(w)) for w in row.weights) <= general


def _tables(sw: Sweep, rows: list[RowAtPoint], fit: Fit) -> list[str]:
    """The decimals at every point as one array, or, when it is wider than the line, as arrays
    of fewer columns (the weights; the output, entropy and maximum), each led by x."""
    p = sw.problem
    head = [f"a_{{{j + 1}}}" for j in range(p.n_k)] + [f"o_{{{c + 1}}}" for c in range(p.d_v)] + \
        ["H", r"\max_j a_j"]
    body = [[*row.weight_decimals, *row.output_decimals, row.entropy_decimal, row.top_decimal]
            for row in rows]
    groups = [list(range(p.n_k)), list(range(p.n_k, len(head)))]
    whole = _array(sw, head, body, [list(range(len(head)))], groups)
    if fit.fits(whole):
        return [whole]
    tables = []
    for group in groups:
        per = next((n for n in range(len(group), 0, -1)
                    if fit.fits(_array(sw, head, body, [group[:n]], [group[:n]]))), 1)
        tables += [_array(sw, head, body, [group[a:a + per]], [group[a:a + per]])
                   for a in range(0, len(group), per)]
    return tables


def _array(sw: Sweep, head: list[str], body: list[list[str]], shown: list[list[int]],
           groups: list[list[int]]) -> str:
    """An array of x and the columns shown, a rule between the groups."""
    columns = [c for part in shown for c in part]
    spec = "c|" + "|".join("c" * len([c for c in group if c in columns]) for group in groups
                           if any(c in columns for c in group))
    lines = [" & ".join([math(sw.x.symbol)] + [head[c] for c in columns])]
    lines += [" & ".join([math(x, inline=True)] + [decimal_math(row[c]) for c in columns])
              for x, row in zip(sw.x.values, body)]  # π/16 on one line: stacked ones touched
    return rf"\begin{{array}}{{{spec}}} " + lines[0] + r" \\ \hline " + \
        r" \\ ".join(lines[1:]) + r" \end{array}"


def _exact_lines(sw: Sweep, x: sp.Expr, row: RowAtPoint, fit: Fit) -> tuple[str, ...]:
    """x = value, then a, o, H and the maximal keys, each broken to fit: a vector after a
    comma, then entry by entry; H at its plus signs."""
    top = " = ".join(f"a_{{{j + 1}}}" for j in row.top_keys)
    lines = [rf"{math(sw.x.symbol)} &= {math(x)}"]
    for name, values in (("a", row.weights), ("o", row.output)):
        lines += vector_lines(name, list(values), fit)
    lines += sum_lines("H", row.entropy, fit, at=60.0)
    if not fits(lines[-1:], fit):
        lines[-1:] = entry_lines("H", row.entropy, fit)
    lines.append(rf"\max_j a_j &= {top}")
    if len(lines) == 5:  # one line each: side by side as they fit (1/2 and ln 2 are short)
        items = [unaligned(line) for line in lines]
        lines = pack([rf"{items[0]}\colon\quad {items[1]}", *items[2:]], fit) or lines
    return tuple(lines)


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
            shown = indexed_label(name) or rf"\text{{{escape_text(name)}}}"  # k_{1} for k1
            key = f"a_{{{j + 1}}}" + (rf"\ ({shown})" if name != str(j + 1) else "")
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
