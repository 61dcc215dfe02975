"""symattn solve and symattn check: every stage (or its derivation), and the checks."""

from __future__ import annotations

import argparse
import json
import sys

from ..api import render
from ..checks.heads import check_heads
from ..checks.invariants import check
from ..errors import InputError
from ..exact.attention import attend
from ..exact.heads import attend_heads
from ..limits import MAX_CHECK_DIGITS, MAX_PLACES
from ..model import MultiHeadProblem, ShapeProblem
from ..renderers.text import render_heads_report, render_report
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
                  digits=args.digits)
    write(text, args)
    return EXIT_OK


def check_digits(digits: int) -> None:
    """--digits within range."""
    if not 10 <= digits <= MAX_CHECK_DIGITS:
        raise UsageError(f"--digits must be from 10 to {MAX_CHECK_DIGITS}")


def _check(trace, args: argparse.Namespace) -> int:
    check_digits(args.digits)
    report = check(trace, digits=args.digits)
    sys.stdout.write(render_report(report, args.lang))
    return EXIT_OK if report.passed else EXIT_FAILED


def _heads(problem: MultiHeadProblem, args: argparse.Namespace) -> int:
    """solve and check for multi-head problems."""
    trace = attend_heads(problem)
    if args.command == "check":
        check_digits(args.digits)
        report = check_heads(trace, args.digits)
        sys.stdout.write(render_heads_report(report, args.lang))
        return EXIT_OK if report.passed else EXIT_FAILED
    text = render(trace, args.format, lang=args.lang, detail=args.detail, places=args.places,
                  standalone=args.standalone, digits=args.digits)
    write(text, args)
    return EXIT_OK


def _shapes(problem: ShapeProblem, args: argparse.Namespace) -> int:
    """solve and check for a problem that gives only shapes: every stage's shape, two constraints."""
    shapes = problem.shapes
    if args.command == "solve" and args.format == "json":
        text = json.dumps({"title": problem.title, "shapes": {k: list(v) for k, v in shapes.items()}},
                          ensure_ascii=False) + "\n"
    elif args.command == "solve" and args.format in ("latex", "markdown"):
        raise InputError("a problem that gives only shapes is shown as text or JSON",
                         source=problem.source)
    elif args.command == "check":
        text = (f"[ok] Q and K share d_k = {problem.d_k}, so Q K^T is {problem.n_q}x{problem.n_k}\n"
                f"[ok] K and V share n_k = {problem.n_k}, so O = A V is {problem.n_q}x{problem.d_v}\n"
                "all checks passed\n")
    else:
        lines = [problem.title] if problem.title else []
        lines += [f"{name}: {r}x{c}" for name, (r, c) in shapes.items()]
        lines += [f"Q and K share d_k = {problem.d_k} (Q K^T is defined); "
                  f"K and V share n_k = {problem.n_k} (A V is defined)",
                  f"R, S, M, L, A are n_q x n_k = {problem.n_q}x{problem.n_k}; "
                  f"O = A V is n_q x d_v = {problem.n_q}x{problem.d_v}"]
        text = "\n".join(lines) + "\n"
    write(text, args)
    return EXIT_OK
