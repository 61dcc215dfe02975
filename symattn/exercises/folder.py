"""Writing generated files into a folder: never through a symbolic link, never over a file unasked."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import OutputError
from ..parse.files import not_regular

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY


def write_files(files: list[tuple[str, str]], directory: Path, *, force: bool = False) -> None:
    """Write each (name, text) into the folder, created if missing; every name is checked
    before any is written: a link (the folder or a file) is refused, an existing file is
    refused unless `force`.

    Raises:
        OutputError: "out/causal_01.toml: exists (--force overwrites it)", "out: is a symbolic
            link (generate does not write through links)", "out: cannot write: File exists".
    """
    try:
        _refuse_link(directory)
        directory.mkdir(parents=True, exist_ok=True)
        for name, _ in files:
            _refuse_existing(directory / name, force)
        for name, text in files:
            _write(directory / name, text.encode("utf-8"), force)
    except OSError as error:
        raise OutputError(f"{directory}: cannot write: {error.strerror or error}") from None


def _refuse_link(path: Path) -> None:
    if path.is_symlink():
        raise OutputError(f"{path}: is a symbolic link (generate does not write through links)")


def _refuse_existing(path: Path, force: bool) -> None:
    """Refuse a link, anything but a regular file, and (unless force) a file at the path."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    _refuse_link(path)
    why = not_regular(mode)
    if why:
        raise OutputError(f"{path}: cannot write: {why}")
    if not force:
        raise OutputError(f"{path}: exists (--force overwrites it)")


def _write(path: Path, data: bytes, force: bool) -> None:
    """Write one file: O_NOFOLLOW and O_EXCL (O_TRUNC with force) hold even against a race."""
    descriptor = os.open(path, _FLAGS | (os.O_TRUNC if force else os.O_EXCL), 0o666)
    with os.fdopen(descriptor, "wb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OutputError(f"{path}: cannot write: not a regular file")
        file.write(data)
