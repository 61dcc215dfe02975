"""Batch grading of untrusted submissions: each answer judged in a worker process under a hard
time limit, so one pathological answer costs at most its limit and is marked invalid."""

from __future__ import annotations

import multiprocessing
import resource
import time
from collections import deque
from multiprocessing.connection import Connection, wait
from typing import Callable

from ..limits import WORKER_MEMORY_BYTES
from ..model import Facts, Grading
from ..parse.claims import parse_claim
from ..parse.submissions import Submissions
from .judge import judge
from .results import Graded, Verdict


def judge_text(key: str, text: str, facts: Facts, grading: Grading, symbols: dict,
               mistakes: dict | None = None) -> Verdict:
    """Parse and judge one untrusted answer (an empty cell is an invalid, missing answer)."""
    if not text.strip():
        return Verdict(key, "invalid", (), "unreadable", ("no answer",))
    return judge(parse_claim(key, text, symbols), facts, grading, mistakes)


class _Worker:
    """A forked process that judges answers sent over a pipe; killed if it overruns."""

    def __init__(self, facts: Facts, grading: Grading, symbols: dict,
                 mistakes: dict | None = None) -> None:
        self.conn, child = multiprocessing.get_context("fork").Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=_serve, args=(child, facts, grading, symbols, mistakes), daemon=True)
        self.process.start()
        child.close()
        self.task: tuple[int, int] | None = None
        self.deadline = 0.0

    def stop(self) -> None:
        self.process.kill()
        self.process.join()
        self.conn.close()


def _serve(conn: Connection, facts: Facts, grading: Grading, symbols: dict,
           mistakes: dict | None = None) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY_BYTES, WORKER_MEMORY_BYTES))
    while True:
        try:
            key, text = conn.recv()
        except EOFError:
            return
        try:
            verdict = judge_text(key, text, facts, grading, symbols, mistakes)
        except Exception as error:  # an answer that breaks the judge is invalid, not fatal
            verdict = Verdict(key, "invalid", (), "unreadable",
                              (f"{type(error).__name__}: {str(error)[:80]}",))
        conn.send(verdict)


def grade(submissions: Submissions, facts: Facts, grading: Grading, symbols: dict, *,
          workers: int = 2, time_limit: float = 2.0,
          progress: Callable[[int, int], None] | None = None,
          mistakes: dict | None = None) -> list[Graded]:
    """Judge every answer in worker processes; each answer gets at most `time_limit` seconds.

    `mistakes` (name -> mistaken A and O) lets a wrong answer be diagnosed as a known mistake.
    """
    tasks = deque((s, k) for s in range(len(submissions.students)) for k in range(len(submissions.keys)))
    total = len(tasks)
    results: dict[tuple[int, int], Verdict] = {}
    pool = [_Worker(facts, grading, symbols, mistakes) for _ in range(max(1, min(workers, total)))]
    try:
        while len(results) < total:
            for worker in pool:
                if worker.task is None and tasks:
                    worker.task = tasks.popleft()
                    student, key = worker.task
                    worker.conn.send((submissions.keys[key], submissions.students[student][1][key]))
                    worker.deadline = time.monotonic() + time_limit
            busy = [w for w in pool if w.task is not None]
            timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
            ready = wait([w.conn for w in busy], timeout=timeout)
            for index, worker in enumerate(pool):
                if worker.task is None:
                    continue
                key = submissions.keys[worker.task[1]]
                failure = None
                if worker.conn in ready:
                    try:
                        results[worker.task] = worker.conn.recv()
                        worker.task = None
                        continue
                    except (EOFError, OSError):
                        failure = "the checker stopped on this answer (memory or crash)"
                elif time.monotonic() >= worker.deadline:
                    failure = f"time limit of {time_limit:g} s exceeded"
                if failure:
                    results[worker.task] = Verdict(key, "invalid", (), "unreadable", (failure,))
                    worker.stop()
                    pool[index] = _Worker(facts, grading, symbols, mistakes)
            if progress:
                progress(len(results), total)
    finally:
        for worker in pool:
            worker.stop()
    return [Graded(student, tuple(results[(s, k)] for k in range(len(submissions.keys))))
            for s, (student, _) in enumerate(submissions.students)]
