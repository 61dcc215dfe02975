"""Claimed answers -> Claim: what a key addresses (A, "A[3]", "A[3,1]", "O[:,2]", "shape(O)", d_k)
and the given entries, each parsed by the project's parser or kept with the reason it was refused;
the [answers] and [grading] tables of a problem file or of a separate answers file.

A claim's text is untrusted (it may be a student's): structure is scanned here, each entry goes
through parse_expression, and nothing here raises for a bad entry: it becomes an invalid Given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..errors import InputError
from ..limits import MAX_ANSWERS_BYTES, MAX_CLAIM_EXPONENT, MAX_CLAIM_LENGTH, MAX_SIGFIGS
from ..model import Grading
from .batches import BatchError, matrix_rows
from ..vocabulary import GRADING_RULES
from .expressions import parse_expression
from .files import decode_toml, read_text
from .printouts import split_structure
from .reasons import UNREADABLE, WHOLE_VALUE_CODES, Reason, entry_reason, structure_reason
from .tokens import fold

SCALARS = ("n_q", "n_k", "d_k", "d_v", "tau", "s", "batch", "heads")
_STAGE = r"(?P<stage>(?:heads?\[[1-9]\d{0,2}\]\.)?[QKVRSMLAO]|concat)"  # head[2].A: head 2's A
_KEY = re.compile(rf"^{_STAGE}(?:\[(?P<row>\d+|:)(?:,(?P<column>\d+|:))?\])?$")
_SHAPE_KEY = re.compile(rf"^shape\({_STAGE}\)$")
_SHAPE_VALUE = re.compile(r"^\d{1,6}(?:[x*,]\d{1,6}){1,3}$")  # 4x3, 2x4x100, (2, 4, 100)
_DECIMAL = re.compile(r"^[+-]?(\d*)\.(\d*)$")  # 0.25, .5, and NumPy's 1. (no places)
_PERCENT = re.compile(r"^([+-]?\d+(?:\.(\d*))?)\s*%$")
_SCIENTIFIC = re.compile(r"^[+-]?(\d+)(?:\.(\d*))?[eE]([+-]?\d+)$")  # 6.3379e-02 (PyTorch, NumPy)


@dataclass(frozen=True)
class Target:
    """What a claim addresses; rows and columns 0-based, None where the whole axis is meant."""

    kind: str  # "stage" | "row" | "column" | "entry" | "shape" | "scalar"
    name: str  # a stage letter or a scalar name
    row: int | None = None
    column: int | None = None


@dataclass(frozen=True)
class Given:
    """One given entry: its text, its exact value (None if refused), and how precisely it was
    written: decimal places (0.1234: 4, NumPy's 1.: 0; 6.3379e-02: 6) and, in e-notation,
    significant figures (6.3379e-02: 5), by which it is judged. A refused entry keeps the
    parser's words (error) and the reason feedback gives (a phrase, parse.reasons)."""

    text: str
    value: sp.Expr | None
    places: int | None = None
    error: str | None = None
    sigfigs: int | None = None
    reason: Reason = ()


@dataclass(frozen=True)
class Claim:
    """A claimed answer: the key as written, its target, and the given entries as rows."""

    key: str
    target: Target
    rows: tuple[tuple[Given, ...], ...]
    shape: tuple[int, ...] | None = None  # for shape claims
    error: str | None = None  # the whole value is unreadable
    reason: Reason = ()  # why, as a phrase (parse.reasons)


def parse_key(key: str) -> Target:
    """'A', 'A[3]', 'A[3,1]', 'O[:,2]', 'shape(O)' or a scalar name, 1-based as written."""
    compact = "".join(key.split())
    if compact in SCALARS:
        return Target("scalar", compact)
    if (match := _SHAPE_KEY.match(compact)):
        return Target("shape", _stage(match["stage"]))
    match = _KEY.match(compact)
    if not match:
        raise InputError(f"unknown claim key {key!r}; keys look like A, A[3], A[3,1], O[:,2], "
                         f"shape(O), head[1].A[2] or one of {', '.join(SCALARS)}")
    row, column, stage = match["row"], match["column"], _stage(match["stage"])
    index = {None: None, ":": None}
    r = index[row] if row in index else int(row) - 1
    c = index[column] if column in index else int(column) - 1
    if (r is not None and r < 0) or (c is not None and c < 0):
        raise InputError(f"claim key {key!r}: rows and columns count from 1")
    if row is None:
        return Target("stage", stage)
    if column is None or column == ":":
        return Target("row", stage, row=r) if r is not None else Target("stage", stage)
    return Target("column", stage, column=c) if r is None else \
        Target("entry", stage, row=r, column=c)


def _stage(written: str) -> str:
    """A stage as facts name it: head[2].A and heads[2].A are both head 2's A."""
    return "heads" + written[len("head"):] if written.startswith("head[") else written


def parse_claim(key: str, raw: Any, symbols: Mapping[str, sp.Symbol] | None = None, *,
                strict: bool = False) -> Claim:
    """A claim from a key and a value (TOML value or text); bad entries become invalid Givens.

    A value may be a table {value = ..., index = [i, j]}: the matrix weights[i, j] of a batched
    printout (counted from 0, as the code that printed it counts).

    Raises:
        BatchError: (strict, for a problem or answers file) a batch of matrices without an
            index, or a malformed or misfitting index: the author's to correct.
    """
    target = parse_key(key)
    symbols = symbols or {}
    minus_infinity = target.name[-1] in ("M", "L")
    try:
        raw, index = _indexed(raw, target)
        if target.kind == "shape":
            return Claim(key, target, (), shape=_shape(raw))
        rows = _rows(raw, symbols, minus_infinity, index)
    except InputError as error:
        if strict and isinstance(error, BatchError):
            raise
        return Claim(key, target, (), error=str(error),
                     reason=_whole_reason(target, str(raw), error, symbols))
    return Claim(key, target, rows)


def _indexed(raw: Any, target: Target) -> tuple[Any, tuple[int, ...] | None]:
    """(the value, the index) of {value = ..., index = [0, 1]}; (raw, None) for a plain value."""
    if not isinstance(raw, dict):
        return raw, None
    unknown = sorted(set(raw) - {"value", "index"})
    if unknown or "value" not in raw:
        raise BatchError(f"unknown key {unknown[0]!r} (a claim's table holds value and index)"
                         if unknown else "a claim's table needs value = ... (and index = [...])")
    index = raw.get("index")
    if index is None:
        return raw["value"], None
    if target.kind == "shape" or not isinstance(index, list) or not index or any(
            isinstance(i, bool) or not isinstance(i, int) or i < 0 for i in index):
        raise BatchError("index picks one matrix of a batched printout: a list of whole numbers "
                         "from 0, such as [0] or [0, 1]" if target.kind != "shape" else
                         "a shape claim takes no index")
    return raw["value"], tuple(index)


def _whole_reason(target: Target, text: str, error: InputError,
                  symbols: Mapping[str, sp.Symbol]) -> Reason:
    """Why a whole value was refused, as feedback says it (parse.reasons)."""
    if target.kind == "shape":
        return ("read_shape",)
    if error.code in WHOLE_VALUE_CODES:
        return (error.code, *error.values)
    return entry_reason(text, error, symbols) if error.code else structure_reason(text)


def _shape(raw: Any) -> tuple[int, ...]:
    """A shape of 2 to 4 sizes: "4x3", "2x4x100", "(2, 4, 100)", torch.Size([2, 4]), [4, 3]."""
    if isinstance(raw, (list, tuple)) and 2 <= len(raw) <= 4 and all(
            isinstance(x, int) and not isinstance(x, bool) for x in raw):
        return tuple(int(x) for x in raw)
    if isinstance(raw, str):
        text = "".join(c for c, _ in fold(raw)).replace(" ", "").lower()
        text = re.sub(r"^(torch\.size\(\[(.*)\]\)|\((.*)\)|\[(.*)\])$",
                      lambda m: next(g for g in m.groups()[1:] if g is not None), text)
        if _SHAPE_VALUE.match(text):
            return tuple(int(x) for x in re.split(r"[x*,]", text))
    raise InputError(f"a shape is written like \"4x3\", \"2x4x100\" or [4, 3], not {str(raw)[:40]!r}")


def _rows(raw: Any, symbols: Mapping[str, sp.Symbol], minus_infinity: bool,
          index: tuple[int, ...] | None = None) -> tuple[tuple[Given, ...], ...]:
    if isinstance(raw, bool) or raw is None:
        raise InputError(f"expected a value, not {raw!r}")
    if isinstance(raw, (list, tuple)):
        return tuple(tuple(given(x, symbols, minus_infinity) for x in row)
                     for row in matrix_rows(_listed(raw), index))
    if isinstance(raw, int):
        return tuple(tuple(given(x, symbols, minus_infinity) for x in row)
                     for row in matrix_rows(raw, index))
    text = str(raw)
    if len(text) > MAX_CLAIM_LENGTH:
        raise InputError(f"answer is {len(text)} characters long (limit {MAX_CLAIM_LENGTH})",
                         code="read_too_long", values=(str(len(text)), str(MAX_CLAIM_LENGTH)))
    return tuple(tuple(_given_text(t, symbols, minus_infinity) for t in row)
                 for row in split_structure(text, index))


def _listed(raw: Any) -> Any:
    """Tuples (from the Python API) as lists, so that nesting reads the same."""
    return [_listed(x) for x in raw] if isinstance(raw, (list, tuple)) else raw


def given(raw: Any, symbols: Mapping[str, sp.Symbol], minus_infinity: bool) -> Given:
    """One entry from a TOML scalar (int, decimal text or expression text)."""
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        return Given(repr(raw)[:40], None, error=f"expected a number or an expression, not {raw!r}"[:80],
                     reason=UNREADABLE)
    return _given_text(str(raw), symbols, minus_infinity)


def _given_text(text: str, symbols: Mapping[str, sp.Symbol], minus_infinity: bool) -> Given:
    try:
        plain = "".join(c for c, _ in fold(text)).strip()
        if (percent := _PERCENT.match(plain)):  # 53% is 0.53, to 2 places; 41.9% to 3
            value = parse_expression(percent[1]) / 100
            return Given(text.strip(), value, places=len(percent[2] or "") + 2)
        value = parse_expression(text, symbols=symbols, allow_neg_infinity=minus_infinity,
                                 max_exponent=MAX_CLAIM_EXPONENT)
    except InputError as error:
        return Given(text.strip(), None, error=str(error),
                     reason=entry_reason(text, error, symbols))
    if (match := _DECIMAL.match(plain)):
        return Given(text.strip(), value, places=len(match[2]))
    if (match := _SCIENTIFIC.match(plain)):
        digits = (match[1] + (match[2] or "")).lstrip("0")  # 0.0000e+00: a zero, to places
        places = len(match[2] or "") - int(match[3])
        return Given(text.strip(), value, places=places, sigfigs=len(digits) or None)
    return Given(text.strip(), value)


def parse_answers(table: Mapping[str, Any], symbols: Mapping[str, sp.Symbol], *,
                  source: str, where: str = "answers") -> tuple[Claim, ...]:
    """Every claim of an [answers] table; an unknown key is an error with its location."""
    claims = []
    for key, raw in table.items():
        try:
            claims.append(parse_claim(key, raw, symbols, strict=True))
        except InputError as error:
            raise error.located(source=source, key=f"{where}.{key!r}") from None
    return tuple(claims)


RULE_KEYS = ("tolerance", "relative_tolerance", "sigfigs", "rule")
GRADING_KEYS = frozenset({*RULE_KEYS, "rtol", "atol"})
ALLCLOSE_DEFAULTS = {"rtol": sp.Rational(1, 10 ** 5), "atol": sp.Rational(1, 10 ** 8)}
"""numpy.allclose's own defaults."""


def read_answers(data: Mapping[str, Any], symbols: Mapping[str, sp.Symbol],
                 source: str) -> tuple[Claim, ...]:
    """The claims of a document's [answers] table (none if it has no such table)."""
    table = data.get("answers", {})
    if not isinstance(table, dict):
        raise InputError("must be a table of claims, e.g. \"A[3]\" = \"(1/6, 1/2, 1/3)\"",
                         source=source, key="answers")
    return parse_answers(table, symbols, source=source)


def read_grading(data: Mapping[str, Any], source: str) -> Grading:
    """The [grading] table, at most one rule: tolerance (absolute), relative_tolerance, sigfigs,
    or rule = "float32" | "float64" | "allclose" (with rtol and atol, numpy's defaults)."""
    table = data.get("grading", {})
    if not isinstance(table, dict):
        raise InputError("must be a table", source=source, key="grading")
    unknown = set(table) - GRADING_KEYS
    if unknown:
        raise InputError(f"unknown key (expected one of {', '.join(sorted(GRADING_KEYS))})",
                         source=source, key=f"grading.{sorted(unknown)[0]}")
    if sum(key in table for key in RULE_KEYS) > 1:
        raise InputError("give one rule: tolerance, relative_tolerance, sigfigs or rule",
                         source=source, key="grading")
    loose = next((key for key in ("rtol", "atol") if key in table), None)
    if loose and table.get("rule") != "allclose":
        raise InputError('goes with rule = "allclose"', source=source, key=f"grading.{loose}")
    if "rule" in table:
        return _rule(table, source)
    if "sigfigs" in table:
        sigfigs = table["sigfigs"]
        if isinstance(sigfigs, bool) or not isinstance(sigfigs, int) or not 1 <= sigfigs <= MAX_SIGFIGS:
            raise InputError(f"must be an integer from 1 to {MAX_SIGFIGS}", source=source, key="grading.sigfigs")
        return Grading(sigfigs=sigfigs)
    for key, field in (("tolerance", "tolerance"), ("relative_tolerance", "relative")):
        if key in table:
            return Grading(**{field: _number(table[key], source, f"grading.{key}", positive=True)})
    return Grading()


def _rule(table: Mapping[str, Any], source: str) -> Grading:
    """rule = "float32" or "float64"; or "allclose" with its rtol and atol (numbers >= 0)."""
    rule = table["rule"]
    if not isinstance(rule, str) or rule not in GRADING_RULES:
        choices = ", ".join(f'"{name}"' for name in GRADING_RULES)
        raise InputError(f"must be one of {choices}", source=source, key="grading.rule")
    if rule != "allclose":
        return Grading(rule=rule)
    bounds = {key: _number(table[key], source, f"grading.{key}", positive=False)
              if key in table else default for key, default in ALLCLOSE_DEFAULTS.items()}
    return Grading(rule=rule, **bounds)


def _number(raw: Any, source: str, key: str, *, positive: bool) -> sp.Expr:
    """A number of the [grading] table, read by the project's parser (TOML numbers as their
    text): positive, or with positive=False at least 0."""
    what = "a positive number" if positive else "a number, 0 or more"
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise InputError(f"must be {what}", source=source, key=key)
    try:
        value = parse_expression(str(raw))
    except InputError as error:
        raise error.located(source=source, key=key) from None
    if (value.is_positive if positive else value.is_nonnegative) is not True:
        bound = "positive" if positive else "0 or more"
        raise InputError(f"must be {bound}; got {value}", source=source, key=key)
    return value


def load_answers(path: Path, symbols: Mapping[str, sp.Symbol]
                 ) -> tuple[tuple[Claim, ...], Grading | None]:
    """Claims from a separate TOML file with an [answers] table, and its [grading] table if it
    has one (it overrides the problem's: how a printout is to be judged travels with it)."""
    source = str(path)
    data = decode_toml(read_text(path, MAX_ANSWERS_BYTES), source)
    unknown = set(data) - {"answers", "grading"}
    if unknown:
        raise InputError("an answers file holds an [answers] table and optionally [grading]",
                         source=source, key=sorted(unknown)[0])
    if "answers" not in data:
        raise InputError("missing [answers] table", source=source, key="answers")
    grading = read_grading(data, source) if "grading" in data else None
    return read_answers(data, symbols, source), grading
