"""LaTeX for exact values (SymPy's LatexPrinter with house settings) and for user text."""

from __future__ import annotations

import re
from functools import lru_cache

import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE

from ..model import ShownDecimal
from ..parse.labels import check_characters
from .term_order import ordered_terms, remembered

_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\textdollar{}", "&": r"\&",
    "#": r"\#", "%": r"\%", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", "[": "{[}", "]": "{]}",
}
_LIGATURES = frozenset({"--", ",,", "``", "''", "!`", "?`"})
"""Pairs TeX (and KaTeX) would print as one glyph (-- as an en dash): kept apart by {}."""


def label_text(label: str) -> str:
    """A token label for LaTeX text mode: \\(k_{1}\\) for k1, else the escaped text."""
    indexed = indexed_label(label)
    return rf"\({indexed}\)" if indexed else escape_text(label)


def escape_text(text: str) -> str:
    """User text for LaTeX text mode (also inside \\text{}): one pass over the characters.

    TeX specials become commands that print them, so `\\input{x}`, `^^5c` or `$$` appear
    literally, and ligatures are broken (`--` stays two hyphens); control and bidi characters
    are refused; CJK passes through intact. A single ' or ` still prints as a typographic
    quote (’ ‘), as no form of a straight quote works in TeX and KaTeX alike.
    """
    text = check_characters(text)
    return "".join(_TEXT_ESCAPES.get(char, char) + ("{}" if char + following in _LIGATURES else "")
                   for char, following in zip(text, text[1:] + " "))


_INDEXED = re.compile(r"([A-Za-z])([0-9]{1,3})")


def indexed_label(label: str) -> str | None:
    """A token label that is a letter and its number (k1, q12) as math with the number as a
    subscript, k_{1}, as a book writes k₁; None for any other label (模型, the, x1y)."""
    found = _INDEXED.fullmatch(label)
    return f"{found.group(1)}_{{{found.group(2)}}}" if found else None


