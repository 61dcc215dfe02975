"""Option tables and --subs, read once with the problem: [sweep] -> SweepSpec, [gradient] ->
Upstream, NAME=VALUE items -> exact values for declared symbols."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from ..errors import InputError, ProblemError
from ..limits import MAX_SWEEP_LISTED, MAX_SWEEP_MAGNITUDE, MAX_SWEEP_POINTS, MAX_SWEEP_STEPS
from ..model import Axis, SweepSpec, Upstream
from .expressions import parse_expression
from .reader import Reader

SWEEP_OPTIONS = frozenset({"row"})
RANGE_KEYS = frozenset({"from", "to", "steps"})
GRADIENT_KEYS = frozenset({"loss", "dO", "row"})
LOSSES = ("sum",)


def read_sweep(reader: Reader, table: Any, symbols: Mapping[str, sp.Symbol], n_q: int) -> SweepSpec:
    """A [sweep] table: one or two declared symbols over exact values, and the row shown.

    Raises:
        InputError: one line naming the file and the key, e.g. sweep.theta.steps.
    """
    if not isinstance(table, dict):
        raise reader.fail("sweep", "must be a table")
    declared = dict(symbols)
    axes = []
    for name, value in table.items():
        if name in SWEEP_OPTIONS:
            continue
        if name not in declared:
            raise reader.fail(f"sweep.{name}", f"'{name}' is not a declared symbol; declare it "
                              "under [symbols] and use it in the matrices or the temperature")
        axes.append(_axis(reader, declared[name], value))
    if not 1 <= len(axes) <= 2:
        raise reader.fail("sweep", f"sweep one or two symbols, not {len(axes)}")
    if len(axes) == 2 and not axes[0].is_range and axes[1].is_range:
        axes.reverse()  # a range goes along the x axis, listed values make the curves
    points = len(axes[0].values) * (len(axes[1].values) if len(axes) == 2 else 1)
    if points > MAX_SWEEP_POINTS:
        raise reader.fail("sweep", f"{points} points (limit {MAX_SWEEP_POINTS})")
    missing = [name for name, s in declared.items() if s not in {a.symbol for a in axes}]
    if missing:
        raise reader.fail("sweep", f"the declared symbol '{missing[0]}' is not swept; "
                          "every declared symbol needs values")
    return SweepSpec(tuple(axes), _row(reader, table.get("row"), n_q))


def _row(reader: Reader, value: Any, n_q: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n_q:
        raise reader.fail("sweep.row", f"must be an integer from 1 to {n_q}")
    return value - 1


def _axis(reader: Reader, symbol: sp.Symbol, value: Any) -> Axis:
    key = f"sweep.{symbol.name}"
    if isinstance(value, dict):
        for k in value:
            if k not in RANGE_KEYS:
                raise reader.fail(f"{key}.{k}", "unknown key (expected from, to, steps)")
        for k in ("from", "to", "steps"):
            if k not in value:
                raise reader.fail(f"{key}.{k}", "missing (a range is {from = ..., to = ..., steps = N})")
        start, stop = (_value(reader, value[k], f"{key}.{k}", symbol) for k in ("from", "to"))
        steps = value["steps"]
        if isinstance(steps, bool) or not isinstance(steps, int) or not 2 <= steps <= MAX_SWEEP_STEPS:
            raise reader.fail(f"{key}.steps", f"must be an integer from 2 to {MAX_SWEEP_STEPS}")
        if (stop - start).is_positive is not True:
            raise reader.fail(f"{key}.to", f"must be greater than from ({sp.sstr(start)})")
        width = stop - start
        values = tuple(start + width * sp.Rational(k, steps - 1) for k in range(steps))
        return Axis(symbol, values, start, stop)
    if isinstance(value, list):
        if not 1 <= len(value) <= MAX_SWEEP_LISTED:
            raise reader.fail(key, f"list 1 to {MAX_SWEEP_LISTED} values")
        values = tuple(_value(reader, x, f"{key}[{k}]", symbol) for k, x in enumerate(value, 1))
        for k, x in enumerate(values):
            if x in values[:k]:
                raise reader.fail(f"{key}[{k + 1}]", f"repeats the value {sp.sstr(x)}")
        return Axis(symbol, values)
    raise reader.fail(key, 'must be a range {from = "0", to = "pi/2", steps = 9} or a list '
                      'of values such as ["1/2", 1, 2]')


def _value(reader: Reader, raw: Any, key: str, symbol: sp.Symbol) -> sp.Expr:
    value = reader.entry(raw, key, {})
    approx = value.evalf(30)  # a constant that passed the parser's cost gates
    if not approx.is_Number or not approx.is_finite:
        raise reader.fail(key, "cannot be evaluated: not a finite real number")
    if abs(approx) > MAX_SWEEP_MAGNITUDE:
        raise reader.fail(key, f"must lie within ±{MAX_SWEEP_MAGNITUDE}")
    if symbol.is_positive and value.is_positive is not True:
        raise reader.fail(key, f"'{symbol.name}' is declared positive; {sp.sstr(value)} is not")
    return value


def read_gradient(reader: Reader, table: Any, symbols: Mapping[str, sp.Symbol], n_q: int,
                  d_v: int) -> Upstream:
    """A [gradient] table: loss = "sum" or dO = [[...]] (n_q x d_v), and the row written out.

    Raises:
        InputError: one line naming the file and the key (gradient.dO[2][1], ...).
    """
    if not isinstance(table, dict):
        raise reader.fail("gradient", "must be a table")
    reader.only(table, GRADIENT_KEYS, "gradient")
    if ("loss" in table) == ("dO" in table):
        raise reader.fail("gradient", 'give exactly one of loss = "sum" and dO = [[...]]')
    row = table.get("row")
    if row is not None and (isinstance(row, bool) or not isinstance(row, int)
                            or not 1 <= row <= n_q):
        raise reader.fail("gradient.row", f"must be an integer from 1 to {n_q}")
    row = None if row is None else row - 1
    if "loss" in table:
        if table["loss"] not in LOSSES:
            raise reader.fail("gradient.loss", 'must be "sum" (the sum of all entries of O), '
                              "or give dO instead")
        return Upstream(sp.ImmutableMatrix.ones(n_q, d_v), "sum", row)
    dO = reader.matrix(table["dO"], "gradient.dO", symbols)
    if dO.shape != (n_q, d_v):
        raise ProblemError(f"dO is {dO.rows}x{dO.cols} but O is {n_q}x{d_v}",
                           source=reader.source, key="gradient.dO")
    return Upstream(dO, None, row)


def read_substitutions(symbols: Sequence[sp.Symbol], items: Sequence[str]
                       ) -> dict[sp.Symbol, sp.Expr]:
    """'theta=pi/4' items -> {theta: pi/4}; names must be declared, values are exact constants."""
    declared = {s.name: s for s in symbols}
    values: dict[sp.Symbol, sp.Expr] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or name not in declared:
            known = ", ".join(declared) or "none are declared"
            raise InputError(f"--subs {item!r}: expected NAME=VALUE with a declared symbol ({known})")
        try:
            value = parse_expression(text)
        except InputError as error:
            raise InputError(f"--subs {name}: {error}") from None
        if declared[name].is_positive and value.is_positive is not True:
            raise InputError(f"--subs {name}: {name} is declared positive; got {value}")
        values[declared[name]] = value
    return values
