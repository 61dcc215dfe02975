"""[answers] and [grading] tables, in a problem file or a separate answers file -> Claims, Grading."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import sympy as sp

from .claims import Claim, parse_answers
from .errors import InputError
from .expressions import parse_expression
from .files import decode_toml, read_text
from .model import Grading

GRADING_KEYS = frozenset({"tolerance", "relative_tolerance", "sigfigs"})


def read_answers(data: Mapping[str, Any], symbols: Mapping[str, sp.Symbol],
                 source: str) -> tuple[Claim, ...]:
    """The claims of a document's [answers] table (none if it has no such table)."""
    table = data.get("answers", {})
    if not isinstance(table, dict):
        raise InputError("must be a table of claims, e.g. \"A[3]\" = \"(1/6, 1/2, 1/3)\"",
                         source=source, key="answers")
    return parse_answers(table, symbols, source=source)


def read_grading(data: Mapping[str, Any], source: str) -> Grading:
    """The [grading] table: tolerance (absolute), relative_tolerance, or sigfigs; at most one."""
    table = data.get("grading", {})
    if not isinstance(table, dict):
        raise InputError("must be a table", source=source, key="grading")
    unknown = set(table) - GRADING_KEYS
    if unknown:
        raise InputError(f"unknown key (expected one of {', '.join(sorted(GRADING_KEYS))})",
                         source=source, key=f"grading.{sorted(unknown)[0]}")
    if len(table) > 1:
        raise InputError("give one rule: tolerance, relative_tolerance or sigfigs",
                         source=source, key="grading")
    if "sigfigs" in table:
        sigfigs = table["sigfigs"]
        if isinstance(sigfigs, bool) or not isinstance(sigfigs, int) or not 1 <= sigfigs <= 50:
            raise InputError("must be an integer from 1 to 50", source=source, key="grading.sigfigs")
        return Grading(sigfigs=sigfigs)
    for key, field in (("tolerance", "tolerance"), ("relative_tolerance", "relative")):
        if key in table:
            return Grading(**{field: _positive(table[key], source, f"grading.{key}")})
    return Grading()


def _positive(raw: Any, source: str, key: str) -> sp.Expr:
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise InputError("must be a positive number", source=source, key=key)
    try:
        value = parse_expression(str(raw))
    except InputError as error:
        raise error.located(source=source, key=key) from None
    if value.is_positive is not True:
        raise InputError(f"must be positive; got {value}", source=source, key=key)
    return value


def load_answers(path: Path, symbols: Mapping[str, sp.Symbol]) -> tuple[Claim, ...]:
    """Claims from a separate TOML file with an [answers] table."""
    source = str(path)
    data = decode_toml(read_text(path), source)
    unknown = set(data) - {"answers"}
    if unknown:
        raise InputError("an answers file holds only an [answers] table", source=source,
                         key=sorted(unknown)[0])
    if "answers" not in data:
        raise InputError("missing [answers] table", source=source, key="answers")
    return read_answers(data, symbols, source)
