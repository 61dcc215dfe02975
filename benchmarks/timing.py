"""Timing helpers: fresh SymPy cache, one subprocess per run with a time cap, medians."""

from __future__ import annotations

import gc
import multiprocessing
import statistics
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from collections.abc import Callable
from typing import Any

from sympy.core.cache import clear_cache

Compute = Callable[[], Any]
Summarize = Callable[[Any], dict[str, Any]]

_CTX = multiprocessing.get_context("fork")  # closures need no pickling; sympy stays imported


@dataclass
class Measurement:
    """Outcome of timing one method: status, per-run seconds, optional summary dict."""

    status: str  # "ok" | "timeout" | "error" | "unavailable"
    times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    summary: dict[str, Any] | None = None
    detail: str = ""

    @property
    def median(self) -> float | None:
        """Median of the completed runs, or None."""
        return statistics.median(self.times) if self.times else None

    @property
    def cpu_median(self) -> float | None:
        """Median CPU seconds (this process) of the completed runs, or None."""
        return statistics.median(self.cpu_times) if self.cpu_times else None


def fresh_cache() -> None:
    """Clear SymPy's global cache (and symattn's numeric memo) and collect garbage before a run."""
    clear_cache()
    numeric = sys.modules.get("symattn.numeric")
    if numeric is not None and hasattr(numeric, "forget"):
        numeric.forget()
    gc.collect()


def timed(compute: Compute) -> tuple[tuple[float, float], Any]:
    """Run compute on a fresh SymPy cache; return ((wall seconds, CPU seconds), result)."""
    fresh_cache()
    start, cpu = time.perf_counter(), time.process_time()
    result = compute()
    return (time.perf_counter() - start, time.process_time() - cpu), result


def _child(conn: Connection, compute: Compute, summarize: Summarize | None) -> None:
    """Subprocess body: send ("time", s), then ("summary", dict) if requested."""
    try:
        seconds, result = timed(compute)
        conn.send(("time", seconds))
        if summarize is not None:
            conn.send(("summary", summarize(result)))
    except BaseException as exc:  # report everything, including RecursionError
        conn.send(("error", f"{type(exc).__name__}: {exc}"[:300]))
    finally:
        conn.close()


def _stop(proc: Any) -> None:
    """Terminate (then kill) the given child process we started."""
    if proc.is_alive():
        proc.terminate()
        proc.join(5)
    if proc.is_alive():
        proc.kill()
    proc.join()


def _receive(conn: Connection, timeout: float) -> tuple[str, Any] | None:
    """Return the next message from conn, or None on timeout or closed pipe."""
    try:
        if conn.poll(timeout):
            return conn.recv()
    except (EOFError, OSError):
        return ("error", "child exited without reporting")
    return None


def run_once(compute: Compute, cap: float, summarize: Summarize | None = None,
             summary_cap: float | None = None) -> Measurement:
    """Time one run in a subprocess, capped at cap seconds; optionally summarize the result."""
    parent, child = _CTX.Pipe(duplex=False)
    proc = _CTX.Process(target=_child, args=(child, compute, summarize), daemon=True)
    proc.start()
    child.close()
    try:
        message = _receive(parent, cap)
        if message is None:
            return Measurement("timeout", detail=f"> {cap:g} s")
        if message[0] == "error":
            return Measurement("error", detail=message[1])
        measurement = Measurement("ok", times=[message[1][0]], cpu_times=[message[1][1]])
        if summarize is not None:
            extra = _receive(parent, summary_cap if summary_cap is not None else cap)
            if extra is None:
                measurement.detail = "summary timed out"
            elif extra[0] == "error":
                measurement.detail = f"summary failed: {extra[1]}"
            else:
                measurement.summary = extra[1]
        return measurement
    finally:
        parent.close()
        _stop(proc)


def measure(compute: Compute, repeats: int, cap: float,
            summarize: Summarize | None = None) -> Measurement:
    """Median over up to `repeats` capped runs; stop early once the budget `cap` would be exceeded.

    The first run also produces the summary (sizes, numeric values) outside the timed region.
    """
    first = run_once(compute, cap, summarize)
    if first.status != "ok":
        return first
    while len(first.times) < repeats and sum(first.times) + first.times[-1] <= cap:
        nxt = run_once(compute, cap)
        if nxt.status != "ok":
            first.detail = f"repeat {nxt.status}: {nxt.detail}"
            break
        first.times.extend(nxt.times)
        first.cpu_times.extend(nxt.cpu_times)
    return first


def _call_child(conn: Connection, fn: Callable[[], Any]) -> None:
    """Subprocess body for call_in_child: send ("ok", fn()) or ("error", message)."""
    try:
        fresh_cache()
        conn.send(("ok", fn()))
    except BaseException as exc:  # report everything, including RecursionError
        conn.send(("error", f"{type(exc).__name__}: {exc}"[:300]))
    finally:
        conn.close()


def call_in_child(fn: Callable[[], Any], cap: float) -> tuple[str, Any]:
    """Run fn() in a forked child on a fresh SymPy cache, for at most cap seconds.

    Returns ("ok", result), ("timeout", None) or ("error", message); fn's result must pickle.
    """
    parent, child = _CTX.Pipe(duplex=False)
    proc = _CTX.Process(target=_call_child, args=(child, fn), daemon=True)
    proc.start()
    child.close()
    try:
        message = _receive(parent, cap)
        return ("timeout", None) if message is None else message
    finally:
        parent.close()
        _stop(proc)


def repeat_steps(fn: Callable[[], dict[str, float]], repeats: int, cap: float
                 ) -> dict[str, Any]:
    """Run fn (returning {step: seconds, ...}) in `repeats` fresh children; medians per step.

    Non-float values (such as a difference or a flag) are taken from the first run.
    """
    runs: list[dict[str, Any]] = []
    for _ in range(repeats):
        status, result = call_in_child(fn, cap)
        if status != "ok":
            return {"status": status, "detail": result or f"> {cap:g} s"}
        runs.append(result)
    out: dict[str, Any] = {"status": "ok", "runs": len(runs)}
    for key, value in runs[0].items():
        if isinstance(value, float):
            out[key] = statistics.median(run[key] for run in runs)
        else:
            out[key] = value
    return out
