"""A trace as plain text: each stage's formula, shape and labelled matrix; a check report."""

from __future__ import annotations

import unicodedata

import sympy as sp

from ..derivation.orientation import said
from ..documents import laid_out
from ..documents.checks import check_detail
from ..model import Problem, Trace
from ..printing.plain import CanonicalTextPrinter, TextPrinter
from ..reports import CheckResult, HeadsReport, Report
from ..words import phrase

_PRINTER = TextPrinter()

FORMULAS = {
    "Q": "Q (queries)", "K": "K (keys)", "V": "V (values)",
    "R": "R = Q K^T (raw scores)", "S": "S = s R (scaled scores)",
    "M": "M (additive mask: 0 = may read, -oo = may not)", "L": "L = (S + M) / tau (logits)",
    "A": "A = softmax(L), row by row (weights)", "O": "O = A V (output)",
}
COLUMN_FORMULAS = {
    "Q": "Q (queries, one column per token)", "K": "K (keys, one column per token)",
    "V": "V (values, one column per token)", "R": "R = K^T Q (raw scores)",
    "A": "A = softmax(L), column by column (weights)", "O": "O = V A (output)",
}
"""The formulas that change in a problem laid out in columns (Prince's book)."""
INPUT_WORDS = {"X": "token representations", "Y": "the keys' and values' tokens",
               "W_Q": "query projection", "W_K": "key projection", "W_V": "value projection",
               "b_Q": "query bias", "b_K": "key bias", "b_V": "value bias"}
GIVEN = {"R": "raw scores", "S": "scaled scores", "L": "logits"}
MASK_WORDS = {"none": "none", "causal": "causal (query i reads keys j <= i)",
              "causal-bottom-right": "causal, bottom-right aligned (j <= i + n_k - n_q)"}
MARKS = {True: "ok", False: "failed", None: "undecided"}
MAX_GRID_WIDTH = 100
LONG = "decimals (the exact entries have more than 15 digits; they are kept and checked):"


def render_text(trace: Trace, decimals: dict[str, list[list[str]]],
                shown: dict[str, sp.Basic] | None = None, long: frozenset[str] = frozenset()) -> str:
    """Every stage in order, with labels, and decimals after the stages that have them; `shown`
    holds the display forms of the stages, tau and s where they differ (a decimal problem);
    a stage in `long` is shown by its decimals alone (its exact entries are too long)."""
    p = laid_out(trace).problem
    shown = shown or {}
    printer = CanonicalTextPrinter()
    columns = p.layout == "columns"
    lines = [p.title] if p.title else []
    d_k = "" if p.key_dimension is None else f"d_k = {p.key_dimension}, "
    scale = f"scale s = {_PRINTER.doprint(shown.get('s', p.scale_factor))}" if p.start in "QR" \
        or p.key_dimension is None else f"the given {p.start} already include the scale " \
        f"1/sqrt({p.key_dimension})"
    lines.append(f"n_q = {p.n_q}, n_k = {p.n_k}, {d_k}d_v = {p.d_v}; {scale}; "
                 f"temperature tau = {_PRINTER.doprint(shown.get('tau', p.temperature))}")
    masks = [MASK_WORDS[p.mask]] + [word for word, given in (
        ("keep matrix", p.keep), ("key lengths", p.key_lengths), ("bias", p.bias)) if given]
    if p.mask_bias is not None:
        lines.append(f"mask: {' + '.join(masks)}; the masks add mask_bias = {p.mask_bias} "
                     "instead of -oo (a masked weight is tiny, not 0)")
    else:
        lines.append(f"mask: {' + '.join(masks)}; fully masked rows: {p.fully_masked}")
    if p.start != "Q":
        lines.append(f"the problem starts from the given {GIVEN[p.start]} {p.start}")
    if columns:
        lines.append("layout: columns, one token per column (Prince's book); every matrix "
                     "below is the transpose of the row layout's")
    stages = [(name, matrix, f"{name} ({INPUT_WORDS[name]})")
              for name, matrix in projection_inputs(p)]
    for name in p.shown_stages:
        formula = f"{name} ({GIVEN[name]}, given)" if name in GIVEN and name == p.start \
            else COLUMN_FORMULAS.get(name, FORMULAS[name]) if columns else FORMULAS[name]
        if name == "M" and p.mask_bias is not None:
            formula = f"M (additive mask: 0 = may read, {p.mask_bias} = may not, mask_bias for -oo)"
        stages.append((name, trace.stage(name), projected(p, name) or formula))
    for name, exact, formula in stages:
        matrix = shown.get(name, exact)
        rows, labels = _labels(trace, name)
        if name in long and name in decimals:
            numbers = decimals[name]
            if columns:
                rows, labels, numbers = labels, rows, _turned(numbers)
            table = grid(rows, labels, numbers)
            lines += ["", f"{formula}   [{len(rows)}x{len(labels)}]", f"  ~ {LONG}"] + (
                table if max(width(line) for line in table) <= MAX_GRID_WIDTH
                else listing(name, rows, labels, numbers, None, relation="~"))
            continue
        cells = [[printer.doprint(x) for x in row] for row in matrix.tolist()]
        numbers = decimals.get(name)
        if columns:
            matrix, rows, labels = matrix.T, labels, rows
            cells, numbers = _turned(cells), numbers and _turned(numbers)
        lines += ["", f"{formula}   [{matrix.rows}x{matrix.cols}]"]
        table = grid(rows, labels, cells)
        if max(width(line) for line in table) <= MAX_GRID_WIDTH:
            lines += table
            if numbers:
                lines += ["  ~ decimals:"] + grid(rows, labels, numbers)
        else:
            lines += listing(name, rows, labels, cells, numbers)
    for i in trace.fully_masked_rows:
        axis = "column" if columns else "row"
        lines.append(f"{axis} {i + 1} may read no key: policy '{p.fully_masked}' applied")
    return "\n".join(lines) + "\n"


