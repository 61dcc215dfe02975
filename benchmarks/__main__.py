"""CLI entry point: `python -m benchmarks` times exact causal attention and prints a table."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Sequence

from .cases import Case, random_case
from .check import summarize_symbolic, verdict
from .methods import METHODS, SYMATTN, Method, symattn_status
from .naive import mpmath_attention
from .timing import Measurement, measure


@dataclass
class Row:
    """One table row: a method, its measurement and the correctness verdict."""

    method: Method
    measurement: Measurement
    check: str


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse command-line flags."""
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    p.add_argument("--n", type=int, nargs="+", default=[32], help="sequence lengths (default 32)")
    p.add_argument("--d-k", type=int, nargs="+", default=[4], help="key dimensions (default 4)")
    p.add_argument("--repeats", type=int, default=3, help="max runs per method (median reported)")
    p.add_argument("--cap", type=float, default=60.0, help="seconds per run before '> cap' (default 60)")
    p.add_argument("--quick", action="store_true", help="smoke run: n=8 only, cap 10 s")
    args = p.parse_args(argv)
    if args.quick:
        args.n, args.cap = [8], 10.0
    return args


def run_method(method: Method, case: Case, repeats: int, cap: float, unavailable: str | None) -> Measurement:
    """Measure one method on one case (or mark it unavailable)."""
    if method is SYMATTN and unavailable is not None:
        return Measurement("unavailable", detail=unavailable)
    summarize = summarize_symbolic if method.symbolic else None
    return measure(lambda: method.compute(case), repeats, cap, summarize)


def check_of(method: Method, m: Measurement, ref: tuple[list, list]) -> str:
    """Return the correctness verdict for a measurement against the mpmath reference."""
    if not method.symbolic:
        return "reference"
    if m.summary is None:
        return "-"
    return verdict(ref[0], ref[1], m.summary)


def run_case(case: Case, repeats: int, cap: float) -> list[Row]:
    """Time every method on a case and check results; returns the rows."""
    ref = mpmath_attention(case)
    unavailable = symattn_status()
    rows = []
    for method in METHODS:
        print(f"  running {method.name} ...", file=sys.stderr, flush=True)
        m = run_method(method, case, repeats, cap, unavailable)
        rows.append(Row(method, m, check_of(method, m, ref)))
    return rows


def fmt_seconds(m: Measurement) -> str:
    """Format a measurement's median time (or its status)."""
    if m.status == "ok":
        return f"{m.median:.4f}"
    return m.detail if m.status == "timeout" else m.status


def fmt_ratio(m: Measurement, base: float | None, cap: float) -> str:
    """Format time relative to symattn."""
    if base is None or base <= 0:
        return "n/a"
    if m.status == "ok":
        return f"{m.median / base:.1f}x"
    return f"> {cap / base:.0f}x" if m.status == "timeout" else "n/a"


def format_table(rows: list[Row], cap: float) -> str:
    """Render rows as a plain-text table plus notes."""
    base = next((r.measurement.median for r in rows if r.method is SYMATTN), None)
    header = ("method", "runs", "median s", "vs symattn", "count_ops", "check vs mpmath")
    body = [
        (
            r.method.name,
            str(len(r.measurement.times)) if r.measurement.times else "-",
            fmt_seconds(r.measurement),
            fmt_ratio(r.measurement, base, cap),
            str(r.measurement.summary["size"]) if r.measurement.summary else "-",
            r.check,
        )
        for r in rows
    ]
    widths = [max(len(line[k]) for line in [header, *body]) for k in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in [header, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = [f"  note: {r.method.name}: {r.measurement.detail}" for r in rows
             if r.measurement.detail and r.measurement.status != "timeout"]
    return "\n".join(lines + notes)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark grid and print one table per (n, d_k)."""
    args = parse_args(argv)
    for d_k in args.d_k:
        for n in args.n:
            case = random_case(n, d_k)
            print(f"\n== {case.name}, d_v={case.d_v}, causal, tau={case.temperature}, "
                  f"cap {args.cap:g} s, repeats <= {args.repeats}, fresh SymPy cache per run ==", flush=True)
            print(format_table(run_case(case, args.repeats, args.cap), args.cap), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
