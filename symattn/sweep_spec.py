"""The [sweep] table: which declared symbols vary over which exact values, and the problem at a point."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping

import mpmath
import sympy as sp

from .errors import InputError, ProblemError
from .gates import MAX_EXP_ARGUMENT, MAX_TRIG_ARGUMENT
from .model import Problem
from .numeric import Evaluator
from .spec import Reader

MAX_STEPS = 101
MAX_LISTED = 50
MAX_POINTS = 400
MAX_MAGNITUDE = 1000
OPTIONS = frozenset({"row"})
RANGE_KEYS = frozenset({"from", "to", "steps"})


@dataclass(frozen=True)
class Axis:
    """One swept symbol: a range from..to in equal steps, or listed values (all exact)."""

    symbol: sp.Symbol
    values: tuple[sp.Expr, ...]
    start: sp.Expr | None = None  # set for a range
    stop: sp.Expr | None = None

    @property
    def is_range(self) -> bool:
        return self.start is not None


@dataclass(frozen=True)
class SweepSpec:
    """What a sweep varies: one or two axes (the first is plotted along x) and the rows shown."""

    axes: tuple[Axis, ...]
    row: int | None = None  # 0-based; None = every row


def sweep_table(problem: Problem) -> Mapping[str, Any] | None:
    """The raw [sweep] table of a problem file, or None."""
    return dict(problem.extra).get("sweep")


def read_sweep(problem: Problem, table: Mapping[str, Any] | None = None) -> SweepSpec:
    """Validate a [sweep] table (the problem's own when not given) against the problem.

    Raises:
        InputError: one line naming the file and the key, e.g. sweep.theta.steps.
    """
    table = sweep_table(problem) if table is None else table
    reader = Reader(problem.source)
    if table is None:
        raise reader.fail("sweep", "the problem has no [sweep] table (e.g. "
                          'theta = {from = "0", to = "pi/2", steps = 9})')
    if not isinstance(table, dict):
        raise reader.fail("sweep", "must be a table")
    declared = {s.name: s for s in problem.symbols}
    axes = []
    for name, value in table.items():
        if name in OPTIONS:
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
    if points > MAX_POINTS:
        raise reader.fail("sweep", f"{points} points (limit {MAX_POINTS})")
    missing = [s.name for s in problem.symbols if s not in {a.symbol for a in axes}]
    if missing:
        raise reader.fail("sweep", f"the declared symbol '{missing[0]}' is not swept; "
                          "every declared symbol needs values")
    return SweepSpec(tuple(axes), _row(reader, table.get("row"), problem.n_q))


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
        if isinstance(steps, bool) or not isinstance(steps, int) or not 2 <= steps <= MAX_STEPS:
            raise reader.fail(f"{key}.steps", f"must be an integer from 2 to {MAX_STEPS}")
        if (stop - start).is_positive is not True:
            raise reader.fail(f"{key}.to", f"must be greater than from ({sp.sstr(start)})")
        width = stop - start
        values = tuple(start + width * sp.Rational(k, steps - 1) for k in range(steps))
        return Axis(symbol, values, start, stop)
    if isinstance(value, list):
        if not 1 <= len(value) <= MAX_LISTED:
            raise reader.fail(key, f"list 1 to {MAX_LISTED} values")
        values = tuple(_value(reader, x, f"{key}[{k}]", symbol) for k, x in enumerate(value, 1))
        for k, x in enumerate(values):
            if x in values[:k]:
                raise reader.fail(f"{key}[{k + 1}]", f"repeats the value {sp.sstr(x)}")
        return Axis(symbol, values)
    raise reader.fail(key, 'must be a range {from = "0", to = "pi/2", steps = 9} or a list '
                      'of values such as ["1/2", 1, 2]')


def _value(reader: Reader, raw: Any, key: str, symbol: sp.Symbol) -> sp.Expr:
    value = reader.entry(raw, key, {})
    if abs(_approx(value, key, reader.source)) > MAX_MAGNITUDE:
        raise reader.fail(key, f"must lie within ±{MAX_MAGNITUDE}")
    if symbol.is_positive and value.is_positive is not True:
        raise reader.fail(key, f"'{symbol.name}' is declared positive; {sp.sstr(value)} is not")
    return value


class _Guarded(Evaluator):
    """A 30-digit Evaluator that refuses exp and trig arguments beyond the parser's limits."""

    def __init__(self) -> None:
        super().__init__(20)
        for function, limit in ((sp.exp, MAX_EXP_ARGUMENT), (sp.sin, MAX_TRIG_ARGUMENT),
                                (sp.cos, MAX_TRIG_ARGUMENT), (sp.tan, MAX_TRIG_ARGUMENT)):
            self._nodes[function] = self._limited(self._nodes[function], limit)

    def _limited(self, evaluate, limit: int):
        def run(expr: sp.Expr) -> mpmath.mpf:
            argument = self(expr.args[0])
            if not isinstance(argument, self.ctx.mpf) or abs(argument) > limit:
                raise ValueError(f"{expr.func.__name__} argument beyond ±{limit}")
            return evaluate(expr)
        return run

    def real(self, expr: sp.Expr) -> mpmath.mpf:
        """The value, or ValueError when it is not finite and real."""
        value = self(expr)
        if not isinstance(value, self.ctx.mpf) or not self.ctx.isfinite(value):
            raise ValueError("not a finite real number")
        return value


def _approx(expr: sp.Expr, key: str, source: str) -> mpmath.mpf:
    """A finite real approximation of an exact value, or a one-line error naming the key."""
    try:
        return _Guarded().real(expr)
    except (ValueError, ZeroDivisionError, OverflowError) as error:
        raise InputError(f"cannot be evaluated: {error}", source=source, key=key) from None


FIELD_KEYS = {"Q": "input.Q", "K": "input.K", "V": "input.V", "bias": "attention.bias",
              "temperature": "attention.temperature", "scale": "attention.scale"}


def at_point(problem: Problem, values: Mapping[sp.Symbol, sp.Expr]) -> Problem:
    """The problem with the symbols replaced by exact values, every entry checked finite and real.

    Every exact field (matrices, temperature, scale, and any later ones) is substituted, so the
    point is an ordinary problem without symbols.

    Raises:
        ProblemError: an entry that is not finite and real at this point (e.g. ln(theta) at 0).
    """
    values = {s: sp.Integer(v) if isinstance(v, int) else v for s, v in values.items()}
    where = ", ".join(f"{s.name} = {sp.sstr(v)}" for s, v in values.items())
    changes: dict[str, Any] = {"symbols": tuple(s for s in problem.symbols if s not in values)}
    changes.update(_substituted(problem, values, where, "", problem.source))
    return dataclasses.replace(problem, **changes)


def _substituted(holder: Any, values: Mapping[sp.Symbol, sp.Expr], where: str, prefix: str,
                 source: str) -> dict[str, Any]:
    """The exact fields of a dataclass (and of dataclasses inside it) that hold the symbols."""
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(holder):
        value = getattr(holder, field.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            inner = _substituted(value, values, where, "input.", source)
            if inner:
                changes[field.name] = dataclasses.replace(value, **inner)
            continue
        if not isinstance(value, sp.Basic) or not value.free_symbols & set(values):
            continue
        new = value.xreplace(dict(values))
        key = FIELD_KEYS.get(field.name, prefix + field.name)
        entries = new if isinstance(new, sp.MatrixBase) else [new]
        for k, x in enumerate(entries):
            _finite(x, _entry_key(key, new, k), where, source,
                    positive=field.name in ("temperature", "scale"))
        changes[field.name] = new
    return changes


def _entry_key(key: str, value: sp.Basic, k: int) -> str:
    if not isinstance(value, sp.MatrixBase):
        return key
    i, j = divmod(k, value.cols)
    return f"{key}[{i + 1}][{j + 1}]"


def _finite(x: sp.Expr, key: str, where: str, source: str, positive: bool) -> None:
    if x is sp.S.NegativeInfinity and key.startswith("attention.bias"):
        return
    bad = x.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I) or x.is_real is False
    if not bad:
        try:
            value = _Guarded().real(x)
            bad = positive and not value > 0
        except (ValueError, ZeroDivisionError, OverflowError):
            bad = True
    if bad:
        need = "a positive" if positive else "a finite real"
        raise ProblemError(f"at {where} this entry is not {need} number ({sp.sstr(x)})",
                           source=source, key=key)
