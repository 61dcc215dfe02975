"""Matrices and vectors set to fit the text block: whole with their decimals, then the decimals
on a line of their own, then row by row, each row broken after a comma, and at last every entry
on its own, as numerator sums over the row's Z_i broken at their plus signs. A problem laid out
in columns (one query per column) sees every matrix transposed and goes column by column."""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from .fit import TEXT_ROWS, Fit, chain, vector
from .measure import height
from .printer import over_integer, approx, math, matrix

Factored = list[tuple[str, list[list[str]]]]
"""Per row: a prefactor (Z_i^{-1}) and, per entry, the terms of its numerator."""


def cells(m: sp.MatrixBase) -> list[list[str]]:
    """The LaTeX of every entry, rational numbers as slash fractions, and roots over integers
    too (20√3/51) when every fraction of the matrix is one of these: one format a matrix."""
    plain = [[math(x, slash=True) for x in row] for row in m.tolist()]
    slashed = [[over_integer(x) or text for x, text in zip(row, texts)]
               for row, texts in zip(m.tolist(), plain)]
    return plain if any(r"\frac" in text for row in slashed for text in row) else slashed


def transposed(grid: list[list[str]]) -> list[list[str]]:
    """A grid of entries with rows and columns exchanged."""
    return [list(column) for column in zip(*grid)]


def query(name: str, i: int, columns: bool = False) -> str:
    """name_{i,·} (query i's row), or name_{·,i} (its column) in a problem laid out in columns."""
    base = _base(name)
    return rf"{base}_{{\cdot,{i + 1}}}" if columns else rf"{base}_{{{i + 1},\cdot}}"


def entry(name: str, i: int, j: int, columns: bool = False) -> str:
    """name_{i,j} for the engine's entry (i, j): name_{j,i} in a problem laid out in columns."""
    base = _base(name)
    return f"{base}_{{{j + 1},{i + 1}}}" if columns else f"{base}_{{{i + 1},{j + 1}}}"


