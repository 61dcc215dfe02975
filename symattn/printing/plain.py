"""Math as plain text: SymPy's str() as a person reads it, and captions and ticks of plots."""

from __future__ import annotations

import re

import sympy as sp
from sympy.printing.str import StrPrinter

from .canonical import OnePass
from .printer import decimal_first


class TextPrinter(StrPrinter):
    """SymPy's str() syntax as a person reads it: ln for the natural log and e for Euler's number
    (E in SymPy); the project's parser reads both back."""

    def _print_log(self, expr: sp.log) -> str:
        return f"ln({self._print(expr.args[0])})"

    def _print_Exp1(self, expr: sp.Expr) -> str:
        return "e"

    def _print_Mul(self, expr: sp.Mul) -> str:
        return decimal_first(self, expr, super()._print_Mul, "*")


class CanonicalTextPrinter(OnePass, TextPrinter):
    """The text output's syntax (e, ln) in one pass: each stage's entries as the pipeline holds
    them; one printer per document."""


GREEK = {r"\theta": "θ", r"\tau": "τ", r"\alpha": "α", r"\beta": "β", r"\gamma": "γ",
         r"\lambda": "λ", r"\mu": "μ", r"\sigma": "σ", r"\phi": "φ", r"\omega": "ω"}


def plain(latex_math: str) -> str:
    """Inline LaTeX math of a caption as text: Greek letters, no braces or commands."""
    for command, letter in GREEK.items():
        latex_math = latex_math.replace(command, letter)
    latex_math = re.sub(r"\\[a-zA-Z]+", "", latex_math)
    return latex_math.replace("{", "").replace("}", "").replace("_", "")


def tick_text(latex_free: str) -> str:
    """SymPy's str() of an exact value made readable: pi -> π, sqrt -> √."""
    return latex_free.replace("sqrt", "√").replace("pi", "π").replace("*", "·")


GREEK_NAMES = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "theta": "θ", "tau": "τ",
               "lambda": "λ", "mu": "μ", "sigma": "σ", "phi": "φ", "omega": "ω", "kappa": "κ"}


def symbol_text(name: str) -> str:
    """A symbol's name as text: a Greek letter for the Greek names (theta -> θ)."""
    return GREEK_NAMES.get(name, name)
