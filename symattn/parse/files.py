"""Reading user files: regular files only, size-limited, UTF-8, TOML keeping decimals as text."""

from __future__ import annotations

import os
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..limits import MAX_FILE_BYTES

_NO_WAIT = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
"""A FIFO swapped in after the stat is not waited on in open; a terminal is not made ours."""
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a pipe or FIFO"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def not_regular(mode: int) -> str | None:
    """Why a file of this st_mode is no regular file ("not a regular file (a socket)"), or None."""
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "another kind of file")
    return f"not a regular file ({kind})"


def read_bytes(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes: a FIFO, pipe, device, socket or
    directory is refused by its kind before it is read (opened, if at all, without waiting),
    and never more than limit + 1 bytes are read."""
    def refused(reason: str) -> InputError:
        return InputError(reason, source=str(path))
    try:
        why = not_regular(os.stat(path).st_mode)  # a FIFO is refused before open could wait
        if why:
            raise refused(f"cannot read file: {why}")
        descriptor = os.open(path, os.O_RDONLY | _NO_WAIT)
        with os.fdopen(descriptor, "rb") as file:
            status = os.fstat(file.fileno())  # the file opened, were it swapped since the stat
            why = not_regular(status.st_mode)
            if why:
                raise refused(f"cannot read file: {why}")
            if status.st_size > limit:
                raise refused(f"file is {status.st_size} bytes (limit {limit})")
            data = file.read(limit + 1)  # a file still growing is not read past the limit
    except OSError as error:
        raise refused(f"cannot read file: {error.strerror or error}") from None
    if len(data) > limit:
        raise refused(f"file is over {limit} bytes")
    return data


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """The file's text: UTF-8 (a BOM is allowed), a regular file of at most `limit` bytes."""
    return _decoded(read_bytes(path, limit), str(path))


STDIN = "<stdin>"
"""How standard input is named in messages (a problem file given as '-')."""


def read_stdin(limit: int = MAX_FILE_BYTES) -> str:
    """Standard input's text, as read_text reads a file: never more than limit + 1 bytes."""
    try:
        data = sys.stdin.buffer.read(limit + 1)
    except (OSError, ValueError) as error:  # closed, or not readable (no terminal, no pipe)
        raise InputError(f"cannot read standard input: {error}", source=STDIN) from None
    if len(data) > limit:
        raise InputError(f"standard input is over {limit} bytes", source=STDIN)
    return _decoded(data, STDIN)


def _decoded(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (bad byte at offset {error.start})",
                         source=source) from None


def decode_toml(text: str, source: str) -> dict[str, Any]:
    """TOML text -> a dict, decimals kept as their text; a leading byte order mark is ignored."""
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"text is {len(text)} characters (limit {MAX_FILE_BYTES})", source=source)
    if "\x00" in text:
        raise InputError("file contains a NUL character", source=source)
    try:
        data = tomllib.loads(text, parse_float=TomlDecimal)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"TOML syntax: {error}", source=source) from None
    except RecursionError:
        raise InputError("TOML nested too deeply", source=source) from None
    except ValueError as error:  # an integer literal beyond Python's digit limit
        reason = "an integer has too many digits" if "digits" in str(error) else str(error)
        raise InputError(f"TOML value: {reason}", source=source) from None
    return data


class TomlDecimal(str):
    """A TOML float kept as its literal text, so 0.85 means exactly 17/20 (1_000.5 is 1000.5)."""

    def __new__(cls, text: str) -> TomlDecimal:
        return super().__new__(cls, text.replace("_", ""))


