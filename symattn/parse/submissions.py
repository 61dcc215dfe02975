"""A class's submissions (CSV): a header `id,<claim key>,...`, then one row of answers per student."""

from __future__ import annotations

import csv
import io
import itertools
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterator

from ..errors import InputError
from ..limits import MAX_CSV_CELL, MAX_LABEL, MAX_SUBMISSIONS_BYTES
from ..words import reason_text
from .claims import parse_key
from .files import read_bytes
from .labels import shown_escaped
from .reasons import Reason

RESYNC_ERRORS = 20
"""After this many rows that are no CSV record, each further line is read on its own: a quote
left open cannot make every later line be read again (the work stays linear in the file)."""


@dataclass(frozen=True)
class Submissions:
    """The claim keys (CSV header after the id column) and each student's answers as text.

    A row that cannot be read as answers (a CSV error such as a stray quote or a cell over
    MAX_CSV_CELL characters, a NUL, bytes that are not UTF-8, too many or too few cells)
    stays in `students` with empty answers, and `refused` says why, with its line, as a
    reason of words/reading.py: ("read_row", 5, ("row_nul",)). Nobody else's answers depend
    on it.
    """

    keys: tuple[str, ...]
    students: tuple[tuple[str, tuple[str, ...]], ...]  # (id as shown, one answer per key)
    refused: tuple[tuple[int, Reason], ...] = ()  # (student, ("read_row", line, why))


def read_submissions(path: Path) -> Submissions:
    """Read the CSV: a header `id,<claim key>,...`, then one row per student.

    Raises:
        InputError: only for a file that cannot be read at all: missing, too large, or a
            header that is not `id,<claim key>,...` (named by its line and column); a FIFO,
            device or directory is refused unread (parse.files.read_bytes).
    """
    source = str(path)
    text = read_bytes(path, MAX_SUBMISSIONS_BYTES).decode("utf-8-sig", errors="surrogateescape")
    lines = io.StringIO(text, newline="").readlines()
    records = [r for r in _records(lines) if r[1] is None or any(c.strip() for c in r[1])]
    keys = _header(records[0] if records else (1, [], None), source)
    students: list[tuple[str, tuple[str, ...]]] = []
    refused: list[tuple[int, Reason]] = []
    for line, cells, error in records[1:]:
        why = error if cells is None else _row_problem(cells, len(keys) + 1)
        if why:
            first = cells[0] if cells else lines[line - 1].split(",", 1)[0].strip('"\r\n ')
            refused.append((len(students), ("read_row", line, why)))
            students.append((_shown_id(first), ("",) * len(keys)))
        else:
            assert cells is not None  # a record without cells has its error
            students.append((_shown_id(cells[0]), tuple(cells[1:])))
    return Submissions(keys, tuple(students), tuple(refused))


def _records(lines: list[str]) -> Iterator[tuple[int, list[str] | None, Reason | None]]:
    """(first line, cells, None) for each CSV record, or (line, None, the CSV error): after an
    error, reading starts again on the line after the record's first, so a stray quote costs
    its own row only (RESYNC_ERRORS bounds the lines read again)."""
    start, errors, limit = 0, 0, csv.field_size_limit()
    csv.field_size_limit(MAX_CSV_CELL)
    try:
        while start < len(lines):
            whole = errors < RESYNC_ERRORS
            reader = csv.reader(itertools.islice(lines, start, None if whole else start + 1),
                                strict=True)
            done = 0  # lines read before the current record
            try:
                for cells in reader:
                    yield start + done + 1, cells, None
                    done = reader.line_num
                if whole:
                    return
                start += 1
            except csv.Error as error:
                yield start + done + 1, None, ("row_csv", str(error))
                start, errors = start + done + 1, errors + 1
    finally:
        csv.field_size_limit(limit)


def _header(record: tuple[int, list[str] | None, Reason | None], source: str) -> tuple[str, ...]:
    """The claim keys of line 1; a header that cannot be read refuses the whole file."""
    line, cells, error = record
    why = error if cells is None else _row_problem(cells, None)
    if why or cells is None or len(cells) < 2:
        raise InputError(reason_text(why, "en") if why else "the first line must be a header: "
                         "id, then one column per claim key", source=source, key=f"line {line}")
    keys = tuple(k.strip() for k in cells[1:])
    for column, key in enumerate(keys, start=2):
        try:
            parse_key(key)
        except InputError as failure:
            hint = " (a key with a comma must be quoted: \"O[3,1]\")" if key.count("[") > key.count("]") else ""
            raise InputError(failure.reason + hint, source=source, key=f"line {line}",
                             column=column) from None
    return keys


def _row_problem(cells: list[str], width: int | None) -> Reason | None:
    """Why a row's cells cannot be taken as they are (None when they can)."""
    if any("\x00" in cell for cell in cells):
        return ("row_nul",)
    bad = next((c for cell in cells for c in cell if "\udc80" <= c <= "\udcff"), None)
    if bad is not None:
        return ("row_not_utf8", f"{ord(bad) - 0xDC00:02X}")
    if width is not None and len(cells) != width:
        return ("row_cells", len(cells), width)
    return None


def _shown_id(text: str) -> str:
    """The id as it may be shown: control, bidi and escape characters written as \\x1b,
    \\u202e (bytes that are not UTF-8 as \\udcff); cut to MAX_LABEL characters."""
    text = text.strip()
    return shown_escaped(text[:MAX_LABEL]) + ("…" if len(text) > MAX_LABEL else "")
