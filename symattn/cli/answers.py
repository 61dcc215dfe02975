"""symattn verify and symattn grade: claimed answers judged against the exact result."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..answers.batch import grade
from ..answers.results import Graded, Verdict
from ..answers.verify import facts_and_mistakes, verify
from ..errors import InputError
from ..model import Facts, MultiHeadProblem, Problem, ShapeProblem
from ..parse.claims import load_answers
from ..parse.claims import Target, parse_key
from ..parse.submissions import Submissions, read_submissions
from ..targets.grades import not_graded, render_grade_summary, render_grades_csv
from ..targets.verdicts import render_verification_json, render_verification_text
from ..jobs import refuse_kind, settle
from .loading import load
from .output import EXIT_FAILED, EXIT_OK, STDOUT, progress_bar, write


def run(args: argparse.Namespace) -> int:
    """verify or grade the problem of args.file."""
    problem = load(args)
    refuse_kind(problem, args.command)
    args.lang = settle(problem, {"lang": args.lang, "to": args.format
                                 if args.command == "verify" else None}, flags=True).lang
    if args.command == "verify":
        return _verify(problem, args)
    return _grade(problem, args)


def _symbols(problem: Problem | ShapeProblem | MultiHeadProblem) -> dict:
    return {s.name: s for s in getattr(problem, "symbols", ())}


def _verify(problem: Problem | ShapeProblem | MultiHeadProblem, args: argparse.Namespace) -> int:
    """Judge the problem's [answers] (or --answers FILE); exit 0 only if every claim is correct."""
    claims, grading = load_answers(Path(args.answers), _symbols(problem)) if args.answers \
        else (None, None)
    report = verify(problem, claims, grading)
    render = render_verification_json if args.format == "json" else render_verification_text
    sys.stdout.write(render(report, args.lang))
    return EXIT_OK if report.passed else EXIT_FAILED


def _grade(problem: Problem | ShapeProblem | MultiHeadProblem, args: argparse.Namespace) -> int:
    """Grade every student's answers; write the report; print the per-claim summary. Exit 1
    when an answer could not be graded (its worker crashed twice: the grader's failure)."""
    if not 0.1 <= args.time_limit <= 600 or not 1 <= args.workers <= 64:
        raise InputError("--time-limit must be from 0.1 to 600 seconds and --workers from 1 to 64")
    submissions = read_submissions(Path(args.submissions))
    if not submissions.students:
        raise InputError("no student rows", source=args.submissions)
    facts, mistakes = facts_and_mistakes(problem)
    for column, key in enumerate(submissions.keys, start=2):
        problem_with_key = _out_of_range(parse_key(key), facts)
        if problem_with_key:
            raise InputError(f"claim key {key!r}: {problem_with_key}", source=args.submissions,
                             key="line 1", column=column)
    bar = progress_bar("answers", "grading", args.quiet)
    graded = grade(submissions, facts, problem.grading, _symbols(problem), workers=args.workers,
                   time_limit=args.time_limit, progress=bar.update if bar else None,
                   mistakes=mistakes)
    graded = with_refusals(submissions, graded)
    if bar:
        bar.close()
    if args.output:
        write(render_grades_csv(submissions.keys, graded, args.lang), args)
    summary = sys.stderr if args.output == STDOUT else sys.stdout  # -o -: the report is stdout's
    summary.write(render_grade_summary(submissions.keys, graded, args.lang))
    return EXIT_FAILED if not_graded(graded) else EXIT_OK


def with_refusals(submissions: Submissions, graded: list[Graded]) -> list[Graded]:
    """Every answer of a row the submissions file refused marked invalid with the reason and
    its line, in place of what its empty text was judged."""
    refused = dict(submissions.refused)
    return [Graded(g.student, tuple(Verdict(v.key, "invalid", (), "unreadable",
                                            ("note_unreadable", refused[s]))
                                    for v in g.verdicts)) if s in refused else g
            for s, g in enumerate(graded)]


def _out_of_range(target: Target, facts: Facts) -> str | None:
    """Why a claim key cannot be answered for this problem (None if it can)."""
    if target.kind == "scalar":
        return None if target.name in facts.scalars else "not given by this problem"
    if target.name not in facts.shapes:
        return "not given by this problem"
    if target.kind == "shape":
        return None
    if facts.matrices is None:
        return "this problem gives only shapes"
    rows, cols = facts.shapes[target.name]
    if (target.row is not None and target.row >= rows) or \
            (target.column is not None and target.column >= cols):
        return f"outside {target.name}, which is {rows}x{cols}"
    return None
