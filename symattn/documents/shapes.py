"""A problem that gives only shapes: the shape argument step by step as blocks for LaTeX and
Markdown (English and Chinese); with a batch axis and heads when the problem has them."""

from __future__ import annotations

from ..model import ShapeProblem
from .blocks import Block, Display, Heading, Items, Paragraph, segments, title_segments


def _x(*sizes: int | None) -> str:
    """4 \\times 6, with None (no batch) left out."""
    return r" \times ".join(str(s) for s in sizes if s)


def shape_blocks(p: ShapeProblem, lang: str) -> list[Block]:
    """Title, the inputs, then every stage's shape with the reason it has it."""
    title = title_segments(p.title, p.title_zh, lang, "shapes_title")
    b, h = p.batch, p.heads
    blocks: list[Block] = [Heading(1, title), Heading(2, segments("inputs", lang)),
                           Paragraph(segments("shapes_inputs", lang, q=_x(b, p.n_q, p.d_k),
                                              k=_x(b, p.n_k, p.d_k), v=_x(b, p.n_k, p.d_v)))]
    if b:
        blocks.append(Paragraph(segments("shapes_batch", lang, b=b)))
    if h:
        blocks.append(Paragraph(segments("shapes_heads", lang, h=h, dk=p.d_k // h, dv=p.d_v // h)))
    scores = _x(b, h, p.n_q, p.n_k)
    head_k, head_v = (p.d_k // h, p.d_v // h) if h else (p.d_k, p.d_v)
    lines = [rf"R &= QK^{{\mathsf T}}:\ ({_x(p.n_q, head_k)})({_x(head_k, p.n_k)}) \to {scores}",
             rf"S,\ M,\ L &: {scores}", rf"A &= \operatorname{{softmax}}(L): {scores}",
             rf"AV &: ({_x(p.n_q, p.n_k)})({_x(p.n_k, head_v)}) \to {_x(b, h, p.n_q, head_v)}"]
    if h:
        d_out = p.d_out or p.d_v
        lines += [rf"\operatorname{{Concat}} &: {_x(b, p.n_q, p.d_v)}",
                  rf"O &= \operatorname{{Concat}}\,W_O:\ ({_x(p.n_q, p.d_v)})({_x(p.d_v, d_out)})"
                  rf" \to {_x(b, p.n_q, d_out)}"]
    blocks += [Heading(2, segments("shapes_stages", lang)), Display(tuple(lines)),
               Items((segments("shapes_share_d_k", lang, d_k=p.d_k),
                      segments("shapes_keep", lang),
                      segments("shapes_share_n_k", lang, n_k=p.n_k)))]
    return blocks
