"""Batch grading of untrusted submissions, each answer judged in a worker process.

A verdict depends only on the answer and the problem, never on how busy the machine is or how
many workers run: the work per answer is bounded by the worker's CPU time (`--time-limit`), not
by the wall clock, and an answer that runs out of it is judged once more, alone, before it is
reported as "time_limit" (its own status, for the instructor to review; never "wrong"). A wrong
answer is then diagnosed against the classic mistakes, computed in the worker when first needed.
The wall clock only guards against a worker that stops answering (native code that never
returns): it is killed and the answer is judged again alone. A worker that crashes (a segfault,
the OOM killer, its memory limit) is the grader's failure, not the student's: it is replaced,
its answer is judged once more, alone, and if that crashes too the answer is "not_graded" (its
own status, with the cause; never "wrong" or "invalid"), for the instructor to rerun or review.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import resource
import signal
import time
from collections import deque
from multiprocessing.connection import Connection, wait
from collections.abc import Callable

from ..limits import MISTAKE_CPU_SECONDS, WORKER_MEMORY_BYTES
from ..model import Facts, Grading
from ..parse.claims import parse_claim
from ..parse.submissions import Submissions
from .budget import OverBudget, cpu_budget
from .judge import diagnose, judge_claim
from .book import BookMistakes
from .head_mistakes import HeadMistakes
from .mistakes import MISTAKES, Mistakes
from .results import Graded, Verdict

Task = tuple[int, int]  # (student, key)
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def judge_text(key: str, text: str, facts: Facts, grading: Grading, symbols: dict,
               mistakes: Mistakes | HeadMistakes | BookMistakes | None = None,
               time_limit: float | None = None) -> Verdict:
    """Parse and judge one untrusted answer within `time_limit` seconds of CPU time, then
    diagnose it if it is wrong (an empty cell is an invalid, missing answer)."""
    if not text.strip():
        return Verdict(key, "invalid", (), "unreadable", ("read_no_answer",))
    try:
        with cpu_budget(time_limit):
            claim = parse_claim(key, text, symbols)
            verdict = judge_claim(claim, facts, grading)
    except OverBudget:
        return Verdict(key, "time_limit", (), "time_limit", (time_limit,))
    if verdict.status == "wrong" and mistakes is not None:
        verdict = diagnose(verdict, claim, facts, grading, mistakes)
    return verdict


class _Worker:
    """A forked process that judges answers sent over a pipe; killed if it stops answering."""

    def __init__(self, job: tuple) -> None:
        self.conn, child = multiprocessing.get_context("fork").Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=_serve, args=(child, *job), daemon=True)
        self.process.start()
        child.close()
        self.task: Task | None = None
        self.deadline = 0.0

    def stop(self) -> None:
        self.process.kill()
        self.process.join()
        self.conn.close()


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the grading process dies (SIGKILL included)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: a worker still ends when its pipe closes
        pass


def _serve(conn: Connection, facts: Facts, grading: Grading, symbols: dict,
           mistakes: Mistakes | HeadMistakes | BookMistakes | None, time_limit: float) -> None:
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the terminal's whole group:
    # the grader stops and kills its workers; a worker's own traceback would be stray lines
    _, hard = resource.getrlimit(resource.RLIMIT_AS)  # never above a limit the host has set
    limit = WORKER_MEMORY_BYTES if hard == resource.RLIM_INFINITY else min(hard, WORKER_MEMORY_BYTES)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    while True:
        try:
            key, text = conn.recv()
        except EOFError:
            return
        try:
            verdict = judge_text(key, text, facts, grading, symbols, mistakes, time_limit)
        except MemoryError:  # the worker's memory limit: the grader's failure, judged again
            verdict = not_graded(key, "MemoryError")
        except Exception as error:  # an answer that breaks the judge is invalid, not fatal
            verdict = Verdict(key, "invalid", (), "unreadable",
                              ("read_failed", f"{type(error).__name__}: {str(error)[:80]}"))
        conn.send(verdict)


def not_graded(key: str, cause: str) -> Verdict:
    """The verdict on an answer whose worker crashed (`cause`: a signal's name, "exit N",
    "MemoryError"): not judged, through no fault of the student's."""
    return Verdict(key, "not_graded", (), "not_graded", (cause,))


