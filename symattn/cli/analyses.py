"""symattn sweep, gradient, nonunique and limits: compute the analysis, render it, write it."""

from __future__ import annotations

import argparse

import sympy as sp

from ..analyses.gradient import gradients
from ..analyses.gradient_check import check_gradients
from ..analyses.nonunique import nonunique
from ..analyses.parameters import parameter_report
from ..analyses.sweep import sweep
from ..errors import InputError
from ..exact.attention import attend
from ..model import Problem, Upstream
from ..targets import latex, markdown
from ..documents.limits import limit_blocks
from ..printing.printer import needs_cjk
from ..targets.gradient import render_gradient
from ..targets.limits import limits_text
from ..targets.nonunique import render_nonunique
from ..targets.sweep import render_sweep
from ..jobs import refuse_kind, settle
from .loading import load
from .output import EXIT_FAILED, EXIT_OK, write


def run(args: argparse.Namespace) -> int:
    """Load the problem, compute, render in the format asked for, write; the exit code."""
    problem = load(args)
    refuse_kind(problem, args.command)
    assert isinstance(problem, Problem)  # refuse_kind lets only single-head problems through
    s = settle(problem, {"lang": args.lang, "places": getattr(args, "places", None),
                         "row": getattr(args, "row", None)}, flags=True)
    if args.command == "limits":
        return _limits(problem, args, s.lang)
    compute = {"sweep": _sweep, "gradient": _gradient, "nonunique": _nonunique}[args.command]
    text, code = compute(problem, args, s.lang, s.places)
    write(text, args)
    return code


def _sweep(problem: Problem, args: argparse.Namespace, lang: str, places: int) -> tuple[str, int]:
    result = sweep(problem, row=args.row, places=places)
    return render_sweep(result, args.format, lang, standalone=args.standalone,
                        image=args.image), EXIT_OK


def _gradient(problem: Problem, args: argparse.Namespace, lang: str,
              places: int) -> tuple[str, int]:
    if not 20 <= args.digits <= 200:
        raise InputError("--digits must be from 20 to 200")
    trace = attend(problem)
    upstream = None
    if args.loss == "sum":
        row = problem.gradient.row if problem.gradient is not None else None
        upstream = Upstream(sp.ImmutableMatrix.ones(problem.n_q, problem.d_v), "sum", row)
    result = gradients(trace, upstream, places=places, row=args.row)
    check = check_gradients(result, args.digits)
    text = render_gradient(result, check, args.format, lang, standalone=args.standalone)
    return text, EXIT_OK if check.passed else EXIT_FAILED


def _nonunique(problem: Problem, args: argparse.Namespace, lang: str,
               places: int) -> tuple[str, int]:
    result = nonunique(attend(problem), args.row, places=places)
    return render_nonunique(result, args.format, lang, standalone=args.standalone), EXIT_OK


def _limits(problem: Problem, args: argparse.Namespace, lang: str) -> int:
    """Temperature limits and ∂A/∂x, as text or as a derivation."""
    report = parameter_report(attend(problem), args.derivative)
    if args.format == "text":
        text = limits_text(report)
    else:
        blocks = limit_blocks(report, lang)
        if args.format == "markdown":
            text = markdown.document(blocks)
        elif args.standalone:
            labels = "".join((problem.title or "",) + problem.row_labels + problem.column_labels)
            text = latex.document(blocks, lang, needs_cjk(labels))
        else:
            text = latex.fragment(blocks)
    write(text, args)
    return EXIT_OK
