"""symattn solve and symattn check: every stage (or its derivation), and the checks."""

from __future__ import annotations

import argparse
import sys

from ..exact.heads import attend_any
from ..jobs import Settings, settle
from ..jobs.writing import write_trace
from ..model import MultiHeadTrace, ShapeProblem
from ..reports import HeadsReport, Report
from ..targets.text import render_heads_report, render_report
from .arguments import given
from .loading import load
from .output import EXIT_FAILED, EXIT_OK, write

SOLVE_OPTIONS = ("lang", "detail", "row", "places", "figure", "digits", "checks")


def run(args: argparse.Namespace) -> int:
    """solve or check the problem of args.file: options settled once, then one verb."""
    problem = load(args)
    settings = settle(problem, given(args, *SOLVE_OPTIONS), flags=True)
    if isinstance(problem, ShapeProblem):
        return _shapes(problem, args, settings)
    trace = attend_any(problem)
    if args.command == "check":
        return _check(trace, settings)
    write(write_trace(trace, settings), args)
    return EXIT_OK


def _check(trace, s: Settings) -> int:
    """The invariants and the cross-check of one head, or of every head and the output."""
    if isinstance(trace, MultiHeadTrace):
        from ..checks.heads import check_heads  # lazy: multi-head checks only
        report: Report | HeadsReport = check_heads(trace, s.digits)
    else:
        from ..checks.invariants import check  # lazy: solve starts without the checks
        report = check(trace, digits=s.digits)
    columns = trace.problem.layout == "columns"
    if s.to == "json":
        from ..targets.report_json import report_json  # lazy: JSON reports only
        sys.stdout.write(report_json(report, trace.problem.title, s.lang, columns))
    elif isinstance(report, HeadsReport):
        sys.stdout.write(render_heads_report(report, s.lang, columns))
    else:
        sys.stdout.write(render_report(report, s.lang, columns))
    return EXIT_OK if report.passed else EXIT_FAILED


def _shapes(problem: ShapeProblem, args: argparse.Namespace, s: Settings) -> int:
    """solve and check for a problem that gives only shapes: the shape argument, two constraints."""
    from ..targets.shapes import render_shapes, shapes_check  # lazy: shape problems only
    if args.command == "check" and s.to == "json":
        from ..targets.report_json import shapes_json  # lazy: JSON reports only
        text = shapes_json(problem, s.lang)
    elif args.command == "check":
        text = shapes_check(problem, s.lang)
    else:
        text = render_shapes(problem, s.to, s.lang, s.standalone, width=s.width,
                             heading=s.heading, numbered=s.numbered, label=s.label,
                             preamble=s.preamble)
    write(text, args)
    return EXIT_OK
