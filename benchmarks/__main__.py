"""python -m benchmarks: symattn against naive SymPy and mpmath, in one run, and the report.

    python -m benchmarks              # the full run (about 13 minutes on 2 cores); writes
                                      # docs/performance.md and docs/performance.svg
    python -m benchmarks --quick      # a smoke run (under a minute): prints the report only
    python -m benchmarks --from-json results.json   # rewrite the report from saved results
    python -m benchmarks --whole-job  # whole symattn processes on four input families (about
                                      # 30 minutes); writes its section of docs/performance.md

Every timing is the median of repeated runs, each in a fresh forked process with a fresh
SymPy cache; naive runs are capped (default 60 s, reported as "> 60 s"), and once a naive
method passes the cap at some n, larger n are not run for it (reported as above the cap).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from collections.abc import Sequence
from typing import Any

from . import extras, report, svgplot
from .cases import Case, log_case, random_case
from .check import summarize_symbolic, verdict
from .methods import METHODS, Method, symattn_status, warm_up
from .naive import mpmath_attention
from .targets import evaluate, profiles_for_misses
from .timing import Measurement, measure

ROOT = Path(__file__).resolve().parent.parent
LOG_METHODS = ("symattn", "naive_simplify", "naive_plain", "mpmath")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, nargs="+", default=[8, 16, 32, 64, 128])
    p.add_argument("--d-k", type=int, nargs="+", default=[2, 4, 8])
    p.add_argument("--log-n", type=int, nargs="+", default=[8, 16, 32, 64])
    p.add_argument("--repeats", type=int, default=3, help="runs of a naive method (median)")
    p.add_argument("--fast-repeats", type=int, default=7, help="runs of symattn and mpmath")
    p.add_argument("--cap", type=float, default=60.0, help="seconds per naive run (default 60)")
    p.add_argument("--quick", action="store_true", help="smoke run: n = 8, 16; d_k = 4; cap 10 s")
    p.add_argument("--flint-path", help="a directory holding python-flint (pip install --target "
                   "DIR python-flint) to also measure SYMPY_GROUND_TYPES=flint")
    p.add_argument("--out", help="markdown report (default docs/performance.md; --quick: none)")
    p.add_argument("--svg", help="plot (default docs/performance.svg; --quick: none)")
    p.add_argument("--json", help="also save the raw results here")
    p.add_argument("--from-json", help="skip measuring: write the report from saved results")
    p.add_argument("--whole-job", action="store_true", help="whole symattn processes instead "
                   "(benchmarks/wholejob.py); --quick: tiny sizes, report printed only")
    p.add_argument("--limit", type=float, default=120.0, help="--whole-job: seconds per job")
    p.add_argument("--root", default=str(ROOT), help="--whole-job: the symattn checkout to run")
    p.add_argument("--before", help="--whole-job: saved results of the code before, shown beside")
    args = p.parse_args(argv)
    if args.whole_job:
        return args
    if args.quick:
        args.n, args.d_k, args.log_n, args.cap = [8, 16], [4], [8, 16], 10.0
        args.repeats, args.fast_repeats = 2, 3
    elif args.out is None and args.svg is None:
        args.out, args.svg = "docs/performance.md", "docs/performance.svg"
    return args


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def as_dict(m: Measurement, method: Method, reference: tuple[list, list] | None) -> dict[str, Any]:
    out: dict[str, Any] = {"status": m.status, "times": m.times, "median": m.median,
                           "cpu_median": m.cpu_median, "detail": m.detail}
    if m.summary is not None:
        out["size"] = m.summary.get("size")
        out["rational"] = m.summary.get("rational")
        if reference is not None:
            out["check"] = verdict(reference[0], reference[1], m.summary)
    elif not method.symbolic and m.status == "ok":
        out["check"] = "reference"
    return out


def run_case(case: Case, keys: Sequence[str], args: argparse.Namespace,
             stopped: dict[str, int]) -> dict[str, Any]:
    """Every method on one case; a naive method that passed the cap at a smaller n is skipped."""
    reference = mpmath_attention(case)
    row: dict[str, Any] = {"n": case.n, "d_k": case.d_k, "family": case.family, "methods": {}}
    for method in (m for m in METHODS if m.key in keys):
        if method.key in stopped:
            row["methods"][method.key] = {
                "status": "skipped", "times": [], "median": None,
                "detail": f"> {args.cap:g} s (passed the cap at n = {stopped[method.key]})"}
            continue
        log(f"  {case.name}: {method.name} ...")
        naive = method.key.startswith("naive")
        m = measure(lambda method=method: method.compute(case), args.repeats if naive else args.fast_repeats,
                    args.cap if naive else 10 * args.cap,
                    summarize_symbolic if method.symbolic else None)
        if m.status == "timeout":
            stopped[method.key] = case.n
        row["methods"][method.key] = as_dict(m, method, reference)
    return row


def run_grid(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for d_k in args.d_k:
        stopped: dict[str, int] = {}
        for n in args.n:
            rows.append(run_case(random_case(n, d_k), [m.key for m in METHODS], args, stopped))
    return rows


def run_log(args: argparse.Namespace) -> list[dict[str, Any]]:
    stopped: dict[str, int] = {}
    return [run_case(log_case(n), LOG_METHODS, args, stopped) for n in args.log_n]


def run_ground_types(args: argparse.Namespace) -> dict[str, Any] | None:
    """symattn under SymPy's python and flint ground types, each in its own interpreter."""
    import importlib.util
    import subprocess

    path = [str(ROOT)] + ([args.flint_path] if args.flint_path else [])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    probe = subprocess.run([sys.executable, "-c", "import flint; print(flint.__version__)"],
                           env=env, capture_output=True, text=True)
    if probe.returncode != 0 and importlib.util.find_spec("flint") is None:
        return None
    sizes = [n for n in args.n if n in (32, 128)] or args.n
    out = {}
    for ground in ("python", "flint"):
        log(f"  ground types {ground} ...")
        done = subprocess.run([sys.executable, "-m", "benchmarks.ground", "--n", *map(str, sizes),
                               "--d-k", *map(str, args.d_k), "--repeats", "5"],
                              env={**env, "SYMPY_GROUND_TYPES": ground}, cwd=ROOT,
                              capture_output=True, text=True, check=True)
        out[ground] = json.loads(done.stdout)
    return out


