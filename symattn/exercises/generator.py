"""Fresh exercises with readable exact answers: kinds -> problem files (TOML) with an answer key."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

import sympy as sp

from ..answers.mistakes import distractors, mistakes
from ..errors import InputError
from ..exact.attention import attend
from ..exact.heads import attend_heads
from ..model import MultiHeadProblem
from ..parse.spec import parse_problem
from .folder import write_files

KINDS = ("causal", "full", "cross", "padding", "temperature", "multihead")
ANSWER_STYLES = ("rational", "e")
MAX_ATTEMPTS = 200
TEMPERATURES = ("1/2", "1/3")


@dataclass(frozen=True)
class Settings:
    """What to generate: the kind, the sizes, and the difficulty controls."""

    kind: str = "causal"
    n: int = 3  # queries (and keys, except in cross-attention)
    d_k: int = 1
    d_v: int = 2
    n_k: int | None = None  # cross-attention: keys (default n + 1)
    answers: str = "rational"  # "rational": keys are logarithms; "e": integer keys
    scaled: bool = True  # False writes scale = "none" (no sqrt(d_k) in the problem)

    def validate(self) -> None:
        if self.kind not in KINDS:
            raise InputError(f"--kind must be one of {', '.join(KINDS)} or all")
        if self.answers not in ANSWER_STYLES:
            raise InputError(f"--answers must be one of {', '.join(ANSWER_STYLES)}")
        for name, value, top in (("n", self.n, 6), ("d-k", self.d_k, 4), ("d-v", self.d_v, 4)):
            if not 1 <= value <= top:
                raise InputError(f"--{name} must be from 1 to {top}")
        if self.n_k is not None and not 1 <= self.n_k <= 6:
            raise InputError("--n-k must be from 1 to 6")


def _key_entry(rng: random.Random, settings: Settings) -> str:
    """A key entry whose scaled products stay readable: sqrt(d_k) * ln(c), or an integer."""
    root = math.isqrt(settings.d_k)
    factor = "" if not settings.scaled or settings.d_k == 1 else \
        f"{root}*" if root * root == settings.d_k else f"sqrt({settings.d_k})*"
    if settings.answers == "e":
        return "0" if rng.randint(0, 1) == 0 else factor.rstrip("*") or "1"
    c = rng.randint(1, 3)
    return "0" if c == 1 else f"{factor}ln({c})"


def _matrix(rows: list[list[str]]) -> str:
    return "[" + ", ".join("[" + ", ".join(_cell(x) for x in row) + "]" for row in rows) + "]"


def _cell(text: str) -> str:
    return text if text.lstrip("-").isdigit() else f'"{text}"'


def _inputs(rng: random.Random, settings: Settings) -> tuple[list[list[str]], ...]:
    n_k = settings.n_k or settings.n + 1 if settings.kind == "cross" else settings.n
    Q = [[str(rng.randint(0, 2)) for _ in range(settings.d_k)] for _ in range(settings.n)]
    K = [[_key_entry(rng, settings) for _ in range(settings.d_k)] for _ in range(n_k)]
    V = [[str(rng.randint(0, 4)) for _ in range(settings.d_v)] for _ in range(n_k)]
    return Q, K, V


def _attention(rng: random.Random, settings: Settings, n_k: int) -> list[str]:
    """The [attention] lines of a kind."""
    lines = [] if settings.scaled else ['scale = "none"']
    n = settings.n
    if settings.kind in ("causal", "temperature"):
        lines.append('mask = "causal"')
    if settings.kind == "padding":
        lengths = [rng.randint(1, n_k) for _ in range(n)]
        lengths[rng.randrange(n)] = rng.randint(1, max(1, n_k - 1))
        lines.append(f"key_lengths = [{', '.join(map(str, lengths))}]")
    if settings.kind == "temperature":
        lines.append(f'temperature = "{rng.choice(TEMPERATURES)}"')
        bias = [["ln(2)" if j < i and (rng.random() < 0.4 or (i, j) == (n - 1, 0)) else "0"
                 for j in range(n_k)] for i in range(n)]
        lines.append(f"bias = {_matrix(bias)}")
    return lines


def _heads_content(rng: random.Random, settings: Settings) -> str:
    """Two causal heads over X (d_model = 2): W_K entries ln c keep every weight rational."""
    X = [[str(rng.randint(0, 1)) for _ in range(2)] for _ in range(settings.n)]
    X[0] = ["1", "0"]
    W_O = [[str(rng.randint(0, 2)) for _ in range(settings.d_v)] for _ in range(2)]
    lines = ["[input]", f"X = {_matrix(X)}", f"W_O = {_matrix(W_O)}", "", "[attention]",
             'mask = "causal"', 'scale = "none"']
    for _ in range(2):
        W_K = [[rng.choice(("0", "ln(2)", "ln(3)"))] for _ in range(2)]
        W_K[rng.randrange(2)] = [rng.choice(("ln(2)", "ln(3)"))]
        lines += ["", "[[heads]]", f"W_Q = {_matrix([[str(rng.randint(1, 2))] for _ in range(2)])}",
                  f"W_K = {_matrix(W_K)}", f"W_V = {_matrix([[str(rng.randint(0, 3))] for _ in range(2)])}"]
    return "\n".join(lines)


def problem_text(rng: random.Random, settings: Settings, title: str) -> tuple[str, str]:
    """One problem as TOML (without answers) and its canonical content for duplicate checks."""
    if settings.kind == "multihead":
        content = _heads_content(rng, settings)
        return f'title = "{title}"\n\n{content}\n', content
    Q, K, V = _inputs(rng, settings)
    body = ["[input]", f"Q = {_matrix(Q)}", f"K = {_matrix(K)}", f"V = {_matrix(V)}"]
    attention = _attention(rng, settings, len(K))
    if attention:
        body += ["", "[attention]", *attention]
    content = "\n".join(body)
    return f'title = "{title}"\n\n{content}\n', content


def _interesting(content: str) -> bool:
    """Not every key alike, nor every query 0 (either gives uniform weights everywhere)."""
    if "[[heads]]" in content:
        X = content.split("X = ")[1].split("\n")[0]
        return len(set(X[1:-1].replace("], [", "]|[").split("|"))) > 1
    keys = content.split("K = ")[1].split("\n")[0]
    rows = keys[1:-1].replace("], [", "]|[").split("|")
    queries = content.split("Q = ")[1].split("\n")[0]
    return len(set(rows)) > 1 and any(c in queries for c in "123456789")


def answer_table(text: str) -> str:
    """The [answers] key from the exact solution: the weights A and the output O."""
    problem = parse_problem(text, source="<generated>")
    if isinstance(problem, MultiHeadProblem):  # claims on [[heads]] address O = MHA(X)
        return f'\n[answers]\nO = "{_exact(attend_heads(problem).output)}"\n'
    trace = attend(problem)
    rows = [f'A = "{_exact(trace.A)}"', f'O = "{_exact(trace.O)}"']
    return "\n[answers]\n" + "\n".join(rows) + "\n"


def _exact(matrix: sp.ImmutableMatrix) -> str:
    """A matrix in the project's expression syntax (exact, never a float)."""
    return "[" + ", ".join("[" + ", ".join(sp.sstr(x) for x in matrix.row(i)) + "]"
                           for i in range(matrix.rows)) + "]"


