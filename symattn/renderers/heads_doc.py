"""Multi-head derivations: each head's derivation one level down, then Concat and W_O."""

from __future__ import annotations

import json

from ..derivation import HeadsDerivation
from ..model import MultiHeadTrace
from .document import Block, Display, Heading, Paragraph, build, segments
from .printer import decimal_matrix, matrix_of
from .text import render_text


def build_heads(d: HeadsDerivation) -> list[Block]:
    """Title, what multi-head attention does, each head (headings demoted), concatenation, output."""
    t, lang = d.trace, d.heads[0].options.lang
    title = (("label", t.problem.title),) if t.problem.title else segments("heads", lang)
    blocks: list[Block] = [Heading(1, title),
                           Paragraph(segments("heads_text", lang, count=len(t.heads)))]
    for k, head in enumerate(d.heads, start=1):
        inner = build(head)
        blocks.append(Heading(2, segments("head", lang, k=k)))
        blocks += [Heading(b.level + 1, b.segments) if isinstance(b, Heading) else b
                   for b in inner[1:]]
    names = ", ".join(rf"\text{{head}}_{{{k}}}" for k in range(1, len(t.heads) + 1))
    blocks += [Heading(2, segments("concat", lang)),
               Display((rf"C = \operatorname{{Concat}}({names}) = {matrix_of(t.concat)}",)),
               Display((rf"\operatorname{{MHA}}(X) = C\,W_O = {matrix_of(t.concat)}{matrix_of(t.problem.W_O)} = "
                        rf"{matrix_of(t.output)} \approx {decimal_matrix(d.decimals)}",)),
               Paragraph(segments("shape", lang, rows=t.output.rows, cols=t.output.cols)),
               Paragraph(segments("heads_checked" if d.report.passed else "heads_failed", lang,
                                  digits=d.report.digits, difference=d.difference))]
    return blocks


def heads_text(trace: MultiHeadTrace, decimals: list[dict]) -> str:
    """Each head as plain text, then the concatenation and the output."""
    parts = [f"== {trace.problem.title or 'Multi-head attention'} =="]
    for k, (head, dec) in enumerate(zip(trace.heads, decimals), start=1):
        parts.append(f"-- head {k} --\n" + render_text(head, dec))
    def rows(m) -> str:
        return "\n".join("  " + "  ".join(str(x) for x in m.row(i)) for i in range(m.rows))
    parts.append("C = Concat(heads):\n" + rows(trace.concat))
    parts.append("MHA(X) = C W_O:\n" + rows(trace.output))
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

