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
from ..limits import MAX_PLACES
from ..model import Problem, ShapeProblem, Upstream
from ..targets import latex, markdown
from ..documents.limits import limit_blocks
from ..printing.printer import needs_cjk
from ..targets.gradient import render_gradient
from ..targets.limits import limits_text
from ..targets.nonunique import render_nonunique
from ..targets.sweep import render_sweep
from .loading import load, single_head
from .output import EXIT_FAILED, EXIT_OK, write


def run(args: argparse.Namespace) -> int:
    """Load the problem, compute, render in the format asked for, write; the exit code."""
    problem = load(args)
    if args.command == "limits":
        return _limits(single_head(problem, args.command), args)
    if not isinstance(problem, Problem):
        raise InputError(f"'{args.command}' needs a single-head problem with values for Q, K "
                         "and V", source=args.file)
    presentation = dict(problem.presentation)
    lang = args.lang or presentation.get("lang", "en")
    places = presentation.get("places", 4) if args.places is None else args.places
    if not 0 <= places <= MAX_PLACES:
        raise InputError(f"--places must be from 0 to {MAX_PLACES}")
    if args.row is not None and not 1 <= args.row <= problem.n_q:
        raise InputError(f"--row must be from 1 to {problem.n_q}", source=args.file)
    compute = {"sweep": _sweep, "gradient": _gradient, "nonunique": _nonunique}[args.command]
    text, code = compute(problem, args, lang, places)
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


def _limits(problem: Problem | ShapeProblem, args: argparse.Namespace) -> int:
    """Temperature limits and ∂A/∂x, as text or as a derivation."""
    if isinstance(problem, ShapeProblem):
        raise InputError("a problem that gives only shapes has no weights", source=problem.source)
    report = parameter_report(attend(problem), args.derivative)
    if args.format == "text":
        text = limits_text(report)
    else:
        blocks = limit_blocks(report, args.lang)
        if args.format == "markdown":
            text = markdown.document(blocks)
        elif args.standalone:
            labels = "".join((problem.title or "",) + problem.row_labels + problem.column_labels)
            text = latex.document(blocks, args.lang, needs_cjk(labels))
        else:
            text = latex.fragment(blocks)
    write(text, args)
    return EXIT_OK