def _cause(worker: _Worker) -> str:
    """How a worker whose pipe broke ended: the signal that killed it, or its exit code."""
    worker.process.join(5)  # its end of the pipe is closed: it has ended or is ending
    code = worker.process.exitcode
    if code is None:
        return "no exit"
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit {code}"


def wall_limit(time_limit: float) -> float:
    """Wall-clock seconds after which a silent worker is killed: its CPU budget on a machine
    many times oversubscribed, plus the classic mistakes' budgets, plus slack."""
    return 20 * time_limit + len(MISTAKES) * MISTAKE_CPU_SECONDS + 30


def grade(submissions: Submissions, facts: Facts, grading: Grading, symbols: dict, *,
          workers: int = 2, time_limit: float = 2.0,
          progress: Callable[[int, int], None] | None = None,
          mistakes: Mistakes | HeadMistakes | BookMistakes | None = None) -> list[Graded]:
    """Judge every answer in worker processes, each within `time_limit` seconds of CPU time.

    `mistakes` (computed lazily in each worker) lets a wrong answer be diagnosed.
    """
    tasks = [(s, k) for s in range(len(submissions.students)) for k in range(len(submissions.keys))]
    job = (facts, grading, symbols, mistakes, time_limit)

    def answer(task: Task) -> tuple[str, str]:
        student, key = task
        return submissions.keys[key], submissions.students[student][1][key]

    results = _run(tasks, answer, job, workers, time_limit, progress)
    again = [task for task, verdict in results.items()
             if verdict.status in ("time_limit", "not_graded")]
    if again:  # once more, one at a time, nothing else running beside it
        results.update(_run(again, answer, job, 1, time_limit, None))
    return [Graded(student, tuple(results[(s, k)] for k in range(len(submissions.keys))))
            for s, (student, _) in enumerate(submissions.students)]


def _run(tasks: list[Task], answer: Callable[[Task], tuple[str, str]], job: tuple, workers: int,
         time_limit: float, progress: Callable[[int, int], None] | None) -> dict[Task, Verdict]:
    """Every task's verdict from a pool of workers; a silent or crashed worker is replaced."""
    queue, total = deque(tasks), len(tasks)
    results: dict[Task, Verdict] = {}
    pool = [_Worker(job) for _ in range(max(1, min(workers, total)))]
    try:
        while len(results) < total:
            for worker in pool:
                if worker.task is None and queue:
                    worker.task = queue.popleft()
                    worker.deadline = time.monotonic() + wall_limit(time_limit)
                    try:
                        worker.conn.send(answer(worker.task))
                    except OSError:  # it died while idle: its pipe reads EOF below, and the
                        pass  # answer it never got is judged again, alone
            busy = [w for w in pool if w.task is not None]
            timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
            ready = wait([w.conn for w in busy], timeout=timeout)
            for index, worker in enumerate(pool):
                if worker.task is None:
                    continue
                if worker.conn in ready:
                    try:
                        results[worker.task] = worker.conn.recv()
                        worker.task = None
                        continue
                    except (EOFError, OSError):
                        results[worker.task] = not_graded(answer(worker.task)[0],
                                                          _cause(worker))
                elif time.monotonic() >= worker.deadline:
                    results[worker.task] = Verdict(answer(worker.task)[0], "time_limit", (),
                                                   "time_limit", (time_limit,))
                else:
                    continue
                worker.stop()
                pool[index] = _Worker(job)
            if progress:
                progress(len(results), total)
    finally:
        for worker in pool:
            worker.stop()
    return results
