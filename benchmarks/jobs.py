"""The whole-job benchmark's inputs: four families of problem files and the commands run on them,
and the float family: NumPy-style float64 values (17 significant digits), two heads."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

FAMILIES = ("integers", "logs", "roots", "symbolic")
FLOATS = "floats"
FLOAT_NAME = "float64 normals, two heads"
FAMILY_NAMES = {"integers": "integers", "logs": "ln in Q and K",
                "roots": "roots and decimals", "symbolic": "symbolic τ", FLOATS: FLOAT_NAME}
LOGS = ("0", "1", "1/2", "ln(2)", "ln(3)", "ln(5)", "ln(7)", "-ln(2)")
ROOTS = ("0", "1", "-1", "sqrt(2)", "sqrt(3)/2", "1/sqrt(5)", "0.85")
D_K, D_V = 2, 2
PRINTING = ("solve-text", "solve-json", "solve-latex", "solve-markdown")
FAMILY_COMMANDS = PRINTING + ("solve-summary", "check", "verify")
FLOAT_SIZES = (4, 6, 8)
FLOAT_MODEL, FLOAT_HEAD = 8, 4  # d_model, and d_k = d_v of each of the two heads
FLOAT_COMMANDS = PRINTING + ("check", "verify", "grade", "mistakes")


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


def _normals(rng: random.Random, rows: int, cols: int) -> str:
    return "[" + ", ".join("[" + ", ".join(repr(rng.gauss(0.0, 1.0)) for _ in range(cols)) + "]"
                           for _ in range(rows)) + "]"


def float_toml(n: int) -> str:
    """n tokens of d_model = 8 as NumPy prints float64 (repr: up to 17 significant digits), two
    heads of 4 with their W_Q, W_K, W_V and a W_O, seeded normals; a shape claim for verify."""
    rng = random.Random(f"floats-{n}")
    heads = "".join(f"\n[[heads]]\nW_Q = {_normals(rng, FLOAT_MODEL, FLOAT_HEAD)}\n"
                    f"W_K = {_normals(rng, FLOAT_MODEL, FLOAT_HEAD)}\n"
                    f"W_V = {_normals(rng, FLOAT_MODEL, FLOAT_HEAD)}\n" for _ in range(2))
    return (f'title = "{FLOAT_NAME}, n = {n}"\n\n[input]\nX = {_normals(rng, n, FLOAT_MODEL)}\n'
            f"W_O = {_normals(rng, 2 * FLOAT_HEAD, FLOAT_MODEL)}\n{heads}\n"
            f'[answers]\n"shape(O)" = "{n} x {FLOAT_MODEL}"\n')


def float_jobs(directory: Path, n: int) -> list[Job]:
    """solve in four formats, check, verify, grade (one student's two answers) and mistakes on
    the float problem of n tokens."""
    path = directory / f"{FLOATS}-{n}.toml"
    path.write_text(float_toml(n), encoding="utf-8")
    answers = directory / f"{FLOATS}-{n}.csv"
    answers.write_text(f'student,O[1],"head[1].A[1,1]"\nada,"{", ".join(["0.5"] * FLOAT_MODEL)}",0.25\n',
                       encoding="utf-8")
    jobs = [Job(f"solve-{fmt}", FLOATS, n, ("solve", str(path), "--format", fmt))
            for fmt in ("text", "json", "latex", "markdown")]
    return jobs + [Job("check", FLOATS, n, ("check", str(path))),
                   Job("verify", FLOATS, n, ("verify", str(path))),
                   Job("grade", FLOATS, n, ("grade", str(path), "--submissions", str(answers),
                                            "-o", str(directory / f"{FLOATS}-{n}-grades.csv"))),
                   Job("mistakes", FLOATS, n, ("mistakes", str(path)))]


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
