"""The sweep, gradient and nonunique commands: their options, and compute -> render -> write."""

from __future__ import annotations

import argparse
from pathlib import Path

from .errors import InputError

EXIT_OK, EXIT_FAILED = 0, 1
COMMANDS = ("sweep", "gradient", "nonunique")
DOCUMENT_FORMATS = ("text", "json", "latex", "markdown")


def add_parsers(commands) -> None:
    """Add the three subcommands to the CLI's subparsers (imports nothing heavy)."""
    sweep = commands.add_parser("sweep", help="the problem's [sweep]: weights, output, entropy "
                                "and maximum weight at every point, with a plot")
    _common(sweep, DOCUMENT_FORMATS + ("svg",))
    sweep.add_argument("--image", metavar="FILE",
                       help="markdown: show the plot from this SVG (write it with --format svg)")
    gradient = commands.add_parser("gradient", help="exact gradients by backpropagation, "
                                   "cross-checked by mpmath differences")
    _common(gradient, DOCUMENT_FORMATS)
    gradient.add_argument("--loss", choices=("sum",),
                          help="start from the sum of O's entries (else the file's [gradient])")
    gradient.add_argument("--digits", type=int, default=60,
                          help="mpmath digits of the finite-difference check (default 60)")
    nonunique = commands.add_parser("nonunique", help="all weights on the simplex that give "
                                    "the same output, exactly")
    _common(nonunique, DOCUMENT_FORMATS)


def _common(parser: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    parser.add_argument("file", help="problem file (TOML)")
    parser.add_argument("--format", choices=formats, default="text")
    parser.add_argument("--lang", choices=("en", "zh"), help="language of latex and markdown")
    parser.add_argument("--row", type=int, help="one query row (1-based)")
    parser.add_argument("--places", type=int, help="decimal places shown (default 4)")
    parser.add_argument("--standalone", action="store_true",
                        help="a complete LaTeX document instead of a fragment for \\input")
    parser.add_argument("-o", "--output", help="write here instead of standard output")


def run_analysis(args: argparse.Namespace) -> int:
    """Load the problem, compute, render in the format asked for, write; the exit code."""
    from .cli import _write
    from .model import Problem
    from .spec import load_problem

    problem = load_problem(Path(args.file))
    if not isinstance(problem, Problem):
        raise InputError(f"'{args.command}' needs a single-head problem with values for Q, K "
                         "and V", source=args.file)
    presentation = dict(problem.presentation)
    lang = args.lang or presentation.get("lang", "en")
    places = presentation.get("places", 4) if args.places is None else args.places
    if not 0 <= places <= 50:
        raise InputError("--places must be from 0 to 50")
    if args.row is not None and not 1 <= args.row <= problem.n_q:
        raise InputError(f"--row must be from 1 to {problem.n_q}", source=args.file)
    run = {"sweep": _sweep, "gradient": _gradient, "nonunique": _nonunique}[args.command]
    text, code = run(problem, args, lang, places)
    _write(text, args.output)
    return code


def _sweep(problem, args: argparse.Namespace, lang: str, places: int) -> tuple[str, int]:
    from .renderers.sweep_doc import render_sweep
    from .sweep import sweep

    result = sweep(problem, row=args.row, places=places)
    return render_sweep(result, args.format, lang, standalone=args.standalone,
                        image=args.image), EXIT_OK


def _gradient(problem, args: argparse.Namespace, lang: str, places: int) -> tuple[str, int]:
    import sympy as sp

    from .gradient import Upstream, gradients, read_upstream
    from .gradient_check import check_gradients
    from .pipeline import attend
    from .renderers.gradient_doc import render_gradient

    if not 20 <= args.digits <= 200:
        raise InputError("--digits must be from 20 to 200")
    trace = attend(problem)
    if args.loss == "sum":
        table = dict(problem.extra).get("gradient") or {}
        row = table.get("row") if isinstance(table, dict) else None
        upstream = Upstream(sp.ImmutableMatrix.ones(problem.n_q, problem.d_v), "sum",
                            row - 1 if isinstance(row, int) and 1 <= row <= problem.n_q else None)
    else:
        upstream = read_upstream(trace)
    result = gradients(trace, upstream, places=places, row=args.row)
    check = check_gradients(result, args.digits)
    text = render_gradient(result, check, args.format, lang, standalone=args.standalone)
    return text, EXIT_OK if check.passed else EXIT_FAILED


def _nonunique(problem, args: argparse.Namespace, lang: str, places: int) -> tuple[str, int]:
    from .nonunique import nonunique
    from .pipeline import attend
    from .renderers.nonunique_doc import render_nonunique

    result = nonunique(attend(problem), args.row, places=places)
    return render_nonunique(result, args.format, lang, standalone=args.standalone), EXIT_OK
