"""Reading the problem a command names, with --subs applied."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..exact.substitute import substitute
from ..model import MultiHeadProblem, Problem, ShapeProblem
from ..parse.options import read_substitutions
from ..parse.files import STDIN, read_stdin
from ..parse.spec import load_problem, parse_problem

AnyProblem = Problem | ShapeProblem | MultiHeadProblem


def load(args: argparse.Namespace) -> AnyProblem:
    """The problem file of args.file ('-': standard input), with args.subs (if the command has
    it) substituted."""
    problem = parse_problem(read_stdin(), source=STDIN) if args.file == "-" \
        else load_problem(Path(args.file))
    subs = getattr(args, "subs", None)
    if subs and not isinstance(problem, ShapeProblem):
        problem = substitute(problem, read_substitutions(problem.symbols, subs))
    return problem

