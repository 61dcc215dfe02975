"""Multi-head attention as plain text and JSON (every matrix transposed in a problem laid out in
columns, as its book writes them)."""

from __future__ import annotations

import json

import sympy as sp

from ..model import MultiHeadTrace
from ..printing.plain import CanonicalTextPrinter
from .text import LONG, MAX_GRID_WIDTH, grid, listing, projection_inputs, render_text, width

STAGES = ("Q", "K", "V", "R", "S", "M", "L", "A", "O")


def heads_text(trace: MultiHeadTrace, decimals: list[dict],
               long: list[frozenset[str]] | None = None,
               output: dict[str, list[list[str]]] | None = None,
               written: list[dict[str, sp.Basic]] | None = None) -> str:
    """Each head as plain text, then the concatenation, W_O (and b_O) and the output
    (`output`: the decimals of C and MHA(X) when their exact entries are too long to print;
    `written`: per head, the inputs of a problem written in decimals as written, the first's
    with W_O and b_O)."""
    p = trace.problem
    columns = p.layout == "columns"
    parts = [f"== {p.title or 'Multi-head attention'} =="]
    if p.num_heads:
        parts.append(f"{p.num_heads} heads split from the whole projections, as "
                     "nn.MultiheadAttention splits them (head k: its block of d_k/h and d_v/h)")
    long = long or [frozenset()] * len(trace.heads)
    written = written or [{}] * len(trace.heads)
    for k, (head, dec, too_long, inputs) in enumerate(zip(trace.heads, decimals, long, written),
                                                      start=1):
        parts.append(f"-- head {k} --\n" + render_text(head, dec, inputs, too_long))
    printer = CanonicalTextPrinter()
    tokens = trace.heads[0].problem.row_labels
    output = output or {}

    def table(m: sp.ImmutableMatrix, tokened: bool = True, name: str = "") -> str:
        """m under its labels (the decimals alone of a C or an output too long to print), entry
        by entry when too wide for a grid."""
        rows = tokens if tokened else tuple(str(i + 1) for i in range(m.rows))
        cells = output[name] if name in output else \
            [[printer.doprint(x) for x in row] for row in m.tolist()]
        labels = tuple(str(j + 1) for j in range(m.cols))
        if columns:
            rows, labels, cells = labels, rows, [list(c) for c in zip(*cells)]
        lines = grid(rows, labels, cells)
        if max(width(line) for line in lines) > MAX_GRID_WIDTH:  # as render_text lists it
            lines = listing(name, rows, labels, cells, None)
        return (f"  ~ {LONG}\n" if name in output else "") + "\n".join(lines)
    stacked = ", stacked" if columns else ""  # one head's output below another's
    parts.append(f"C = Concat(heads){stacked}:\n" + table(trace.concat, name="C"))
    parts.append("W_O (output projection):\n" + table(written[0].get("W_O", p.W_O), False, "W_O"))
    if p.b_O is not None:
        parts.append("b_O (output bias):\n" + table(written[0].get("b_O", p.b_O), False, "b_O"))
    formula = ("W_O C" + (" + b_O 1^T" if p.b_O is not None else "")) if columns else \
        ("C W_O" + (" + 1 b_O^T" if p.b_O is not None else ""))
    parts.append(f"MHA(X) = {formula}:\n" + table(trace.output, name="O"))
    return "\n".join(parts) + "\n"


def heads_json(trace: MultiHeadTrace) -> str:
    """Every head's inputs and stages, the concatenation, W_O (b_O) and the output, entries in
    SymPy's str() syntax; transposed when laid out in columns (and "layout" says so)."""
    p = trace.problem
    columns = p.layout == "columns"

    def grid_of(m: sp.MatrixBase) -> list[list[str]]:
        m = m.T if columns else m
        return [[str(x) for x in m.row(i)] for i in range(m.rows)]
    document: dict = {"title": p.title}
    if columns:
        document["layout"] = "columns"
    if p.num_heads:
        document["num_heads"] = p.num_heads
    shared = ("X", "Y")
    document |= {name: grid_of(m) for name, m in projection_inputs(trace.heads[0].problem)
                 if name in shared}
    document["heads"] = [{**{name: grid_of(m) for name, m in projection_inputs(h.problem)
                             if name not in shared},
                          **{name: grid_of(h.stage(name)) for name in STAGES}}
                         for h in trace.heads]
    document |= {"concat": grid_of(trace.concat), "W_O": grid_of(p.W_O)}
    if p.b_O is not None:
        document["b_O"] = grid_of(p.b_O)
    document["output"] = grid_of(trace.output)
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