def projection_inputs(p: Problem) -> list[tuple[str, sp.ImmutableMatrix]]:
    """X (and Y), the weights and the biases (each one row) of a problem given by projections."""
    given = p.projections
    if given is None:
        return []
    return [(name, getattr(given, name)) for name in ("X", "Y", "W_Q", "W_K", "W_V", "b_Q",
                                                      "b_K", "b_V") if getattr(given, name) is not None]


def projected(p: Problem, name: str) -> str | None:
    """Q = X W_Q + 1 b_Q^T (queries), or Q = W_Q X + b_Q 1^T in columns; None for the others."""
    given = p.projections
    if given is None or name not in ("Q", "K", "V"):
        return None
    source = "X" if name == "Q" or given.Y is None else "Y"
    biased = getattr(given, f"b_{name}") is not None
    what = {"Q": "queries", "K": "keys", "V": "values"}[name]
    if p.layout == "columns":
        return f"{name} = W_{name} {source}" + (f" + b_{name} 1^T" if biased else "") + f" ({what})"
    return f"{name} = {source} W_{name}" + (f" + 1 b_{name}^T" if biased else "") + f" ({what})"


def _turned(cells: list[list[str]]) -> list[list[str]]:
    """A grid of printed entries transposed."""
    return [list(column) for column in zip(*cells)]


def _labels(trace: Trace, name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Row and column labels of a matrix in the engine's orientation (tokens on the rows)."""
    p = trace.problem
    numbered = {"Q": p.d_k, "K": p.d_k, "V": p.d_v, "O": p.d_v}
    if name in ("X", "Y"):
        source = p.row_labels if name == "X" else p.column_labels
        return source, tuple(str(c) for c in range(1, getattr(p.projections, name).cols + 1))
    if name.startswith(("W_", "b_")):
        m = getattr(p.projections, name)
        return tuple(str(r) for r in range(1, m.rows + 1)), tuple(str(c) for c in range(1, m.cols + 1))
    rows = p.row_labels if name not in ("K", "V") else p.column_labels
    if name in numbered:
        return rows, tuple(str(c) for c in range(1, numbered[name] + 1))
    return rows, p.column_labels


def width(text: str) -> int:
    """Display width in a terminal: wide (CJK) characters take two cells."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, size: int, right: bool) -> str:
    fill = " " * (size - width(text))
    return fill + text if right else text + fill


def grid(rows: tuple[str, ...], columns: tuple[str, ...], cells: list[list[str]]) -> list[str]:
    """Right-aligned columns under their labels, each row after its label."""
    head = max(width(r) for r in rows)
    widths = [max([width(c)] + [width(row[k]) for row in cells]) for k, c in enumerate(columns)]
    out = ["  " + " " * head + "  " + "  ".join(_pad(c, w, True) for c, w in zip(columns, widths))]
    for label, row in zip(rows, cells):
        out.append("  " + _pad(label, head, False) + "  "
                   + "  ".join(_pad(x, w, True) for x, w in zip(row, widths)))
    return out


def listing(name: str, rows: tuple[str, ...], columns: tuple[str, ...], cells: list[list[str]],
            decimals: list[list[str]] | None, relation: str = "=") -> list[str]:
    """Entry by entry, for matrices too wide to read as a grid (relation ~: cells that are
    decimals of the exact entries)."""
    out = []
    for i, (label, row) in enumerate(zip(rows, cells)):
        out.append(f"  row {i + 1} ({label}):" if label != str(i + 1) else f"  row {i + 1}:")
        for j, (column, cell) in enumerate(zip(columns, row)):
            approx = f"  ~ {decimals[i][j]}" if decimals and cell != decimals[i][j] else ""
            head = f"{name}[{i + 1},{j + 1}]" + (f" ({column})" if column != str(j + 1) else "")
            out.append(f"    {head} {relation} {cell}{approx}")
    return out


def render_report(report: Report, lang: str = "en", columns: bool = False) -> str:
    """One line per check, then the verdict (columns: of a problem laid out in columns)."""
    lines = [check_line(result, lang, columns) for result in report.results]
    lines.append(phrase("checks_passed" if report.passed else "checks_failed", lang))
    return "\n".join(lines) + "\n"


def render_heads_report(report: HeadsReport, lang: str = "en", columns: bool = False) -> str:
    """Every head's checks, the output's agreement with mpmath, then the verdict."""
    lines = [f"[{phrase('head_mark', lang, k=k)}] {check_line(result, lang, columns)}"
             for k, head in enumerate(report.reports, start=1) for result in head.results]
    lines.append(phrase(said("heads_output", columns), lang,
                        difference=f"{float(report.difference):.1e}"))
    lines.append(phrase("checks_passed" if report.passed else "checks_failed", lang))
    return "\n".join(lines) + "\n"


def check_line(result: CheckResult, lang: str, columns: bool = False) -> str:
    """[ok] name: detail."""
    return phrase("check_line", lang, mark=phrase(f"mark_{MARKS[result.passed]}", lang),
                  name=phrase(said(f"check_name_{result.check}", columns), lang),
                  detail=check_detail(result, lang, columns))
