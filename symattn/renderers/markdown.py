"""Blocks -> Markdown with KaTeX-safe math: $inline$ and $$ display blocks, no \\label or tabular."""

from __future__ import annotations

from .blocks import Block, Display, Heading, Heatmap, Items, Paragraph, Segment, Step, unaligned
from .printer import escape_text

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
            out.append(escape_markdown(content))
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


def block(b: Block, depth: int = 0) -> str:
    """One block as Markdown; depth: levels to add to every heading (# is the title's)."""
    if isinstance(b, Heading):
        return "#" * min(b.level + depth, 6) + " " + inline(b.segments)
    if isinstance(b, Paragraph):
        return inline(b.segments)
    if isinstance(b, Display):
        return display(b)
    if isinstance(b, Step):
        return "\n\n".join(display(part) if isinstance(part, Display) else inline(part)
                             for part in b.parts)
    if isinstance(b, Items):
        return "\n".join("- " + inline(item) for item in b.items)
    if isinstance(b, Heatmap):
        return heatmap(b)
    return b.markdown(inline)  # a block defined beside its document (e.g. the sweep's Plot)


def heatmap(h: Heatmap) -> str:
    """The weights as a KaTeX array of shaded cells, labels on both sides."""
    head = " & ".join(rf"\text{{{escape_text(c)}}}" for c in h.columns)
    rows = []
    for label, pct_row, cells in zip(h.rows, h.percent, h.cells):
        shaded = [rf"\colorbox{{{_shade(p)}}}{{{c}}}" for p, c in zip(pct_row, cells)]
        rows.append(rf"\text{{{escape_text(label)}}} & " + " & ".join(shaded))
    body = rf"\begin{{array}}{{r|{'c' * len(h.columns)}}} & {head} \\ \hline " + r" \\ ".join(rows) \
        + r" \end{array}"
    return f"{inline(h.caption)}\n\n$$\n{body}\n$$"


def _shade(percent: int) -> str:
    """#rrggbb between white (0 %) and a mid blue (100 %)."""
    def channel(full: int) -> int:
        return round(255 - (255 - full) * percent / 100)
    return "#{:02x}{:02x}{:02x}".format(channel(70), channel(120), channel(220))


SETUPS = ("<!-- symattn Markdown, math between dollar signs by Pandoc's rules: it renders under a "
          "math-aware parser (markdown-it with a TeX plugin, MyST dollarmath, pymdown-extensions "
          "arithmatex, Pandoc), not under plain CommonMark with browser auto-render, which breaks "
          "matrix rows -->")
"""The first line of every Markdown output: which set-ups render it (README, Use in course material)."""


def document(blocks: list[Block], depth: int = 0) -> str:
    """The whole derivation as Markdown (headings depth levels down), after the SETUPS line."""
    return "\n\n".join([SETUPS, *(block(b, depth) for b in blocks)]) + "\n"