class MathPrinter(LatexPrinter):
    """Exact values as the course writes them: ln 3, e^{a}, fractions, -∞."""

    _default_settings = {**LatexPrinter._default_settings, "ln_notation": True,
                         "mat_str": "array", "mat_delim": "[", "slash": False,
                         "inline": False}

    def _print_Rational(self, expr: sp.Rational) -> str:
        if (self._settings["slash"] or self._settings["inline"]) and expr.q != 1:
            return f"{'-' if expr.p < 0 else ''}{abs(expr.p)}/{expr.q}"
        return super()._print_Rational(expr)

    def _print_Pow(self, expr: sp.Pow, *args) -> str:
        if self._negative_power(expr) and not args:
            return f"{self._print(expr.base)}^{{{self._print(expr.exp)}}}"  # t^{-5}
        if self._settings["inline"] and expr.exp.is_Rational and expr.exp.is_negative and \
                expr.base.is_commutative and not args:
            return self._quotient(expr)  # 1/\sqrt{2}, 1/(e^{a} + 1): SymPy writes \frac{1}{…}
        if expr.exp.is_Integer or expr.exp.is_Rational and expr.exp.q == 2:
            return super()._print_Pow(expr, *args)
        base = self.parenthesize(expr.base, PRECEDENCE["Pow"], strict=True)
        return f"{base}^{{{self._exponent(expr.exp)}}}"

    def _print_ExpBase(self, expr: sp.Expr, exp: str | None = None) -> str:
        text = f"e^{{{self._exponent(expr.args[0])}}}"
        return rf"\left({text}\right)^{{{exp}}}" if exp else text

    def _exponent(self, x: sp.Expr) -> str:
        r"""An exponent as a textbook writes it: 20\sqrt{3}/51, (\ln 2)/t, not a stacked fraction
        (remembered per printer: the same exponents recur in every row)."""
        return remembered(self.__dict__.setdefault("_exponent_memo", {}), x,
                          lambda: self._written_exponent(x))

    def _written_exponent(self, x: sp.Expr) -> str:
        if x.is_Add and not has_denominator(x):
            return self._print(x)  # together() would find no denominator either
        numerator, denominator = sp.fraction(sp.together(x) if x.is_Add else x)
        if denominator == 1:
            return self._print(x)
        sign = "-" if numerator.could_extract_minus_sign() else ""
        numerator = -numerator if sign else numerator
        top = self._print(numerator)
        bottom = self._print(denominator)
        top = f"({top})" if grouped(numerator) else top  # e^{(2 ln 3)/t}
        bottom = f"({bottom})" if denominator.is_Add or denominator.is_Mul else bottom
        return f"{sign}{top}/{bottom}"

    def _print_log(self, expr: sp.log, exp: str | None = None) -> str:
        argument = expr.args[0]
        inner = self._print(argument)
        text = rf"\ln {inner}" if argument.is_Atom and not argument.is_Rational or \
            argument.is_Integer else rf"\ln\left({inner}\right)"
        return rf"\left({text}\right)^{{{exp}}}" if exp else text

    def _print_Add(self, expr: sp.Add, order: str | None = None) -> str:
        # A row's shared denominator is printed once per entry: remember it.
        return remembered(self.__dict__.setdefault("_add_memo", {}), (expr, order),
                          lambda: super(MathPrinter, self)._print_Add(expr, order))

    def _as_ordered_terms(self, expr: sp.Expr, order: str | None = None) -> list[sp.Expr]:
        """The terms in SymPy's order (Expr.as_ordered_terms), each factor's facts found once:
        a row's sum of exponentials is printed in every entry of the row."""
        if (order or self.order) is not None or not expr.is_Add or not expr.is_commutative or \
                any(t.is_Order for t in expr.args):
            return super()._as_ordered_terms(expr, order)
        return ordered_terms(expr)

    def _negative_power(self, x: sp.Expr) -> bool:
        """t^{-5}, a generator's negative power, in a matrix or a sentence: \\frac{1}{t^{5}}
        there puts a stacked fraction before the /Z_1 the row is written over (1/τ stays)."""
        return (self._settings["slash"] or self._settings["inline"]) and isinstance(x, sp.Pow) \
            and x.base.is_Symbol and x.exp.is_Integer and x.exp < -1

    def _powers(self, expr: sp.Mul) -> str | None:
        """2 t^{-6}, - t^{-4}: a number times powers of symbols, one of them negative (slash and
        inline modes); None otherwise."""
        c, rest = expr.as_coeff_Mul()
        factors = sp.Mul.make_args(rest)
        if not c.is_Integer or not any(self._negative_power(f) for f in factors) or not all(
                f.is_Symbol or isinstance(f, sp.Pow) and f.base.is_Symbol and f.exp.is_Integer
                for f in factors):
            return None
        body = " ".join(self._print(f) for f in factors)
        sign, size = ("- " if c < 0 else ""), abs(int(c))
        return f"{sign}{'' if size == 1 else f'{size} '}{body}"

    def _print_Mul(self, expr: sp.Mul) -> str:
        fast = self._exponentials(expr) or self._powers(expr)
        default = self._quotient if self._settings["inline"] else super()._print_Mul
        return fast if fast is not None else decimal_first(self, expr, default, " ")

    def _quotient(self, expr: sp.Expr) -> str:
        """A quotient as running text writes it: e^{a}/(e^{a} + 1), (14 + 100 e^{10})/(6 + e^{10}),
        1/(2 \\sqrt{3}): a compound numerator or denominator in parentheses (inline mode)."""
        sign = ""
        if expr.could_extract_minus_sign():
            sign, expr = "- ", -expr
            if expr.is_Add:
                return rf"{sign}\left({self._print(expr)}\right)"
        numerator, denominator = sp.fraction(expr, exact=True)
        if denominator == 1:
            return sign + super()._print_Mul(expr)
        top, bottom = self._print(numerator), self._print(denominator)
        top = f"({top})" if grouped(numerator) else top
        bottom = f"({bottom})" if denominator.is_Add or denominator.is_Mul else bottom
        return f"{sign}{top}/{bottom}"

    def _exponentials(self, expr: sp.Mul) -> str | None:
        """c e^{x} e^{y} (or c e e^{y}), a term of a row sum, every exponent in the numerator as a
        book writes it (2 e^{-4\\sqrt{3}/17}, not SymPy's \\frac{2}{e^{4\\sqrt{3}/17}}) and e^{-1}
        under it (\\frac{e^{x}}{e}), without SymPy's fraction(), which simplifies a symbolic
        exponent to ask whether it is constant; None otherwise."""
        args = expr.args
        powers = args[1:] if args[0].is_Integer else args
        over_e = [f for f in powers if isinstance(f, sp.exp) and f.exp is sp.S.NegativeOne]
        kept = [f for f in powers if f not in over_e]
        if not kept or not all(f is sp.E or isinstance(f, sp.exp) and (
                f.exp.is_positive or f.exp.is_negative) for f in kept):
            return None
        sign = "- " if args[0].is_Integer and args[0] < 0 else ""
        factors = (-expr if sign else expr).as_ordered_factors()
        numerator = " ".join(self._print(f) for f in factors if f not in over_e)
        return sign + (rf"\frac{{{numerator}}}{{e}}" if over_e else numerator)

    def _print_NegativeInfinity(self, expr: sp.Expr) -> str:
        return r"-\infty"

    def _deal_with_super_sub(self, string: str, style: str = "plain") -> str:
        # SymPy writes a symbol named xscr as \mathscr{x}, which needs a package (mathrsfs)
        # that a fragment does not load; \mathcal is in every LaTeX and in KaTeX.
        return super()._deal_with_super_sub(string, style).replace(r"\mathscr{", r"\mathcal{")


