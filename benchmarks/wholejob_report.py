"""The whole-job section of docs/performance.md: targets, seconds per job, bytes per second, phases."""

from __future__ import annotations

from typing import Any

from .jobs import (FAMILIES, FAMILY_COMMANDS, FAMILY_NAMES, FLOAT_COMMANDS, FLOAT_NAME, FLOAT_SIZES,
                   FLOATS, PRINTING)

START, END = "<!-- whole-job: start -->", "<!-- whole-job: end -->"
PHASE_NAMES = ("import sympy", "import symattn", "parse", "compute", "check", "derive", "print")
CHEAP, DEAR = ("integers", "symbolic"), ("logs", "roots")


def imports(row: dict[str, Any] | None, base: float) -> float | None:
    """Seconds beyond `import sympy`, in units of `import sympy` (the issue's measure)."""
    if not row or row.get("status") != "ok":
        return None
    return (row["seconds"] - base) / base


def index(results: dict[str, Any] | None) -> dict[tuple[str, str, int], dict[str, Any]]:
    return {(r["command"], r["family"], r["n"]): r for r in (results or {}).get("jobs", [])}


def cell(row: dict[str, Any] | None, base: float) -> str:
    if row is None:
        return "-"
    if row["status"] == "timeout":
        return f"> {row['limit']:g} s"
    if row["status"] == "skipped":
        return "(not run)" if "timed out" not in row.get("detail", "") else \
            f"> limit (not run: {row['detail']})"
    if row["status"] != "ok":
        return row["status"]
    cpu = f", CPU {row['cpu']:.2f} s" if row.get("cpu") is not None else ""
    return f"{row['seconds']:.2f} s ({imports(row, base):.1f}{cpu})"


def _target(text: str, measured: list[float | str | None], limit: float) -> dict[str, str]:
    """measured: numbers, None for a job past its time limit, "-" for one not run."""
    known = [m for m in measured if isinstance(m, float)]
    verdict = "met" if known and len(known) == len(measured) and max(known) <= limit else "MISSED"
    if "-" in measured:
        verdict = "not measured"
    shown = " / ".join("> limit" if m is None else m if isinstance(m, str) else f"{m:.2f}"
                       for m in measured)
    return {"target": text, "measured": shown, "verdict": verdict}


def targets(results: dict[str, Any]) -> list[dict[str, str]]:
    """The issue's targets judged on this run (imports beyond `import sympy`, ratios)."""
    jobs, base = index(results), results["import_sympy"]
    out = []

    def job_imports(command: str, families: tuple[str, ...], n: int) -> list[float | str | None]:
        return [imports(jobs[(command, f, n)], base) if (command, f, n) in jobs else "-"
                for f in families]

    for command in ("solve-json", "check"):
        out.append(_target(f"n = 32 `{command}`, integers / symbolic τ: ≤ 1 import",
                           job_imports(command, CHEAP, 32), 1))
        out.append(_target(f"n = 32 `{command}`, logs / roots: ≤ 3 imports",
                           job_imports(command, DEAR, 32), 3))
    out.append(_target("n = 128 `check`, integers / symbolic τ: ≤ 6 imports",
                       job_imports("check", CHEAP, 128), 6))
    out.append(_target("n = 128 `check`, logs / roots: ≤ 15 imports",
                       job_imports("check", DEAR, 128), 15))
    out.append(_target("n = 128 `solve-json`, integers / symbolic τ: ≤ 6 imports",
                       job_imports("solve-json", CHEAP, 128), 6))
    out.append(_target("summary LaTeX of n = 32, every family: ≤ 1 import",
                       job_imports("solve-summary", FAMILIES, 32), 1))
    speeds = [printing_speed(jobs.get((c, f, n))) for c in ("solve-json", "solve-text")
              for f in FAMILIES for n in (32, 128)]
    slowest = min((s for s in speeds if s is not None), default=None)
    out.append({"target": "printing JSON and text (n = 32, 128) at ≥ 2 MB/s of output",
                "measured": "-" if slowest is None else f"slowest {slowest / 1e6:.2f} MB/s",
                "verdict": "not measured" if slowest is None else
                "met" if slowest >= 2e6 and None not in speeds else "MISSED"})
    ratios: list[float | str | None] = [
        check_ratio(jobs[("check", f, n)]) if ("check", f, n) in jobs else "-"
        for f in FAMILIES for n in (32, 128)]
    out.append(_target("`check` ≤ 2× the exact computation it checks (n = 32, 128; check phase "
                       "over compute phase)", ratios, 2))
    floats = [imports(r, base) if r.get("status") == "ok" else None
              for r in results["jobs"] if r["family"] == FLOATS]
    cpu = [r["cpu"] for r in results["jobs"] if r["family"] == FLOATS and r.get("cpu") is not None]
    out.append(_target(f"{FLOAT_NAME} (n = 4, 6, 8), every command: ≤ 10 imports "
                       f"(slowest CPU {max(cpu, default=0):.1f} s)", floats or ["-"], 10))
    start = results["startup"]
    out.append(_target("`symattn --help` / `symattn solve` (seed example) ≤ 1.3× `import sympy`",
                       [start["help"] / start["import_sympy"],
                        start["solve"] / start["import_sympy"]], 1.3))
    return out


