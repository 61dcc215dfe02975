"""Analysis displays that fit the text block: a matrix equation whole, broken before its
relations, row by row, or entry by entry (a sum broken at its plus signs, a fraction too wide
for a line written as (numerator) / denominator over several lines)."""

from __future__ import annotations

import re

import sympy as sp

from .fit import Fit, chain, pack, vector
from .matrices import cells, entry, query, row_lines, stacked
from .printer import math, matrix
from .shared import over_name, over_names

LEFT = 60.0  # the width left of the alignment point of a row's or an entry's name, at most


def adds_nothing(x: sp.Expr, decimal: str) -> bool:
    """Whether a decimal only repeats an exact value: an integer (2 ≈ 2.0000) or a fraction
    whose decimal ends within the places shown (1/10 ≈ 0.1000); 7/3 ≈ 2.3333 adds something."""
    if not x.is_Rational or "e" in decimal:
        return False
    places, q, ends = len(decimal.partition(".")[2]), int(x.q), 0
    for prime in (2, 5):
        count = 0
        while q % prime == 0:
            q, count = q // prime, count + 1
        ends = max(ends, count)
    return q == 1 and ends <= places


def plain_decimals(values: list[sp.Expr], decimals: list[str] | None) -> list[str] | None:
    """The decimals of a vector, None when every one only repeats its exact value."""
    if decimals is None or all(adds_nothing(x, a) for x, a in zip(values, decimals)):
        return None
    return decimals


def fits(lines: list[str], fit: Fit) -> bool:
    """Whether every aligned line fits (its two sides side by side)."""
    return all(fit.fits(unaligned(line)) for line in lines)


_ENVIRONMENT = re.compile(r"\\(begin|end)\{[a-z*]+\}")


def unaligned(line: str) -> str:
    """An aligned line without its alignment points: the & outside every array (an array's
    own & keep its columns apart, measured as they are set)."""
    out, depth, last = [], 0, 0
    for found in _ENVIRONMENT.finditer(line):
        piece = line[last:found.start()]
        out.append(piece.replace("&", "") if depth == 0 else piece)
        out.append(found.group(0))
        depth += 1 if found.group(1) == "begin" else -1
        last = found.end()
    out.append(line[last:].replace("&", "") if depth == 0 else line[last:])
    return "".join(out)


def equation_lines(lhs: str, formulas: list[tuple[str, str]], m: sp.MatrixBase,
                   decimals: list[list[str]] | None, fit: Fit, name: str,
                   names: dict[sp.Expr, str] | None = None) -> list[str]:
    """lhs = formula … = [m] ≈ [decimals] as aligned lines that fit: one line, broken before a
    relation, then row by row (name_{i,·}), then entry by entry (name_{i,j}); names: the shared
    denominators named once (2/Z for 2/(6 + e^{10}))."""
    shown = over_names(m, names) if names else cells(m)
    rows = [list(m.row(i)) for i in range(m.rows)]
    plain = frozenset(i for i, row in enumerate(rows)
                      if decimals and plain_decimals(row, decimals[i]) is None)
    decimals = None if len(plain) == m.rows else decimals  # 2 ≈ 2.0000 throughout: no ≈
    whole = [("=", matrix(shown))] + ([(r"\approx", matrix(decimals))] if decimals else [])
    for terms_ in (formulas + whole, formulas[-1:] + whole, formulas[:1] + whole, whole):
        lines = chain(lhs, terms_, fit)
        if lines is not None and fits(lines, fit):
            return lines
    lead = [f"{lhs} &= {formulas[0][1]}"] if formulas else []
    lines = row_lines(name, shown, decimals, fit, lead, plain=plain)
    if fits(lines, fit):
        return lines
    return lead + [line for i in range(m.rows) for line in
                   row_entries(name, i, rows[i], decimals and decimals[i], fit)]


def row_entries(name: str, i: int, values: list[sp.Expr], decimals: list[str] | None,
                fit: Fit) -> list[str]:
    """Row i entry by entry: name_{i,j} = value ≈ decimal; the zeros of the row on one line
    (name_{i,·} = 0 for a row of zeros, name_{i,j} = 0 for j = 3, 4 otherwise)."""
    lines, zeros = [], [str(j + 1) for j, x in enumerate(values) if x == 0]
    if len(zeros) == len(values):
        return [rf"{query(name, i)} &= 0"]
    for j, x in enumerate(values):
        if x != 0:
            lines += entry_lines(entry(name, i, j), x, fit, decimals[j] if decimals else None)
    if len(zeros) == 1:
        lines.append(rf"{entry(name, i, int(zeros[0]) - 1)} &= 0")
    elif zeros:
        lines.append(rf"{name.rstrip()}_{{{i + 1},j}} &= 0 \quad (j = {', '.join(zeros)})"
                     if "_" not in name else
                     rf"{{{name}}}_{{{i + 1},j}} &= 0 \quad (j = {', '.join(zeros)})")
    return lines


