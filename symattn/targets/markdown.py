"""Blocks -> Markdown with KaTeX-safe math: $inline$ and $$ display blocks, no \\label or tabular."""

from __future__ import annotations

from typing import Any
from collections.abc import Callable
from urllib.parse import quote

from ..documents.blocks import (Block, Display, Heading, Heatmap, Items, Paragraph, Plot, Segment,
                               Step, unaligned)
from ..printing.plain import plain
from ..printing.printer import escape_text, indexed_label

_MARKDOWN_SPECIALS = set("\\`*_{}[]#+-.!|$~^")  # ~~x~~ strikes through (GFM), ^x^ raises
# ( and ) stay bare: with [ and ] escaped no link can form, and \( \) delimit math for
# arithmatex and KaTeX (a title "Two tokens (I, love)" would turn into math).
_HTML = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def escape_markdown(text: str) -> str:
    """Text that Markdown and KaTeX auto-render show literally: no emphasis, HTML or math."""
    return "".join(_HTML.get(c, "\\" + c if c in _MARKDOWN_SPECIALS else c) for c in text)


def inline(parts: tuple[Segment, ...]) -> str:
    out = []
    for kind, content in parts:
        if kind == "math":
            out.append(f"${content}$")
        elif kind == "label":
            escape_text(content)  # refuses control and bidi characters, as LaTeX does
            indexed = indexed_label(content)
            out.append(f"${indexed}$" if indexed else escape_markdown(content))
        else:
            out.append(content)
    return "".join(out)


def display(b: Display) -> str:
    """A $$ block: one line, or several aligned at '&' (or centred with gathered)."""
    if len(b.lines) == 1:
        return "$$\n" + unaligned(b.lines[0]) + "\n$$"
    environment = "aligned" if any(unaligned(line) != line for line in b.lines) else "gathered"
    body = " \\\\\n".join(b.lines)
    return f"$$\n\\begin{{{environment}}}\n{body}\n\\end{{{environment}}}\n$$"


def _step(b: Step) -> str:
    return "\n\n".join(display(part) if isinstance(part, Display) else inline(part) for part in b.parts)


def plot(b: Plot) -> str:
    """An image link to the SVG when one is named, else the caption only (data in tables)."""
    caption = inline(b.caption)
    if b.image is None:
        return f"*{caption}*"
    return f"![{_alt(b)}]({_url(b.image)})\n\n*{caption}*"


def _alt(b: Plot) -> str:
    text = "".join(plain(c) if kind == "math" else c for kind, c in b.caption)
    return "".join(ch for ch in text if ch not in "[]\\*_`<>$")


def _url(path: str) -> str:
    escape_text(path)  # refuses control and bidi characters
    return quote(path, safe="/._-")


def block(b: Block, depth: int = 0) -> str:
    """One block as Markdown, through SETTERS; depth: levels to add to every heading (# is the
    title's)."""
    return SETTERS[type(b)](b, depth)


def heatmap(h: Heatmap) -> str:
    """The weights as a KaTeX array of shaded cells, labels on both sides."""
    head = " & ".join(_label(c) for c in h.columns)
    rows = []
    for label, pct_row, cells in zip(h.rows, h.percent, h.cells):
        shaded = [rf"\colorbox{{{_shade(p)}}}{{${c}$}}" for p, c in zip(pct_row, cells)]
        rows.append(_label(label) + " & " + " & ".join(shaded))
    body = rf"\begin{{array}}{{r|{'c' * len(h.columns)}}} & {head} \\ \hline " + r" \\ ".join(rows) \
        + r" \end{array}"
    return f"{inline(h.caption)}\n\n$$\n{body}\n$$"


def _label(label: str) -> str:
    """A heatmap label inside math: k_{1} for k1, else \\text{…}."""
    return indexed_label(label) or rf"\text{{{escape_text(label)}}}"


def _shade(percent: int) -> str:
    """#rrggbb between white (0 %) and a mid blue (100 %)."""
    def channel(full: int) -> int:
        return round(255 - (255 - full) * percent / 100)
    return f"#{channel(70):02x}{channel(120):02x}{channel(220):02x}"


SETTERS: dict[type, Callable[[Any, int], str]] = {
    Heading: lambda b, depth: "#" * min(b.level + depth, 6) + " " + inline(b.segments),
    Paragraph: lambda b, _: inline(b.segments),
    Display: lambda b, _: display(b),
    Step: lambda b, _: _step(b),
    Items: lambda b, _: "\n".join("- " + inline(item) for item in b.items),
    Heatmap: lambda b, _: heatmap(b),
    Plot: lambda b, _: plot(b),
}
"""Block type -> its Markdown: one entry for every member of the closed union documents.blocks.Block."""

SETUPS = ("<!-- symattn Markdown, math between dollar signs by Pandoc's rules: it renders under a "
          "math-aware parser (markdown-it with a TeX plugin, MyST dollarmath, pymdown-extensions "
          "arithmatex, Pandoc), not under plain CommonMark with browser auto-render, which breaks "
          "matrix rows -->")
"""The first line of every Markdown output: which set-ups render it (README, Use in course material)."""


def document(blocks: list[Block], depth: int = 0) -> str:
    """The whole derivation as Markdown (headings depth levels down), after the SETUPS line."""
    return "\n\n".join([SETUPS, *(block(b, depth) for b in blocks)]) + "\n"