def printing_speed(row: dict[str, Any] | None) -> float | None:
    """Output bytes per second of the print phase."""
    phases = (row or {}).get("phases")
    if not phases or not phases.get("print"):
        return None
    return phases["bytes"] / phases["print"]


def check_ratio(row: dict[str, Any] | None) -> float | None:
    phases = (row or {}).get("phases")
    if not phases or not phases.get("compute"):
        return None
    return phases["check"] / phases["compute"]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + \
        ["| " + " | ".join(r) + " |" for r in rows]


def job_tables(results: dict[str, Any], before: dict[str, Any] | None) -> list[str]:
    jobs, base = index(results), results["import_sympy"]
    old, old_base = index(before), (before or {}).get("import_sympy", 1.0)
    sizes = sorted({r["n"] for r in results["jobs"] if r["family"] in FAMILIES})
    lines = []
    for n in sizes:
        rows = []
        for command in FAMILY_COMMANDS:
            if not any((command, f, n) in jobs for f in FAMILIES):
                continue
            cells = []
            for f in FAMILIES:
                text = cell(jobs.get((command, f, n)), base)
                if before is not None and (command, f, n) in old:
                    text += f"; before {cell(old[(command, f, n)], old_base)}"
                cells.append(text)
            rows.append([f"`{command}`"] + cells)
        lines += ["", f"### n = {n}", ""]
        lines += _table(["command"] + [FAMILY_NAMES[f] for f in FAMILIES], rows)
    return lines


def float_table(results: dict[str, Any]) -> list[str]:
    """The float family: each command at n = 4, 6, 8, with its output's size."""
    jobs, base = index(results), results["import_sympy"]
    rows = [[f"`{command}`"] + [cell(jobs.get((command, FLOATS, n)), base) +
                                (f", {jobs[(command, FLOATS, n)]['bytes']:,} B"
                                 if jobs.get((command, FLOATS, n), {}).get("bytes") else "")
                                for n in FLOAT_SIZES]
            for command in FLOAT_COMMANDS]
    return ["", f"### {FLOAT_NAME}", "",
            "X is n × 8 and each head's W_Q, W_K, W_V 8 × 4, W_O 8 × 8, every entry a seeded "
            "normal written as Python's repr prints a float64 (up to 17 significant digits); "
            "grade judges one student's two answers, verify one shape claim."] + \
        [""] + _table(["command"] + [f"n = {n}" for n in FLOAT_SIZES], rows)


def throughput_table(results: dict[str, Any]) -> list[str]:
    rows = []
    for r in results["jobs"]:
        if r["command"] not in PRINTING or r.get("status") != "ok":
            continue
        speed = printing_speed(r)
        phases = r.get("phases") or {}
        rows.append([f"`{r['command']}`", FAMILY_NAMES[r["family"]], str(r["n"]),
                     f"{r['bytes']:,}", f"{r['bytes'] / r['seconds'] / 1e6:.3f}",
                     f"{phases['print']:.3f}" if "print" in phases else "-",
                     f"{speed / 1e6:.2f}" if speed else "-"])
    return _table(["command", "family", "n", "output bytes", "MB/s of the whole process",
                   "print phase s", "MB/s of the print phase"], rows)