_PRINTER = MathPrinter()
_SLASH = MathPrinter({"slash": True})
_INLINE = MathPrinter({"inline": True})
EXPONENT_DIGITS = 12  # a power of ten with a longer exponent shows the exponent's magnitude
ROW_GAP = r"\\[1ex]"  # between the rows of a matrix holding a stacked fraction


def grouped(numerator: sp.Expr) -> bool:
    """Whether a numerator set before a slash needs parentheses: a sum, or a log, (ln 5)/√2 and
    e^{(2 ln 3)/t}, which would read as ln(5/√2)."""
    return numerator.is_Add or numerator.has(sp.log)


def power_of_e(exponent: sp.Expr) -> str:
    """e^{…} with its exponent as the printer writes exponents (20\\sqrt{3}/51), unevaluated."""
    return f"e^{{{_SLASH._exponent(exponent)}}}"


_PRINTED: dict[tuple[str, sp.Basic], str] = {}


def math(expr: sp.Expr, slash: bool = False, inline: bool = False) -> str:
    """LaTeX of one exact value; slash: rational numbers as 1/10 (matrices); inline: every
    quotient as num/den, e^{a}/(e^{a} + 1), for a value set in a sentence (displays keep
    \\frac). Remembered: a summary prints each distinct entry about twenty times (every stage's
    cells, each row's sum in its weights and outputs)."""
    mode, printer = ("inline", _INLINE) if inline else ("slash", _SLASH) if slash else \
        ("frac", _PRINTER)
    try:
        return remembered(_PRINTED, (mode, expr), lambda: printer.doprint(expr))
    except TypeError:  # unhashable (a mutable matrix)
        return printer.doprint(expr)


def over_integer(expr: sp.Expr) -> str | None:
    """A rational times one root or symbol as the exponents write it, 20 \\sqrt{3}/51 (a
    matrix all of whose fractions are such, where stacked ones double each row's height);
    None for any other value."""
    c, rest = expr.as_coeff_Mul()
    if not c.is_Rational or c.q == 1 or rest.is_Mul or not (
            rest.is_Symbol or rest.is_Pow and rest.exp == sp.S.Half and rest.base.is_Integer):
        return None
    sign, top = ("- " if c < 0 else ""), abs(c.p)
    return f"{sign}{'' if top == 1 else f'{top} '}{math(rest)}/{c.q}"


def matrix(cells: list[list[str]]) -> str:
    """A bracketed array of LaTeX cells (no column limit, KaTeX-safe); rows holding a stacked
    fraction get more space so that fractions of neighbouring rows never touch."""
    columns = "c" * (len(cells[0]) if cells else 1)
    gap = ROW_GAP if any(r"\frac" in cell for row in cells for cell in row) else r"\\"
    body = f" {gap} ".join(" & ".join(row) for row in cells)
    return rf"\left[\begin{{array}}{{{columns}}} {body} \end{{array}}\right]"