def stacked(name: str, exact: list[list[str]], fit: Fit | None = None) -> list[str]:
    """name = [matrix]; a matrix wider than the line (fit) in blocks of columns that fit
    (X_{·,1…4} = […], X_{·,5…8} = […]), as a printout wraps a wide array; a matrix taller than
    a page holds in blocks of rows of about equal height (Q_{1…20,·} = […]): a display line
    cannot break across pages. exact is the matrix as shown (a columns book's already turned)."""
    base = _base(name)
    width = len(exact[0]) if exact else 0
    if fit is not None and width > 1 and not fit.fits(f"{name} = {matrix(exact)}"):
        per = next((k for k in range(width - 1, 1, -1)
                    if all(fit.fits(f"{_columns(base, a, min(a + k, width))} = "
                                    f"{matrix([row[a:a + k] for row in exact])}")
                           for a in range(0, width, k))), 1)
        return [line for a in range(0, width, per)
                for line in stacked(_columns(base, a, min(a + per, width)),
                                    [row[a:a + per] for row in exact])]
    heights = [int(height(matrix([row]))) for row in exact]  # a row with a stacked fraction: 2
    count = -(-sum(heights) // TEXT_ROWS)
    if count <= 1:
        return [f"{name} = {matrix(exact)}"]
    share = -(-sum(heights) // count)  # each block's height, at most
    starts, rows = [0], 0
    for k, tall in enumerate(heights):
        if rows + tall > share:
            starts.append(k)
            rows = 0
        rows += tall
    ends = starts[1:] + [len(exact)]
    return [rf"{base}_{{{a + 1}\ldots {b},\cdot}} = {matrix(exact[a:b])}"
            for a, b in zip(starts, ends)]


def _base(name: str) -> str:
    """A name that takes a subscript: W_O as {W_O} (W_O_{1,·} is a double subscript)."""
    return f"{{{name}}}" if "_" in name or "^" in name else name


def _columns(base: str, a: int, b: int) -> str:
    """X_{·,1…4} (or X_{·,5} for one column): the name of columns a+1 … b."""
    which = f"{a + 1}" if b == a + 1 else f"{a + 1}\\ldots {b}"
    return f"{base}_{{\\cdot,{which}}}"


def terms(x: sp.Expr, order: list[sp.Expr] | None = None) -> list[str]:
    """The LaTeX of a sum's terms (in the order given, else SymPy's), every one after the first
    with its sign ("+ b", "- c")."""
    if not x.is_Add:
        return [math(x, slash=True)]
    out = []
    for k, term in enumerate(order or sp.Add.make_args(x)):
        text = math(term, slash=True)
        if k:
            text = f"- {text[1:].strip()}" if text.startswith("-") else f"+ {text}"
        out.append(text)
    return out


def _signed(parts: list[str]) -> list[tuple[str, str]]:
    """Terms as (sign, term) pieces of a chain, the first after an equals sign."""
    return [("=", parts[0])] + [(t[0], t[2:]) for t in parts[1:]]


def approx_cells(grid) -> list[list[str]] | None:
    """The decimals of a grid of Approx (None where there is none: -∞ shows as -∞); None when
    every entry is exact already (1/10 needs no ≈ 0.1)."""
    if not grid or all(a is None or a.exact for row in grid for a in row):
        return None
    places = max((len(a.digits.partition(".")[2]) for row in grid for a in row
                  if a is not None and not a.exact and not a.exponent), default=0)
    return [[approx(_padded(a, places)) if a is not None else r"-\infty" for a in row]
            for row in grid]


def exact_rows(grid) -> frozenset[int]:
    """The rows of a grid of Approx whose decimals say no more than the exact entries (1, 0, 1/2
    ≈ 0.5): row by row their ≈ is left out."""
    return frozenset(i for i, row in enumerate(grid or [])
                     if all(a is None or a.exact for a in row))


def _padded(a, places: int):
    """An exact decimal among rounded ones with as many places (0.5000 beside 0.3333), so the
    columns read alike; whole numbers (0, 1) stay as they are."""
    whole, point, fraction = a.digits.partition(".")
    if not a.exact or not point or a.exponent or len(fraction) >= places:
        return a
    return replace(a, digits=a.digits + "0" * (places - len(fraction)))


def matrix_lines(lhs: str, formulas: list[tuple[str, str]], exact: list[list[str]],
                 decimals: list[list[str]] | None, fit: Fit, name: str,
                 over: Factored | None = None, prefer_over: bool = False,
                 columns: bool = False, relation: str = "=",
                 factored: frozenset[int] = frozenset(), plain: frozenset[int] = frozenset()
                 ) -> list[str]:
    """lhs = formula = … = [exact] ≈ [decimals] as aligned lines that fit: on one line with or
    without the substitutions, broken before a relation, or row by row (name_{i,·}); with
    prefer_over, a row too wide for one line is written over its Z_i before it is broken;
    relation: the one before the entries (≈ when they are the decimals of a rounded stage).
    exact and decimals hold one row per query; columns shows the matrix transposed and goes
    column by column (name_{·,i}); row by row, the rows in factored are written over their
    Z_i, and the rows in plain without their decimals (they add nothing: 1 ≈ 1)."""
    shown, numbers = (transposed(exact), decimals and transposed(decimals)) if columns \
        else (exact, decimals)
    whole = [(relation, matrix(shown))] + ([(r"\approx", matrix(numbers))] if numbers else [])
    tries = [chain(lhs, terms, fit) for terms in (formulas + whole, formulas[:1] + whole)]
    for lines in sorted((t for t in tries if t is not None), key=len)[:1]:
        return lines
    return row_lines(name, exact, decimals, fit, [f"{lhs} &= {formulas[0][1]}"]
                     if formulas else [], over, prefer_over, columns, relation, factored, plain)


def row_lines(name: str, exact: list[list[str] | None], decimals: list[list[str]] | None,
              fit: Fit, lead: list[str] | None = None, over: Factored | None = None,
              prefer_over: bool = False, columns: bool = False,
              relation: str = "=", factored: frozenset[int] = frozenset(),
              plain: frozenset[int] = frozenset()) -> list[str]:
    """name_{i,·} = (…) ≈ (…), one row to a line or more (name_{·,i} = (…)ᵀ, one query's
    column, with columns; relation: ≈ for a rounded stage's decimals); a row whose entries do
    not fit even one to a line is written over its Z_i, entry by entry if need be; a row given
    as None or in factored is written over its Z_i at once (a row in factored as
    Z_4^{-1}(2, 1, 3, e^{10}) when it fits, not 2/Z_4 four times); a row in plain goes
    without its decimals."""
    lines = list(lead or [])
    left = 2 * len(name) * 5.0 + 30.0  # "A_{3,\cdot}" and its relation
    for i, row in enumerate(exact):
        lhs = query(name, i, columns)
        row_decimals = decimals[i] if decimals and i not in plain else None
        approx_row = [(r"\approx", _tuple(row_decimals, columns))] if row_decimals else []
        if row is None or over and i in factored:
            whole = over[i][0] + _tuple([" ".join(t) for t in over[i][1]], columns)
            together = chain(lhs, [("=", whole)] + approx_row, fit, at=left)
            if together:
                lines += together
                continue
            added = _over(name, i, over[i], fit, left, columns) or [f"{lhs} &= {whole}"]
        else:
            together = chain(lhs, [(relation, _tuple(row, columns))] + approx_row, fit, at=left)
            if together:
                lines += together
                continue
            over_row = over and over[i][0] and _over(name, i, over[i], fit, left, columns)
            added = (prefer_over and over_row) or _broken(lhs, relation, row, fit, left, columns) or \
                over_row or [f"{lhs} &{relation} {_tuple(row, columns)}"]
        lines += added
        if row_decimals:  # after entry-by-entry lines the row's decimals say whose they are
            by_entry = not added[0].startswith(lhs)
            lines += _decimal_lines(row_decimals, fit, left, lhs if by_entry else "", columns)
    return lines


def _decimal_lines(decimals: list[str], fit: Fit, left: float, lhs: str = "",
                   columns: bool = False) -> list[str]:
    """≈ (…) on lines of their own under a row (lhs ≈ (…) when named), broken after a comma
    when too wide."""
    return _broken(lhs, r"\approx", decimals, fit, left, columns) or \
        [rf"{lhs} &\approx {_tuple(decimals, columns)}"]


def row_vector(entries: list[str], columns: bool = False) -> str:
    """(a, b, c) set whole: parentheses that grow with a stacked fraction inside, else \\bigl(;
    (a, b, c)ᵀ with columns."""
    if any(r"\frac" in text for text in entries):
        return r"\left(" + ", ".join(entries) + r"\right)" + (TRANSPOSE if columns else "")
    return _tuple(entries, columns)


def _tuple(entries: list[str], columns: bool = False) -> str:
    """(a, b, c), or (a, b, c)ᵀ for a column."""
    return r"\bigl(" + ", ".join(entries) + r"\bigr)" + (TRANSPOSE if columns else "")


TRANSPOSE = r"^{\mathsf T}"


def _broken(lhs: str, relation: str, entries: list[str], fit: Fit, left: float,
            columns: bool = False) -> list[str] | None:
    """One row vector over several lines, each entry kept whole; None if an entry is too wide."""
    pieces = vector(entries, Fit(fit.points - left - (12.0 if columns else 0.0)))
    if pieces is None:
        return None
    if columns:
        pieces[-1] += TRANSPOSE
    return [f"{lhs} &{relation} {pieces[0]}"] + \
        [rf"&\mathrel{{\phantom{{{relation}}}}} {piece}" for piece in pieces[1:]]


def _over(name: str, i: int, row: tuple[str, list[list[str]]], fit: Fit, left: float,
          columns: bool = False) -> list[str] | None:
    """name_{i,·} = Z_i^{-1}(n₁, n₂, …), or each entry name_{i,j} = Z_i^{-1}(a + b
    + …) broken at its plus signs (name_{·,i} and name_{j,i} with columns)."""
    prefactor, numerators = row
    lhs = query(name, i, columns)
    entries = [" ".join(t) for t in numerators]
    whole = _broken(lhs, "=", entries, Fit(fit.points - 40.0), left, columns)
    if whole is not None:
        return [whole[0].replace("&= ", f"&= {prefactor}", 1)] + whole[1:]
    lines: list[str] = []
    for j, parts in enumerate(numerators):
        pieces = _signed(parts)
        pieces[0] = ("=", rf"{prefactor}\bigl({parts[0]}")
        pieces[-1] = (pieces[-1][0], pieces[-1][1] + r"\bigr)")
        found = chain(entry(name, i, j, columns), pieces, fit, at=left)
        if found is None:
            return None
        lines += found
    return lines


def sum_lines(lhs: str, x: sp.Expr, fit: Fit, at: float | None = None,
              order: list[sp.Expr] | None = None) -> list[str]:
    """lhs = a + b + … broken at its plus signs when it is too wide for a line."""
    parts = terms(x, order)
    return chain(lhs, _signed(parts), fit, at=at) or [f"{lhs} &= {' '.join(parts)}"]