def phase_table(results: dict[str, Any], n: int) -> list[str]:
    rows = []
    for r in results["jobs"]:
        phases = r.get("phases")
        if r["n"] != n or not phases:
            continue
        total = sum(phases.get(p, 0.0) for p in PHASE_NAMES)
        shares = [f"{100 * phases[p] / total:.0f}%" if p in phases else "" for p in PHASE_NAMES]
        rows.append([f"`{r['command']}`", FAMILY_NAMES[r["family"]], f"{total:.2f}"] + shares)
    return _table(["command", "family", "phases s"] + list(PHASE_NAMES), rows)


def section(results: dict[str, Any], before: dict[str, Any] | None = None,
            svg: str | None = None) -> str:
    """The markdown of the whole-job section, between its markers."""
    base = results["import_sympy"]
    lines = [START, "## Whole jobs", "",
             f"Generated by `{results['command']}` (do not edit by hand). Whole "
             "`python -m symattn` processes, each run from a scratch folder; causal mask, d_k = 2, "
             "d_v = 2, V integers in −3..3, fixed seeds. Families: integers in −3..3 (τ = 17/20); "
             "Q and K from {0, 1, 1/2, ln 2, ln 3, ln 5, ln 7, −ln 2} (τ = 1); Q and K from "
             "{0, 1, −1, √2, √3/2, 1/√5, 0.85} (τ = 1); integers with a symbolic τ."
             + (" symattn's modules were compiled to bytecode first, as an installed package "
                "has them (SymPy's are)." if results.get("bytecode") else ""), "",
             f"`python -c 'import sympy'` took **{base:.3f} s** in this run (median of "
             f"{len(results['import_sympy_runs'])}, before and after the jobs). A cell reads "
             "*seconds (imports, CPU seconds)*, where imports = (seconds − import sympy) / import "
             "sympy, the issue's measure, and CPU is the process's user + system time (steadier "
             f"than wall time on a loaded machine). Time limit {results['limit']:g} s per job "
             "(\"> limit\"); a job that "
             "passed it is not run at larger n. Load average (1, 5, 15 min) before / after: "
             f"{_load(results['load_before'])} / {_load(results['load_after'])}; whole run "
             f"{results['seconds'] / 60:.1f} min."]
    if before is not None:
        lines += ["", f"*before*: the same benchmark on the code before the whole-job work "
                  f"({before.get('label', 'base commit')}, `import sympy` "
                  f"{before['import_sympy']:.3f} s in that run)."]
    lines += ["", "### Targets", ""]
    lines += _table(["target", "measured", "verdict"],
                    [[t["target"], t["measured"], t["verdict"]] for t in targets(results)])
    lines += job_tables(results, before)
    lines += float_table(results)
    other = [r for r in results["jobs"] if r["family"] not in FAMILIES + (FLOATS,)]
    lines += ["", "### Other jobs and start-up", ""]
    start = results["startup"]
    rows = [[f"`{r['command']}`", r["family"], cell(r, base),
             f"{r['bytes']:,}" if r.get("bytes") else "-"] for r in other]
    rows += [["`symattn --help`", "", f"{start['help']:.3f} s "
              f"({start['help'] / start['import_sympy']:.2f}× import sympy)", "-"],
             ["`symattn solve` seed example", "", f"{start['solve']:.3f} s "
              f"({start['solve'] / start['import_sympy']:.2f}× import sympy)", "-"]]
    lines += _table(["command", "input", "seconds (imports)", "output bytes"], rows)
    lines += ["", "### Output and bytes per second", ""]
    if svg:
        lines += [f"![Output bytes of solve --format json against n, one line per family, with "
                  f"n² and n³ guides]({svg})", ""]
    lines += throughput_table(results)
    for n in (32, 128):
        lines += ["", f"### Share of time per phase, n = {n}", "",
                  "A second process per job (`benchmarks/phases.py`) times the phases in one "
                  "interpreter; the shares are of the sum of its phases."] + [""]
        lines += phase_table(results, n)
    return "\n".join(lines + [END]) + "\n"


def _load(load: list[float]) -> str:
    return ", ".join(f"{x:.1f}" for x in load)


def splice(document: str, block: str) -> str:
    """document with its whole-job section replaced by block (or block appended)."""
    if START in document and END in document:
        head, rest = document.split(START, 1)
        return head + block.rstrip("\n") + rest.split(END, 1)[1]
    return document.rstrip("\n") + "\n\n" + block
