"""The generate, problemset and mistakes commands: their options, and compute -> render -> write."""

from __future__ import annotations

import argparse
from pathlib import Path

from .errors import InputError

EXIT_OK = 0
COMMANDS = ("generate", "problemset", "mistakes")


def add_parsers(commands) -> None:
    """Add the exercise subcommands to the CLI's subparsers (imports nothing heavy)."""
    generate = commands.add_parser("generate", help="fresh problems with clean exact answers "
                                   "and an answer key")
    generate.add_argument("--kind", default="causal", help="causal, full, cross, padding, "
                          "temperature, or all (COUNT of each)")
    generate.add_argument("--n", type=int, default=3, help="queries (default 3)")
    generate.add_argument("--n-k", type=int, help="keys in cross-attention (default n + 1)")
    generate.add_argument("--d-k", type=int, default=1, help="d_k (default 1)")
    generate.add_argument("--d-v", type=int, default=2, help="d_v (default 2)")
    generate.add_argument("--answers", choices=("rational", "e"), default="rational",
                          help="rational weights (keys ln c) or weights involving e")
    generate.add_argument("--no-scale", action="store_true",
                          help='scale = "none": no sqrt(d_k) in the problem')
    generate.add_argument("--count", type=int, default=10, help="problems (default 10)")
    generate.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    generate.add_argument("--choices", action="store_true", help="also write NAME.choices.toml: "
                          "the last row of O with the classic mistakes' rows as distractors")
    generate.add_argument("-o", "--output", required=True, help="directory to write")
    problemset = commands.add_parser("problemset", help="a problem set from a directory of "
                                     "problems: questions, solutions, an answer key")
    problemset.add_argument("directory", help="a directory of problem files (e.g. from generate)")
    problemset.add_argument("--lang", choices=("en", "zh"), default="en")
    problemset.add_argument("--format", choices=("latex", "markdown"),
                            help="default: from the output name (.md: markdown), else latex")
    problemset.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    problemset.add_argument("-o", "--output", help="write here instead of standard output")
    mistakes = commands.add_parser("mistakes", help="the result each classic mistake gives")
    mistakes.add_argument("file", help="problem file (TOML)")
    mistakes.add_argument("--format", choices=("text", "json"), default="text")
    mistakes.add_argument("--lang", choices=("en", "zh"), default="en")


def run_exercises(args: argparse.Namespace) -> int:
    """Run generate, problemset or mistakes; the exit code."""
    run = {"generate": _generate, "problemset": _problemset, "mistakes": _mistakes}
    return run[args.command](args)


def _generate(args: argparse.Namespace) -> int:
    from .generator import KINDS, Settings, choices_text, generate, write

    kinds = KINDS if args.kind == "all" else (args.kind,)
    problems = []
    for kind in kinds:
        settings = Settings(kind=kind, n=args.n, d_k=args.d_k, d_v=args.d_v, n_k=args.n_k,
                            answers=args.answers, scaled=not args.no_scale)
        problems += generate(settings, args.count, args.seed)
    if args.choices:  # distractors come from single-head mistakes; none for [[heads]]
        problems += [(name.replace(".toml", ".choices.toml"), choices_text(text))
                     for name, text in list(problems) if "[[heads]]" not in text]
    write(problems, Path(args.output))
    print(f"{len(problems)} files written to {args.output}")
    return EXIT_OK


def _problemset(args: argparse.Namespace) -> int:
    import sys

    from .cli import _write
    from .commands import ProgressBar
    from .problemset import exercises, problem_files
    from .renderers.problemset_doc import render_problemset

    if not 1 <= args.jobs <= 64:
        raise InputError("--jobs must be from 1 to 64")
    files = problem_files(Path(args.directory))
    to = args.format or ("markdown" if (args.output or "").endswith(".md") else "latex")
    bar = ProgressBar(sys.stderr, "problems", "deriving") if sys.stderr.isatty() else None
    parts = exercises(files, args.lang, args.jobs, bar.update if bar else None)
    if bar:
        bar.close()
    _write(render_problemset(parts, args.lang, to), args.output)
    return EXIT_OK


def _mistakes(args: argparse.Namespace) -> int:
    from .cli import _write
    from .mistakes import mistakes
    from .model import Problem
    from .renderers.mistakes_doc import mistakes_json, mistakes_text
    from .spec import load_problem

    problem = load_problem(Path(args.file))
    if not isinstance(problem, Problem):
        raise InputError("'mistakes' needs a single-head problem with values for Q, K and V",
                         source=args.file)
    found = mistakes(problem)
    text = mistakes_json(found, args.lang) if args.format == "json" else \
        mistakes_text(found, args.lang, problem.title)
    _write(text, None)
    return EXIT_OK
