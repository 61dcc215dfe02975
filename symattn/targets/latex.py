"""Blocks -> LaTeX: a fragment for \\input (its packages: `preamble`) or a whole document."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from ..documents.blocks import (COLORS, DASHES, Block, Display, Heading, Heatmap, Items, Paragraph,
                               Plot, Segment, Step, unaligned)
from ..model import Trace
from ..printing.printer import escape_text, label_text, math, matrix

MARK = 32  # characters of a title a page head can hold (upper case, 10 pt, 345 pt wide)
SECTIONS = ("part", "chapter", "section", "subsection", "subsubsection", "paragraph",
            "subparagraph")


@dataclass(frozen=True)
class Headings:
    """How headings are set: the title's sectioning command, numbered or not, a label prefix."""

    top: str = "section"
    numbered: bool = False
    label: str | None = None

_PROSE_ESCAPES = {"%": r"\%", "&": r"\&", "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}"}


def _prose(text: str) -> str:
    return "".join(_PROSE_ESCAPES.get(c, c) for c in text)


def inline(parts: tuple[Segment, ...]) -> str:
    """Prose with labels escaped and inline math as \\( ... \\)."""
    out = []
    for kind, content in parts:
        if kind == "math":
            out.append(rf"\({content}\)")
        elif kind == "label":
            out.append(label_text(content))
        else:
            out.append(_prose(content))
    return "".join(out)


ONE_LINE = 40
"""A title longer than this may take two lines of a heading's large bold type."""
STRETCH = r"\emergencystretch=3em "
"""Lets TeX spread a two-line title's words rather than run it into the margin ("two-position
example"); set inside the heading's own paragraph, so it changes nothing else."""
HUGE_LINE = 24
"""A title longer than this may take two lines even at a chapter's size, and may be hyphenated."""
UNBROKEN = r"\hyphenpenalty=10000 \exhyphenpenalty=10000 "
"""No word of a heading is hyphenated ("temper-ature"): set in the heading's own paragraph."""


def heading(b: Heading, headings: Headings) -> str:
    """\\section*{…} (or the level asked for, numbered or not) with its \\label."""
    at = min(SECTIONS.index(headings.top) + b.level - 1, len(SECTIONS) - 1)
    star = "" if headings.numbered else "*"
    plain = "".join(content for _, content in b.segments)
    stretch = (STRETCH if len(plain) > ONE_LINE else "") + (UNBROKEN if len(plain) > HUGE_LINE else "")
    short = f"[{inline(b.short or b.segments)}]" if headings.numbered and (b.short or stretch) \
        else ""
    text = rf"\{SECTIONS[at]}{star}{short}{{{stretch}" + inline(b.segments) + "}"
    if headings.numbered and SECTIONS[at] in ("chapter", "section") and len(plain) > MARK \
            and all(kind != "math" for kind, _ in b.segments):
        cut = plain[:MARK].rsplit(" ", 1)[0]  # a page head holds one line: a shorter title
        text += rf"\{SECTIONS[at]}mark{{{escape_text(cut)}\ldots}}"
    if headings.label and (b.level == 1 or b.key):
        text += rf"\label{{{headings.label}" + (f":{b.key}" if b.level > 1 else "") + "}"
    return text


KEPT = 6  # an entry of at most this many lines is never split between pages


def _line_ends(lines: tuple[str, ...]) -> list[str]:
    """What ends each line of a display: \\\\* (no page break) inside an entry of at most KEPT
    lines (a line starting at the alignment point, "&= …", "&\\approx …", "&+ …", goes on with
    the entry above), so that O_{1,3} = 1/Z_1(… is not split at its open bracket, \\\\ between
    entries and inside a longer entry (a row of 48 fractions must break to fit the page)."""
    starts = [k for k, line in enumerate(lines) if not line.lstrip().startswith("&")]
    starts = sorted({0, *starts, len(lines)})
    ends = [" \\\\\n"] * len(lines)
    for first, after in zip(starts, starts[1:]):
        if after - first <= KEPT:
            ends[first:after - 1] = [" \\\\*\n"] * (after - first - 1)
    ends[-1] = ""
    return ends


