"""Derivation -> blocks, at the detail asked for: summary (the stages' results), textbook (the
lesson's way, the default) or full (textbook and every row step by step)."""

from __future__ import annotations

from ..derivation import Derivation
from ..derivation.orientation import output, scores
from ..printing.fit import SAFETY, Fit
from ..printing.matrices import approx_cells, cells, matrix_lines, row_lines, transposed
from ..printing.measure import width
from ..printing.printer import approx, math, needs_cjk
from . import laid_out
from .blocks import Block, Display, Heading, Heatmap, Label, segments, step, title_segments
from .checks import check_blocks
from .notation import explain_blocks
from .rounded import rounded
from .setup import setup
from .textbook import (introduce, logit_sum, masks_given, over_sums, sum_definitions,
                       textbook, wide_sums)
from .walk import row_blocks

SUMMARY_FORMULAS = {"S": None, "M": None, "A": r"\operatorname{softmax}(L)"}


def build(d: Derivation) -> list[Block]:
    """Every block of the derivation, in reading order."""
    lang = d.options.lang
    fit = Fit(d.options.width)
    heading = title(d)
    wide = lang == "en" and needs_cjk("".join(text for _, text in heading))
    blocks: list[Block] = [Heading(1, heading, short=segments("derivation", lang) if wide else ())]
    blocks += setup(d, fit)
    blocks += rounded(d, fit) if d.rounded else \
        summary(d, fit) if d.options.detail == "summary" else textbook(d, fit)
    for steps in d.rows:
        blocks += row_blocks(d, steps, fit)
    blocks += heatmap(d)
    blocks += check_blocks(d)
    return explain_blocks(blocks, lang)


def heatmap(d: Derivation) -> list[Block]:
    """The heatmap of A with its values, when the options ask for one and A has decimals: each
    label as the text writes it (0.5000 beside 0.3333, 3.7 × 10^{-434294482}), the cells as wide
    as the widest label, set on two lines (3.7 × / 10^{…}) when one line would not fit the page."""
    if d.heat is None:
        return []
    p = laid_out(d.trace).problem
    grid = d.decimals["A"]
    cells_ = approx_cells(grid) or [[approx(a) for a in row] for row in grid]
    heat = [list(row) for row in d.heat]
    rows, columns = p.row_labels, p.column_labels
    if d.columns:  # the book's A: one column per query
        cells_, heat, rows, columns = transposed(cells_), transposed(heat), columns, rows
    # the row labels stand left of the grid, in \footnotesize (about 4.4 pt a character)
    room = d.options.width - 4.4 * max((len(label) for label in rows), default=0) - 10.0
    tries = [(stacked, size, _cell_cm(cells_, stacked, size)) for stacked, size in LABEL_SETTINGS]
    stacked, size, cell = next((t for t in tries if t[2] * len(columns) * POINTS_PER_CM <= room),
                               tries[-1])
    scale = min(1.0, int(100 * room / (cell * len(columns) * POINTS_PER_CM)) / 100)
    return [Heatmap(rows, columns, tuple(map(tuple, heat)), tuple(map(tuple, cells_)),
                    segments("heatmap", d.options.lang), cell_cm=cell, stacked=stacked,
                    font=size, scale=scale)]


POINTS_PER_CM = 28.45
LABEL_SETTINGS = ((False, "footnotesize"), (True, "footnotesize"), (True, "scriptsize"))
"""A heatmap's labels on one line, then a × 10^{b} on two, then smaller: the first that fits,
else the last with the whole grid scaled to the line (\\tiny would not shrink a superscript)."""
SIZES = {"footnotesize": 0.8, "scriptsize": 0.7}  # against the measure's 10 pt


def _cell_cm(grid: list[list[str]], stacked: bool, size: str) -> float:
    """A heatmap cell's width in cm: 1.3, or the widest label's (each of its lines when stacked)
    at its size with a little room either side."""
    lines = [part for row in grid for c in row
             for part in (c.split(r" \times ") if stacked else [c])]
    widest = max((width(line, "T") for line in lines), default=0.0) * SIZES[size] * SAFETY + 8.0
    return round(max(1.3, widest / POINTS_PER_CM) + 0.05, 1)


def title(d: Derivation) -> tuple:
    """The problem's title in the derivation's language, else "Derivation"."""
    p = d.trace.problem
    return title_segments(p.title, p.title_zh, d.options.lang, "derivation")


def summary(d: Derivation, fit: Fit) -> list[Block]:
    """Each stage's formula and result, without the words in between."""
    p, shown, lang, c = d.trace.problem, d.display, d.options.lang, d.columns
    formulas = {**SUMMARY_FORMULAS, "R": scores(c), "O": output(c),
                "L": rf"\frac{{{logit_sum(d)}}}{{\tau}}"}
    lines: list[str] = []
    wide = wide_sums(d)
    for stage in p.shown_stages:
        if stage in ("Q", "K", "V", p.start) or stage == "M" and not masks_given(d):
            continue
        formula = formulas[stage] or (
            r"\frac{R}{\sqrt{d_k}}" if stage == "S" and p.scale is None else
            "sR" if stage == "S" else None)
        decimals = approx_cells(d.decimals.get(stage)) if stage in "AO" else None
        if stage in "AO" and wide:
            lines += _over_sums(d, stage, wide, decimals, fit, formula)
            continue
        lines += matrix_lines(stage, [("=", formula)] if formula else [], cells(shown[stage]),
                              decimals, fit, stage, columns=c)
    used = [n for n in d.names if any(d.display[stage].has(n.symbol) for stage in p.shown_stages
                                      if stage in d.display)]
    named, below = introduce(d, used, "summary_names")  # a, p, q the matrices use, defined
    if below:  # too long for a sentence: "Here:" and a display
        named = segments("summary_names_below", lang)
    return [step(segments("summary_lead", lang), Display(tuple(lines)), named, below)]


def _over_sums(d: Derivation, stage: str, wide: set[int], decimals: list[list[str]] | None,
               fit: Fit, formula: str) -> list[str]:
    """A or O row by row, a row whose Z_i is too wide for the text written over Z_i as the
    textbook writes it, (1/Z_i)(…), instead of the sum in every entry; those Z_i are defined
    before A."""
    exact = [None if i in wide else [math(x, slash=True) for x in row]
             for i, row in enumerate(d.display[stage].tolist())]
    index = "j,i" if d.columns else "i,j"
    sums = [rf"Z_i &= \sum_j e^{{L_{{{index}}}}}", *sum_definitions(d, sorted(wide), fit)] \
        if stage == "A" else []
    return sums + row_lines(
        stage, exact, decimals, fit, [f"{stage} &= {formula}"],
        over_sums(d, "E" if stage == "A" else "N"), columns=d.columns)


__all__ = ["Block", "Label", "build", "check_blocks", "heatmap", "row_blocks", "setup", "summary", "title"]
