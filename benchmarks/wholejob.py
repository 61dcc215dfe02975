"""python -m benchmarks --whole-job: whole `symattn` processes on the four input families.

Each job is a fresh `python -m symattn ...` process run from a scratch folder, killed at the
time limit (reported as "> limit"). `python -c "import sympy"` is timed in the same run, before
and after the jobs, so every time can be read as a multiple of the import. A second process per
job (benchmarks/phases.py) times the phases: parse, compute, check, derive, print.
"""

from __future__ import annotations

import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import Any

from .jobs import FAMILIES, FAMILY_COMMANDS, FLOAT_SIZES, FLOATS, Job, family_jobs, float_jobs

ROOT = Path(__file__).resolve().parent.parent
PHASES = Path(__file__).resolve().parent / "phases.py"
SEED_EXAMPLE = ROOT / "worked_examples" / "02_causal_three_positions" / "problem.toml"
PAGE_EXAMPLE = ROOT / "worked_examples" / "05_five_tokens_temperature" / "problem.toml"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def timed(argv: Sequence[str], env: dict[str, str], cwd: Path, limit: float) -> dict[str, Any]:
    """One process: wall and CPU seconds, exit code and stdout bytes; "timeout" past the limit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run(list(argv), env=env, cwd=cwd, capture_output=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "seconds": None, "limit": limit}
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    status = "ok" if done.returncode == 0 else f"exit {done.returncode}"
    out: dict[str, Any] = {"status": status, "seconds": seconds, "cpu": cpu,
                           "bytes": len(done.stdout)}
    if done.returncode != 0:
        out["stderr"] = done.stderr.decode("utf-8", "replace")[-300:]
    return out


def median_of(run: Callable[[], dict[str, Any]], repeats: int, quick_below: float) -> dict[str, Any]:
    """The median of up to `repeats` runs; one run only if it took quick_below seconds or more."""
    first = run()
    if first["status"] != "ok" or first["seconds"] >= quick_below:
        return first
    runs = [first] + [run() for _ in range(repeats - 1)]
    best = sorted(runs, key=lambda r: r["seconds"] if r["seconds"] is not None else 1e9)
    chosen = dict(best[len(best) // 2])
    chosen["runs"] = [r["seconds"] for r in runs]
    return chosen


class Runner:
    """Runs symattn (from `root`) and Python itself in fresh processes from a scratch folder."""

    def __init__(self, root: Path, scratch: Path, limit: float, repeats: int):
        self.root, self.scratch, self.limit, self.repeats = root, scratch, limit, repeats
        self.env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}

    def python(self, *argv: str, limit: float | None = None) -> dict[str, Any]:
        return timed([sys.executable, *argv], self.env, self.scratch, limit or self.limit)

    def symattn(self, argv: Sequence[str]) -> dict[str, Any]:
        return median_of(lambda: self.python("-m", "symattn", *argv), self.repeats, 2.0)

    def import_sympy(self, repeats: int) -> list[float]:
        return [self.python("-c", "import sympy")["seconds"] for _ in range(repeats)]

    def phases(self, job: Job) -> dict[str, Any] | None:
        """Seconds per phase of one job (a second process), or None if it failed or timed out."""
        import json
        if job.command == "verify":
            return None
        try:
            done = subprocess.run([sys.executable, str(PHASES), job.command, job.argv[1]],
                                  env=self.env, cwd=self.scratch, capture_output=True,
                                  timeout=self.limit)
        except subprocess.TimeoutExpired:
            return None
        return json.loads(done.stdout) if done.returncode == 0 else None


def run_family_jobs(runner: Runner, sizes: dict[str, list[int]], with_phases: bool,
                    ) -> list[dict[str, Any]]:
    """Each family's jobs at each of its n (sizes: family -> n); a command that timed out is not
    run at larger n."""
    rows = []
    for family in sizes:
        stopped: dict[str, int] = {}
        for n in sizes[family]:
            jobs = float_jobs(runner.scratch, n) if family == FLOATS else \
                family_jobs(runner.scratch, family, n)
            for job in jobs:
                row: dict[str, Any] = {"command": job.command, "family": family, "n": n}
                if job.command in stopped:
                    row.update(status="skipped", seconds=None,
                               detail=f"timed out at n = {stopped[job.command]}")
                    rows.append(row)
                    continue
                log(f"  {family} n = {n}: {job.command} ...")
                row.update(runner.symattn(job.argv))
                if row["status"] == "timeout":
                    stopped[job.command] = n
                elif with_phases and row["status"] == "ok":
                    row["phases"] = runner.phases(job)
                rows.append(row)
    return rows


def run_other_jobs(runner: Runner, problems: int, page: bool) -> list[dict[str, Any]]:
    """page on the five-token example (its KaTeX is package data: no node needed) and problemset."""
    rows = []
    if page:
        log("  page ...")
        page = runner.scratch / "page.html"
        row = runner.symattn(("page", str(PAGE_EXAMPLE), "-o", str(page)))
        row["bytes"] = page.stat().st_size if page.exists() else None
        rows.append({"command": "page", "family": "five tokens", "n": 5, **row})
    else:
        rows.append({"command": "page", "family": "five tokens", "n": 5, "status": "skipped",
                     "seconds": None, "detail": "not asked for"})
    folder = runner.scratch / "problems"
    made = runner.python("-m", "symattn", "generate", "--count", str(problems), "--seed", "1",
                         "-o", str(folder))
    if made["status"] != "ok":
        raise SystemExit(f"symattn generate failed: {made.get('stderr')}")
    log("  problemset ...")
    row = runner.symattn(("problemset", str(folder)))
    rows.append({"command": "problemset", "family": f"{problems} generated", "n": 3, **row})
    return rows


def run_startup(runner: Runner, repeats: int) -> dict[str, float]:
    """Medians of `symattn --help`, `symattn solve` on the seed example, and import sympy, taking
    turns."""
    samples: dict[str, list[float]] = {"help": [], "solve": [], "import_sympy": []}
    for _ in range(repeats):
        samples["help"].append(runner.python("-m", "symattn", "--help")["seconds"])
        samples["solve"].append(runner.python("-m", "symattn", "solve", str(SEED_EXAMPLE))["seconds"])
        samples["import_sympy"].append(runner.python("-c", "import sympy")["seconds"])
    return {k: statistics.median(v) for k, v in samples.items()}


def measure(root: Path, sizes: dict[str, list[int]], limit: float, repeats: int,
            problems: int, with_phases: bool = True, page: bool = True,
            startup_repeats: int = 5, float_sizes: tuple[int, ...] = FLOAT_SIZES
            ) -> dict[str, Any]:
    """The whole run: import sympy, every job, start-up, import sympy again."""
    started = time.time()
    results: dict[str, Any] = {"load_before": os.getloadavg(), "limit": limit,
                               "command": "python -m benchmarks " + " ".join(sys.argv[1:])}
    # symattn's modules as bytecode, as an installed package has them (pip compiles at install,
    # and SymPy's are): otherwise, with PYTHONDONTWRITEBYTECODE set or a fresh snapshot, every
    # process would compile symattn's source again and the start-up would measure the compiler.
    results["bytecode"] = compileall.compile_dir(str(root / "symattn"), quiet=1)
    with tempfile.TemporaryDirectory(prefix="symattn-jobs-") as scratch:
        runner = Runner(root, Path(scratch), limit, repeats)
        runner.python("-c", "import sympy")  # warm the file cache
        imports = runner.import_sympy(startup_repeats)
        log("families")
        results["jobs"] = run_family_jobs(runner, sizes, with_phases)
        log("float family")
        results["jobs"] += run_family_jobs(runner, {FLOATS: list(float_sizes)}, False)
        results["jobs"] += run_other_jobs(runner, problems, page)
        log("start-up")
        results["startup"] = run_startup(runner, startup_repeats)
        imports += runner.import_sympy(len(imports))
    results["import_sympy_runs"] = imports
    results["import_sympy"] = statistics.median(imports)
    results["load_after"] = os.getloadavg()
    results["seconds"] = time.time() - started
    return results


__all__ = ["FAMILIES", "FAMILY_COMMANDS", "measure"]
