"""The command line, one function: main(argv) -> exit code.

Subcommands:
  solve       every stage of a problem (text, JSON, or a LaTeX/Markdown derivation)
  check       the invariants and the mpmath cross-check
  verify      claimed answers judged against the exact result
  grade       a class's submissions (CSV), each answer in a worker under a time limit
  sweep       the problem's [sweep]: weights, output, entropy and maximum weight at every point
  gradient    exact gradients by backpropagation, checked by mpmath central differences
  nonunique   every weight vector on the simplex with the same output
  generate    fresh problems with readable exact answers
  problemset  questions, worked solutions and an answer key from a folder of problems
  mistakes    what each classic mistake gives
  page        an offline, interactive HTML course page
  limits      A as tau -> 0+ and tau -> oo, and a derivative of the weights

Exit codes: 0 ok, 1 a check failed or an answer is not correct, 2 bad input, 3 internal error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..errors import SymattnError
from ..parse.labels import shown_escaped
from .arguments import build_parser
from .output import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, check_output


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (never raises for bad input)."""
    try:
        args = build_parser().parse_args(argv)
        return _run(args)
    except SymattnError as error:
        print(f"error: {shown_escaped(str(error))}", file=sys.stderr)  # a file name's ESC, newline
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM while writing
        print("error: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:  # a bug in symattn: still one line, never a traceback
        print(f"error: internal error, please report: {type(error).__name__}: "
              f"{shown_escaped(str(error))}",
              file=sys.stderr)
        return EXIT_INTERNAL


def _run(args: argparse.Namespace) -> int:
    """Hand the arguments to the command's module, imported only now: SymPy stays off --help."""
    check_output(args)  # before any work; write() checks again as it writes
    if args.command in ("sweep", "gradient", "nonunique", "limits"):
        from .analyses import run  # lazy: loads SymPy
    elif args.command in ("generate", "problemset", "mistakes"):
        from .exercises import run  # lazy: loads SymPy
    elif args.command in ("verify", "grade"):
        from .answers import run  # lazy: loads SymPy
    elif args.command == "page":
        from .page import run  # lazy: loads SymPy
    else:
        from .solve import run  # lazy: loads SymPy
    return run(args)
