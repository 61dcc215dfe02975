"""Multi-head attention as plain text and JSON."""

from __future__ import annotations

import json

from ..model import MultiHeadTrace
from ..printing.plain import CanonicalTextPrinter
from .text import LONG, grid, render_text


def heads_text(trace: MultiHeadTrace, decimals: list[dict],
               long: list[frozenset[str]] | None = None,
               output: dict[str, list[list[str]]] | None = None) -> str:
    """Each head as plain text, then the concatenation and the output (`output`: the decimals
    of C and MHA(X) when their exact entries are too long to print)."""
    parts = [f"== {trace.problem.title or 'Multi-head attention'} =="]
    long = long or [frozenset()] * len(trace.heads)
    for k, (head, dec, too_long) in enumerate(zip(trace.heads, decimals, long), start=1):
        parts.append(f"-- head {k} --\n" + render_text(head, dec, None, too_long))
    printer = CanonicalTextPrinter()
    labels = trace.heads[0].problem.row_labels
    output = output or {}

    def rows(name: str, m) -> str:
        columns = tuple(str(j + 1) for j in range(m.cols))
        if name in output:
            return f"  ~ {LONG}\n" + "\n".join(grid(labels, columns, output[name]))
        return "\n".join(grid(labels, columns, [[printer.doprint(x) for x in row]
                                                 for row in m.tolist()]))
    parts.append("C = Concat(heads):\n" + rows("C", trace.concat))
    parts.append("MHA(X) = C W_O:\n" + rows("O", trace.output))
    return "\n".join(parts) + "\n"


def heads_json(trace: MultiHeadTrace) -> str:
    """Every head's stages, the concatenation and the output, entries in SymPy's str() syntax."""
    def grid(m):
        return [[str(x) for x in m.row(i)] for i in range(m.rows)]
    stages = ("Q", "K", "V", "R", "S", "M", "L", "A", "O")
    document = {"title": trace.problem.title,
                "heads": [{name: grid(h.stage(name)) for name in stages} for h in trace.heads],
                "concat": grid(trace.concat), "output": grid(trace.output)}
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
