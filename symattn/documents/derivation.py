"""Derivation -> blocks, at the detail asked for: summary (the stages' results), textbook (the
lesson's way, the default) or full (textbook and every row step by step)."""

from __future__ import annotations

from ..derivation import Derivation
from ..derivation.orientation import output, scores
from ..printing.fit import Fit
from ..printing.matrices import approx_cells, cells, matrix_lines, row_lines, transposed
from ..printing.printer import math, needs_cjk
from . import laid_out
from .blocks import Block, Display, Heading, Heatmap, Label, segments, step, title_segments
from .checks import check_blocks
from .rounded import rounded
from .setup import setup
from .textbook import logit_sum, masks_given, over_sums, sum_definitions, textbook, wide_sums
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
    return blocks


def heatmap(d: Derivation) -> list[Block]:
    """The heatmap of A with its values, when the options ask for one and A has decimals."""
    if d.heat is None:
        return []
    p = laid_out(d.trace).problem
    cells_ = [[a.digits if a.exponent == 0 else a.text if a.exponent > -100 else "0+"
               for a in row] for row in d.decimals["A"]]  # e^(-10^9): too long a cell
    heat = [list(row) for row in d.heat]
    rows, columns = p.row_labels, p.column_labels
    if d.columns:  # the book's A: one column per query
        cells_, heat, rows, columns = transposed(cells_), transposed(heat), columns, rows
    return [Heatmap(rows, columns, tuple(map(tuple, heat)), tuple(map(tuple, cells_)),
                    segments("heatmap", d.options.lang))]


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
    return [step(segments("summary_lead", lang), Display(tuple(lines)))]


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
