"""A directory of problem files -> each problem's derivation, computed in worker processes."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from collections.abc import Callable

from ..checks.heads import check_heads
from ..checks.invariants import check
from ..derivation import Options, derive, derive_heads
from ..errors import InputError
from ..exact.attention import attend
from ..exact.heads import attend_heads
from ..kinds import refuse_kind
from ..limits import MAX_PROBLEMS
from ..model import MultiHeadProblem, Problem
from ..parse.spec import load_problem
from ..documents.problemset import Exercise, exercise, heads_exercise


def problem_files(directory: Path) -> list[Path]:
    """The problem files of a set, in name order (multiple-choice sidecars left out): *.toml,
    and */problem.toml one level down, as worked_examples/ holds them."""
    if not directory.is_dir():
        raise InputError("not a directory", source=str(directory))
    files = sorted([p for p in directory.glob("*.toml") if not p.name.endswith(".choices.toml")]
                   + [p for p in directory.glob("*/problem.toml") if p.is_file()])
    if not files:
        raise InputError("no problem files (*.toml or */problem.toml)", source=str(directory))
    if len(files) > MAX_PROBLEMS:
        raise InputError(f"{len(files)} problem files (limit {MAX_PROBLEMS})", source=str(directory))
    return files


def exercise_of(job: tuple[str, str, float, str]) -> Exercise:
    """Load, solve, check and derive one problem (run in a worker), laid out for the width, its
    solution closed by the checks as asked (short, full or none)."""
    path, lang, width, checks = job
    problem = load_problem(Path(path))
    refuse_kind(problem, "problemset")
    options = Options(lang=lang, detail="textbook", width=width, checks=checks)
    if isinstance(problem, MultiHeadProblem):
        heads = attend_heads(problem)
        return heads_exercise(derive_heads(heads, check_heads(heads, digits=30), options))
    assert isinstance(problem, Problem)  # refuse_kind lets no shapes-only problem through
    trace = attend(problem)
    return exercise(derive(trace, check(trace, digits=30), options))


def exercises(files: list[Path], lang: str, jobs: int = 1,
              progress: Callable[[int, int], None] | None = None, *,
              width: float = 345.0, checks: str = "short") -> list[Exercise]:
    """Every problem's parts in file order, laid out for the text width (points), each solution
    closed by `checks`; `jobs` > 1 uses forked worker processes."""
    tasks = [(str(path), lang, width, checks) for path in files]
    if jobs <= 1:
        out = []
        for k, task in enumerate(tasks, start=1):
            out.append(exercise_of(task))
            if progress:
                progress(k, len(tasks))
        return out
    with multiprocessing.get_context("fork").Pool(min(jobs, len(tasks))) as pool:
        out = []
        for k, result in enumerate(pool.imap(exercise_of, tasks), start=1):
            out.append(result)
            if progress:
                progress(k, len(tasks))
        return out
