"""Reading the problem a command names, with --subs applied; refusing kinds a command cannot take."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import InputError
from ..exact.substitute import substitute
from ..model import MultiHeadProblem, Problem, ShapeProblem
from ..parse.options import read_substitutions
from ..parse.spec import load_problem

AnyProblem = Problem | ShapeProblem | MultiHeadProblem


def load(args: argparse.Namespace) -> AnyProblem:
    """The problem file of args.file, with args.subs (if the command has it) substituted."""
    problem = load_problem(Path(args.file))
    subs = getattr(args, "subs", None)
    if subs and not isinstance(problem, ShapeProblem):
        problem = substitute(problem, read_substitutions(problem.symbols, subs))
    return problem


def single_head(problem: AnyProblem, command: str) -> Problem | ShapeProblem:
    """The problem, unless it has [[heads]], which this command does not take."""
    if isinstance(problem, MultiHeadProblem):
        raise InputError(f"'{command}' works on single-head problems; this file has "
                         "[[heads]]", source=problem.source)
    return problem
