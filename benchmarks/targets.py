"""The issue's targets, judged from one run's results, and profiles for those missed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import extras
from .cases import log_case, random_case

RATIO_SIMPLIFY, RATIO_PLAIN = 500, 3
TARGET_32, TARGET_64, TARGET_128 = 0.1, 0.5, 2.0
TARGET_MB, TARGET_LOG, TARGET_NUMERIC, TARGET_CLI, TARGET_RENDER = 500, 0.3, 0.05, 0.7, 1.0


def grid_row(results: dict[str, Any], n: int, d_k: int, family: str = "grid"
             ) -> dict[str, Any] | None:
    return next((r for r in results.get(family, []) if r["n"] == n and r["d_k"] == d_k), None)


def seconds(entry: dict[str, Any] | None) -> float | None:
    return entry.get("median") if entry and entry.get("status") == "ok" else None


def ratio(row: dict[str, Any], key: str, cap: float) -> tuple[float | None, bool]:
    """(naive time / symattn time, whether it is only a lower bound: the naive run hit the cap)."""
    base = seconds(row["methods"].get("symattn"))
    other = row["methods"].get(key, {})
    if base is None:
        return None, False
    if other.get("status") in ("timeout", "skipped"):
        return cap / base, True
    value = seconds(other)
    return (value / base, False) if value is not None else (None, False)


def fmt_ratio(value: float | None, bound: bool) -> str:
    if value is None:
        return "n/a"
    return f"{'> ' if bound else ''}{value:,.0f}×" if value >= 10 else \
        f"{'> ' if bound else ''}{value:.1f}×"


def _verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("met" if ok else "MISSED")


def _all(values: list[bool | None]) -> bool | None:
    known = [v for v in values if v is not None]
    return None if not known else all(known)


def _speed(results: dict[str, Any], n: int, limit: float, d_ks: list[int], family: str = "grid"
           ) -> tuple[str, bool | None, list[float | None]]:
    times = [seconds((grid_row(results, n, d_k, family) or {"methods": {}})["methods"]
                     .get("symattn")) for d_k in d_ks]
    shown = " / ".join("-" if t is None else f"{t:.3f}" for t in times)
    label = "d_k = " + "/".join(map(str, d_ks)) if family == "grid" else "d_k = 1"
    ok = _all([None if t is None else t <= limit for t in times])
    return f"{shown} s ({label})", ok, times


def evaluate(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target: what was measured and whether it was met (n/a where not measured)."""
    cap = results["cap"]
    d_ks = sorted({r["d_k"] for r in results.get("grid", [])})
    rows: list[dict[str, Any]] = []

    def add(key: str, target: str, measured: str, ok: bool | None, note: str = "",
            worst: float | None = None, limit: float | None = None) -> None:
        over = f"{worst / limit:.1f}× the limit at worst" if ok is False and worst and limit \
            else ""
        rows.append({"id": key, "target": target, "measured": measured, "verdict": _verdict(ok),
                     "note": note, "over": over})

    shown, ok, times = _speed(results, 32, TARGET_32, d_ks)
    add("n32", f"n = 32 causal, d_k ≤ 8: exact A and O in ≤ {TARGET_32} s", shown, ok,
        worst=max(filter(None, times), default=None), limit=TARGET_32)
    for key, name, need in (("naive_simplify", "naive SymPy + simplify", RATIO_SIMPLIFY),
                            ("naive_plain", "naive SymPy without simplify", RATIO_PLAIN)):
        pairs = [ratio(r, key, cap) for d_k in d_ks if (r := grid_row(results, 32, d_k))]
        verdicts = [None if v is None or (b and v < need) else v >= need for v, b in pairs]
        add(f"ratio_{key}", f"n = 32: at least {need}× faster than {name}",
            " / ".join(fmt_ratio(v, b) for v, b in pairs) + f" (d_k = {'/'.join(map(str, d_ks))})",
            _all(verdicts), "'>': a lower bound, the naive run passed the cap"
            if any(b for _, b in pairs) else "")
    compared = [c for d_k in d_ks if (c := _sizes(results, d_k)) is not None]
    add("size", "n = 32: expressions no larger than naive + simplify's (count_ops of A and O)",
        "; ".join(f"d_k = {d}{'' if n == 32 else f' (n = {n})'}: {o:,} vs {t:,}"
                  for d, n, o, t in compared) or "naive + simplify did not finish",
        _all([o <= t for _, _, o, t in compared]),
        "count_ops summed over every entry of A and O; where naive + simplify passed the cap "
        "at n = 32, the largest n it finished")
    for n, limit in ((64, TARGET_64), (128, TARGET_128)):
        shown, ok, times = _speed(results, n, limit, d_ks)
        add(f"n{n}", f"n = {n}: exact A and O in ≤ {limit} s", shown, ok,
            worst=max(filter(None, times), default=None), limit=limit)
    memory = results.get("memory") or []
    peaks = [m["peak_rss_mb"] for m in memory]
    add("memory", f"n = 128: peak memory ≤ {TARGET_MB} MB (whole process, every stage)",
        " / ".join(f"{p:.0f}" for p in peaks) + " MB" if peaks else "-",
        _all([p <= TARGET_MB for p in peaks]) if memory and memory[0]["n"] == 128 else None)
    row = grid_row(results, 64, 1, "log")
    rational = row["methods"]["symattn"].get("rational") if row else None
    shown, ok, _ = _speed(results, 64, TARGET_LOG, [1], "log")
    add("log", f"log-designed n = 64: pure rationals in ≤ {TARGET_LOG} s",
        shown + ("; every entry rational" if rational else "; NOT all rational" if row else ""),
        None if ok is None else bool(ok and rational))
    numeric = [r for r in results.get("numeric", []) if r.get("status") == "ok"]
    add("numeric", f"50-digit values of an n = 32 result in ≤ {TARGET_NUMERIC} s, agreeing with "
        "mpmath to 1e-48",
        " / ".join(f"{r['exact_values']:.3f}" for r in numeric) + " s; largest difference "
        + " / ".join(r["max_difference"] for r in numeric) if numeric else "-",
        _all([r["exact_values"] <= TARGET_NUMERIC and r["agree_1e48"] for r in numeric])
        if numeric and numeric[0]["n"] == 32 else None)
    cli = results.get("cli")
    add("cli", f"`symattn solve` on the three-position example ≤ {TARGET_CLI} s wall, nothing "
        "heavy imported", f"{cli['solve']:.2f} s; third-party modules {cli['modules']}" if cli
        else "-", None if not cli else cli["solve"] <= TARGET_CLI and not cli["heavy"],
        f"`import sympy` alone: {cli['import_sympy']:.2f} s in the same run" if cli else "",
        cli["solve"] if cli else None, TARGET_CLI)
    ground = results.get("ground_types")
    same = ground and all(a["digest"] == b["digest"] for a, b in
                          zip(ground["python"]["rows"], ground["flint"]["rows"]))
    add("flint", "python-flint optional: both ground types reported when present",
        "both measured, identical A and O" if same else "flint not present" if not ground
        else "results differ", None if not ground else bool(same))
    latex = [r for r in results.get("latex", []) if r.get("status") == "ok"]
    add("render", f"(derivations issue) summary LaTeX of a 32-position causal problem < "
        f"{TARGET_RENDER} s", " / ".join(f"{r['render']:.2f}" for r in latex) + " s" if latex
        else "-", _all([r["render"] < TARGET_RENDER for r in latex])
        if latex and latex[0]["n"] == 32 else None,
        "symattn.render(trace, 'latex', detail='summary'): check + derive + render",
        max((r["render"] for r in latex), default=None), TARGET_RENDER)
    return rows