def generate(settings: Settings, count: int, seed: int) -> list[tuple[str, str]]:
    """`count` distinct problems as (file name, TOML text); the same seed gives the same files."""
    settings.validate()
    if not 1 <= count <= 1000:
        raise InputError("--count must be from 1 to 1000")
    rng = random.Random(f"symattn-generate:{seed}:{settings}")
    seen: set[str] = set()
    out = []
    for index in range(1, count + 1):
        for _ in range(MAX_ATTEMPTS):
            text, content = problem_text(rng, settings, f"Exercise {index} ({settings.kind})")
            if content not in seen and _interesting(content):
                break
        else:
            raise InputError(f"only {index - 1} distinct {settings.kind} problems of this size; "
                             "ask for fewer or larger ones")
        seen.add(content)
        out.append((f"{settings.kind}_{index:03d}.toml", text + answer_table(text)))
    return out


def write_problems(problems: list[tuple[str, str]], directory: Path, *, force: bool = False
                   ) -> None:
    """Write the files (creating the directory); exercises.folder says what is refused."""
    write_files(problems, directory, force=force)


def choices_text(text: str) -> str:
    """A multiple-choice version: the last row of O, and the classic mistakes' rows as
    distractors (distinct from the answer and from each other)."""
    problem = parse_problem(text, source="<generated>")
    trace = attend(problem)
    row = trace.O.rows
    lines = [f'key = "O[{row}]"', f'correct = "{_exact(trace.O.row(-1))[1:-1]}"']
    for name, value in distractors(mistakes(problem, trace), trace.O):
        lines += ["", "[[distractors]]", f'mistake = "{name}"', f'value = "{_exact(value)[1:-1]}"']
    return "\n".join(lines) + "\n"
