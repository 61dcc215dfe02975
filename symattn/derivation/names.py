"""Names for repeated subexpressions (a = 1/√2, t = e^{20√3/51}, p = e^a/(e^a + 1), q = 1 − p),
each a letter no other thing in the document uses."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm

import sympy as sp

from ..exact.shown import decimal
from ..model import Problem, ShownDecimal, Trace
from .approx import Approx
from .bias import EPSILON_LETTERS, bias_shown, small_factor, small_parts

WEIGHT_NAMES = ("p", "q", "r", "u", "w", "b", "c")
GENERATOR_LETTERS = ("t", "u", "w", "z", "g")
LOGIT_LETTERS = ("a", "b", "c")
RESERVED = frozenset({"d", "e", "h", "i", "j", "k", "n", "s", "v", "x", "y", "E", "Z"})
"""Letters the document already uses: e, indices i, j, sizes n, d, h, the scale s, the vectors
k and v, inputs x, y, exponentials E and row sums Z (the query vector is a bold q)."""
MAX_WEIGHT_NAMES = 8  # more distinct weights than this read better in full than as names
MAX_GENERATOR_POWER = 12  # a generator t = e^(g b) is named only when its powers stay small


@dataclass(frozen=True)
class Name:
    """A named subexpression: symbol = formula (when there is one, as 1 − p) = value."""

    symbol: sp.Symbol
    value: sp.Expr
    kind: str  # "logit" (a), "generator" (t), "small" (ε = e^(-10^9), mask_bias) or "weight" (p)
    formula: sp.Expr | None = None
    decimal: Approx | None = None


@dataclass(frozen=True)
class Naming:
    """The names, the replacements inside any value (a, t^k) and those of whole weights (p)."""

    names: tuple[Name, ...]
    inner: dict[sp.Expr, sp.Expr]
    whole: dict[sp.Expr, sp.Symbol]


def choose_names(trace: Trace, taken: set[str]) -> Naming:
    """Name the one irrational logit value (a), the exp generators (t) and the weights that
    repeat, with the other weights of their rows (p, q, ...). Names are added to taken."""
    taken.update(s.name for s in trace.problem.symbols)
    taken.update(RESERVED)
    taken.update(label_names(trace.problem.row_labels + trace.problem.column_labels))
    names: list[Name] = []
    inner: dict[sp.Expr, sp.Expr] = {}
    logits = {x for x in trace.L if not x.is_Atom and not x.is_Rational  # -∞ is an atom
              and not x.free_symbols}
    if len(logits) == 1 and sp.exp(value := logits.pop()).has(sp.exp):  # e^{ln 2} = 2 is shown
        symbol = sp.Symbol(fresh(LOGIT_LETTERS, taken), real=True)
        names.append(Name(symbol, value, "logit"))
        inner[value] = symbol
    excluded = set(inner) | _small(trace, taken, names, inner)
    for symbol, (value, powers) in _generators(trace, excluded, taken).items():
        inner.update({sp.exp(k * value): symbol ** k for k in powers})
        names.append(Name(symbol, sp.exp(value.xreplace(inner)), "generator"))
    whole = _weights(trace, inner, taken, names)
    return Naming(tuple(names), inner, whole)


def _small(trace: Trace, taken: set[str], names: list[Name], inner: dict[sp.Expr, sp.Expr]
           ) -> set[sp.Expr]:
    """With mask_bias: ε = e^(-10^9/τ) named and written into inner; the exp arguments it
    replaces (no generator is chosen for them)."""
    g = small_factor(trace)
    if g is None:
        return set()
    symbol = sp.Symbol(fresh(EPSILON_LETTERS, taken, commit=False), positive=True)
    parts, arguments = small_parts(trace, symbol, g)
    if not parts:
        return set()
    taken.add(symbol.name)
    names.append(Name(symbol, sp.exp(bias_shown(g), evaluate=False), "small"))
    inner.update(parts)
    return arguments


def _weights(trace: Trace, inner: dict[sp.Expr, sp.Expr], taken: set[str], names: list[Name]
             ) -> dict[sp.Expr, sp.Symbol]:
    """p, q, ... for weights that repeat, and for the other irrational weights of their rows;
    the second of a row of two is written 1 − p."""
    A = trace.A.tolist()
    counts = Counter(x for row in A for x in row if not x.is_Rational)
    rows = [[x for x, ok in zip(row, trace.readable[i]) if ok and not x.is_Rational]
            for i, row in enumerate(A)]
    chosen = list(dict.fromkeys(x for row in rows if any(counts[y] > 1 for y in row) for x in row))
    if not chosen or len(chosen) > MAX_WEIGHT_NAMES:
        return {}
    whole: dict[sp.Expr, sp.Symbol] = {}
    pairs = {i: row for i, row in enumerate(rows) if len(row) == 2 and sum(trace.readable[i]) == 2}
    for value in chosen:
        symbol = whole[value] = sp.Symbol(fresh(WEIGHT_NAMES, taken), positive=True)
        partner = next((row[0] for row in pairs.values() if row[1] == value and row[0] in whole
                        and row[0] != value), None)
        formula = 1 - whole[partner] if partner is not None else None
        names.append(Name(symbol, value.xreplace(inner), "weight", formula))
    return whole


def _exp_arguments(values: list[sp.Expr]) -> dict[sp.Expr, None]:
    """The argument of every exp in the values (what atoms(exp) finds), in the order a reader
    meets them (the values in order, each walked depth first), each shared subexpression (a
    row's sum) walked once."""
    seen: set[sp.Basic] = set()
    found: dict[sp.Expr, None] = {}
    stack = list(reversed(values))
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        if isinstance(x, sp.exp):
            found.setdefault(x.args[0])
        stack.extend(reversed(x.args))
    return found


def _generators(trace: Trace, named: set[sp.Expr], taken: set[str]
                ) -> dict[sp.Symbol, tuple[sp.Expr, list[int]]]:
    """One generator t = exp(g·b) per basis b when every exp argument is a rational multiple;
    none for a basis with a logarithm (e^{ln 2/t} is written 2^{1/t})."""
    met = _exp_arguments([x for m in (trace.E, trace.A, trace.O) for row in m.tolist()
                          for x in row])
    arguments = [argument for argument in met if argument not in named]  # in reading order
    split = {argument: argument.as_coeff_Mul() for argument in arguments}
    if any(not c.is_Rational or basis.is_Add for c, basis in split.values()):
        return {}  # a sum (e^{1 + a}) or a float coefficient: no one basis to name
    groups: dict[sp.Expr, list[Fraction]] = {}
    for argument in arguments:  # t_1 is the generator a reader meets first (in E, row by row)
        c, basis = split[argument]
        groups.setdefault(basis, []).append(Fraction(int(c.p), int(c.q)))
    groups = {b: c for b, c in groups.items() if not b.has(sp.log)}
    if len(groups) == 1:
        symbols = [fresh(GENERATOR_LETTERS, taken, commit=False)]
    else:
        letter = next((c for c in GENERATOR_LETTERS if c not in taken and not any(
            f"{c}_{k}" in taken for k in range(1, len(groups) + 1))), None)
        symbols = [f"{letter}_{k}" if letter else fresh(GENERATOR_LETTERS, taken, commit=False)
                   for k in range(1, len(groups) + 1)]
    out = {}
    for symbol, (basis, coefficients) in zip(symbols, groups.items()):
        step = Fraction(gcd(*(f.numerator for f in coefficients)),
                        lcm(*(f.denominator for f in coefficients)))
        value = sp.Rational(step.numerator, step.denominator) * basis
        powers = [int(f / step) for f in coefficients]
        if value.is_Integer and set(powers) == {1}:
            continue  # e^10 reads better than a name for it
        if max(map(abs, powers)) > MAX_GENERATOR_POWER or trace.problem.decimals and \
                decimal(sp.Rational(step.numerator, step.denominator)).has(ShownDecimal):
            continue  # t = e^(1/10000) with t^9995, or t = e^0.9995, reads worse than e^0.9995
        out[sp.Symbol(symbol, positive=True)] = (value, powers)
        taken.add(symbol)
    return out


def label_names(labels: tuple[str, ...]) -> set[str]:
    """The names a token label reads as: "u" as u, "t2" or "t_2" as t_2, "ε" as epsilon, "Δ"
    as Delta (a name the document introduces never equals a token's label, so no reader takes
    u for the token "u")."""
    found = set(labels)
    for label in labels:
        if len(label) == 1 and (greek := unicodedata.name(label, "")).startswith("GREEK "):
            letter = greek.split()[-1]  # GREEK SMALL LETTER EPSILON: SymPy's epsilon
            found.add(letter.lower() if "SMALL" in greek else letter.capitalize())
        if match := re.fullmatch(r"([A-Za-z])_?\{?(\d+)\}?", label):
            found.add(f"{match.group(1)}_{int(match.group(2))}")
    return found


def free_letter(letters: tuple[str, ...], problem: Problem) -> str:
    """The first of the letters that is no token's label, symbol or reserved letter: the letter
    an analysis writes for its own quantity (limits' difference c, nonunique's step t)."""
    taken = label_names(problem.row_labels + problem.column_labels) | RESERVED | {
        s.name for s in problem.symbols}
    return fresh(letters, taken, commit=False)


def fresh(letters: tuple[str, ...], taken: set[str], commit: bool = True) -> str:
    """The first letter not taken, else the first letter with the lowest free subscript (a_1);
    the name is added to taken (commit), so one document never gives two things one name."""
    candidates = itertools.chain(letters, (f"{c}_{k}" for k in itertools.count(1) for c in letters))
    name = next(c for c in candidates if c not in taken)
    if commit:
        taken.add(name)
    return name
