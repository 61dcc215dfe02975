"""A trace as JSON: title, shapes and every stage's entries in SymPy's str() syntax."""

from __future__ import annotations

import json

from ..model import STAGES, Trace
from .text import laid_out


def render_json(trace: Trace) -> str:
    """JSON with every exact entry as a string; masked entries of M and L are "-oo"."""
    laid_out(trace)
    document = {
        "title": trace.problem.title,
        "shapes": {name: list(trace.stage(name).shape) for name in STAGES},
        "stages": {name: [[str(x) for x in trace.stage(name).row(i)]
                          for i in range(trace.stage(name).rows)] for name in STAGES},
    }
    return _dump(document) + "\n"


def _dump(document: dict) -> str:
    """Indented JSON with each matrix row and shape on one line, for reading and diffing."""
    def one_line(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    parts = [f'  "title": {one_line(document["title"])}']
    shapes = ", ".join(f"{one_line(k)}: {one_line(v)}" for k, v in document["shapes"].items())
    parts.append(f'  "shapes": {{{shapes}}}')
    stages = ",\n".join(
        f"    {one_line(name)}: [\n" + ",\n".join(f"      {one_line(row)}" for row in rows) + "\n    ]"
        for name, rows in document["stages"].items())
    parts.append(f'  "stages": {{\n{stages}\n  }}')
    return "{\n" + ",\n".join(parts) + "\n}"
