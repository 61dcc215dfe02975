"""The project's errors: one base, each also the matching built-in, each a one-line message."""

from __future__ import annotations


class SymattnError(Exception):
    """Base of every error symattn raises on purpose."""


class UndecidedError(SymattnError, ArithmeticError):
    """An exact question (is this value 0?) that the bounded proof could not settle."""


class InputError(SymattnError, ValueError):
    """Bad user text or file: carries where (file, key path, column) and why."""

    def __init__(self, reason: str, *, source: str | None = None, key: str | None = None,
                 column: int | None = None) -> None:
        self.reason = reason
        self.source = source
        self.key = key
        self.column = column
        super().__init__(self._message())

    def _message(self) -> str:
        where = [part for part in (self.source, self.key) if part]
        if self.column is not None:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def located(self, *, source: str | None = None, key: str | None = None) -> InputError:
        """Return a copy that also names the file and key path (kept if already set)."""
        return InputError(self.reason, source=self.source or source, key=self.key or key,
                          column=self.column)

    def __reduce__(self):  # keeps keyword fields across process boundaries
        return (_rebuild_input_error, (self.reason, self.source, self.key, self.column))


def _rebuild_input_error(reason: str, source: str | None, key: str | None,
                         column: int | None) -> InputError:
    return InputError(reason, source=source, key=key, column=column)


class ProblemError(InputError):
    """A problem that parses but cannot be computed as stated (shapes, fully masked rows)."""