def measure_all(args: argparse.Namespace) -> dict[str, Any]:
    started = time.time()
    results: dict[str, Any] = {"machine": report.machine(), "load_before": os.getloadavg(),
                               "command": "python -m benchmarks " + " ".join(sys.argv[1:]),
                               "cap": args.cap, "quick": args.quick}
    unavailable = symattn_status()
    if unavailable:
        raise SystemExit(f"symattn cannot be imported: {unavailable}")
    warm_up()
    n_mid = 32 if 32 in args.n else max(args.n)
    n_big = 128 if 128 in args.n else max(args.n)
    log("main grid (random integers, causal, tau = 17/20)")
    results["grid"] = run_grid(args)
    log("log-designed inputs")
    results["log"] = run_log(args)
    log("50-digit values of the exact result")
    results["numeric"] = extras.measure_numeric(n_mid, args.d_k, args.fast_repeats, 10 * args.cap)
    log("LaTeX")
    results["latex"] = extras.measure_latex(n_mid, args.d_k, 3, 10 * args.cap)
    log("CLI")
    results["cli"] = extras.measure_cli(args.fast_repeats)
    log("peak memory")
    results["memory"] = extras.measure_memory(n_big, args.d_k)
    log("ground types")
    results["ground_types"] = run_ground_types(args)
    results["targets"] = evaluate(results)
    log("profiles of missed targets")
    results["profiles"] = profiles_for_misses(results)
    results["load_after"] = os.getloadavg()
    results["seconds"] = time.time() - started
    return results


def whole_job(args: argparse.Namespace) -> int:
    """The whole-job benchmark: measure (or load), then write its section of the report."""
    from . import wholejob, wholejob_report
    if args.from_json:
        results = json.loads(Path(args.from_json).read_text(encoding="utf-8"))
    else:
        sizes = {f: [3, 4] if args.quick else [8, 32, 128] + ([256] if f == "integers" else [])
                 for f in wholejob.FAMILIES}
        results = wholejob.measure(Path(args.root), sizes, args.limit, 1 if args.quick else 3,
                                   2 if args.quick else 20)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    before = json.loads(Path(args.before).read_text(encoding="utf-8")) if args.before else None
    out = None if args.quick else Path(args.out or "docs/performance.md")
    svg = out.with_name("performance-whole-job.svg") if out is not None else None
    block = wholejob_report.section(results, before, svg.name if svg else None)
    if out is None:
        print(block)
    else:
        from .wholejob_plot import plot
        svg.write_text(plot(results), encoding="utf-8")
        old = out.read_text(encoding="utf-8") if out.exists() else ""
        out.write_text(wholejob_report.splice(old, block), encoding="utf-8")
        log(f"wrote the whole-job section of {out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.whole_job:
        return whole_job(args)
    if args.from_json:
        results = json.loads(Path(args.from_json).read_text(encoding="utf-8"))
        results["targets"] = evaluate(results)  # profiles stay those of the run
    else:
        results = measure_all(args)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    svg_name = Path(args.svg).name if args.svg else None
    text = report.build(results, svg_name)
    if args.svg:
        Path(args.svg).write_text(svgplot.plot(results), encoding="utf-8")
    if args.out:
        from .wholejob_report import START, splice
        old = Path(args.out).read_text(encoding="utf-8") if Path(args.out).exists() else ""
        if START in old:  # keep the whole-job section of the other benchmark
            text = splice(text, START + old.split(START, 1)[1])
        Path(args.out).write_text(text, encoding="utf-8")
        log(f"wrote {args.out}" + (f" and {args.svg}" if args.svg else ""))
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
