"""What every command shares: exit codes, writing the result, usage errors, a progress bar."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TextIO

from ..errors import SymattnError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class UsageError(SymattnError):
    """A bad command line: printed as one line, exit code 2."""


class OutputError(SymattnError):
    """The output file cannot be written."""


def write(text: str, output: str | None) -> None:
    """Write to the file named by -o, or to standard output."""
    if output is None:
        sys.stdout.write(text)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise OutputError(f"{output}: cannot write: {error.strerror or error}") from None


class ProgressBar:
    """A one-line progress bar on a terminal, redrawn at most ten times a second."""

    def __init__(self, stream: TextIO, unit: str = "answers", verb: str = "grading") -> None:
        self.stream, self.clock, self.last = stream, time.monotonic, 0.0
        self.unit, self.verb = unit, verb

    def update(self, done: int, total: int) -> None:
        now = self.clock()
        if now - self.last < 0.1 and done < total:
            return
        self.last = now
        filled = int(30 * done / total)
        self.stream.write(f"\r{self.verb} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {self.unit}")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def progress_bar(unit: str, verb: str) -> ProgressBar | None:
    """A progress bar on standard error when it is a terminal, else None."""
    return ProgressBar(sys.stderr, unit, verb) if sys.stderr.isatty() else None
