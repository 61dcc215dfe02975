"""docs/performance.md from one run's results: machine, targets, tables, plot, profiles."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

from .targets import (
    TARGET_32,
    TARGET_64,
    TARGET_128,
    TARGET_CLI,
    TARGET_LOG,
    TARGET_NUMERIC,
    TARGET_RENDER,
    fmt_ratio,
    ratio,
)

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"symattn": "symattn (A, O)", "symattn_all": "symattn, every stage",
         "naive_simplify": "naive SymPy + simplify", "naive_plain": "naive SymPy, no simplify",
         "mpmath": "mpmath, 50 digits"}
WHY = {
    "n32": "The profile shows where symattn's time goes.",
    "ratio_naive_simplify": "The ratio divides two medians of the same run; the profile shows "
                            "where symattn's time goes.",
    "ratio_naive_plain": "Naive SymPy without simplify builds unsimplified quotients almost as "
                         "fast as symattn builds its fractions; see the profile.",
    "n64": "See the profile.", "n128": "See the profile.", "log": "See the profile.",
    "numeric": "See the profile.",
    "cli": "Most of the time is the interpreter and `import sympy` (see the CLI table: both "
           "were timed in turns in the same run); the profile shows where the rest goes.",
    "render": "The time is outside the exact pipeline (a few hundredths of a second in the "
              "tables above): in the checks (SymPy's assumptions deciding that each weight is "
              "non-negative), `derive` and SymPy's LaTeX printer; the profile shows which "
              "dominates.",
}


def machine() -> dict[str, Any]:
    """Where and with what the run happened."""
    import mpmath
    import sympy
    from sympy.external.gmpy import GROUND_TYPES

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = int(line.split()[1]) / 2**20
    except OSError:
        pass
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    return {
        "cpu": cpu, "cores": os.cpu_count(), "usable_cores": len(os.sched_getaffinity(0)),
        "memory_gb": memory, "os": platform.platform(), "python": platform.python_version(),
        "sympy": sympy.__version__, "mpmath": mpmath.__version__, "ground_types": GROUND_TYPES,
        "commit": commit, "date": datetime.datetime.now(datetime.UTC)
        .strftime("%Y-%m-%d %H:%M UTC"),
    }


def _s(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _time(entry: dict[str, Any] | None, cap: float) -> str:
    if not entry:
        return "-"
    if entry["status"] == "ok":
        return _s(entry["median"], 4 if entry["median"] < 1 else 2)
    if entry["status"] in ("timeout", "skipped"):
        return f"> {cap:g}"
    return entry["status"]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def machine_section(results: dict[str, Any]) -> list[str]:
    m = results["machine"]
    flint = (results.get("ground_types") or {}).get("flint", {}).get("flint")
    rows = [["CPU", f"{m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable)"],
            ["memory", f"{m['memory_gb']:.1f} GB" if m["memory_gb"] else "-"],
            ["OS", m["os"]], ["Python", m["python"]], ["SymPy", m["sympy"]],
            ["mpmath", m["mpmath"]], ["SymPy ground types (main run)", m["ground_types"]],
            ["python-flint (ground-types table)", flint or "not present"],
            ["symattn commit", f"`{m['commit']}`"], ["date", m["date"]],
            ["command", f"`{results['command'].strip()}`"],
            ["whole run", f"{results['seconds'] / 60:.1f} min"],
            ["load average (1, 5, 15 min) before / after",
             " / ".join(", ".join(f"{x:.1f}" for x in results[k])
                        for k in ("load_before", "load_after"))]]
    return ["## Machine", ""] + _table(["", ""], rows) + [
        "", "The machine is shared (the load average above counts other work): compare "
        "ratios within this run, not absolute times across runs. CPU seconds of each run are "
        "recorded beside wall seconds; targets are judged on wall-clock medians.", ""]


def targets_section(results: dict[str, Any]) -> list[str]:
    rows = [[t["target"], t["measured"], f"**{t['verdict']}**" if t["verdict"] == "MISSED"
             else t["verdict"], t["note"]] for t in results["targets"]]
    return ["## Targets (medians, this run)", ""] + _table(
        ["target", "measured", "verdict", "note"], rows) + [""]


def grid_section(results: dict[str, Any], svg: str | None) -> list[str]:
    cap = results["cap"]
    out = ["## Exact attention against naive SymPy and mpmath", "",
           "Random integers in −3..3 (fixed seeds), causal mask, τ = 17/20, d_v = 2. Seconds "
           "(median of the runs; naive runs capped at "
           f"{cap:g} s); × is the method's time over symattn's (A, O).", ""]
    if svg:
        out += [f"![Time against n for each method, log scale, one panel per d_k]({svg})", ""]
    for d_k in sorted({r["d_k"] for r in results["grid"]}):
        rows = []
        for row in (r for r in results["grid"] if r["d_k"] == d_k):
            m = row["methods"]
            cells = [str(row["n"]), _time(m.get("symattn"), cap),
                     _s((m.get("symattn") or {}).get("cpu_median"), 4),
                     _time(m.get("symattn_all"), cap)]
            for key in ("naive_simplify", "naive_plain", "mpmath"):
                cells += [_time(m.get(key), cap), fmt_ratio(*ratio(row, key, cap))]
            rows.append(cells)
        out += [f"### d_k = {d_k}", ""] + _table(
            ["n", "symattn (A, O)", "CPU s", "every stage", "naive + simplify", "×",
             "naive, no simplify", "×", "mpmath 50 digits", "×"], rows) + [""]
    out += _checks_note(results) + [""]
    return out


def _checks_note(results: dict[str, Any]) -> list[str]:
    bad = [f"{NAMES[k]} at n = {r['n']}, d_k = {r['d_k']}: {e['check']}"
           for r in results["grid"] + results["log"] for k, e in r["methods"].items()
           if e.get("check") not in (None, "agree", "reference")]
    checked = sum(1 for r in results["grid"] + results["log"] for e in r["methods"].values()
                  if e.get("check") == "agree")
    return [f"Every symbolic result was evaluated to 60 digits (a memoizing walk in "
            f"`benchmarks/check.py`, not symattn's code) and compared with the mpmath reference: "
            f"{checked} results agree to 1e-40" + ("." if not bad else "; these do not: "
                                                    + "; ".join(bad) + ".")]


def size_section(results: dict[str, Any]) -> list[str]:
    rows = []
    for row in results["grid"]:
        m = row["methods"]
        sizes = [m.get(k, {}).get("size") for k in ("symattn", "naive_simplify", "naive_plain")]
        if any(s is not None for s in sizes):
            rows.append([str(row["d_k"]), str(row["n"])] + ["-" if s is None else f"{s:,}"
                                                            for s in sizes])
    return ["## Expression size", "", "SymPy `count_ops` summed over every entry of A and O "
            "(\"-\": the method did not finish within the cap, or n > 64, where sizes are not "
            "counted).", ""] + _table(["d_k", "n", "symattn", "naive + simplify",
                                       "naive, no simplify"], rows) + [""]


def log_section(results: dict[str, Any]) -> list[str]:
    cap = results["cap"]
    rows = []
    for row in results["log"]:
        m = row["methods"]
        cells = [str(row["n"]), _time(m.get("symattn"), cap),
                 "yes" if m.get("symattn", {}).get("rational") else "no"]
        for key in ("naive_simplify", "naive_plain", "mpmath"):
            cells += [_time(m.get(key), cap), fmt_ratio(*ratio(row, key, cap))]
        rows.append(cells)
    return ["## Log-designed inputs", "", "The seed example's construction at scale: d_k = 1, "
            "Q random integers in −3..3, K entries ln c with c in 1..7, τ = 1, causal, so every "
            f"weight is rational (target: n = 64 in ≤ {TARGET_LOG} s).", ""] + _table(
        ["n", "symattn (A, O)", "all rational", "naive + simplify", "×", "naive, no simplify",
         "×", "mpmath", "×"], rows) + [""]


def numeric_section(results: dict[str, Any]) -> list[str]:
    rows = [[str(r["d_k"]), _s(r.get("exact_values"), 4), _s(r.get("recompute"), 4),
             _s(r.get("evalf"), 3), r.get("max_difference", "-")]
            for r in results["numeric"] if r.get("status") == "ok"]
    n = results["numeric"][0]["n"] if results["numeric"] else "-"
    return ["## 50-digit values of the exact result", "",
            f"n = {n}. `symattn.numeric.exact_values(trace, 50)` evaluates the exact A and O "
            "(each row's shared denominator and each exp atom once); `recompute` is the "
            "independent mpmath pipeline from the inputs (the cross-check); the last timing "
            "calls SymPy's `evalf(50)` on every entry. Target: ≤ "
            f"{TARGET_NUMERIC} s and agreement to 1e-48.", ""] + _table(
        ["d_k", "exact_values s", "recompute s", "evalf per entry s",
         "largest |exact_values − recompute|"], rows) + [""] + _failures(results["numeric"])


def _failures(entries: list[dict[str, Any]]) -> list[str]:
    failed = [f"Not measured for d_k = {e['d_k']}: {e.get('detail', e.get('status'))}."
              for e in entries if e.get("status") != "ok"]
    return failed + [""] if failed else []


def latex_section(results: dict[str, Any]) -> list[str]:
    rows = [[str(r["d_k"]), _s(r.get("weights_and_output")), _s(r.get("check")),
             _s(r.get("derive")), _s(r.get("render_derivation")), _s(r.get("render")),
             f"{r.get('characters', 0):,}"] for r in results["latex"] if r.get("status") == "ok"]
    n = results["latex"][0]["n"] if results["latex"] else "-"
    return ["## LaTeX", "", f"n = {n}, seconds. *A and O* is "
            "`targets.latex.weights_and_output(trace)` (what Jupyter shows); the next three are "
            "the parts of a summary derivation on one prepared trace (`check`, `derive`, "
            "`targets.render_derivation`); *render* is the whole "
            "`symattn.render(trace, \"latex\", detail=\"summary\")` on a fresh trace.",
            ""] + _table(
        ["d_k", "A and O", "check", "derive", "render_derivation", "render (whole)",
         "characters"], rows) + [""] + _failures(results["latex"])


def cli_section(results: dict[str, Any]) -> list[str]:
    c = results.get("cli")
    if not c:
        return []
    names = [("solve", "`symattn solve worked_examples/02_causal_three_positions/problem.toml`"),
             ("solve_latex", "the same with `--format latex` (standard derivation, with checks)"),
             ("import_sympy", "`python -c 'import sympy'`"), ("python", "`python -c pass`")]
    rows = [[label, _s(c[key], 3), _s(c.get(key + "_cpu"), 3)] for key, label in names]
    return ["## The CLI as a whole process", "", f"Median seconds of a fresh "
            f"`python -m symattn` process (target ≤ {TARGET_CLI} s wall), the four commands "
            "taking turns; CPU is user + system time of the process. Third-party modules "
            f"loaded by `solve`: {c['modules']}.", ""] + _table(
        ["command", "wall s", "CPU s"], rows) + [""]


def memory_section(results: dict[str, Any]) -> list[str]:
    rows = [[str(r["d_k"]), f"{r['peak_rss_mb']:.0f}", f"{r['after_imports_mb']:.0f}",
             f"{r['tracemalloc_peak_mb']:.0f}", _s(r["seconds"], 2)] for r in results["memory"]]
    n = results["memory"][0]["n"] if results["memory"] else "-"
    return ["## Peak memory", "", f"n = {n}, a fresh process computing A and O and then every "
            "lazy stage (R, S, M, L, E, Z): peak resident memory of the whole process "
            "(`ru_maxrss`), the same after the imports, and tracemalloc's peak of the "
            "computation itself (a second process).", ""] + _table(
        ["d_k", "peak RSS MB", "after imports MB", "tracemalloc peak MB", "seconds"], rows) + [""]


def ground_section(results: dict[str, Any]) -> list[str]:
    g = results.get("ground_types")
    head = ["## SymPy ground types (python-flint)", ""]
    if not g:
        return head + ["python-flint was not present, so only SymPy's own ground types were "
                       "measured. `pip install symattn[fast]` adds it; nothing requires it.", ""]
    rows = [[str(a["n"]), str(a["d_k"]), _s(a["median"], 4), _s(b["median"], 4),
             "yes" if a["digest"] == b["digest"] else "NO"]
            for a, b in zip(g["python"]["rows"], g["flint"]["rows"])]
    return head + [f"symattn (A, O) in one interpreter per ground type "
                   f"(`SYMPY_GROUND_TYPES`; python-flint {g['flint']['flint']}). The exact "
                   "pipeline works in Python integers and SymPy expressions, so flint changes "
                   "little; it stays an optional extra (`pip install symattn[fast]`).",
                   ""] + _table(
        ["n", "d_k", f"{g['python']['ground_types']} s", f"{g['flint']['ground_types']} s",
         "same A and O"], rows) + [""]


def misses_section(results: dict[str, Any]) -> list[str]:
    missed = [t for t in results["targets"] if t["verdict"] == "MISSED"]
    out = ["## Missed targets", ""]
    if not missed:
        return out + ["None in this run.", ""]
    for t in missed:
        over = f" ({t['over']})" if t.get("over") else ""
        out += [f"### {t['target']}", "", f"Measured {t['measured']}{over}. "
                f"{WHY.get(t['id'], '')}", ""]
        if t["id"] in results.get("profiles", {}):
            out += ["```text", results["profiles"][t["id"]], "```", ""]
    return out


FAST_NOTES = """## Where symattn's time goes

