"""The measurements beside the main grid: numeric values, LaTeX, the CLI, memory, profiles.

Every timing runs in a fresh child process (forked, fresh SymPy cache) or a fresh interpreter
(the CLI and memory), and reports the median of its runs.
"""

from __future__ import annotations

import cProfile
import io
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

from .cases import Case, random_case
from .timing import call_in_child, repeat_steps

ROOT = Path(__file__).resolve().parent.parent
SEED_EXAMPLE = ROOT / "worked_examples" / "02_causal_three_positions" / "problem.toml"
HEAVY = ("numpy", "matplotlib", "scipy", "torch", "pandas")


def _trace(case: Case) -> Any:
    from symattn import attention

    return attention(case.Q, case.K, case.V, mask=case.mask, temperature=case.temperature)


def _seconds(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


# -- 50-digit values of the exact result ---------------------------------------------------

def numeric_steps(case: Case, digits: int = 50, with_evalf: bool = True) -> dict[str, Any]:
    """One run: exact_values(trace) vs recompute(problem) vs SymPy evalf of every entry."""
    from sympy.core.cache import clear_cache

    from symattn.numeric import context, exact_values, recompute

    trace = _trace(case)
    clear_cache()
    exact_s, exact = _seconds(lambda: exact_values(trace, digits))
    recompute_s, numeric = _seconds(lambda: recompute(trace.problem, digits))
    ctx = context(digits)
    worst = max(abs(ctx.mpf(exact[name][i][j]) - numeric[name][i][j])
                for name in ("A", "O") for i in range(len(exact[name]))
                for j in range(len(exact[name][0])))
    out = {"exact_values": exact_s, "recompute": recompute_s,
           "max_difference": ctx.nstr(worst, 3), "agree_1e48": bool(worst <= ctx.mpf(10) ** -48)}
    if with_evalf:
        clear_cache()
        out["evalf"] = _seconds(lambda: [x.evalf(digits) for m in (trace.A, trace.O) for x in m])[0]
    return out


def measure_numeric(n: int, d_ks: list[int], repeats: int, cap: float) -> list[dict[str, Any]]:
    """numeric_steps for each d_k at size n, medians over fresh children."""
    return [{"n": n, "d_k": d_k, **repeat_steps(lambda d_k=d_k: numeric_steps(random_case(n, d_k)),
                                                 repeats, cap)} for d_k in d_ks]


# -- LaTeX of A and O, and the summary derivation ------------------------------------------

def latex_steps(case: Case) -> dict[str, float]:
    """One run: A and O as LaTeX, then check, derive and render_derivation on the same trace."""
    from sympy.core.cache import clear_cache

    from symattn.checks.invariants import check
    from symattn.derivation import Options, derive
    from symattn.targets import render_derivation
    from symattn.targets.latex import weights_and_output

    trace = _trace(case)
    clear_cache()
    a_o, _ = _seconds(lambda: weights_and_output(trace))
    check_s, report = _seconds(lambda: check(trace, digits=50))
    derive_s, derivation = _seconds(lambda: derive(trace, report, Options(detail="summary")))
    render_s, text = _seconds(lambda: render_derivation(derivation, "latex"))
    return {"weights_and_output": a_o, "check": check_s, "derive": derive_s,
            "render_derivation": render_s, "characters": len(text)}


def latex_whole(case: Case) -> dict[str, float]:
    """One run: symattn.render(trace, "latex", detail="summary") on a fresh trace."""
    from sympy.core.cache import clear_cache

    from symattn import render

    trace = _trace(case)
    clear_cache()
    return {"render": _seconds(lambda: render(trace, "latex", detail="summary"))[0]}


def measure_latex(n: int, d_ks: list[int], repeats: int, cap: float) -> list[dict[str, Any]]:
    """LaTeX timings for each d_k at size n."""
    rows = []
    for d_k in d_ks:
        case = random_case(n, d_k)
        parts = repeat_steps(lambda case=case: latex_steps(case), repeats, cap)
        whole = repeat_steps(lambda case=case: latex_whole(case), repeats, cap)
        rows.append({"n": n, "d_k": d_k, **parts, "render": whole.get("render")})
    return rows


# -- the CLI as a whole process --------------------------------------------------------------

def _wall(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure_cli(repeats: int) -> dict[str, Any]:
    """Wall (and CPU) time of `python -m symattn solve` on the seed example, with interpreter
    baselines; the commands take turns, so a change of load affects them alike."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    commands = {
        "solve": [sys.executable, "-m", "symattn", "solve", str(SEED_EXAMPLE)],
        "solve_latex": [sys.executable, "-m", "symattn", "solve", str(SEED_EXAMPLE),
                        "--format", "latex"],
        "import_sympy": [sys.executable, "-c", "import sympy"],
        "python": [sys.executable, "-c", "pass"],
    }
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, argv in commands.items():
            runs[name].append(_wall(argv, env))
    out: dict[str, Any] = {}
    for name, times in runs.items():
        out[name] = statistics.median(wall for wall, _ in times)
        out[name + "_cpu"] = statistics.median(cpu for _, cpu in times)
    probe = ("import sys; before = set(sys.modules); from symattn import cli; "
             "cli.main(['solve', sys.argv[1]]); print(sorted({m.split('.')[0] for m in "
             "set(sys.modules) - before} - set(sys.stdlib_module_names)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, str(SEED_EXAMPLE)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    out["modules"] = done.stderr.strip().splitlines()[-1]
    out["heavy"] = [m for m in HEAVY if f"'{m}'" in out["modules"]]
    return out


def profile_cli(lines: int = 18) -> str:
    """cProfile of the whole `symattn solve` process (imports included), top cumulative lines."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "cProfile", "-s", "cumulative", "-m", "symattn",
                           "solve", str(SEED_EXAMPLE)], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    text = done.stdout[done.stdout.find("Ordered by"):] if "Ordered by" in done.stdout else ""
    return _shorten("\n".join(text.splitlines()[:lines + 4]))


# -- peak memory at n = 128 ------------------------------------------------------------------

MEMORY_CODE = """
import json, resource, sys, time, tracemalloc
sys.path.insert(0, {root!r})
from benchmarks.cases import random_case
import symattn.exact.attention
from symattn import attention
case = random_case({n}, {d_k})
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if {traced}:
    tracemalloc.start()
start = time.perf_counter()
trace = attention(case.Q, case.K, case.V, mask=case.mask, temperature=case.temperature)
for name in ("R", "S", "M", "L", "E", "Z"):
    getattr(trace, name)
seconds = time.perf_counter() - start
traced = tracemalloc.get_traced_memory()[1] if {traced} else None
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"before_kb": before, "peak_kb": peak, "traced_peak": traced,
                  "seconds": seconds}}))
"""


def measure_memory(n: int, d_ks: list[int]) -> list[dict[str, Any]]:
    """Peak RSS of a fresh process computing every stage at size n (and tracemalloc's peak)."""
    rows = []
    for d_k in d_ks:
        row: dict[str, Any] = {"n": n, "d_k": d_k}
        for traced in (False, True):
            code = MEMORY_CODE.format(root=str(ROOT), n=n, d_k=d_k, traced=traced)
            done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                                  text=True, check=True)
            data = json.loads(done.stdout)
            if traced:
                row["tracemalloc_peak_mb"] = data["traced_peak"] / 2**20
            else:
                row.update(peak_rss_mb=data["peak_kb"] / 1024, seconds=data["seconds"],
                           after_imports_mb=data["before_kb"] / 1024)
        rows.append(row)
    return rows


