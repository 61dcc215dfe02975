"""Trace + Report -> Derivation: every value a written derivation shows, decided before rendering.

Renderers only lay out what is here: the names given to repeated subexpressions (a = 1/√2,
t = e^a, p = t/(t + 1)), the display form of each stage, decimals, and the rows written out.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from math import gcd, lcm

import mpmath
import sympy as sp

from .exact.shown import Form, decimal, shown_form
from .model import STAGES, MultiHeadTrace, ShownDecimal, Trace
from .numeric import decimal_grid, decimal_of, decimal_string, recompute
from .reports import HeadsReport, Report

DETAILS = ("summary", "standard", "full")
WEIGHT_NAMES = ("p", "q", "r", "u", "v", "w")
SHOWN_DECIMALS = ("A", "O")
GENERATOR_LETTERS = ("t", "u", "w", "z", "g")
LOGIT_LETTERS = ("a", "b", "c", "d")
PROJECTED = ("X", "Y", "W_Q", "W_K", "W_V")
NAMED = ("S", "L", "E", "O")  # the stages shown with named subexpressions (a, t, ...)
MAX_GENERATOR_POWER = 12  # a generator t = e^(g b) is named only when its powers stay small


@dataclass(frozen=True)
class Options:
    """How much to write and how: detail, the row written out, decimal places, a heatmap."""

    lang: str = "en"
    detail: str = "standard"
    row: int | None = None  # 1-based; None = the last row
    places: int = 4
    figure: bool = False


@dataclass(frozen=True)
class Name:
    """A named subexpression: symbol = value (≈ decimal)."""

    symbol: sp.Symbol
    value: sp.Expr
    decimal: str | None


@dataclass(frozen=True)
class RowSteps:
    """One query row written out: dot products, logits, exponentials, weights, outputs."""

    row: int  # 0-based
    dots: tuple[tuple[tuple[sp.Expr, sp.Expr], ...], ...]  # per key: (q_ik, k_jk) pairs
    readable: tuple[int, ...]
    total: sp.Expr | None  # the sum of the readable exponentials (names substituted)
    outputs: tuple[str | None, ...]  # decimals of O_i


@dataclass(frozen=True)
class Derivation:
    """Everything a derivation shows; the renderer adds words and layout only."""

    trace: Trace
    report: Report
    options: Options
    names: tuple[Name, ...]
    display: dict[str, sp.ImmutableMatrix]  # every stage (W: A without weight names), the
    # projections' inputs (X, Y, W_Q, W_K, W_V) as shown: names substituted, decimals shown
    decimals: dict[str, list[list[str]]]  # stage -> decimal strings (exact stages only)
    rows: tuple[RowSteps, ...]
    heat: tuple[tuple[int, ...], ...] | None  # weight percentages for the heatmap
    difference: str  # the cross-check's largest difference, formatted
    scalars: dict[str, sp.Expr]  # tau, s and 1/tau as shown


def derive(trace: Trace, report: Report, options: Options = Options()) -> Derivation:
    """Decide names, display forms, decimals and the rows to write out."""
    if options.detail not in DETAILS:
        raise ValueError(f"detail must be one of {', '.join(DETAILS)}")
    trace = trace.complete()  # every stage a renderer shows is built here, not while it renders
    exact = not trace.problem.symbols
    numeric = recompute(trace.problem, options.places + 20) if exact else None
    names, inner, weights = choose_names(trace, options.places if exact else None)
    form = shown_form(trace.problem)
    display = {name: form(trace.stage(name).xreplace(inner) if name in NAMED else trace.stage(name))
               for name in STAGES}
    display["A"] = trace.A.applyfunc(lambda x: weights.get(x, form(x.xreplace(inner))))
    display["W"] = form(trace.A.xreplace(inner))  # weights with a and t but without p, q, ...
    display["E"] = form(trace.E.xreplace(inner))
    projections = trace.problem.projections
    if projections is not None:
        display.update({name: form(getattr(projections, name)) for name in PROJECTED
                        if getattr(projections, name) is not None})
    decimals = {name: _decimals(trace.stage(name), numeric[name], options.places)
                for name in SHOWN_DECIMALS} if numeric else {}
    p = trace.problem
    return Derivation(
        trace=trace, report=report, options=options,
        names=tuple(replace(n, value=form(n.value)) for n in names), display=display,
        decimals=decimals,
        rows=tuple(row_steps(trace, i, decimals, inner, form) for i in _rows(trace, options)),
        heat=_heat(numeric["A"]) if options.figure and numeric else None,
        difference=mpmath.nstr(report.max_difference or 0, 2),
        scalars={"tau": form(p.temperature),
                 "s": p.scale_factor if p.scale is None else form(p.scale_factor),  # 1/√d_k
                 "inverse_temperature": form(1 / p.temperature)},
    )


def _rows(trace: Trace, options: Options) -> list[int]:
    if options.detail == "summary":
        return []
    if options.detail == "full":
        return list(range(trace.problem.n_q))
    row = trace.problem.n_q if options.row is None else options.row
    if not 1 <= row <= trace.problem.n_q:
        raise ValueError(f"row must be from 1 to {trace.problem.n_q}")
    return [row - 1]


def _decimals(matrix: sp.ImmutableMatrix, values, places: int) -> list[list[str]]:
    """Rationals rounded exactly; others from the 20-guard-digit numeric recomputation."""
    out = []
    for i in range(matrix.rows):
        out.append([decimal_string(matrix[i, j], places) if matrix[i, j].is_Rational
                    else decimal_of(values[i][j], places) for j in range(matrix.cols)])
    return out


def _heat(weights) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(round(float(w) * 100)) for w in row) for row in weights)


def choose_names(trace: Trace, places: int | None) -> tuple[tuple[Name, ...], dict, dict]:
    """Names: the one irrational logit value (a), exp generators (t), repeated weights (p, q, ...).

    Returns the names, the replacements inside any value (a, t) and those of whole weights (p, q).
    """
    names: list[Name] = []
    replace: dict[sp.Expr, sp.Expr] = {}
    taken = {s.name for s in trace.problem.symbols}  # never reuse a declared symbol's name

    def add(symbol: sp.Symbol, value: sp.Expr) -> None:
        names.append(Name(symbol, value.xreplace(replace),
                          decimal_string(value, places) if places is not None else None))
        replace[value] = symbol

    logits = {x for x in trace.L if x.is_finite and not x.is_Rational and not x.is_Atom
              and not x.free_symbols}
    if len(logits) == 1:
        add(sp.Symbol(fresh(LOGIT_LETTERS, taken)), logits.pop())
    for symbol, (value, power) in _generators(trace, set(replace), taken).items():
        replace.update({sp.exp(k * value): symbol ** k for k in power})
        names.append(Name(symbol, sp.exp(value.xreplace(replace)),
                          decimal_string(sp.exp(value), places) if places is not None else None))
    weights = Counter(x.xreplace(replace) for x in trace.A if not x.is_Rational)
    repeated = [value for value, count in weights.most_common() if count > 1 and not value.is_Atom]
    whole: dict[sp.Expr, sp.Expr] = {}
    free = [name for name in WEIGHT_NAMES if name not in taken]
    if len(repeated) <= len(free):
        for symbol, value in zip(free, repeated):
            taken.add(symbol)
            original = next(x for x in trace.A if x.xreplace(replace) == value)
            names.append(Name(sp.Symbol(symbol), value,
                              decimal_string(original, places) if places is not None else None))
            whole[original] = sp.Symbol(symbol)
    return tuple(names), replace, whole


def _generators(trace: Trace, named: set[sp.Expr], taken: set[str]
                ) -> dict[sp.Symbol, tuple[sp.Expr, list[int]]]:
    """One generator t = exp(g·b) per basis b when every exp argument is a rational multiple."""
    values = list(trace.A) + list(trace.O) + list(trace.E)
    arguments = {atom.args[0] for x in values for atom in x.atoms(sp.exp)}
    groups: dict[sp.Expr, list[Fraction]] = {}
    for argument in sorted(arguments, key=sp.default_sort_key):
        if argument in named:
            continue
        c, basis = argument.as_coeff_Mul()
        if not c.is_Rational or basis.is_Add:
            return {}
        groups.setdefault(basis, []).append(Fraction(int(c.p), int(c.q)))
    if len(groups) == 1:
        symbols = [fresh(GENERATOR_LETTERS, taken)]
    else:
        letter = next((c for c in GENERATOR_LETTERS if c not in taken and not any(
            f"{c}_{k}" in taken for k in range(1, len(groups) + 1))), None)
        symbols = [f"{letter}_{k}" if letter else fresh(GENERATOR_LETTERS, taken)
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


def fresh(letters: tuple[str, ...], taken: set[str]) -> str:
    """The first letter not taken, else the first letter with the lowest free subscript (a_1);
    the name is added to taken, so one derivation never gives two things the same name."""
    candidates = itertools.chain(letters, (f"{c}_{k}" for k in itertools.count(1) for c in letters))
    name = next(c for c in candidates if c not in taken)
    taken.add(name)
    return name


def row_steps(trace: Trace, i: int, decimals: dict[str, list[list[str]]],
              inner: dict[sp.Expr, sp.Expr], form: Form) -> RowSteps:
    """The pieces of one row's arithmetic that are not already stages of the trace."""
    p = trace.problem
    dots = tuple(tuple((form(p.Q[i, k]), form(p.K[j, k])) for k in range(p.d_k))
                 for j in range(p.n_k))
    readable = tuple(j for j, ok in enumerate(trace.readable[i]) if ok)
    outputs = tuple(decimals["O"][i]) if decimals else tuple(None for _ in range(p.d_v))
    total = form(trace.Z[i].xreplace(inner)) if trace.Z[i] is not None else None
    return RowSteps(row=i, dots=dots, readable=readable, total=total, outputs=outputs)


@dataclass(frozen=True)
class HeadsDerivation:
    """Each head's derivation, the output's decimals and the checks, for the renderers."""

    trace: MultiHeadTrace
    heads: tuple[Derivation, ...]
    report: HeadsReport
    decimals: list[list[str]]
    difference: str


def derive_heads(trace: MultiHeadTrace, report: HeadsReport,
                 options: Options = Options()) -> HeadsDerivation:
    """Derive every head with its own checks' report and decide the output's decimals."""
    heads = tuple(derive(t, r, options) for t, r in zip(trace.heads, report.reports))
    return HeadsDerivation(trace, heads, report, decimal_grid(trace.output, options.places),
                           mpmath.nstr(report.difference, 2))
