"""A class's submissions (CSV): a header `id,<claim key>,...`, then one row of answers per student."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..limits import MAX_SUBMISSIONS_BYTES
from .claims import parse_key


@dataclass(frozen=True)
class Submissions:
    """The claim keys (CSV header after the id column) and each student's answers as text."""

    keys: tuple[str, ...]
    students: tuple[tuple[str, tuple[str, ...]], ...]  # (id, one answer per key)


def read_submissions(path: Path) -> Submissions:
    """Read the CSV: a header `id,<claim key>,...`, then one row per student."""
    source = str(path)
    try:
        if path.stat().st_size > MAX_SUBMISSIONS_BYTES:
            raise InputError(f"file is over {MAX_SUBMISSIONS_BYTES} bytes", source=source)
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as error:
        raise InputError(f"cannot read file: {error.strerror or error}", source=source) from None
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (bad byte at offset {error.start})", source=source) from None
    if "\x00" in text:
        raise InputError("file contains a NUL character", source=source)
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as error:
        raise InputError(f"CSV: {error}", source=source) from None
    if not rows or len(rows[0]) < 2:
        raise InputError("the first line must be a header: id, then one column per claim key",
                         source=source, key="line 1")
    keys = tuple(k.strip() for k in rows[0][1:])
    for column, key in enumerate(keys, start=2):
        try:
            parse_key(key)
        except InputError as error:
            hint = " (a key with a comma must be quoted: \"O[3,1]\")" if key.count("[") > key.count("]") else ""
            raise InputError(error.reason + hint, source=source, key="line 1", column=column) from None
    students = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(keys) + 1:
            raise InputError(f"{len(row)} cells but the header has {len(keys) + 1}",
                             source=source, key=f"line {line}")
        answers = tuple(row[1:]) + ("",) * (len(keys) + 1 - len(row))
        students.append((row[0].strip(), answers))
    return Submissions(keys, tuple(students))
