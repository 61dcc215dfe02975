"""The command line's arguments: every subcommand and its options, built with argparse alone."""

from __future__ import annotations

import argparse
from typing import Any

from ..vocabulary import CHECKS, DETAIL_CHOICES, DOCUMENT_FORMATS, FORMATS, HEADINGS, LANGUAGES
from .output import UsageError
from .version import Version


class Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line with exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    """Every subcommand and its options (argparse only: nothing heavy is imported)."""
    parser = Parser(prog="symattn", description="Exact scaled dot-product attention, "
                     "every stage shown and checked.")
    parser.add_argument("--version", action=Version, help="show the installed version and exit")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    solve = commands.add_parser("solve", help="compute every stage of a problem file")
    solve.add_argument("file", help="problem file (TOML)")
    solve.add_argument("--format", choices=FORMATS, default="text")
    solve.add_argument("--lang", choices=LANGUAGES,
                       help="language of a derivation (latex, markdown)")
    solve.add_argument("--detail", choices=DETAIL_CHOICES,
                       help="summary: the stages' results; textbook (default): every stage "
                            "with its reason, as a course's worked example; full: textbook and "
                            "every row step by step; standard: the old name of textbook")
    layout(solve)
    checks(solve)
    solve.add_argument("--row", type=int, help="the query row written out (1-based; default last)")
    solve.add_argument("--places", type=int, help="decimal places shown (default 4)")
    solve.add_argument("--figure", action="store_const", const=True,
                       help="add a heatmap of the weights A")
    solve.add_argument("--digits", type=int,
                       help="mpmath digits of the cross-check closing a derivation")
    solve.add_argument("-o", "--output", help="write here instead of standard output")
    check = commands.add_parser("check", help="prove the invariants and cross-check with mpmath")
    check.add_argument("file", help="problem file (TOML)")
    check.add_argument("--digits", type=int, help="mpmath digits (default 50)")
    check.add_argument("--lang", choices=LANGUAGES, help="language of the report")
    check.add_argument("--format", choices=("text", "json"), help="text (default) or json")
    verify = commands.add_parser("verify", help="judge claimed answers against the exact result")
    verify.add_argument("file", help="problem file (TOML), its [answers] table is judged")
    verify.add_argument("--answers", help="a TOML file with an [answers] table to judge instead")
    verify.add_argument("--format", choices=("text", "json"), default="text")
    verify.add_argument("--lang", choices=LANGUAGES)
    grade = commands.add_parser("grade", help="grade a CSV of untrusted student answers")
    grade.add_argument("file", help="problem file (TOML)")
    grade.add_argument("--submissions", required=True,
                       help="CSV: a header id,<claim key>,... then one row per student")
    grade.add_argument("-o", "--output", help="write the per-student report (CSV) here")
    grade.add_argument("--lang", choices=LANGUAGES)
    grade.add_argument("--time-limit", type=float, default=2.0,
                       help="seconds one answer may take before it is marked invalid (default 2)")
    grade.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    _quiet(grade)
    analyses = _add_analyses(commands)
    _add_exercises(commands)
    page = commands.add_parser("page", help="write an interactive, offline HTML course page")
    page.add_argument("file", help="problem file (TOML)")
    page.add_argument("--lang", choices=LANGUAGES, help="language of the page (default en)")
    page.add_argument("--temperatures", default="1/2,17/20,1,3/2,2",
                      help="the temperatures offered, exact, comma-separated (default "
                           "1/2,17/20,1,3/2,2; the problem's own is added)")
    page.add_argument("-o", "--output", help="write here instead of standard output")
    limits = commands.add_parser("limits", help="temperature limits and derivatives of the weights")
    limits.add_argument("file", help="problem file (TOML)")
    limits.add_argument("--derivative", default="tau", metavar="NAME",
                        help="differentiate A by tau (default) or a declared symbol")
    limits.add_argument("--format", choices=("text", "latex", "markdown"), default="text")
    limits.add_argument("--lang", choices=LANGUAGES)
    limits.add_argument("--places", type=int, help="decimal places shown (default 4)")
    layout(limits)
    limits.add_argument("-o", "--output", help="write here instead of standard output")
    for command in (solve, check, verify, limits, *analyses):
        command.add_argument("--subs", action="append", default=[], metavar="NAME=VALUE",
                             help="replace a declared symbol by an exact value (repeatable)")
    return parser


