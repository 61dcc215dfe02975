"""Blocks -> LaTeX: a fragment for \\input (amsmath, amssymb; tikz for the heatmap) or a document."""

from __future__ import annotations

from ..model import Trace
from .document import Block, Display, Heading, Heatmap, Items, Paragraph, Segment
from .printer import escape_text, math, matrix

_PROSE_ESCAPES = {"%": r"\%", "&": r"\&", "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}"}
CELL_CM = 1.3


def _prose(text: str) -> str:
    return "".join(_PROSE_ESCAPES.get(c, c) for c in text)


def inline(parts: tuple[Segment, ...]) -> str:
    """Prose with labels escaped and inline math as \\( ... \\)."""
    out = []
    for kind, content in parts:
        if kind == "math":
            out.append(rf"\({content}\)")
        elif kind == "label":
            out.append(escape_text(content))
        else:
            out.append(_prose(content))
    return "".join(out)


def block(b: Block) -> str:
    """One block as LaTeX."""
    if isinstance(b, Heading):
        command = {1: "section", 2: "subsection"}.get(b.level, "subsubsection")
        return rf"\{command}*{{" + inline(b.segments) + "}"
    if isinstance(b, Paragraph):
        return inline(b.segments)
    if isinstance(b, Display):
        if len(b.lines) == 1:
            return r"\[" + b.lines[0].replace("&=", "=") + r"\]"
        body = " \\\\\n".join(b.lines)
        return "\\[\n\\begin{aligned}\n" + body + "\n\\end{aligned}\n\\]"
    if isinstance(b, Items):
        items = "\n".join(r"\item " + inline(item) for item in b.items)
        return "\\begin{itemize}\n" + items + "\n\\end{itemize}"
    if isinstance(b, Heatmap):
        return heatmap(b)
    return b.latex(inline)  # a block defined beside its document (e.g. the sweep's Plot)


def heatmap(h: Heatmap) -> str:
    """A TikZ grid: each cell shaded by its weight, with the value and labels."""
    lines = [r"\begin{center}", r"\begin{tikzpicture}[x=%.1fcm,y=-%.1fcm]" % (CELL_CM, 0.8)]
    for i, row in enumerate(h.percent):
        for j, pct in enumerate(row):
            ink = "white" if pct > 55 else "black"
            lines.append(rf"\filldraw[fill=blue!{pct}!white,draw=gray] ({j},{i}) rectangle "
                         rf"({j + 1},{i + 1});")
            lines.append(rf"\node[text={ink},font=\footnotesize] at ({j + 0.5},{i + 0.5}) "
                         rf"{{{h.cells[i][j]}}};")
    for i, label in enumerate(h.rows):
        lines.append(rf"\node[anchor=east,font=\footnotesize] at (0,{i + 0.5}) {{{escape_text(label)}}};")
    for j, label in enumerate(h.columns):
        lines.append(rf"\node[anchor=south,font=\footnotesize] at ({j + 0.5},0) {{{escape_text(label)}}};")
    lines += [r"\end{tikzpicture}", "", inline(h.caption), r"\end{center}"]
    return "\n".join(lines)


def fragment(blocks: list[Block]) -> str:
    """The body only, for \\input into a document that loads amsmath and amssymb (and tikz)."""
    return "\n\n".join(block(b) for b in blocks) + "\n"


def document(blocks: list[Block], lang: str, wide_labels: bool) -> str:
    """A complete document: pdfLaTeX for English (CJKutf8 if labels need it), XeLaTeX + ctex for Chinese."""
    figure = any(isinstance(b, Heatmap) for b in blocks)
    packages = [r"\usepackage{amsmath,amssymb}", r"\usepackage[margin=2cm]{geometry}"]
    if figure:
        packages.append(r"\usepackage{tikz}")
    for line in dict.fromkeys(x for b in blocks for x in getattr(b, "preamble", ())):
        packages.append(line)  # e.g. pgfplots, asked for by a Plot block
    body = fragment(blocks)
    if lang == "zh":
        head = [r"\documentclass[UTF8]{ctexart}", "% Compile with: latexmk -xelatex"]
    else:
        head = [r"\documentclass{article}", "% Compile with: latexmk -pdf",
                r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}"]
        if wide_labels:
            packages.append(r"\usepackage{CJKutf8}")
            body = "\\begin{CJK}{UTF8}{gbsn}\n" + body + "\\end{CJK}\n"
    return "\n".join(head + packages) + "\n\\begin{document}\n\n" + body + "\n\\end{document}\n"


def weights_and_output(trace: Trace) -> str:
    """$$A = [...],\\quad O = [...]$$ for notebook front ends."""
    def m(name: str) -> str:
        stage = trace.stage(name)
        return matrix([[math(x) for x in stage.row(i)] for i in range(stage.rows)])
    return rf"$$A = {m('A')},\qquad O = {m('O')}$$"
