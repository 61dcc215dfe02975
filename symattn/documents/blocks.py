"""The pieces every document is made of (headings, paragraphs, displays, lists, a heatmap) and
phrases split into text, user labels and inline math; LaTeX and Markdown set them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from string import Formatter

from ..words import PHRASES


class Label(str):
    """User text inside a phrase: each target escapes it."""


Segment = tuple[str, str]  # ("text" | "label" | "math", content)


@dataclass(frozen=True)
class Heading:
    level: int  # 1: the document's title, 2: its parts, ...
    segments: tuple[Segment, ...]
    key: str | None = None  # the \label suffix, when the document has a label prefix
    short: tuple[Segment, ...] = ()  # for the table of contents and page heads: no user label


@dataclass(frozen=True)
class Paragraph:
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Display:
    lines: tuple[str, ...]  # one line: an equation; several: aligned at '&' (or centred)
    kept: bool = False  # its lines are one entry, never split between pages (a sweep's point)


@dataclass(frozen=True)
class Step:
    """One paragraph of sentences and the displays inside it (a lead-in and its equation are
    never split): text parts are segment tuples, the others Displays."""

    parts: tuple[tuple[Segment, ...] | Display, ...]


def step(*parts: tuple[Segment, ...] | Display | tuple[Display, ...]) -> Step:
    """A Step from its parts in reading order; empty text and tuples of displays flattened."""
    out: list[tuple[Segment, ...] | Display] = []
    for part in parts:
        if isinstance(part, tuple) and part and isinstance(part[0], Display):
            out += part
        elif part:
            out.append(part)
    return Step(tuple(out))


@dataclass(frozen=True)
class Items:
    items: tuple[tuple[Segment, ...], ...]


@dataclass(frozen=True)
class Heatmap:
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    percent: tuple[tuple[int, ...], ...]
    cells: tuple[tuple[str, ...], ...]  # LaTeX math, the decimals as the text writes them
    caption: tuple[Segment, ...]
    cell_cm: float = 1.3  # wide enough for the widest label (3.7 × 10^{-434294482})
    stacked: bool = False  # labels a × 10^{b} set on two lines, so that the grid fits the page
    font: str = "footnotesize"  # the labels' size (scriptsize when the grid needs it)
    scale: float = 1.0  # below 1: the whole grid scaled to fit the line


COLORS = ("blue", "red", "green!50!black", "orange", "violet", "brown", "teal", "gray")
DASHES = ("solid", "dashed", "dotted", "dashdotted", "densely dashed", "loosely dotted")
PGFPLOTS = (r"\usepackage{pgfplots}", r"\pgfplotsset{compat=1.17}")
"""A curve's colour and dash are indices into COLORS and DASHES; a plot's LaTeX needs PGFPLOTS."""


@dataclass(frozen=True)
class Curve:
    """One line: its colour and dash pattern (indices), legend, and (x, y) as decimal strings."""

    color: int
    dash: int
    legend: str  # LaTeX math, without dollars
    legend_text: str  # the same in plain Unicode text (SVG)
    points: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Plot:
    """Curves over one x axis, y from 0 to 1 (weights); ticks at exact values of x."""

    caption: tuple[Segment, ...]
    xlabel: str  # LaTeX math
    xlabel_text: str
    ylabel: tuple[Segment, ...]
    xticks: tuple[tuple[str, str, str], ...]  # (decimal position, LaTeX label, text label)
    curves: tuple[Curve, ...]
    image: str | None = None  # Markdown: the SVG file to show (written separately)
    preamble: tuple[str, ...] = PGFPLOTS


Block = Heading | Paragraph | Display | Step | Items | Heatmap | Plot
"""The closed union: every document is a list of these, and every target sets each of them."""


def segments(key: str, lang: str, **values: object) -> tuple[Segment, ...]:
    """A phrase split into text, label and inline-math segments ($...$ in the phrase)."""
    out: list[Segment] = []
    in_math = False
    buffer = ""
    for literal, field, _, _ in Formatter().parse(PHRASES[key][lang]):
        for k, piece in enumerate(literal.split("$")):
            if k:
                out.append(("math" if in_math else "text", buffer))
                buffer, in_math = "", not in_math
            buffer += piece
        if field is not None:
            value = values[field]
            if isinstance(value, Label) and not in_math:
                out.append(("text", buffer))
                out.append(("label", str(value)))
                buffer = ""
            else:
                buffer += str(value)
    out.append(("math" if in_math else "text", buffer))
    return tuple(s for s in out if s[1])


def joined(*parts: tuple[Segment, ...], separator: str = " ") -> tuple[Segment, ...]:
    """Several phrases' segments one after another, with a space (or separator) between."""
    out: list[Segment] = []
    for part in parts:
        if not part:
            continue
        if out and separator:
            out.append(("text", separator))
        out += part
    return tuple(out)


def fill(words: tuple[Segment, ...], inserted: tuple[Segment, ...]) -> tuple[Segment, ...]:
    """A phrase's segments with the placeholder \\x00 (given as a value) replaced by segments:
    inline math or labels inside a sentence of the phrase table."""
    out: list[Segment] = []
    for kind, text in words:
        head, found, tail = text.partition("\x00")
        out += [(kind, head)] if head else []
        if found:
            out += inserted
            out += [(kind, tail)] if tail else []
    return tuple(out)


def unaligned(line: str) -> str:
    """A display line without its alignment point (the first '&' outside braces and arrays)."""
    depth = 0
    for k, char in enumerate(line):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "&" and depth == 0 and line[k - 1:k] != "\\":
            if line[:k].count(r"\begin") == line[:k].count(r"\end"):
                return line[:k] + line[k + 1:]
    return line


def title_segments(title: str | None, title_zh: str | None, lang: str, fallback: str
                   ) -> tuple[Segment, ...]:
    """A problem's title in the language (the Chinese one when given), else a phrase."""
    text = title_zh if lang == "zh" and title_zh else title
    return titled(text) if text else segments(fallback, lang)


_SUBSCRIPTED = re.compile(r"(?<![A-Za-z0-9\\])([A-Za-z])_([A-Za-z0-9]{1,3})(?![A-Za-z0-9])"
                          r"( ?= ?-?[0-9]+(?:\.[0-9]+)?(?![A-Za-z0-9.]))?")


def titled(text: str) -> tuple[Segment, ...]:
    """A title the user wrote, as text, a name with an underscore (d_k, W_O) set as math with
    its subscript, d_{k}, and the number it is said to equal (d_k = 64): nothing but letters,
    digits, a point and a minus reach the math."""
    out: list[Segment] = []
    last = 0
    for found in _SUBSCRIPTED.finditer(text):
        if found.start() > last:
            out.append(("label", text[last:found.start()]))
        value = found.group(3) and " = " + found.group(3).replace("=", "").strip()  # d_k = 64
        out.append(("math", f"{found.group(1)}_{{{found.group(2)}}}{value or ''}"))
        last = found.end()
    if last < len(text) or not out:
        out.append(("label", text[last:]))
    return tuple(out)