def _add_analyses(commands: Any) -> tuple[argparse.ArgumentParser, ...]:
    """sweep, gradient and nonunique; returns the two that take --subs (a sweep gives its own
    values)."""
    sweep = commands.add_parser("sweep", help="the problem's [sweep]: weights, output, entropy "
                                "and maximum weight at every point, with a plot")
    _common(sweep, FORMATS + ("svg",))
    sweep.add_argument("--image", metavar="FILE",
                       help="markdown: show the plot from this SVG (write it with --format svg)")
    gradient = commands.add_parser("gradient", help="exact gradients by backpropagation, "
                                   "cross-checked by mpmath differences")
    _common(gradient, FORMATS)
    gradient.add_argument("--loss", choices=("sum",),
                          help="start from the sum of O's entries (else the file's [gradient])")
    gradient.add_argument("--digits", type=int, default=60,
                          help="mpmath digits of the finite-difference check (default 60)")
    nonunique = commands.add_parser("nonunique", help="all weights on the simplex that give "
                                    "the same output, exactly")
    _common(nonunique, FORMATS)
    return gradient, nonunique


def _common(parser: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    parser.add_argument("file", help="problem file (TOML)")
    parser.add_argument("--format", choices=formats, default="text")
    parser.add_argument("--lang", choices=LANGUAGES, help="language of latex and markdown")
    parser.add_argument("--row", type=int, help="one query row (1-based)")
    parser.add_argument("--places", type=int, help="decimal places shown (default 4)")
    layout(parser)
    parser.add_argument("-o", "--output", help="write here instead of standard output")


def _add_exercises(commands: Any) -> None:
    """generate, problemset and mistakes."""
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
    generate.add_argument("-o", "--output", required=True, help="directory to write (not a "
                          "symbolic link; files in it are not written through links)")
    generate.add_argument("--force", action="store_true",
                          help="overwrite files of the same names already in the directory")
    problemset = commands.add_parser("problemset", help="a problem set from a directory of "
                                     "problems: questions, solutions, an answer key")
    problemset.add_argument("directory", help="a directory of problem files (e.g. from generate)")
    problemset.add_argument("--lang", choices=LANGUAGES)
    problemset.add_argument("--format", choices=("latex", "markdown"),
                            help="default: from the output name (.md: markdown), else latex")
    problemset.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    layout(problemset)
    checks(problemset)
    _quiet(problemset)
    problemset.add_argument("-o", "--output", help="write here instead of standard output")
    mistakes = commands.add_parser("mistakes", help="the result each classic mistake gives")
    mistakes.add_argument("file", help="problem file (TOML)")
    mistakes.add_argument("--format", choices=("text", "json") + DOCUMENT_FORMATS, default="text")
    mistakes.add_argument("--lang", choices=LANGUAGES)
    mistakes.add_argument("--places", type=int, help="decimal places shown (default 4)")
    layout(mistakes)
    mistakes.add_argument("-o", "--output", help="write here instead of standard output")


LAYOUT = ("width", "heading_level", "numbered", "label_prefix", "standalone", "preamble")
"""The document options every command that writes LaTeX or Markdown takes, as solve does."""


def layout(command: argparse.ArgumentParser) -> None:
    """--width, --heading-level, --numbered, --label-prefix, --standalone and --preamble."""
    command.add_argument("--width", help="text width for laying out displays: article, book, a "
                                         "length (12cm, 400pt) or characters (70); default article")
    command.add_argument("--heading-level", choices=HEADINGS,
                         help="sectioning command of the title (default section)")
    command.add_argument("--numbered", action="store_true", help="numbered headings")
    command.add_argument("--label-prefix", help="\\label the title with this, parts with "
                                                 "PREFIX:checks, ... (LaTeX)")
    command.add_argument("--standalone", action="store_true",
                         help="a complete LaTeX document instead of a fragment for \\input")
    command.add_argument("--preamble", action="store_true", help="print the \\usepackage lines "
                         "the LaTeX fragment needs, and nothing else")


def checks(command: argparse.ArgumentParser) -> None:
    """--checks for a command that closes derivations with their checks."""
    command.add_argument("--checks", choices=CHECKS,
                         help="how a derivation closes (latex, markdown): short (default), one "
                              "sentence; full, a sentence per check; none, nothing (a check that "
                              "does not pass is always said)")


def given(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """What the command line gave for jobs.settle: the layout options and `names`, as settle
    spells them (--heading-level is heading, --label-prefix is label; a flag not set is None)."""
    out = {name: getattr(args, name, None) for name in (*names, *LAYOUT)}
    out["heading"], out["label"] = out.pop("heading_level"), out.pop("label_prefix")
    out["to"] = getattr(args, "format", None)
    return {k: (v or None) if isinstance(v, bool) else v for k, v in out.items()}


def _quiet(command: argparse.ArgumentParser) -> None:
    """--quiet for a long command: no progress bar (there is none when stderr is not a terminal)."""
    command.add_argument("-q", "--quiet", action="store_true",
                         help="no progress bar on standard error")
