"""The project's errors: one base, each also the matching built-in, each a one-line message."""

from __future__ import annotations


class SymattnError(Exception):
    """Base of every error symattn raises on purpose."""


class UndecidedError(SymattnError, ArithmeticError):
    """An exact question (is this value 0?) that the bounded proof could not settle."""


class InputError(SymattnError, ValueError):
    """Bad user text or file: carries where (file, key path, column) and why; `code` and
    `values` name the reason as a phrase (words/) where feedback translates it."""

    def __init__(self, reason: str, *, source: str | None = None, key: str | None = None,
                 column: int | None = None, code: str | None = None,
                 values: tuple[str, ...] = ()) -> None:
        self.reason = reason
        self.source = source
        self.key = key
        self.column = column
        self.code = code
        self.values = values
        super().__init__(self._message())

    def _message(self) -> str:
        where = [part for part in (self.source, self.key) if part]
        if self.column is not None:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def located(self, *, source: str | None = None, key: str | None = None) -> InputError:
        """Return a copy that also names the file and key path (kept if already set)."""
        return InputError(self.reason, source=self.source or source, key=self.key or key,
                          column=self.column, code=self.code, values=self.values)

    def __reduce__(self):  # keeps keyword fields across process boundaries
        return (_rebuild_input_error, (self.reason, self.source, self.key, self.column,
                                       self.code, self.values))


def _rebuild_input_error(reason: str, source: str | None, key: str | None,
                         column: int | None, code: str | None = None,
                         values: tuple[str, ...] = ()) -> InputError:
    return InputError(reason, source=source, key=key, column=column, code=code, values=values)


class ProblemError(InputError):
    """A problem that parses but cannot be computed as stated (shapes, fully masked rows)."""


class OutputError(SymattnError):
    """An output (-o, generate's folder) that cannot or may not be written: one line, exit 2."""