# -- profiles ----------------------------------------------------------------------------------

def _shorten(text: str) -> str:
    for prefix in sorted({str(ROOT) + "/", os.path.dirname(os.__file__) + "/"}, key=len,
                         reverse=True):
        text = text.replace(prefix, "")
    return text.replace("site-packages/", "")


def _profile(fn: Callable[[Any], Any], lines: int, setup: Callable[[], Any] | None) -> str:
    prepared = setup() if setup is not None else None
    profiler = cProfile.Profile()
    profiler.enable()
    fn(prepared)
    profiler.disable()
    stream = io.StringIO()
    pstats.Stats(profiler, stream=stream).sort_stats("cumulative").print_stats(lines)
    text = stream.getvalue()
    return _shorten(text[text.find("ncalls") - 3:].rstrip()) if "ncalls" in text else text


def profile(fn: Callable[[Any], Any], lines: int = 18, setup: Callable[[], Any] | None = None,
            cap: float = 120.0) -> str:
    """cProfile of fn(setup()) in a fresh child (setup not profiled), top entries by cumulative
    time."""
    status, text = call_in_child(lambda: _profile(fn, lines, setup), cap)
    return text if status == "ok" else f"(profile {status}: {text})"


def profile_attention(case: Case, lines: int = 18) -> str:
    """Profile of symattn.attention on the case (parsing included)."""
    return profile(lambda _: _trace(case), lines)


def profile_render(case: Case, lines: int = 22) -> str:
    """Profile of symattn.render(trace, "latex", detail="summary"), the trace prepared first."""
    from symattn import render

    return profile(lambda trace: render(trace, "latex", detail="summary"), lines,
                   setup=lambda: _trace(case))


def profile_numeric(case: Case, lines: int = 14) -> str:
    """Profile of exact_values(trace, 50), the trace prepared first."""
    from symattn.numeric import exact_values

    return profile(lambda trace: exact_values(trace, 50), lines, setup=lambda: _trace(case))
