"""symattn solve and symattn check: every stage (or its derivation), and the checks."""

from __future__ import annotations

import argparse
import sys

from ..api import render
from ..exact.attention import attend
from ..exact.heads import attend_heads
from ..errors import InputError
from ..limits import MAX_CHECK_DIGITS, MAX_PLACES
from ..model import MultiHeadProblem, ShapeProblem
from ..parse.layout import check_label_prefix, parse_width
from ..targets.text import render_heads_report, render_report
from .loading import load
from .output import EXIT_FAILED, EXIT_OK, UsageError, write


def run(args: argparse.Namespace) -> int:
    """solve or check the problem of args.file."""
    problem = load(args)
    if isinstance(problem, MultiHeadProblem):
        return _heads(problem, args)
    if isinstance(problem, ShapeProblem):
        return _shapes(problem, args)
    trace = attend(problem)
    if args.command == "solve":
        return _solve(trace, args)
    return _check(trace, args)


def _solve(trace, args: argparse.Namespace) -> int:
    if args.places is not None and not 0 <= args.places <= MAX_PLACES:
        raise UsageError(f"--places must be from 0 to {MAX_PLACES}")
    if args.row is not None and not 1 <= args.row <= trace.problem.n_q:
        raise UsageError(f"--row must be from 1 to {trace.problem.n_q}")
    check_digits(args.digits)
    text = render(trace, args.format, lang=args.lang, detail=args.detail, row=args.row,
                  places=args.places, figure=args.figure, standalone=args.standalone,
                  digits=args.digits, **layout(args))
    write(text, args)
    return EXIT_OK


def layout(args: argparse.Namespace) -> dict:
    """--width, --heading-level, --numbered, --label-prefix and --preamble, checked."""
    try:
        width = parse_width(args.width) if args.width is not None else "article"
        label = check_label_prefix(args.label_prefix) if args.label_prefix is not None else None
    except InputError as error:
        raise UsageError(f"symattn solve: {error}") from None
    if args.preamble and args.format != "latex":
        raise UsageError("symattn solve: --preamble goes with --format latex")
    return {"width": width, "heading": args.heading_level or "section",
            "numbered": args.numbered, "label": label, "preamble": args.preamble}


def check_digits(digits: int) -> None:
    """--digits within range."""
    if not 10 <= digits <= MAX_CHECK_DIGITS:
        raise UsageError(f"--digits must be from 10 to {MAX_CHECK_DIGITS}")


def _check(trace, args: argparse.Namespace) -> int:
    from ..checks.invariants import check  # lazy: solve starts without the checks
    check_digits(args.digits)
    report = check(trace, digits=args.digits)
    sys.stdout.write(render_report(report, args.lang))
    return EXIT_OK if report.passed else EXIT_FAILED


def _heads(problem: MultiHeadProblem, args: argparse.Namespace) -> int:
    """solve and check for multi-head problems."""
    trace = attend_heads(problem)
    if args.command == "check":
        from ..checks.heads import check_heads  # lazy: multi-head checks only
        check_digits(args.digits)
        report = check_heads(trace, args.digits)
        sys.stdout.write(render_heads_report(report, args.lang))
        return EXIT_OK if report.passed else EXIT_FAILED
    text = render(trace, args.format, lang=args.lang, detail=args.detail, places=args.places,
                  standalone=args.standalone, digits=args.digits, **layout(args))
    write(text, args)
    return EXIT_OK


def _shapes(problem: ShapeProblem, args: argparse.Namespace) -> int:
    """solve and check for a problem that gives only shapes: the shape argument, two constraints."""
    from ..targets.shapes import render_shapes, shapes_check  # lazy: shape problems only
    if args.command == "check":
        text = shapes_check(problem, args.lang)
    else:
        text = render_shapes(problem, args.format, args.lang or "en", args.standalone,
                             **layout(args))
    write(text, args)
    return EXIT_OK
