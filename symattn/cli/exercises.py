"""symattn generate, problemset and mistakes: exercises and what the classic mistakes give."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import sympy as sp

from ..answers.book import BookMistakes
from ..answers.head_mistakes import HeadMistakes
from ..answers.mistakes import Mistakes
from ..exact.heads import attend_heads
from ..parse.labels import shown_escaped
from ..words import phrase
from ..errors import InputError
from ..exercises.generator import (
    KINDS,
    Settings,
    choices_text,
    generate,
    write_problems,
)
from ..exercises.problemset import exercises, problem_files
from ..exact.shown import as_decimals
from ..jobs import refuse_kind, settle
from ..jobs.writing import statement
from ..model import MultiHeadProblem, MultiHeadTrace
from .loading import load
from ..printing.printer import needs_cjk
from ..targets.mistakes import mistakes_document, mistakes_json, mistakes_text
from ..targets.problemset import render_problemset
from ..vocabulary import DOCUMENT_FORMATS
from .arguments import given
from .output import EXIT_OK, progress_bar, write


def run(args: argparse.Namespace) -> int:
    """Run generate, problemset or mistakes; the exit code."""
    return {"generate": _generate, "problemset": _problemset, "mistakes": _mistakes}[args.command](args)


def _generate(args: argparse.Namespace) -> int:
    kinds = KINDS if args.kind == "all" else (args.kind,)
    problems = []
    for kind in kinds:
        settings = Settings(kind=kind, n=args.n, d_k=args.d_k, d_v=args.d_v, n_k=args.n_k,
                            answers=args.answers, scaled=not args.no_scale)
        problems += generate(settings, args.count, args.seed)
    if args.choices:  # distractors come from single-head mistakes; none for [[heads]]
        problems += [(name.replace(".toml", ".choices.toml"), choices_text(text))
                     for name, text in list(problems) if "[[heads]]" not in text]
    write_problems(problems, Path(args.output), force=args.force)
    print(f"{len(problems)} files written to {args.output}")
    return EXIT_OK


def _problemset(args: argparse.Namespace) -> int:
    if not 1 <= args.jobs <= 64:
        raise InputError("--jobs must be from 1 to 64")
    files = problem_files(Path(args.directory))
    options = given(args, "lang", "checks")
    options["to"] = args.format or ("markdown" if (args.output or "").endswith(".md") else "latex")
    s = settle(None, options, flags=True, formats=DOCUMENT_FORMATS)
    bar = progress_bar("problems", "deriving", args.quiet)
    parts, skipped = exercises(files, s.lang, args.jobs, bar.update if bar else None,
                               width=s.width, checks=s.checks)
    if bar:
        bar.close()
    for file in skipped:  # a folder of worked examples holds a shapes problem: the rest is a set
        print(f"note: skipped {shown_escaped(file.source)}: {file.reason}", file=sys.stderr)
    write(render_problemset(parts, s.lang, s.to, s.page()), args)
    return EXIT_OK


def _mistakes(args: argparse.Namespace) -> int:
    """Each classic mistake's result; for [[heads]], each head's, head by head."""
    problem = load(args)
    refuse_kind(problem, "mistakes")
    settings = settle(problem, given(args, "lang", "places"), flags=True)
    args.lang, places = settings.lang, settings.places
    heads = problem.heads if isinstance(problem, MultiHeadProblem) else (problem,)
    columns = problem.layout == "columns"  # the book's matrices, and its wrong axis (rows)

    def each(m: Mistakes | HeadMistakes) -> tuple:
        return BookMistakes(m).all() if columns else m.all()
    found = [each(Mistakes(head)) for head in heads]
    traced = attend_heads(problem) if isinstance(problem, MultiHeadProblem) else None
    titles = _titles(heads, problem, args.lang)  # each head's in the language, the output's
    if traced is not None:  # every head mistaken alike, through W_O
        found.append(each(HeadMistakes(traced)))
    if args.format in DOCUMENT_FORMATS:
        labels = "".join((problem.title or "",) + tuple(heads[0].row_labels)
                         + tuple(heads[0].column_labels))
        stated: list = [statement(head, settings) for head in heads]  # each head's Q, K, V
        output = _output(traced, stated[0].book, columns) if traced is not None else None
        text = mistakes_document(list(zip(titles, found)), args.format,
                                 args.lang, needs_cjk(labels), columns, settings.page(), stated,
                                 output)
    elif args.format == "json":
        text = mistakes_json(found[0], args.lang, columns) if len(found) == 1 else \
            "[\n" + ",\n".join(mistakes_json(f, args.lang, columns).rstrip()
                                for f in found) + "\n]\n"
    else:  # a value too long to print exactly by its decimals (the book's matrices already)
        shown = [tuple(replace(m, A=m.A and as_decimals(m.A, places),
                               O=m.O and as_decimals(m.O, places)) for m in f) for f in found]
        text = "\n".join(mistakes_text(f, args.lang, title, columns)
                         for f, title in zip(shown, titles))
    write(text, args)
    return EXIT_OK


def _output(traced: MultiHeadTrace, book: Callable, columns: bool) -> list[tuple[str, sp.MatrixBase]]:
    """W_O, b_O if any, and the correct MHA(X), in the reader's layout, for the heads' mistakes."""
    p = traced.problem
    bias = [("b_O" if columns else r"b_O^{\mathsf T}", book(p.b_O))] if p.b_O is not None else []
    return [("W_O", book(p.W_O)), *bias, (r"\operatorname{MHA}(X)", book(traced.output))]


def _titles(heads: tuple, problem, lang: str) -> list[str | None]:
    """The document's title of each group: each head's in the language, then the output's."""
    own = [(lang == "zh" and head.title_zh) or head.title for head in heads]
    if isinstance(problem, MultiHeadProblem):
        title = (lang == "zh" and problem.title_zh) or problem.title or "MHA(X)"
        dash = "——" if lang == "zh" else " — "  # as each head's title: 两个头——第 1 个头
        own.append(f"{title}{dash}{phrase('mistakes_output', lang)}")
    return own
