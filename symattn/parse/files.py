"""Reading user files: a size limit, UTF-8 (a BOM is allowed), TOML with decimals kept as text."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..limits import MAX_FILE_BYTES


def read_text(path: Path) -> str:
    """The file's text: UTF-8 (a BOM is allowed), at most MAX_FILE_BYTES."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(f"file is {size} bytes (limit {MAX_FILE_BYTES})", source=str(path))
        with path.open("rb") as file:  # at most one byte past the limit, even from a device
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise InputError(f"cannot read file: {error.strerror or error}", source=str(path)) from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"file is over {MAX_FILE_BYTES} bytes", source=str(path))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (bad byte at offset {error.start})",
                         source=str(path)) from None


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


