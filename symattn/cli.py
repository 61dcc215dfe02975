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
    solve.add_argument("--format", choices=("text", "json", "latex", "markdown"), default="text")
    solve.add_argument("--lang", choices=("en", "zh"),
                       help="language of a derivation (latex, markdown)")
    solve.add_argument("--detail", choices=("summary", "standard", "full"),
                       help="summary: matrices only; standard: one row written out; full: all rows")
    solve.add_argument("--row", type=int, help="the query row written out (1-based; default last)")
    solve.add_argument("--places", type=int, help="decimal places shown (default 4)")
    solve.add_argument("--figure", action="store_const", const=True,
                       help="add a heatmap of the weights A")
    solve.add_argument("--standalone", action="store_true",
                       help="a complete LaTeX document instead of a fragment for \\input")
    solve.add_argument("--digits", type=int, default=50,
                       help="mpmath digits of the cross-check closing a derivation")
    solve.add_argument("-o", "--output", help="write here instead of standard output")
    check = commands.add_parser("check", help="prove the invariants and cross-check with mpmath")
    check.add_argument("file", help="problem file (TOML)")
    check.add_argument("--digits", type=int, default=50, help="mpmath digits (default 50)")
    verify = commands.add_parser("verify", help="judge claimed answers against the exact result")
    verify.add_argument("file", help="problem file (TOML), its [answers] table is judged")
    verify.add_argument("--answers", help="a TOML file with an [answers] table to judge instead")
    verify.add_argument("--format", choices=("text", "json"), default="text")
    verify.add_argument("--lang", choices=("en", "zh"), default="en")
    grade = commands.add_parser("grade", help="grade a CSV of untrusted student answers")
    grade.add_argument("file", help="problem file (TOML)")
    grade.add_argument("--submissions", required=True,
                       help="CSV: a header id,<claim key>,... then one row per student")
    grade.add_argument("-o", "--output", help="write the per-student report (CSV) here")
    grade.add_argument("--lang", choices=("en", "zh"), default="en")
    grade.add_argument("--time-limit", type=float, default=2.0,
                       help="seconds one answer may take before it is marked invalid (default 2)")
    grade.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    from .commands_analysis import add_parsers  # sweep, gradient, nonunique
    add_parsers(commands)
    from .commands_exercises import add_parsers as add_exercise_parsers  # generate, mistakes
    add_exercise_parsers(commands)
    page = commands.add_parser("page", help="write an interactive, offline HTML course page")
    page.add_argument("file", help="problem file (TOML)")
    page.add_argument("--lang", choices=("en", "zh"), help="language of the page (default en)")
    page.add_argument("--temperatures", default="1/2,17/20,1,3/2,2",
                      help="the temperatures offered, exact, comma-separated (default "
                           "1/2,17/20,1,3/2,2; the problem's own is added)")
    page.add_argument("-o", "--output", help="write here instead of standard output")
    limits = commands.add_parser("limits", help="temperature limits and derivatives of the weights")
    limits.add_argument("file", help="problem file (TOML)")
    limits.add_argument("--derivative", default="tau", metavar="NAME",
                        help="differentiate A by tau (default) or a declared symbol")
    limits.add_argument("--format", choices=("text", "latex", "markdown"), default="text")
    limits.add_argument("--lang", choices=("en", "zh"), default="en")
    limits.add_argument("--standalone", action="store_true")
    limits.add_argument("-o", "--output", help="write here instead of standard output")
    for command in (solve, check, verify, limits):
        command.add_argument("--subs", action="append", default=[], metavar="NAME=VALUE",
                             help="replace a declared symbol by an exact value (repeatable)")
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
    if args.command in ("sweep", "gradient", "nonunique"):
        from .commands_analysis import run_analysis
        return run_analysis(args)
    if args.command in ("generate", "problemset", "mistakes"):
        from .commands_exercises import run_exercises
        return run_exercises(args)
    from .commands import run_grade, run_verify
    from .model import MultiHeadProblem, ShapeProblem
    from .pipeline import attend
    from .spec import load_problem

    problem = load_problem(Path(args.file))
    if args.command == "page":
        from .page import run_page
        return run_page(problem, args)
    if isinstance(problem, MultiHeadProblem):
        from .commands import run_heads
        return run_heads(problem, args)
    if getattr(args, "subs", None) and not isinstance(problem, ShapeProblem):
        from .parameters import parse_substitutions, substitute
        problem = substitute(problem, parse_substitutions(problem, args.subs))
    if args.command == "limits":
        from .commands import run_limits
        return run_limits(problem, args)
    if args.command == "verify":
        return run_verify(problem, args)
    if args.command == "grade":
        return run_grade(problem, args)
    if isinstance(problem, ShapeProblem):
        from .commands import run_shapes
        return run_shapes(problem, args)
    trace = attend(problem)
    if args.command == "solve":
        return _solve(trace, args)
    return _check(trace, args)


def _solve(trace, args: argparse.Namespace) -> int:
    from .api import render

    if args.places is not None and not 0 <= args.places <= 50:
        raise _UsageError("--places must be from 0 to 50")
    if args.row is not None and not 1 <= args.row <= trace.problem.n_q:
        raise _UsageError(f"--row must be from 1 to {trace.problem.n_q}")
    _check_digits(args.digits)
    text = render(trace, args.format, lang=args.lang, detail=args.detail, row=args.row,
                  places=args.places, figure=args.figure, standalone=args.standalone,
                  digits=args.digits)
    _write(text, args.output)
    return EXIT_OK


def _check_digits(digits: int) -> None:
    if not 10 <= digits <= MAX_DIGITS:
        raise _UsageError(f"--digits must be from 10 to {MAX_DIGITS}")


def _check(trace, args: argparse.Namespace) -> int:
    from .checks import check
    from .renderers import render_report

    _check_digits(args.digits)
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
