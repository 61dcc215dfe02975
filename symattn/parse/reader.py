"""A decoded TOML document validated key by key: every error names the file and the key path."""

from __future__ import annotations

import re
from fractions import Fraction
from numbers import Integral
from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from ..errors import InputError, ProblemError
from ..limits import MAX_SIDE, MAX_SYMBOL_NAME
from .batches import BatchError, matrix_rows, shape_of
from .expressions import CONSTANTS, INFINITY_NAMES, parse_expression
from .files import TomlDecimal
from .labels import check_label
from .printouts import printout_tree
from .tokens import FUNCTION_NAMES

_DECIMAL = re.compile(r"\d\.|\.\d|\d[eE][+-]?\d")  # a number written with a point or exponent
_TRAILING_ZERO = re.compile(r"\s*[+-]?\d*\.\d*0\s*")  # 1.5440, 2.0, -0.50: shown with its zeros
SYMBOL_KINDS = {"real": {"real": True}, "positive": {"positive": True}}
RESERVED_NAMES = frozenset(CONSTANTS) | FUNCTION_NAMES | INFINITY_NAMES


class Reader:
    """Validates a decoded TOML document key by key; knows the file name for every error."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.decimal_keys: list[str] = []  # entries written as decimals (0.85, 2e-3), in order
        self.written: dict[sp.Rational, str] = {}  # a decimal's text when it ends in zeros
        self.batches: dict[str, tuple[int, ...]] = {}  # key -> the batch axes its index picked from

    def fail(self, key: str, reason: str) -> InputError:
        return InputError(reason, source=self.source, key=key)

    def only(self, table: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
        for key in table:
            if key not in allowed:
                path = f"{where}.{key_text(key)}" if where else key_text(key)
                raise self.fail(path, f"unknown key (expected one of {', '.join(sorted(allowed))})")

    def table(self, data: Mapping[str, Any], key: str, *, required: bool) -> Mapping[str, Any]:
        if key not in data:
            if required:
                raise self.fail(key, "missing table")
            return {}
        if not isinstance(data[key], dict):
            raise self.fail(key, f"must be a table, not {kind_of(data[key])}")
        return data[key]

    def symbols(self, table: Any) -> dict[str, sp.Symbol]:
        if not isinstance(table, dict):
            raise self.fail("symbols", f"must be a table, not {kind_of(table)}")
        out = {}
        for name, kind in table.items():
            key = f"symbols.{key_text(name)}"
            if not isinstance(name, str) or not name.isascii() or not name.isidentifier() \
                    or name.startswith("_") or len(name) > MAX_SYMBOL_NAME:
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
            raise self.fail(key, f"expected a number or a string expression, not {kind_of(value)}")
        text = str(int(value)) if isinstance(value, Integral) else value
        if _DECIMAL.search(text):
            self.decimal_keys.append(key)
        try:
            parsed = parse_expression(text, symbols=symbols, allow_neg_infinity=allow_neg_infinity)
        except InputError as error:
            raise error.located(source=self.source, key=key) from None
        if _TRAILING_ZERO.fullmatch(text):
            self.written.setdefault(parsed, text.strip().lstrip("+"))
        return parsed

    def trusted(self, value: sp.Expr, key: str, allow_neg_infinity: bool) -> sp.Expr:
        if value is sp.S.NegativeInfinity and allow_neg_infinity:
            return value
        if value.is_finite is not True or value.is_real is not True:
            raise self.fail(key, f"{value} is not a finite real value")
        return value

    def rows(self, value: Any, key: str) -> list[list[Any]]:
        """A matrix's rows as written: a list of rows, a nested list with axes of size 1 (a
        batch of one), a pasted printout, or {value = ..., index = [i]}: element i of a batch."""
        value = self.unbatched(value, key)
        if not isinstance(value, list) or not value:
            raise self.fail(key, "must be a non-empty list of rows, e.g. [[1, 0], [0, 1]]")
        if len(value) > MAX_SIDE:
            raise self.fail(key, f"has {len(value)} rows (limit {MAX_SIDE})")
        width = None
        for i, row in enumerate(value, start=1):
            if not isinstance(row, list) or not row:
                raise self.fail(f"{key}[{i}]", f"each row must be a non-empty list, not {kind_of(row)}")
            if len(row) > MAX_SIDE:
                raise self.fail(f"{key}[{i}]", f"has {len(row)} entries (limit {MAX_SIDE})")
            if width is not None and len(row) != width:
                raise self.fail(f"{key}[{i}]", f"has {len(row)} entries but row 1 has {width}")
            width = len(row)
        return value

    def unbatched(self, value: Any, key: str) -> Any:
        """Two axes of a value pasted from a batched printout (or the value itself)."""
        index = None
        if isinstance(value, dict):
            self.only(value, frozenset({"value", "index"}), key)
            if "value" not in value:
                raise self.fail(key, "a matrix given as a table needs value = ... (and index = [...])")
            index = value.get("index")
            if index is not None and (not isinstance(index, list) or not index or any(
                    isinstance(i, bool) or not isinstance(i, int) or i < 0 for i in index)):
                raise self.fail(f"{key}.index", "must be a list of whole numbers from 0, such as "
                                "[0] or [0, 1]: the matrix x[0, 1] of a batched printout")
            value, index = value["value"], None if index is None else tuple(index)
        try:
            tree, stated = printout_tree(value) if isinstance(value, str) else (value, None)
            if index is not None and isinstance(tree, list):  # x[0] of a (2, 6, 3): from (2,)
                self.batches[key] = shape_of(tree)[:len(index)]
            if isinstance(value, str) or isinstance(value, list) and (index is not None
                                                                       or _nested(value)):
                return matrix_rows(tree, index, stated)
        except BatchError as error:
            raise error.located(source=self.source, key=key) from None
        except InputError as error:
            if index is None and isinstance(value, list):
                return value  # irregular lists: each entry is refused where it is
            raise error.located(source=self.source, key=key) from None
        return value

    def matrix(self, value: Any, key: str, symbols: Mapping[str, sp.Symbol],
               allow_neg_infinity: bool = False) -> sp.ImmutableMatrix:
        rows = self.rows(value, key)
        return sp.ImmutableMatrix([[self.entry(x, f"{key}[{i}][{j}]", symbols, allow_neg_infinity)
                                    for j, x in enumerate(row, start=1)]
                                   for i, row in enumerate(rows, start=1)])

    def vector(self, value: Any, key: str, symbols: Mapping[str, sp.Symbol]) -> sp.ImmutableMatrix:
        """A vector (a bias): a list of entries, or a 1 x d or d x 1 matrix; returned as one row."""
        if isinstance(value, list) and value and not any(isinstance(x, list) for x in value):
            if len(value) > MAX_SIDE:
                raise self.fail(key, f"has {len(value)} entries (limit {MAX_SIDE})")
            return sp.ImmutableMatrix([[self.entry(x, f"{key}[{j}]", symbols)
                                        for j, x in enumerate(value, start=1)]])
        matrix = self.matrix(value, key, symbols)
        if matrix.rows != 1 and matrix.cols != 1:
            raise self.fail(key, f"must be a vector: a list, or a 1 x d or d x 1 matrix, not "
                            f"{matrix.rows}x{matrix.cols}")
        return matrix if matrix.rows == 1 else matrix.T

    def expect_shape(self, key: str, shape: tuple[int, int], n_q: int, n_k: int,
                     columns: bool = False) -> None:
        """The shape of the scores: n_q x n_k, or n_k x n_q when laid out in columns."""
        wanted, names = ((n_k, n_q), "n_k x n_q") if columns else ((n_q, n_k), "n_q x n_k")
        if shape != wanted:
            raise ProblemError(f"shape {shape[0]}x{shape[1]} does not match the scores, "
                               f"{names} = {wanted[0]}x{wanted[1]}", source=self.source, key=key)

    def positive(self, value: Any, key: str, symbols: Mapping[str, sp.Symbol]) -> sp.Expr:
        number = self.entry(value, key, symbols)
        if number.is_positive is not True:
            if number.free_symbols and number.is_positive is None:
                raise self.fail(key, f'must be known to be positive; got {number} '
                                '(declare its symbols "positive")')
            raise self.fail(key, f"must be positive; got {number}")
        return number

    def choice(self, table: Mapping[str, Any], key: str, allowed: Sequence[str], default: str,
               where: str = "attention") -> str:
        value = table.get(key, default)
        if value not in allowed:
            raise self.fail(f"{where}.{key}", f"must be one of {', '.join(map(repr, allowed))}")
        return value

    def label(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, not {kind_of(value)}")
        try:
            return check_label(value)
        except InputError as error:
            raise error.located(source=self.source, key=key) from None

    def titles(self, data: Mapping[str, Any]) -> tuple[str | None, str | None]:
        """title = "..." (with title_zh = "..." for Chinese), or a [title] table with en and zh."""
        value = data.get("title")
        if isinstance(value, dict):
            self.only(value, frozenset({"en", "zh"}), "title")
            if "title_zh" in data:
                raise self.fail("title_zh", "give the Chinese title once: in [title] or here")
            found = tuple(self.label(value[k], f"title.{k}") if k in value else None
                          for k in ("en", "zh"))
            return found[0] or found[1], found[1]
        title = self.label(value, "title") if value is not None else None
        return title, self.label(data["title_zh"], "title_zh") if "title_zh" in data else None

    def labels(self, value: Any, key: str, count: int) -> tuple[str, ...] | None:
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != count:
            raise self.fail(key, f"must be a list of {count} strings, one per row")
        labels = tuple(self.label(x, f"{key}[{i}]") for i, x in enumerate(value, start=1))
        for i, label in enumerate(labels, start=1):
            if not label.strip():  # it would print as "Rows (queries): , tok2."
                raise self.fail(f"{key}[{i}]", "a token label must not be empty or blank")
        return labels


def _nested(value: list[Any]) -> bool:
    """Whether a list has more than two axes (a batch axis in front)."""
    return bool(value) and isinstance(value[0], list) and bool(value[0]) \
        and isinstance(value[0][0], list)


def key_text(key: Any) -> str:
    """A key as it may appear in a one-line message (quoted unless printable text)."""
    return key if isinstance(key, str) and key.isprintable() and key else repr(key)


def kind_of(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", str: "a string", list: "a list",
             dict: "a table", TomlDecimal: "a number"}
    return names.get(type(value), f"a {type(value).__name__}")
