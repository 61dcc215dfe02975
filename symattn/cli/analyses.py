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
from ..derivation import Derivation
from ..jobs import Settings, refuse_kind, settle
from ..jobs.writing import statement
from ..model import Problem, Upstream
from ..targets.gradient import render_gradient
from ..targets.limits import render_limits
from ..targets.nonunique import render_nonunique
from ..targets.sweep import render_sweep
from .arguments import given
from .loading import load
from .output import EXIT_FAILED, EXIT_OK, write

FORMATS = {"sweep": ("text", "json", "latex", "markdown", "svg"),
           "limits": ("text", "latex", "markdown")}
"""The formats of a command that writes other than text, JSON, LaTeX and Markdown."""


def run(args: argparse.Namespace) -> int:
    """Load the problem, settle the options once, compute, render, write; the exit code."""
    problem = load(args)
    refuse_kind(problem, args.command)
    assert isinstance(problem, Problem)  # refuse_kind lets only single-head problems through
    s = settle(problem, given(args, "lang", "places", "row"), flags=True,
               formats=FORMATS.get(args.command, ("text", "json", "latex", "markdown")))
    compute = {"sweep": _sweep, "gradient": _gradient, "nonunique": _nonunique,
               "limits": _limits}[args.command]
    text, code = compute(problem, args, s)
    write(text, args)
    return code


def _stated(problem: Problem, s: Settings) -> Derivation | None:
    """The derivation that states the problem in solve's words, for LaTeX and Markdown."""
    return statement(problem, s) if s.to in ("latex", "markdown") else None


def _sweep(problem: Problem, args: argparse.Namespace, s: Settings) -> tuple[str, int]:
    result = sweep(problem, row=args.row, places=s.places)
    return render_sweep(result, s.to, s.lang, page=s.page(), image=args.image,
                        problem=_stated(problem, s)), EXIT_OK


def _gradient(problem: Problem, args: argparse.Namespace, s: Settings) -> tuple[str, int]:
    if not 20 <= args.digits <= 200:
        raise InputError("--digits must be from 20 to 200")
    trace = attend(problem)
    upstream = None
    if args.loss == "sum":
        row = problem.gradient.row if problem.gradient is not None else None
        upstream = Upstream(sp.ImmutableMatrix.ones(problem.n_q, problem.d_v), "sum", row)
    result = gradients(trace, upstream, places=s.places, row=args.row)
    check = check_gradients(result, args.digits)
    text = render_gradient(result, check, s.to, s.lang, page=s.page(), problem=_stated(problem, s))
    return text, EXIT_OK if check.passed else EXIT_FAILED


def _nonunique(problem: Problem, args: argparse.Namespace, s: Settings) -> tuple[str, int]:
    result = nonunique(attend(problem), args.row, places=s.places)
    return render_nonunique(result, s.to, s.lang, page=s.page(),
                            problem=_stated(problem, s)), EXIT_OK


def _limits(problem: Problem, args: argparse.Namespace, s: Settings) -> tuple[str, int]:
    """Temperature limits and ∂A/∂x, as text or as a derivation."""
    trace = attend(problem)
    report = parameter_report(trace, args.derivative, places=s.places)  # the file's too
    return render_limits(report, s.to, s.lang, page=s.page(), problem=_stated(problem, s)), EXIT_OK