def decimal_math(decimal: str) -> str:
    """A decided decimal in LaTeX: 0.6698 as it is, 8.1000e+199 as 8.1000 \\times 10^{199}."""
    mantissa, scientific, exponent = decimal.partition("e")
    if not scientific:
        return decimal
    power = int(exponent)
    if abs(power) >= 10 ** EXPONENT_DIGITS:  # e^{-10^100}: the exponent itself in short form
        digits = str(abs(power))
        short = f"{'-' if power < 0 else ''}{digits[0]}.{digits[1]} \\times 10^{{{len(digits) - 1}}}"
        return rf"{mantissa} \times 10^{{{short}}}"
    return rf"{mantissa} \times 10^{{{power}}}"


def decimal_matrix(cells: list[list[str]]) -> str:
    """A bracketed array of decided decimals."""
    return matrix([[decimal_math(x) for x in row] for row in cells])


def matrix_of(values: sp.MatrixBase) -> str:
    """A bracketed array of a matrix's exact entries, rational ones as slash fractions."""
    return matrix([[math(x, slash=True) for x in row] for row in values.tolist()])


def approx(a) -> str:
    """An Approx (symattn.derivation) as LaTeX: 0.1667, 4.5 \\times 10^{-5}."""
    return decimal_math(a.text)


def needs_cjk(text: str) -> bool:
    """Whether user text needs CJK support in an English (pdfLaTeX) document."""
    return any(ord(c) > 0xFF for c in text)


def labelled(cells: list[list[str]], rows: tuple[str, ...], columns: tuple[str, ...]) -> str:
    """An array with user labels above the columns and before the rows."""
    def shown(label: str) -> str:  # k_{1} for k1, else the label as text
        return indexed_label(label) or rf"\text{{{escape_text(label)}}}"
    head = " & ".join(shown(c) for c in columns)
    body = r" \\ ".join(f"{shown(r)} & " + " & ".join(row) for r, row in zip(rows, cells))
    spec = "r|" + "c" * len(columns)
    return rf"\begin{{array}}{{{spec}}} & {head} \\ \hline {body} \end{{array}}"


def has_denominator(x: sp.Expr) -> bool:
    """Whether a term of the sum (or the product) x has a denominator (SymPy's fraction() of it,
    read from its factors': a rational's q, a negative power)."""
    return any(_denominator(f) != 1 for t in sp.Add.make_args(x) for f in sp.Mul.make_args(t))


@lru_cache(maxsize=1 << 14)
def _denominator(factor: sp.Expr) -> sp.Expr:
    """SymPy's fraction(factor)[1]: fraction() classifies a product's factors one by one, so a
    product's denominator is the product of its factors' (each asked once: the exponentials
    recur in every row, and fraction() may simplify an exponent to ask its sign)."""
    return sp.fraction(factor)[1]


def decimal_first(printer, expr: sp.Mul, default, joint: str) -> str:
    """A product of a shown decimal with other factors, the decimal first (0.68 √2, not √2 · 0.68);
    any other product as the printer writes it."""
    decimals = [f for f in expr.args if isinstance(f, ShownDecimal)]
    rest = [f for f in expr.args if not isinstance(f, ShownDecimal)]
    if not decimals or not rest or has_denominator(expr):
        return default(expr)
    sign = ""
    if rest[0].is_Number and rest[0].is_negative:
        sign, rest = "-", ([-rest[0]] if rest[0] != -1 else []) + rest[1:]
    others = printer._print(sp.Mul(*rest)) if rest else ""
    head = joint.join(printer._print(d) for d in decimals)
    return sign + head + (joint + others if others else "")


def tau_equation(tau: sp.Expr) -> str:
    """\\tau = 17/20, or \\tau alone when the temperature is the symbol τ itself (never τ = τ)."""
    shown = math(tau, slash=True)
    return r"\tau" if shown == r"\tau" else rf"\tau = {shown}"