def _sizes(results: dict[str, Any], d_k: int) -> tuple[int, int, int, int] | None:
    """(d_k, n, symattn's size, naive + simplify's) at n = 32, else the largest n compared."""
    pairs = []
    for row in results.get("grid", []):
        if row["d_k"] == d_k and row["n"] <= 32:
            ours, theirs = (row["methods"].get(k, {}).get("size")
                            for k in ("symattn", "naive_simplify"))
            if ours is not None and theirs is not None:
                pairs.append((row["n"], ours, theirs))
    return (d_k, *max(pairs)) if pairs else None


def _worst_d_k(results: dict[str, Any], n: int) -> int:
    rows = [r for r in results.get("grid", []) if r["n"] == n]
    timed = [(seconds(r["methods"].get("symattn")) or 0, r["d_k"]) for r in rows]
    return max(timed)[1] if timed else 4


PROFILERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "n32": lambda r: extras.profile_attention(random_case(32, _worst_d_k(r, 32))),
    "ratio_naive_simplify": lambda r: extras.profile_attention(random_case(32, _worst_d_k(r, 32))),
    "ratio_naive_plain": lambda r: extras.profile_attention(random_case(32, _worst_d_k(r, 32))),
    "n64": lambda r: extras.profile_attention(random_case(64, _worst_d_k(r, 64))),
    "n128": lambda r: extras.profile_attention(random_case(128, _worst_d_k(r, 128))),
    "log": lambda r: extras.profile_attention(log_case(64)),
    "numeric": lambda r: extras.profile_numeric(random_case(32, _worst_d_k(r, 32))),
    "cli": lambda r: extras.profile_cli(),
    "render": lambda r: extras.profile_render(random_case(32, _worst_d_k(r, 32))),
}


def profiles_for_misses(results: dict[str, Any]) -> dict[str, str]:
    """A cProfile excerpt for every missed target that has a profiler (one per target kind)."""
    out: dict[str, str] = {}
    for row in results.get("targets", []):
        if row["verdict"] == "MISSED" and row["id"] in PROFILERS:
            out[row["id"]] = PROFILERS[row["id"]](results)
    return out
