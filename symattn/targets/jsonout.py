"""A trace as JSON: title, shapes and every stage's entries in SymPy's str() syntax (E is Euler's
number there, as SymPy reads it), and for a problem written in decimals their display forms; X
and its projections when given; every matrix transposed in a problem laid out in columns."""

from __future__ import annotations

import json

import sympy as sp

from ..documents import laid_out
from ..model import Trace
from ..printing.canonical import CanonicalPrinter
from ..printing.plain import CanonicalTextPrinter
from .text import projection_inputs


def render_json(trace: Trace, shown: dict[str, sp.Basic] | None = None,
                decimals: dict[str, list[list[str]]] | None = None) -> str:
    """JSON with every exact entry as a string SymPy reads back as the same expression; masked
    entries of M and L are "-oo". With
    `shown` (a problem written in decimals), "display" holds each stage as a person reads it
    (0.126, e^0.9995 written exp(0.9995)), beside the exact "stages"; a stage too long to
    read exactly is there by its decimals (`decimals`)."""
    p = laid_out(trace).problem
    columns = p.layout == "columns"

    def book(m: sp.MatrixBase) -> sp.MatrixBase:
        return m.T if columns else m
    inputs = dict(projection_inputs(p))
    stages = {name: trace.stage(name) for name in p.shown_stages}
    matrices = {**inputs, **stages}
    document: dict = {"title": p.title}
    if columns:
        document["layout"] = "columns"
    document["shapes"] = {name: list(book(m).shape) for name, m in matrices.items()}
    exact = CanonicalPrinter().doprint
    if inputs:
        document["inputs"] = _grids({name: book(m) for name, m in inputs.items()}, exact)
    document["stages"] = _grids({name: book(m) for name, m in stages.items()}, exact)
    if p.mask_bias is not None:  # the masks add it, not -oo: which keys they hide
        document["mask_bias"] = exact(p.mask_bias)
        document["masked_by_bias"] = _turned([list(row) for row in trace.masked_by_bias], columns)
    if shown:
        text = CanonicalTextPrinter().doprint
        document["display"] = {
            name: _turned(decimals[name], columns) if decimals and name in decimals
            and name not in shown else _grids({name: book(shown.get(name, m))}, text)[name]
            for name, m in matrices.items()}
    return _dump(document) + "\n"


def _turned(grid: list, columns: bool) -> list:
    """A grid of entries (or flags) as the reader's layout shows it: transposed in columns."""
    return [list(column) for column in zip(*grid)] if columns else grid


def _grids(matrices: dict, text) -> dict[str, list[list[str]]]:
    return {name: [[text(x) for x in row] for row in m.tolist()] for name, m in matrices.items()}


def _dump(document: dict) -> str:
    """Indented JSON with each matrix row and shape on one line, for reading and diffing."""
    def one_line(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    parts = [f'  "title": {one_line(document["title"])}']
    if "layout" in document:
        parts.append(f'  "layout": {one_line(document["layout"])}')
    shapes = ", ".join(f"{one_line(k)}: {one_line(v)}" for k, v in document["shapes"].items())
    parts.append(f'  "shapes": {{{shapes}}}')
    if "mask_bias" in document:
        parts.append(f'  "mask_bias": {one_line(document["mask_bias"])}')
        rows = ",\n".join(f"    {one_line(row)}" for row in document["masked_by_bias"])
        parts.append(f'  "masked_by_bias": [\n{rows}\n  ]')
    for key in ("inputs", "stages", "display"):
        if key in document:
            grids = ",\n".join(f"    {one_line(name)}: [\n" + ",\n".join(
                f"      {one_line(row)}" for row in rows) + "\n    ]"
                for name, rows in document[key].items())
            parts.append(f'  "{key}": {{\n{grids}\n  }}')
    return "{\n" + ",\n".join(parts) + "\n}"
