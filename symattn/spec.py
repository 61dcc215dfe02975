"""Problem files (TOML) and plain matrices -> Problem, with every error naming file, key and column."""

from __future__ import annotations

from fractions import Fraction
from numbers import Integral
from pathlib import Path
from typing import Any, Mapping, Sequence

import sympy as sp

from .errors import InputError, ProblemError
from .expressions import CONSTANTS, FUNCTION_NAMES, INFINITY_NAMES, parse_expression
from .labels import check_label
from .answers import read_answers, read_grading
from .files import MAX_FILE_BYTES, TomlDecimal, decode_toml, read_text  # noqa: F401
from .layers import project, read_multi_head, read_projections
from .shapes import check_shapes, shape_problem
from .model import FULLY_MASKED_POLICIES, MASK_KINDS, MultiHeadProblem, Problem, ShapeProblem

MAX_SIDE = 512
EXTRA_TABLES = ("sweep", "gradient")  # validated by the modules that use them
TOP_KEYS = frozenset({"heads", "title", "tokens", "key_tokens", "symbols", "input", "attention",
                      "answers", "grading", "derivation", *EXTRA_TABLES})
DERIVATION_KEYS = {"lang": ("en", "zh"), "detail": ("summary", "standard", "full"),
                   "row": None, "places": None, "figure": None}
INPUT_KEYS = frozenset({"Q", "K", "V", "X", "Y", "W_Q", "W_K", "W_V", "W_O"})
ATTENTION_KEYS = frozenset({"mask", "keep", "key_lengths", "bias", "temperature", "scale",
                            "fully_masked"})
SYMBOL_KINDS = {"real": {"real": True}, "positive": {"positive": True}}
RESERVED_NAMES = frozenset(CONSTANTS) | FUNCTION_NAMES | INFINITY_NAMES


def load_problem(path_or_text: str | Path, *, source: str | None = None) -> Problem:
    """Read a problem from a TOML file path, or from TOML text when given a string with a newline.

    Raises:
        InputError: one line naming the file, the key path and (for entries) the column.
    """
    if isinstance(path_or_text, Path) or "\n" not in path_or_text and "=" not in path_or_text:
        path = Path(path_or_text)
        return parse_problem(read_text(path), source=source or str(path))
    return parse_problem(path_or_text, source=source or "<text>")


def parse_problem(text: str, *, source: str = "<text>") -> Problem | ShapeProblem:
    """Parse TOML text into a Problem, or a ShapeProblem when Q, K, V are given as shapes."""
    return Reader(source).problem(decode_toml(text, source))


