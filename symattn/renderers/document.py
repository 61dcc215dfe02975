"""Derivation -> a list of blocks (headings, prose, display math, figure) shared by LaTeX and Markdown.

Prose is split into segments: our own words, user labels (escaped by each target), and inline
math. Every number comes from the Derivation; nothing here computes.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Formatter

import sympy as sp

from ..derivation import Derivation, RowSteps
from .phrases import PHRASES, phrase
from .text import laid_out
from .printer import decimal_math, decimal_matrix, labelled, math, matrix_of

CHECK_PHRASES = {"shapes": "check_shapes", "row_sums": "check_rows", "masked_zero": "check_masked",
                 "nonnegative": "check_nonnegative", "output_bounds": "check_bounds",
                 "numeric": "check_numeric", "permutation": "check_permutation"}
VERDICTS = {True: "passed", False: "failed", None: "undecided"}
SUBSTITUTE_UP_TO = 4  # wider matrices are shown as results only, where a sum of them would not fit


class Label(str):
    """User text inside a phrase: each target escapes it."""


Segment = tuple[str, str]  # ("text" | "label" | "math", content)


@dataclass(frozen=True)
class Heading:
    level: int
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Paragraph:
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Display:
    lines: tuple[str, ...]  # one line: an equation; several: aligned at '&'


@dataclass(frozen=True)
class Items:
    items: tuple[tuple[Segment, ...], ...]


@dataclass(frozen=True)
class Heatmap:
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    percent: tuple[tuple[int, ...], ...]
    cells: tuple[tuple[str, ...], ...]
    caption: tuple[Segment, ...]


Block = Heading | Paragraph | Display | Items | Heatmap


def segments(key: str, lang: str, **values: object) -> tuple[Segment, ...]:
    """A phrase split into text, label and inline-math segments ($...$ in the phrase)."""
    out: list[Segment] = []
    in_math = False
    buffer = ""
    for literal, field, _, _ in Formatter().parse(PHRASES[key][lang]):
        for k, piece in enumerate(literal.split("$")):
            if k:
                out.append(("math" if in_math else "text", buffer))
                buffer, in_math = "", not in_math
            buffer += piece
        if field is not None:
            value = values[field]
            if isinstance(value, Label) and not in_math:
                out.append(("text", buffer))
                out.append(("label", str(value)))
                buffer = ""
            else:
                buffer += str(value)
    out.append(("math" if in_math else "text", buffer))
    return tuple(s for s in out if s[1])


def build(d: Derivation) -> list[Block]:
    """Every block of the derivation, in reading order."""
    lang, p = d.options.lang, laid_out(d.trace).problem
    title = (("label", p.title),) if p.title else segments("derivation", lang)
    blocks: list[Block] = [Heading(1, title)]
    blocks += inputs(d)
    if d.names:
        blocks += [Heading(2, segments("names", lang)),
                   Display(tuple(f"{math(n.symbol)} &= {math(n.value)}" + _approx(n.decimal)
                                 for n in d.names))]
    for stage in p.shown_stages:
        if stage not in ("Q", "K", "V"):
            blocks += stage_blocks(d, stage)
    for steps in d.rows:
        blocks += row_blocks(d, steps)
    if d.heat is not None:
        blocks.append(Heatmap(p.row_labels, p.column_labels, d.heat,
                              tuple(tuple(r) for r in d.decimals["A"]), segments("heatmap", lang)))
    blocks += check_blocks(d)
    return blocks


def _approx(decimal: str | None) -> str:
    return rf" \approx {decimal_math(decimal)}" if decimal is not None else ""


def inputs(d: Derivation) -> list[Block]:
    lang, p = d.options.lang, d.trace.problem
    if p.start != "Q":
        return given_blocks(d)
    out: list[Block] = [Heading(2, segments("inputs", lang)),
                        Paragraph(segments("inputs_text", lang, n_q=p.n_q, n_k=p.n_k, d_k=p.d_k,
                                           d_v=p.d_v))]
    if p.tokens:
        out.append(Paragraph(segments("row_labels", lang, labels=Label(", ".join(p.row_labels)))))
    if p.tokens or p.key_tokens:
        out.append(Paragraph(segments("column_labels", lang,
                                      labels=Label(", ".join(p.column_labels)))))
    if p.projections is not None:
        out += projection_blocks(d)
    lines = []
    for name, rows in (("Q", p.row_labels), ("K", p.column_labels), ("V", p.column_labels)):
        m = d.display[name]
        cells = [[math(x) for x in m.row(i)] for i in range(m.rows)]
        lines.append(f"{name} = " + labelled(cells, rows, tuple(str(c + 1) for c in range(m.cols))))
    out.append(Display((r",\qquad ".join(lines),)))
    out.append(Paragraph(settings(d)))
    return out


def given_blocks(d: Derivation) -> list[Block]:
    """The inputs of a problem that starts from given scores: those scores and V."""
    lang, p = d.options.lang, d.trace.problem
    key = "given_R_d_k" if p.given_d_k else f"given_{p.start}"
    words = segments(key, lang, d_k=p.given_d_k)
    out: list[Block] = [Heading(2, segments("inputs", lang)), Paragraph(words)]
    lines = []
    for name, rows, columns in ((p.start, p.row_labels, p.column_labels),
                                ("V", p.column_labels, tuple(str(c + 1) for c in range(p.d_v)))):
        m = d.display[name]
        cells = [[math(x) for x in m.row(i)] for i in range(m.rows)]
        lines.append(f"{name} = " + labelled(cells, rows, columns))
    out += [Display((r",\qquad ".join(lines),)), Paragraph(settings(d))]
    return out


def settings(d: Derivation) -> tuple[Segment, ...]:
    """Scale, temperature, masks and the fully-masked policy, in words."""
    lang, p = d.options.lang, d.trace.problem
    scale = "scale_auto" if p.scale is None else "scale_none" if p.scale == 1 else "scale_given"
    words = segments(scale, lang, s=math(d.scalars["s"]))
    words += (("text", " "),) + segments("temperature", lang, tau=math(d.scalars["tau"]))
    words += (("text", " "),) + segments(f"mask_{p.mask}", lang)
    extra = [("mask_keep", p.keep is not None, {}),
             ("mask_lengths", p.key_lengths is not None,
              {"lengths": ", ".join(map(str, p.key_lengths or ()))}),
             ("mask_bias", p.bias is not None, {})]
    for key, given, values in extra:
        if given:
            words += (("text", " "),) + segments(key, lang, **values)
    if sum(given for _, given, _ in extra) + (p.mask != "none") > 1:
        words += (("text", " "),) + segments("masks_and", lang)
    words += (("text", " "),) + segments(f"policy_{p.fully_masked}", lang)
    return words


def projection_blocks(d: Derivation) -> list[Block]:
    """X (and Y) and the projections: Q = X W_Q = [X][W_Q] = [Q], likewise K and V."""
    lang, shown = d.options.lang, {name: matrix_of(m) for name, m in d.display.items()}
    key = "projections_cross" if "Y" in shown else "projections_text"
    source = "Y" if "Y" in shown else "X"
    inputs = [f"X = {shown['X']}"] + ([f"Y = {shown['Y']}"] if "Y" in shown else [])
    lines = (rf"Q &= XW_Q = {shown['X']}{shown['W_Q']} = {shown['Q']}",
             rf"K &= {source}W_K = {shown[source]}{shown['W_K']} = {shown['K']}",
             rf"V &= {source}W_V = {shown[source]}{shown['W_V']} = {shown['V']}")
    return [Paragraph(segments(key, lang)), Display((r",\qquad ".join(inputs),)), Display(lines)]



def stage_blocks(d: Derivation, stage: str) -> list[Block]:
    """Formula = substitution = result, then the shape, for one stage."""
    p, lang, shown = d.trace.problem, d.options.lang, d.display
    summary = d.options.detail == "summary"
    result = matrix_of(shown[stage])
    if stage == p.start:
        steps = [stage]
    elif stage == "R":
        steps = [r"R = QK^{\mathsf T}", rf"{matrix_of(shown['Q'])}{matrix_of(shown['K'].T)}"]
    elif stage == "S":
        formula = {None: r"S = \frac{R}{\sqrt{d_k}}", 1: "S = R"}.get(p.scale, "S = sR")
        substitution = "R" if p.scale_factor == 1 else \
            rf"{math(d.scalars['s'])}{matrix_of(shown['R'])}"
        steps = [formula] + ([] if p.scale == 1 else [substitution])
    elif stage == "M":
        steps = ["M"]
    elif stage == "L":
        steps = [r"L = \frac{S + M}{\tau}", "S + M" if p.temperature == 1 else
                 rf"{math(d.scalars['inverse_temperature'])}\left({matrix_of(shown['S'])} + "
                 rf"{matrix_of(shown['M'])}\right)"]
        if p.n_k > SUBSTITUTE_UP_TO and p.temperature != 1:
            steps = steps[:1]
    elif stage == "A":
        steps = [r"A = \operatorname{softmax}(L)"]
    else:
        steps = ["O = AV", rf"{matrix_of(shown['A'])}{matrix_of(shown['V'])}"]
    if summary:
        steps = steps[:1]
    equation = " = ".join(steps + [result])
    if stage in d.decimals:
        equation += rf" \approx {decimal_matrix(d.decimals[stage])}"
    heading = segments(f"stage_{stage}", lang) + (("text", " "), ("math", stage))
    if stage == p.start:
        heading += (("text", " ("),) + segments("stage_given", lang) + (("text", ")"),)
    blocks: list[Block] = [Heading(2, heading), Display((equation,))]
    notes = {"M": "mask_explained", "A": "softmax_explained"}
    words = segments(notes[stage], lang) + (("text", " "),) if stage in notes and not summary else ()
    rows, cols = shown[stage].shape
    blocks.append(Paragraph(words + segments("shape", lang, rows=rows, cols=cols)))
    return blocks


def _index(stage: str, i: int, j: int) -> str:
    return f"{stage}_{{{i + 1},{j + 1}}}"


def _product(a: sp.Expr, b: sp.Expr) -> str:
    def wrap(x: sp.Expr) -> str:
        text = math(x)
        return rf"\left({text}\right)" if x.is_Add or (x.could_extract_minus_sign()) else text
    return rf"{wrap(a)} \cdot {wrap(b)}"


def row_blocks(d: Derivation, steps: RowSteps) -> list[Block]:
    """One query row: dot products, logits, exponentials, weights, row check, outputs."""
    p, lang, i = d.trace.problem, d.options.lang, steps.row
    label = p.row_labels[i]
    title = segments("row_detail", lang, row=i + 1, label=Label(label)) \
        if label != str(i + 1) else segments("row_detail_plain", lang, row=i + 1)
    out: list[Block] = [Heading(2, title)]
    if p.start == "Q":
        out.append(Paragraph(segments("dot_products", lang)))
        out.append(Display(tuple(
            rf"{_index('R', i, j)} &= q_{{{i + 1}}} \cdot k_{{{j + 1}}} = "
            + " + ".join(_product(a, b) for a, b in pairs) + f" = {math(d.display['R'][i, j])}"
            for j, pairs in enumerate(steps.dots))))
    if p.start != "L":
        out.append(Paragraph(segments("logits_row", lang)))
        out.append(Display(tuple(_logit_line(d, i, j) for j in range(p.n_k))))
    if steps.total is None:
        how = phrase(f"how_{p.fully_masked}", lang)
        out.append(Paragraph(segments("fully_masked_row", lang, row=i + 1, how=how)))
        return out
    E = d.display["E"]
    exps = [rf"e^{{{_index('L', i, j)}}} &= e^{{{math(d.display['L'][i, j])}}} = {math(E[i, j])}"
            for j in steps.readable]
    total = " + ".join(math(E[i, j]) for j in steps.readable)
    exps.append(rf"\sum_{{j}} e^{{L_{{{i + 1},j}}}} &= {total} = {math(steps.total)}")
    out += [Paragraph(segments("exponentials", lang)), Display(tuple(exps))]
    weights = []
    for j in range(p.n_k):
        if j in steps.readable:
            forms = [rf"\frac{{{math(E[i, j])}}}{{{math(steps.total)}}}",
                     math(d.display["W"][i, j]), math(d.display["A"][i, j])]
            decimal = _approx(d.decimals["A"][i][j]) if d.decimals else ""
            body = " = ".join(dict.fromkeys(forms))
            weights.append(rf"{_index('A', i, j)} &= {body}{decimal}")
        else:
            weights.append(rf"{_index('A', i, j)} &= 0 \quad \text{{({phrase('masked_weight', lang)})}}")
    out += [Paragraph(segments("weights_row", lang)), Display(tuple(weights))]
    row_sum = " + ".join(math(d.display["A"][i, j]) for j in steps.readable)
    out += [Paragraph(segments("row_check", lang)), Display((f"{row_sum} = 1",))]
    outputs = []
    for c in range(p.d_v):
        terms = " + ".join(_product(d.display["A"][i, j], d.display["V"][j, c])
                           for j in steps.readable)
        outputs.append(rf"{_index('O', i, c)} &= {terms} = {math(d.display['O'][i, c])}"
                       + _approx(steps.outputs[c]))
    out += [Paragraph(segments("output_row", lang)), Display(tuple(outputs))]
    return out


def _logit_line(d: Derivation, i: int, j: int) -> str:
    t, p = d.trace, d.trace.problem
    head = f"{_index('L', i, j)} &= "
    if not t.readable[i][j]:
        return head + r"-\infty"
    inner = f"{math(d.display['S'][i, j])} + {math(d.display['M'][i, j])}"
    if p.temperature == 1:
        return head + f"{inner} = {math(d.display['L'][i, j])}"
    return head + rf"{math(d.scalars['inverse_temperature'])}\left({inner}\right) = " \
        f"{math(d.display['L'][i, j])}"


def check_blocks(d: Derivation) -> list[Block]:
    """The invariants and the cross-check, as closing lines."""
    lang, report, t = d.options.lang, d.report, d.trace
    items = []
    for result in report.results:
        key = CHECK_PHRASES[result.check]
        values = {}
        if key == "check_numeric" and result.passed is None:
            key, values = "check_numeric_unresolved", dict(result.values)
        elif key == "check_numeric":
            values = {"digits": report.digits, "difference": d.difference}
        words = segments(key, lang, **values)
        if key == "check_shapes":
            p = t.problem
            words += (("text", " "), ("math", rf"R, S, M, L, A: {p.n_q} \times {p.n_k};\ "
                                               rf"O: {p.n_q} \times {p.d_v}"))
        words += (("text", ": "),) + segments(VERDICTS[result.passed], lang)
        items.append(words)
    out: list[Block] = [Heading(2, segments("checks", lang)), Items(tuple(items))]
    if d.decimals:
        out.append(Paragraph(segments("decimals_note", lang, places=d.options.places)))
    return out