def display(b: Display) -> str:
    """\\[ … \\] for one line; for several, align* (at '&') or gather* (centred) with page
    breaks allowed between entries, so that a page fills rather than leaving a display of ten
    lines for the next page (\\allowdisplaybreaks is scoped to the display); a kept display
    as one unbreakable aligned (gathered) block."""
    if len(b.lines) == 1:
        return r"\[" + unaligned(b.lines[0]) + r"\]"
    aligned = any(unaligned(line) != line for line in b.lines)
    if b.kept:
        environment = "aligned" if aligned else "gathered"
        return f"\\[\n\\begin{{{environment}}}\n" + " \\\\\n".join(b.lines) + \
            f"\n\\end{{{environment}}}\n\\]"
    environment = "align*" if aligned else "gather*"
    body = "".join(line + end for line, end in zip(b.lines, _line_ends(b.lines)))
    return (f"{{\\allowdisplaybreaks\n\\begin{{{environment}}}\n{body}\n"
            f"\\end{{{environment}}}}}\\ignorespaces")  # no space from the line end after the group


def _step(b: Step) -> str:
    """A Step is one paragraph, its displays inside it."""
    return "\n".join(display(part) if isinstance(part, Display) else inline(part) for part in b.parts)


def _items(b: Items) -> str:
    items = "\n".join(r"\item " + inline(item) for item in b.items)
    return "\\begin{itemize}\n" + items + "\n\\end{itemize}"


def plot(b: Plot) -> str:
    """A pgfplots axis in a center environment, its legend under the axis in two columns (a
    legend beside it would push the figure past the text block), the caption below it."""
    ticks = ",".join(x for x, _, _ in b.xticks)
    labels = ",".join("{$" + label + "$}" for _, label, _ in b.xticks)
    lines = [r"\begin{center}", r"\begin{tikzpicture}",
             r"\begin{axis}[width=0.8\textwidth, height=0.45\textwidth, ymin=0, ymax=1, "
             rf"xlabel={{${b.xlabel}$}}, ylabel={{{inline(b.ylabel)}}}, "
             rf"xtick={{{ticks}}}, xticklabels={{{labels}}}, "
             r"legend style={at={(0.5,-0.25)}, anchor=north, font=\footnotesize}, "
             r"legend columns=2, legend cell align=left, "
             r"tick label style={font=\footnotesize}]"]
    for curve in b.curves:
        style = f"{COLORS[curve.color % len(COLORS)]}, {DASHES[curve.dash % len(DASHES)]}, " \
                "thick, mark=*, mark size=1pt"
        coordinates = " ".join(f"({x},{y})" for x, y in curve.points)
        lines.append(rf"\addplot[{style}] coordinates {{{coordinates}}};")
        lines.append(rf"\addlegendentry{{${curve.legend}$}}")
    lines += [r"\end{axis}", r"\end{tikzpicture}", "", inline(b.caption), r"\end{center}"]
    return "\n".join(lines)


def block(b: Block, headings: Headings = Headings()) -> str:
    """One block as LaTeX, through SETTERS."""
    return SETTERS[type(b)](b, headings)


def heatmap(h: Heatmap) -> str:
    """A TikZ grid: each cell shaded by its weight, with the value and labels."""
    scaled = f",scale={h.scale:.2f},transform shape" if h.scale < 1 else ""
    two = h.stacked and any(r" \times " in cell for row in h.cells for cell in row)
    lines = [r"\begin{center}",  # a row as high as its labels: 0.6 cm for a line, 0.8 for two
             rf"\begin{{tikzpicture}}[x={h.cell_cm:.1f}cm,y=-{0.8 if two else 0.6}cm{scaled}]"]
    for i, row in enumerate(h.percent):
        for j, pct in enumerate(row):
            ink = "white" if pct > 55 else "black"
            lines.append(rf"\filldraw[fill=blue!{pct}!white,draw=gray] ({j},{i}) rectangle "
                         rf"({j + 1},{i + 1});")
            lines.append(rf"\node[text={ink},font=\{h.font},align=center] at "
                         rf"({j + 0.5},{i + 0.5}) {{{_label(h.cells[i][j], h.stacked)}}};")
    for i, label in enumerate(h.rows):
        lines.append(rf"\node[anchor=east,font=\footnotesize] at (0,{i + 0.5}) {{{label_text(label)}}};")
    for j, label in enumerate(h.columns):
        lines.append(rf"\node[anchor=south,font=\footnotesize] at ({j + 0.5},0) {{{label_text(label)}}};")
    lines += [r"\end{tikzpicture}", "", inline(h.caption), r"\end{center}"]
    return "\n".join(lines)


