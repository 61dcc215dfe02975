"""The command line: symattn solve | check. Exit 0 ok, 1 a check failed, 2 bad input."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from .errors import SymattnError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
MAX_DIGITS = 1000


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line with exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{self.prog}: {message} (see '{self.prog} --help')")


class _UsageError(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="symattn", description="Exact scaled dot-product attention, "
                     "every stage shown and checked.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    solve = commands.add_parser("solve", help="compute every stage of a problem file")
    solve.add_argument("file", help="problem file (TOML)")
    solve.add_argument("--format", choices=("text", "json"), default="text")
    solve.add_argument("--places", type=int, default=4, help="decimal places shown (text)")
    solve.add_argument("-o", "--output", help="write here instead of standard output")
    check = commands.add_parser("check", help="prove the invariants and cross-check with mpmath")
    check.add_argument("file", help="problem file (TOML)")
    check.add_argument("--digits", type=int, default=50, help="mpmath digits (default 50)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (never raises for bad input)."""
    try:
        args = build_parser().parse_args(argv)
        return _run(args)
    except _UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SymattnError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return EXIT_FAILED
    except Exception as error:  # a bug in symattn: still one line, never a traceback
        print(f"error: internal error, please report: {type(error).__name__}: {error}",
              file=sys.stderr)
        return EXIT_INTERNAL


def _run(args: argparse.Namespace) -> int:
    from .attention import attend
    from .spec import load_problem

    trace = attend(load_problem(Path(args.file)))
    if args.command == "solve":
        return _solve(trace, args)
    return _check(trace, args)


def _solve(trace, args: argparse.Namespace) -> int:
    from .numeric import decimal_grid
    from .render import render

    if not 0 <= args.places <= 50:
        raise _UsageError("--places must be from 0 to 50")
    decimals = {name: decimal_grid(trace.stage(name), args.places) for name in ("A", "O")} \
        if args.format == "text" and not trace.problem.symbols else None
    _write(render(trace, args.format, decimals=decimals), args.output)
    return EXIT_OK


def _check(trace, args: argparse.Namespace) -> int:
    from .checks import check
    from .render import render_report

    if not 10 <= args.digits <= MAX_DIGITS:
        raise _UsageError(f"--digits must be from 10 to {MAX_DIGITS}")
    report = check(trace, digits=args.digits)
    print(render_report(report), end="")
    return EXIT_OK if report.passed else EXIT_FAILED


def _write(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise _OutputError(f"{output}: cannot write: {error.strerror or error}") from None


class _OutputError(SymattnError):
    pass