class Reader:
    """Validates a decoded TOML document key by key; knows the file name for every error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, reason: str) -> InputError:
        return InputError(reason, source=self.source, key=key)

    def problem(self, data: Mapping[str, Any], where: str = "input"
                ) -> Problem | ShapeProblem | MultiHeadProblem:
        self.only(data, TOP_KEYS, "")
        symbols = self.symbols(data.get("symbols", {}))
        inputs = self.table(data, "input", required=True)
        self.only(inputs, INPUT_KEYS, "input")
        if "heads" in data:
            return read_multi_head(self, data, inputs, symbols)
        if "W_O" in inputs:
            raise self.fail("input.W_O", "W_O goes with [[heads]] (multi-head attention)")
        projections = None
        if "X" in inputs:
            if any(n in inputs for n in ("Q", "K", "V")):
                raise self.fail("input", "give either Q, K and V or X with W_Q, W_K and W_V, not both")
            projections = read_projections(self, inputs, symbols, where)
        else:
            for name in ("Q", "K", "V"):
                if name not in inputs:
                    raise self.fail(f"input.{name}", "missing (Q, K and V, or X with W_Q, W_K, W_V)")
        answers = read_answers(data, symbols, self.source)
        grading = read_grading(data, self.source)
        if projections is None and any(isinstance(inputs[n], dict) for n in ("Q", "K", "V")):
            return shape_problem(self, data, inputs, answers, grading)
        if projections is None:
            Q, K, V = (self.matrix(inputs[n], f"input.{n}", symbols) for n in ("Q", "K", "V"))
        else:
            Q, K, V = project(projections, self.source, where)
        check_shapes(Q, K, V, self.source)
        options = self.table(data, "attention", required=False)
        self.only(options, ATTENTION_KEYS, "attention")
        n_q, n_k = Q.rows, K.rows
        return Problem(
            Q=Q, K=K, V=V,
            mask=self.choice(options, "mask", MASK_KINDS, "none"),
            keep=self.keep(options.get("keep"), n_q, n_k),
            key_lengths=self.key_lengths(options.get("key_lengths"), n_q, n_k),
            bias=self.bias(options.get("bias"), n_q, n_k, symbols),
            temperature=self.temperature(options.get("temperature", 1), symbols),
            scale=self.scale(options.get("scale", "auto"), symbols),
            fully_masked=self.choice(options, "fully_masked", FULLY_MASKED_POLICIES, "error"),
            title=self.label(data["title"], "title") if "title" in data else None,
            tokens=self.labels(data.get("tokens"), "tokens", n_q),
            key_tokens=self.labels(data.get("key_tokens"), "key_tokens", n_k),
            symbols=tuple(symbols.values()),
            source=self.source,
            answers=answers,
            grading=grading,
            presentation=self.presentation(data, n_q),
            extra=tuple((name, data[name]) for name in EXTRA_TABLES if name in data),
            projections=projections,
        )

    def presentation(self, data: Mapping[str, Any], n_q: int) -> tuple[tuple[str, object], ...]:
        """The [derivation] table: default lang, detail, row, places and figure for this file."""
        table = self.table(data, "derivation", required=False)
        self.only(table, frozenset(DERIVATION_KEYS), "derivation")
        for key, value in table.items():
            where = f"derivation.{key}"
            if DERIVATION_KEYS[key] is not None and value not in DERIVATION_KEYS[key]:
                raise self.fail(where, f"must be one of {', '.join(map(repr, DERIVATION_KEYS[key]))}")
            limits = {"row": (1, n_q), "places": (0, 50)}.get(key)
            if key == "figure" and not isinstance(value, bool):
                raise self.fail(where, "must be true or false")
            if limits and (isinstance(value, bool) or not isinstance(value, int)
                           or not limits[0] <= value <= limits[1]):
                raise self.fail(where, f"must be an integer from {limits[0]} to {limits[1]}")
        return tuple(sorted(table.items()))

    def only(self, table: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
        for key in table:
            if key not in allowed:
                path = f"{where}.{_name(key)}" if where else _name(key)
                raise self.fail(path, f"unknown key (expected one of {', '.join(sorted(allowed))})")

    def table(self, data: Mapping[str, Any], key: str, *, required: bool) -> Mapping[str, Any]:
        if key not in data:
            if required:
                raise self.fail(key, "missing table")
            return {}
        if not isinstance(data[key], dict):
            raise self.fail(key, f"must be a table, not {_kind(data[key])}")
        return data[key]

    def symbols(self, table: Any) -> dict[str, sp.Symbol]:
        if not isinstance(table, dict):
            raise self.fail("symbols", f"must be a table, not {_kind(table)}")
        out = {}
        for name, kind in table.items():
            key = f"symbols.{_name(name)}"
            if not isinstance(name, str) or not name.isascii() or not name.isidentifier() \
                    or name.startswith("_") or len(name) > 32:
                raise self.fail(key, "a symbol name is letters, digits and '_', not starting with '_'")
            if name in RESERVED_NAMES:
                raise self.fail(key, f"'{name}' is a reserved name")
            if not isinstance(kind, str) or kind not in SYMBOL_KINDS:
                raise self.fail(key, 'must be "real" or "positive"')
            out[name] = sp.Symbol(name, **SYMBOL_KINDS[kind])
        return out

    def entry(self, value: Any, key: str, symbols: Mapping[str, sp.Symbol],
              allow_neg_infinity: bool = False) -> sp.Expr:
        if isinstance(value, sp.Expr):  # only from the Python API: the caller's own value
            return self.trusted(value, key, allow_neg_infinity)
        if isinstance(value, Fraction):
            return sp.Rational(value.numerator, value.denominator)
        if isinstance(value, float):
            raise self.fail(key, f"the float {value!r} is inexact; pass a string such as "
                                 f"'{value!r}' or a Fraction")
        if isinstance(value, bool) or not isinstance(value, (Integral, str)):
            raise self.fail(key, f"expected a number or a string expression, not {_kind(value)}")
        text = str(int(value)) if isinstance(value, Integral) else value
        try:
            return parse_expression(text, symbols=symbols, allow_neg_infinity=allow_neg_infinity)
        except InputError as error:
            raise error.located(source=self.source, key=key) from None

    def trusted(self, value: sp.Expr, key: str, allow_neg_infinity: bool) -> sp.Expr:
        if value is sp.S.NegativeInfinity and allow_neg_infinity:
            return value
        if value.is_finite is not True or value.is_real is not True:
            raise self.fail(key, f"{value} is not a finite real value")
        return value

    def rows(self, value: Any, key: str) -> list[list[Any]]:
        if not isinstance(value, list) or not value:
            raise self.fail(key, "must be a non-empty list of rows, e.g. [[1, 0], [0, 1]]")
        if len(value) > MAX_SIDE:
            raise self.fail(key, f"has {len(value)} rows (limit {MAX_SIDE})")
        width = None
        for i, row in enumerate(value, start=1):
            if not isinstance(row, list) or not row:
                raise self.fail(f"{key}[{i}]", f"each row must be a non-empty list, not {_kind(row)}")
            if len(row) > MAX_SIDE:
                raise self.fail(f"{key}[{i}]", f"has {len(row)} entries (limit {MAX_SIDE})")
            if width is not None and len(row) != width:
                raise self.fail(f"{key}[{i}]", f"has {len(row)} entries but row 1 has {width}")
            width = len(row)
        return value

    def matrix(self, value: Any, key: str, symbols: Mapping[str, sp.Symbol],
               allow_neg_infinity: bool = False) -> sp.ImmutableMatrix:
        rows = self.rows(value, key)
        return sp.ImmutableMatrix([[self.entry(x, f"{key}[{i}][{j}]", symbols, allow_neg_infinity)
                                    for j, x in enumerate(row, start=1)]
                                   for i, row in enumerate(rows, start=1)])

    def expect_shape(self, key: str, shape: tuple[int, int], n_q: int, n_k: int) -> None:
        if shape != (n_q, n_k):
            raise ProblemError(f"shape {shape[0]}x{shape[1]} does not match the scores, "
                               f"n_q x n_k = {n_q}x{n_k}", source=self.source, key=key)

    def keep(self, value: Any, n_q: int, n_k: int) -> tuple[tuple[bool, ...], ...] | None:
        if value is None:
            return None
        rows = self.rows(value, "attention.keep")
        for i, row in enumerate(rows, start=1):
            for j, x in enumerate(row, start=1):
                if not isinstance(x, bool):
                    raise self.fail(f"attention.keep[{i}][{j}]", "must be true or false")
        self.expect_shape("attention.keep", (len(rows), len(rows[0])), n_q, n_k)
        return tuple(tuple(row) for row in rows)

    def key_lengths(self, value: Any, n_q: int, n_k: int) -> tuple[int, ...] | None:
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != n_q:
            raise self.fail("attention.key_lengths", f"must be a list of {n_q} integers, one per query")
        for i, x in enumerate(value, start=1):
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= n_k:
                raise self.fail(f"attention.key_lengths[{i}]", f"must be an integer from 0 to {n_k}")
        return tuple(value)

    def bias(self, value: Any, n_q: int, n_k: int,
             symbols: Mapping[str, sp.Symbol]) -> sp.ImmutableMatrix | None:
        if value is None:
            return None
        matrix = self.matrix(value, "attention.bias", symbols, allow_neg_infinity=True)
        self.expect_shape("attention.bias", matrix.shape, n_q, n_k)
        return matrix

    def positive(self, value: Any, key: str, symbols: Mapping[str, sp.Symbol]) -> sp.Expr:
        number = self.entry(value, key, symbols)
        if number.is_positive is not True:
            if number.free_symbols and number.is_positive is None:
                raise self.fail(key, f'must be known to be positive; got {number} '
                                '(declare its symbols "positive")')
            raise self.fail(key, f"must be positive; got {number}")
        return number

    def temperature(self, value: Any, symbols: Mapping[str, sp.Symbol]) -> sp.Expr:
        return self.positive(value, "attention.temperature", symbols)

    def scale(self, value: Any, symbols: Mapping[str, sp.Symbol]) -> sp.Expr | None:
        if value == "auto":
            return None
        if value == "none":
            return sp.S.One
        return self.positive(value, "attention.scale", symbols)

    def choice(self, table: Mapping[str, Any], key: str, allowed: Sequence[str], default: str) -> str:
        value = table.get(key, default)
        if value not in allowed:
            raise self.fail(f"attention.{key}", f"must be one of {', '.join(map(repr, allowed))}")
        return value

    def label(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, not {_kind(value)}")
        try:
            return check_label(value)
        except InputError as error:
            raise error.located(source=self.source, key=key) from None

    def labels(self, value: Any, key: str, count: int) -> tuple[str, ...] | None:
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != count:
            raise self.fail(key, f"must be a list of {count} strings, one per row")
        return tuple(self.label(x, f"{key}[{i}]") for i, x in enumerate(value, start=1))


def _name(key: Any) -> str:
    """A key as it may appear in a one-line message (quoted unless printable text)."""
    return key if isinstance(key, str) and key.isprintable() and key else repr(key)


def _kind(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", str: "a string", list: "a list",
             dict: "a table", TomlDecimal: "a number"}
    return names.get(type(value), f"a {type(value).__name__}")