def _label(cell: str, stacked: bool) -> str:
    """A heatmap label in math; a × 10^{b} on two lines when the heatmap stacks its labels."""
    if stacked and r" \times " in cell:
        mantissa, power = cell.split(r" \times ", 1)
        return rf"\({mantissa} \times\)\\\({power}\)"
    return rf"\({cell}\)"


SETTERS: dict[type, Callable[[Any, Headings], str]] = {
    Heading: heading,
    Paragraph: lambda b, _: inline(b.segments),
    Display: lambda b, _: display(b),
    Step: lambda b, _: _step(b),
    Items: lambda b, _: _items(b),
    Heatmap: lambda b, _: heatmap(b),
    Plot: lambda b, _: plot(b),
}
"""Block type -> its LaTeX: one entry for every member of the closed union documents.blocks.Block."""


def fragment(blocks: list[Block], headings: Headings = Headings(), lang: str = "en",
             wide_labels: bool = False) -> str:
    """The body only, for \\input into a document with the `preamble` lines; English text with
    CJK labels sits in a CJK environment (pdfLaTeX)."""
    body = "\n\n".join(block(b, headings) for b in blocks) + "\n"
    if lang == "en" and wide_labels:
        body = "\\begin{CJK}{UTF8}{gbsn}\n" + body + "\\end{CJK}\n"
    return body


def preamble(blocks: list[Block], lang: str, wide_labels: bool) -> list[str]:
    """Exactly the \\usepackage lines a fragment needs (Chinese: a ctex class or package)."""
    packages = [r"\usepackage{amsmath,amssymb}"]
    if any(isinstance(b, Heatmap) for b in blocks):
        packages.append(r"\usepackage{tikz}")
    packages += dict.fromkeys(x for b in blocks for x in getattr(b, "preamble", ()))
    if lang == "en" and wide_labels:
        packages.append(r"\usepackage{CJKutf8}")
    if lang == "zh":
        packages.insert(0, "% XeLaTeX with ctex: \\documentclass{ctexbook} (or ctexart), or "
                           "\\usepackage{ctex} in another class")
    return packages


def document(blocks: list[Block], lang: str, wide_labels: bool, *,
             headings: Headings = Headings()) -> str:
    """A complete document in the class's own text block (its margins, so a display too wide
    for a page shows as it would in print): pdfLaTeX for English (CJKutf8 if labels need it),
    XeLaTeX + ctex for Chinese."""
    packages = [line for line in preamble(blocks, lang, wide_labels) if not line.startswith("%")]
    body = fragment(blocks, headings, lang, wide_labels)
    if lang == "zh":
        head = [r"\documentclass[UTF8]{ctexart}", "% Compile with: latexmk -xelatex"]
    else:
        head = [r"\documentclass{article}", "% Compile with: latexmk -pdf",
                r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}"]
    return "\n".join(head + packages) + "\n\\begin{document}\n\n" + body + "\n\\end{document}\n"


def weights_and_output(trace: Trace) -> str:
    """$$A = [...],\\quad O = [...]$$ for notebook front ends."""
    def m(name: str) -> str:
        stage = trace.stage(name)
        return matrix([[math(x) for x in row] for row in stage.tolist()])
    return rf"$$A = {m('A')},\qquad O = {m('O')}$$"