def entry_lines(lhs: str, x: sp.Expr, fit: Fit, decimal: str | None = None,
                formula: str | None = None) -> list[str]:
    """lhs (= formula) = x (≈ decimal) on one line or broken before a relation; else a sum
    broken at its plus signs, a term too wide for a line as (numerator) / (denominator) broken
    at the plus signs of both, a fraction over one denominator first tried as 1/d (n₁ + …);
    the decimal on a line of its own when it does not fit beside."""
    text = math(x)
    decimal = None if decimal is None or adds_nothing(x, decimal) else decimal
    lead = [("=", formula)] if formula else []
    after = [rf"&\approx {decimal}"] if decimal is not None else []
    if decimal is not None:
        lines = chain(lhs, lead + [("=", text), (r"\approx", decimal)], fit, at=LEFT)
        if lines is not None and fits(lines, fit):
            return lines
    tries = [[("=", text)]]
    numerators, denominator = _over(x)
    if denominator != 1:
        top = _signed(numerators)
        prefactor = rf"\frac{{1}}{{{math(denominator)}}}"
        tries.append(_bracketed(top, prefactor))
    tries.append(_broken(x, Fit(fit.points - LEFT - 20.0)))
    for pieces in tries:
        lines = chain(lhs, lead + pieces, fit, at=LEFT)
        if lines and fits(lines, fit):
            return lines + after
    return [f"{lhs} &= " + " = ".join(p for _, p in lead) + (" = " if lead else "") + text] + after


def _bracketed(pieces: list[tuple[str, str]], before: str = "") -> list[tuple[str, str]]:
    """Chain pieces in brackets: before\bigl(first … last\bigr)."""
    out = list(pieces)
    out[0] = (out[0][0], before + r"\bigl(" + out[0][1])
    out[-1] = (out[-1][0], out[-1][1] + r"\bigr)")
    return out


def _broken(x: sp.Expr, room: Fit) -> list[tuple[str, str]]:
    """A sum's terms as chain pieces; a term wider than room as (its numerator's terms) /
    (its denominator's terms), so that a line may break inside it at a plus sign."""
    out: list[tuple[str, str]] = []
    for k, (relation, text) in enumerate(_signed(x.args if x.is_Add else (x,))):
        term = (x.args if x.is_Add else (x,))[k]
        if room.fits(text):
            out.append((relation, text))
            continue
        n, d = sp.fraction(term)
        top = _bracketed(_signed(n.args if n.is_Add else (n,)))
        bottom = _bracketed(_signed(d.args if d.is_Add else (d,)))
        top[0] = ("=" if k == 0 else "+", top[0][1])
        out += top + [(r"\big/", bottom[0][1])] + bottom[1:]
    return out


def _signed(parts) -> list[tuple[str, str]]:
    """Terms as chain pieces: the first after an equals sign, the rest after their signs."""
    out = []
    for k, term in enumerate(parts):
        text = math(term)
        sign = "-" if text.startswith("-") else "+"
        body = text[1:].strip() if sign == "-" else text
        out.append(("=", text) if k == 0 else (sign, body))
    return out


def vector_lines(name: str, values: list[sp.Expr], fit: Fit,
                 decimals: list[str] | None = None,
                 names: dict[sp.Expr, str] | None = None) -> list[str]:
    """name = (v₁, v₂, …) ≈ (d₁, …) on one line; else the decimals on a line of their own;
    else broken after a comma; else name_j = v_j ≈ d_j entry by entry; names: the shared
    denominators named once (2/Z)."""
    entries = [over_name(v, names or {}, slash=False) for v in values]
    decimals = plain_decimals(values, decimals)
    exact = r"\left(" + ", ".join(entries) + r"\right)"
    numbers = [(r"\approx", r"\left(" + ", ".join(decimals) + r"\right)")] if decimals else []
    for pieces in ([("=", exact)] + numbers, [("=", exact)]):
        lines = chain(name, pieces, fit, at=LEFT)
        if lines and fits(lines, fit):
            return lines if len(pieces) > 1 or not decimals else \
                lines + _tuple_lines(r"\approx", decimals, fit)
    broken = vector(entries, Fit(fit.points - LEFT))
    if broken is not None:
        return [f"{name} &= {broken[0]}"] + [rf"&\mathrel{{\phantom{{=}}}} {piece}" for piece in broken[1:]] \
            + (_tuple_lines(r"\approx", decimals, fit) if decimals else [])
    return [line for j, v in enumerate(values) for line in
            entry_lines(f"{name}_{{{j + 1}}}", v, fit, decimals[j] if decimals else None)]


def _tuple_lines(relation: str, entries: list[str], fit: Fit) -> list[str]:
    """&≈ (d₁, d₂, …), broken after a comma when too wide."""
    broken = vector(entries, Fit(fit.points - LEFT)) or [r"\bigl(" + ", ".join(entries) + r"\bigr)"]
    return [f"&{relation} {broken[0]}"] + [rf"&\mathrel{{\phantom{{{relation}}}}} {piece}" for piece in broken[1:]]


def _over(x: sp.Expr) -> tuple[tuple[sp.Expr, ...], sp.Expr]:
    """The numerator's terms and the denominator of a fraction, or of a sum of fractions over
    one denominator ((a,), 1 when x is neither)."""
    if x.is_Add:
        parts = [sp.fraction(term) for term in x.args]
        if len({d for _, d in parts}) == 1 and parts[0][1] != 1:
            return tuple(n for n, _ in parts), parts[0][1]
        return (x,), sp.Integer(1)
    n, d = sp.fraction(x)
    return (n.args if n.is_Add else (n,)), d


def side_by_side(named: list[tuple[str, sp.MatrixBase]], fit: Fit) -> list[str]:
    """name = [matrix] items side by side, as many to a line as fit; a matrix too wide for a
    line in blocks of columns (X_{·,1…4})."""
    items = [line for name, m in named for line in stacked(name, cells(m), fit)]
    return pack(items, fit) or items
