"""The verify, grade and shape-only commands: load claims, judge, render, choose the exit code."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import InputError
from .model import Problem, ShapeProblem

EXIT_OK, EXIT_FAILED = 0, 1


def _symbols(problem: Problem | ShapeProblem) -> dict:
    return {s.name: s for s in getattr(problem, "symbols", ())}


def run_verify(problem: Problem | ShapeProblem, args: argparse.Namespace) -> int:
    """Judge the problem's [answers] (or --answers FILE); exit 0 only if every claim is correct."""
    from .answers import load_answers
    from .renderers.verdicts import render_verification_json, render_verification_text
    from .verification import verify

    claims = load_answers(Path(args.answers), _symbols(problem)) if args.answers else None
    report = verify(problem, claims)
    render = render_verification_json if args.format == "json" else render_verification_text
    sys.stdout.write(render(report, args.lang))
    return EXIT_OK if report.passed else EXIT_FAILED


def run_grade(problem: Problem | ShapeProblem, args: argparse.Namespace) -> int:
    """Grade every student's answers; write the report; print the per-claim summary."""
    from .claims import parse_key
    from .cli import _write
    from .grading import grade, read_submissions
    from .renderers.grades import render_grade_summary, render_grades_csv
    from .verification import facts_of, mistakes_of

    if not 0.1 <= args.time_limit <= 600 or not 1 <= args.workers <= 64:
        raise InputError("--time-limit must be from 0.1 to 600 seconds and --workers from 1 to 64")
    submissions = read_submissions(Path(args.submissions))
    if not submissions.students:
        raise InputError("no student rows", source=args.submissions)
    facts = facts_of(problem)
    for column, key in enumerate(submissions.keys, start=2):
        problem_with_key = _out_of_range(parse_key(key), facts)
        if problem_with_key:
            raise InputError(f"claim key {key!r}: {problem_with_key}", source=args.submissions,
                             key="line 1", column=column)
    bar = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    graded = grade(submissions, facts, problem.grading, _symbols(problem), workers=args.workers,
                   time_limit=args.time_limit, progress=bar.update if bar else None,
                   mistakes=mistakes_of(problem))
    if bar:
        bar.close()
    if args.output:
        _write(render_grades_csv(submissions.keys, graded, args.lang), args.output)
    sys.stdout.write(render_grade_summary(submissions.keys, graded, args.lang))
    return EXIT_OK


def run_limits(problem: Problem | ShapeProblem, args: argparse.Namespace) -> int:
    """Temperature limits and ∂A/∂x, as text or as a derivation."""
    from .cli import _write
    from .parameters import parameter_report
    from .pipeline import attend
    from .renderers import latex, markdown
    from .renderers.limits_doc import limit_blocks, limits_text
    from .renderers.printer import needs_cjk

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
    _write(text, args.output)
    return EXIT_OK


def run_heads(problem, args: argparse.Namespace) -> int:
    """solve and check for multi-head problems; other commands take one head at a time."""
    from .api import render
    from .cli import _write
    from .layers import attend_heads, check_heads

    if args.command == "verify":
        return run_verify(problem, args)
    if args.command not in ("solve", "check"):
        raise InputError(f"'{args.command}' works on single-head problems; this file has "
                         "[[heads]]", source=problem.source)
    trace = attend_heads(problem)
    if args.command == "check":
        report = check_heads(trace, args.digits)
        for k, head in enumerate(report.reports, start=1):
            sys.stdout.writelines(f"[head {k}] [{'ok' if r.passed else 'FAIL'}] {r.name}: {r.detail}\n"
                                  for r in head.results)
        sys.stdout.write(f"output = Concat(heads) W_O: largest difference from mpmath "
                         f"{float(report.difference):.1e}\n")
        sys.stdout.write("all checks passed\n" if report.passed else "some checks did not pass\n")
        return EXIT_OK if report.passed else EXIT_FAILED
    text = render(trace, args.format, lang=args.lang, detail=args.detail, places=args.places,
                  standalone=args.standalone, digits=args.digits)
    _write(text, args.output)
    return EXIT_OK


def _out_of_range(target, facts) -> str | None:
    """Why a claim key cannot be answered for this problem (None if it can)."""
    if target.kind == "scalar":
        return None if target.name in facts.scalars else "not given by this problem"
    if target.kind != "shape" and facts.matrices is None:
        return "this problem gives only shapes"
    rows, cols = facts.shapes[target.name]
    if (target.row is not None and target.row >= rows) or \
            (target.column is not None and target.column >= cols):
        return f"outside {target.name}, which is {rows}x{cols}"
    return None


def run_shapes(problem: ShapeProblem, args: argparse.Namespace) -> int:
    """solve and check for a problem that gives only shapes: every stage's shape, two constraints."""
    import json

    from .cli import _write

    shapes = problem.shapes
    if args.command == "solve" and getattr(args, "format", "text") == "json":
        text = json.dumps({"title": problem.title, "shapes": {k: list(v) for k, v in shapes.items()}},
                          ensure_ascii=False) + "\n"
    elif args.command == "solve" and args.format in ("latex", "markdown"):
        raise InputError("a problem that gives only shapes is shown as text or JSON",
                         source=problem.source)
    elif args.command == "check":
        text = (f"[ok] Q and K share d_k = {problem.d_k}, so Q K^T is {problem.n_q}x{problem.n_k}\n"
                f"[ok] K and V share n_k = {problem.n_k}, so O = A V is {problem.n_q}x{problem.d_v}\n"
                "all checks passed\n")
    else:
        lines = [problem.title] if problem.title else []
        lines += [f"{name}: {r}x{c}" for name, (r, c) in shapes.items()]
        lines += [f"Q and K share d_k = {problem.d_k} (Q K^T is defined); "
                  f"K and V share n_k = {problem.n_k} (A V is defined)",
                  f"R, S, M, L, A are n_q x n_k = {problem.n_q}x{problem.n_k}; "
                  f"O = A V is n_q x d_v = {problem.n_q}x{problem.d_v}"]
        text = "\n".join(lines) + "\n"
    _write(text, getattr(args, "output", None))
    return EXIT_OK


class ProgressBar:
    """A one-line progress bar on a terminal, redrawn at most ten times a second."""

    def __init__(self, stream, unit: str = "answers", verb: str = "grading") -> None:
        import time
        self.stream, self.clock, self.last = stream, time.monotonic, 0.0
        self.unit, self.verb = unit, verb

    def update(self, done: int, total: int) -> None:
        now = self.clock()
        if now - self.last < 0.1 and done < total:
            return
        self.last = now
        filled = int(30 * done / total)
        self.stream.write(f"\r{self.verb} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {self.unit}")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()
