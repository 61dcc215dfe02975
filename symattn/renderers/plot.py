"""A line plot block: pgfplots in LaTeX, an image link in Markdown, SVG through svg_plot."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from .blocks import Segment
from .printer import escape_text

COLORS = ("blue", "red", "green!50!black", "orange", "violet", "brown", "teal", "gray")
DASHES = ("solid", "dashed", "dotted", "dashdotted", "densely dashed", "loosely dotted")
PGFPLOTS = (r"\usepackage{pgfplots}", r"\pgfplotsset{compat=1.17}")


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

    def latex(self, inline) -> str:
        """A pgfplots axis in a center environment, the caption below it."""
        ticks = ",".join(x for x, _, _ in self.xticks)
        labels = ",".join("{$" + label + "$}" for _, label, _ in self.xticks)
        lines = [r"\begin{center}", r"\begin{tikzpicture}",
                 r"\begin{axis}[width=0.8\textwidth, height=0.45\textwidth, ymin=0, ymax=1, "
                 rf"xlabel={{${self.xlabel}$}}, ylabel={{{inline(self.ylabel)}}}, "
                 rf"xtick={{{ticks}}}, xticklabels={{{labels}}}, "
                 r"legend pos=outer north east, legend cell align=left, "
                 r"tick label style={font=\footnotesize}]"]
        for curve in self.curves:
            style = f"{COLORS[curve.color % len(COLORS)]}, {DASHES[curve.dash % len(DASHES)]}, " \
                    "thick, mark=*, mark size=1pt"
            coordinates = " ".join(f"({x},{y})" for x, y in curve.points)
            lines.append(rf"\addplot[{style}] coordinates {{{coordinates}}};")
            lines.append(rf"\addlegendentry{{${curve.legend}$}}")
        lines += [r"\end{axis}", r"\end{tikzpicture}", "", inline(self.caption), r"\end{center}"]
        return "\n".join(lines)

    def markdown(self, inline) -> str:
        """An image link to the SVG when one is named, else the caption only (data in tables)."""
        caption = inline(self.caption)
        if self.image is None:
            return f"*{caption}*"
        return f"![{_alt(self)}]({_url(self.image)})\n\n*{caption}*"


def _alt(plot: Plot) -> str:
    text = "".join(plain(c) if kind == "math" else c for kind, c in plot.caption)
    return "".join(ch for ch in text if ch not in "[]\\*_`<>$")


GREEK = {r"\theta": "θ", r"\tau": "τ", r"\alpha": "α", r"\beta": "β", r"\gamma": "γ",
         r"\lambda": "λ", r"\mu": "μ", r"\sigma": "σ", r"\phi": "φ", r"\omega": "ω"}


def plain(latex_math: str) -> str:
    """Inline LaTeX math of a caption as text: Greek letters, no braces or commands."""
    for command, letter in GREEK.items():
        latex_math = latex_math.replace(command, letter)
    latex_math = re.sub(r"\\[a-zA-Z]+", "", latex_math)
    return latex_math.replace("{", "").replace("}", "").replace("_", "")


def _url(path: str) -> str:
    escape_text(path)  # refuses control and bidi characters
    return quote(path, safe="/._-")


def tick_text(latex_free: str) -> str:
    """SymPy's str() of an exact value made readable: pi -> π, sqrt -> √."""
    return latex_free.replace("sqrt", "√").replace("pi", "π").replace("*", "·")


GREEK_NAMES = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "theta": "θ", "tau": "τ",
               "lambda": "λ", "mu": "μ", "sigma": "σ", "phi": "φ", "omega": "ω", "kappa": "κ"}


def symbol_text(name: str) -> str:
    """A symbol's name as text: a Greek letter for the Greek names (theta -> θ)."""
    return GREEK_NAMES.get(name, name)
