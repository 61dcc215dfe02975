"""A directory of problem files -> each problem's derivation, computed in worker processes."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..checks.heads import check_heads
from ..checks.invariants import check
from ..derivation import Options, derive, derive_heads
from ..errors import InputError
from ..exact.attention import attend
from ..exact.heads import attend_heads
from ..kinds import refusal
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


@dataclass(frozen=True)
class Skipped:
    """A problem file of the folder that a set does not take, and the sentence saying why."""

    source: str
    reason: str


def exercise_of(job: tuple[str, str, float, str]) -> Exercise | Skipped:
    """Load, solve, check and derive one problem (run in a worker), laid out for the width, its
    solution closed by the checks as asked (short, full or none); a kind the set does not take
    (shapes only) is skipped with its reason."""
    path, lang, width, checks = job
    problem = load_problem(Path(path))
    reason = refusal(problem, "problemset")
    if reason is not None:
        return Skipped(path, reason)
    options = Options(lang=lang, detail="textbook", width=width, checks=checks)
    if isinstance(problem, MultiHeadProblem):
        heads = attend_heads(problem)
        return heads_exercise(derive_heads(heads, check_heads(heads, digits=30), options))
    assert isinstance(problem, Problem)  # refusal lets no shapes-only problem through
    trace = attend(problem)
    return exercise(derive(trace, check(trace, digits=30), options))


def exercises(files: list[Path], lang: str, jobs: int = 1,
              progress: Callable[[int, int], None] | None = None, *,
              width: float = 345.0, checks: str = "short"
              ) -> tuple[list[Exercise], list[Skipped]]:
    """Every problem's parts in file order, laid out for the text width (points), each solution
    closed by `checks`, and the files skipped (a kind a set does not take); `jobs` > 1 uses
    forked worker processes.

    Raises:
        InputError: when the set would hold no problem at all.
    """
    tasks = [(str(path), lang, width, checks) for path in files]
    if jobs <= 1:
        results = _collected(map(exercise_of, tasks), len(tasks), progress)
    else:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(tasks))) as pool:
            results = _collected(pool.imap(exercise_of, tasks), len(tasks), progress)
    parts = [r for r in results if isinstance(r, Exercise)]
    skipped = [r for r in results if isinstance(r, Skipped)]
    if not parts:
        raise InputError(f"no problem a set can take; {skipped[0].reason}", source=skipped[0].source)
    return parts, skipped


def _collected(results: Iterable[Exercise | Skipped], total: int,
               progress: Callable[[int, int], None] | None) -> list[Exercise | Skipped]:
    """The results in order, each one counted on the progress bar as it arrives."""
    out = []
    for k, result in enumerate(results, start=1):
        out.append(result)
        if progress:
            progress(k, total)
    return out
