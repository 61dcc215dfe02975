"""The whole-job benchmark's inputs: four families of problem files and the commands run on them."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

FAMILIES = ("integers", "logs", "roots", "symbolic")
FAMILY_NAMES = {"integers": "integers", "logs": "ln in Q and K",
                "roots": "roots and decimals", "symbolic": "symbolic τ"}
LOGS = ("0", "1", "1/2", "ln(2)", "ln(3)", "ln(5)", "ln(7)", "-ln(2)")
ROOTS = ("0", "1", "-1", "sqrt(2)", "sqrt(3)/2", "1/sqrt(5)", "0.85")
D_K, D_V = 2, 2
PRINTING = ("solve-text", "solve-json", "solve-latex", "solve-markdown")
FAMILY_COMMANDS = PRINTING + ("solve-summary", "check", "verify")


@dataclass(frozen=True)
class Job:
    """One whole process: its name, family, n, and arguments after `symattn`."""

    command: str
    family: str
    n: int
    argv: tuple[str, ...]


def _entry(family: str, rng: random.Random) -> str:
    if family == "logs":
        return rng.choice(LOGS)
    if family == "roots":
        return rng.choice(ROOTS)
    return str(rng.randint(-3, 3))


def _matrix(rows: list[list[str]]) -> str:
    return "[" + ", ".join("[" + ", ".join(f'"{x}"' for x in row) + "]" for row in rows) + "]"


def problem_toml(family: str, n: int) -> str:
    """A causal n-token problem of the family (fixed seed), with two true claims for verify."""
    rng = random.Random(f"{family}-{n}")
    Q = [[_entry(family, rng) for _ in range(D_K)] for _ in range(n)]
    K = [[_entry(family, rng) for _ in range(D_K)] for _ in range(n)]
    V = [[str(rng.randint(-3, 3)) for _ in range(D_V)] for _ in range(n)]
    temperature = {"integers": "17/20", "symbolic": "tau"}.get(family, "1")
    symbols = '[symbols]\ntau = "positive"\n\n' if family == "symbolic" else ""
    return (f'title = "{FAMILY_NAMES[family]}, n = {n}"\n\n{symbols}[input]\n'
            f"Q = {_matrix(Q)}\nK = {_matrix(K)}\nV = {_matrix(V)}\n\n"
            f'[attention]\nmask = "causal"\ntemperature = "{temperature}"\n\n'
            f'[answers]\n"A[1,1]" = "1"\n"O[1]" = "({", ".join(V[0])})"\n')


def write_problem(directory: Path, family: str, n: int) -> Path:
    """The family's problem of n tokens as a file in directory."""
    path = directory / f"{family}-{n}.toml"
    path.write_text(problem_toml(family, n), encoding="utf-8")
    return path


def family_jobs(directory: Path, family: str, n: int) -> list[Job]:
    """solve in four formats (and the summary LaTeX up to n = 32), check and verify on the
    family's problem of n tokens."""
    path = str(write_problem(directory, family, n))
    jobs = [Job(f"solve-{fmt}", family, n, ("solve", path, "--format", fmt))
            for fmt in ("text", "json", "latex", "markdown")]
    if n <= 32:
        jobs.append(Job("solve-summary", family, n, ("solve", path, "--format", "latex",
                                                     "--detail", "summary")))
    jobs.append(Job("check", family, n, ("check", path)))
    jobs.append(Job("verify", family, n, ("verify", path)))
    return jobs