- Equal scores share one linear form, so each distinct logit is scaled, divided by τ and
  exponentiated once: a 32-token causal example has 528 readable logits but only tens of
  distinct values. Each distinct exp monomial and prime-power factor is one SymPy object.
- Row denominators and output numerators are sparse polynomials in those monomials. They
  become SymPy sums in one pass that builds exactly what `Add` would build, but sorts all
  distinct terms once instead of sorting every sum (`Add`'s per-sum sort by `Basic.compare`
  was most of the time: about 45 ms of 75 ms at n = 32).
- A trace builds R, S, M, L, E and Z on first access; A and O are built at once. Reading
  every stage costs the *every stage* column.
- `symattn.numeric.exact_values` (and `to_mpf`, which the checks use) evaluate each distinct
  subexpression once, at 10 digits beyond the precision asked for, and hand any sum whose
  terms cancel more than that to SymPy's adaptive `evalf`.
"""

METHOD_NOTES = """## How it is measured

- **symattn (A, O)**: `symattn.attention(Q, K, V, mask="causal", temperature="17/20")` from
  Python lists, parsing and validation included, returning `trace.A` and `trace.O`.
  *every stage* also reads R, S, M, L, E and Z, which a trace builds on first access.
- **naive SymPy + simplify**: `Matrix` products, `R / sqrt(d_k)`, `-oo` for masked entries,
  `/ tau`, `exp`, each row divided by its sum, `simplify` on every entry of A and O
  (`benchmarks/naive.py`). **no simplify** is the same without `simplify`.
- **mpmath, 50 digits**: a numerically stable softmax in a private mpmath context (the
  reference every symbolic result is checked against).
- Each timed run is a forked child of a process that imported everything and ran each method
  once on a 3-token case, with SymPy's cache cleared before the run: imports are not timed,
  caches are cold. Medians of up to 7 runs (symattn, mpmath) or 3 runs within the cap (naive).
"""


def build(results: dict[str, Any], svg: str | None = None) -> str:
    """The whole report as Markdown."""
    lines = ["# Performance", "", "Generated by `python -m benchmarks` (see *Machine* for the "
             "exact command); do not edit by hand. Targets are those of the performance issue: "
             f"n = 32 in ≤ {TARGET_32} s, n = 64 in ≤ {TARGET_64} s, "
             f"n = 128 in ≤ {TARGET_128} s, "
             f"the summary derivation in < {TARGET_RENDER} s.", ""]
    lines += targets_section(results) + machine_section(results) + grid_section(results, svg)
    lines += size_section(results) + log_section(results) + numeric_section(results)
    lines += latex_section(results) + cli_section(results) + memory_section(results)
    lines += ground_section(results) + misses_section(results) + [FAST_NOTES, METHOD_NOTES]
    return "\n".join(lines).rstrip() + "\n"
