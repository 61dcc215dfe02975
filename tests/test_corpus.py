"""Published exercises (tests/corpus): every command answers each within seconds, every stage
equals the independent mpmath recomputation (tests/corpus/independent.py), and `verify` gives
each published claim the verdict that recomputation gives it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import mpmath
import pytest
import sympy as sp
from conftest import ROOT

import symattn
from symattn.model import STAGES, MultiHeadProblem

CORPUS = ROOT / "tests" / "corpus"
# an item's problem.toml, or its several <name>.problem.toml (one per batch element or class),
# each with its own <name>.published*.toml and <name>.expected.json
ITEMS = sorted(CORPUS.glob("*/problem.toml")) + sorted(CORPUS.glob("*/*.problem.toml"))
IDS = [p.parent.name if p.name == "problem.toml" else f"{p.parent.name}/{p.name[:-13]}"
       for p in ITEMS]
PATIENCE = 30  # seconds any one command may take on any corpus file (a stall guard, not a benchmark)
COMMANDS = (["solve"], ["solve", "--format", "json"], ["solve", "--format", "latex"],
            ["solve", "--format", "markdown", "--detail", "full"], ["check"], ["mistakes"])


def stem(item: Path) -> str:
    """The prefix of a problem's other files: '' for problem.toml, 'batch0.' for batch0.problem.toml."""
    return item.name[:-len("problem.toml")]


def expected(item: Path) -> dict:
    return json.loads((item.parent / f"{stem(item)}expected.json").read_text(encoding="utf-8"))


def symattn_run(*args: str) -> tuple[int, str, float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "symattn", *args], capture_output=True,
                          text=True, timeout=PATIENCE, cwd=ROOT)
    assert not done.stderr.startswith("error: internal error"), done.stderr
    return done.returncode, done.stdout, time.monotonic() - started


@pytest.mark.parametrize("item", ITEMS, ids=IDS)
def test_every_command_answers_within_seconds(item):
    for command in COMMANDS:
        code, out, seconds = symattn_run(command[0], str(item), *command[1:])
        assert code == 0 and out, (command, code)
        assert seconds < PATIENCE


@pytest.mark.parametrize("item", ITEMS, ids=IDS)
def test_every_stage_equals_the_independent_computation(item):
    problem = symattn.load_problem(item)
    stages = expected(item)["stages"]
    if isinstance(problem, MultiHeadProblem):
        trace = symattn.attend_heads(problem)
        for head, numbers in zip(trace.heads, stages["heads"]):
            agree({name: head.stage(name) for name in STAGES}, numbers)
        agree({"concat": trace.concat, "O": trace.output}, stages)
    else:
        trace = symattn.attend(problem)
        turned = problem.layout == "columns"  # recomputed the book's way, in its orientation
        agree({name: trace.stage(name).T if turned else trace.stage(name) for name in STAGES},
              stages)


def agree(exact: dict[str, sp.ImmutableMatrix], numbers: dict[str, list[list[str]]]) -> None:
    """Every exact entry within 1e-25 (relative) of the independent 30-digit value."""
    ctx = mpmath.MPContext()
    ctx.dps = 40
    for name, matrix in exact.items():
        for i, row in enumerate(numbers[name]):
            for j, text in enumerate(row):
                value = matrix[i, j]
                if text in ("-inf", "-oo"):
                    assert value == sp.S.NegativeInfinity, (name, i, j, value)
                    continue
                number, wanted = ctx.mpf(str(value.evalf(40))), ctx.mpf(text)
                assert abs(number - wanted) <= ctx.mpf(10) ** -25 * max(1, abs(wanted)), \
                    (name, i, j, value, text)


UNADDRESSED = {"RM", "SM", "keep"}  # R + M, S + M and a boolean mask: not stages a claim addresses


def _answer_files(item: Path, tmp_path: Path) -> dict[str, Path]:
    """Each answers file of the item; a published_extra file becomes an answers file with the
    per-head keys (head[1].O -> heads[1].O) and the concatenation, the rest left out."""
    files = {}
    for path in sorted(item.parent.glob(f"{stem(item)}published*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if "answers" in data:
            files[path.name] = path
            continue
        table = {key.replace("head[", "heads["): value for key, value in data["extra"].items()
                 if key not in UNADDRESSED}
        if table:
            target = tmp_path / path.name
            target.write_text("[answers]\n" + "".join(f"{json.dumps(k)} = {json.dumps(v)}\n"
                                                        for k, v in table.items()), encoding="utf-8")
            files[path.name] = target
    return files


@pytest.mark.parametrize("item", ITEMS, ids=IDS)
def test_verify_gives_each_published_claim_its_verdict(item, tmp_path):
    """Each claim the verdict expected.json gives it."""
    claims = expected(item)["claims"]
    judged = 0
    for name, path in _answer_files(item, tmp_path).items():
        code, out, seconds = symattn_run("verify", str(item), "--answers",
                                         str(path), "--format", "json")
        assert code in (0, 1) and seconds < PATIENCE, out
        verdicts = {c["key"]: c["status"] for c in json.loads(out)["claims"]}
        for claim in claims:
            key = claim["key"].replace("head[", "heads[")
            if claim["file"] == name and key in verdicts:
                assert verdicts[key] == claim["verdict"], (name, key, claim["why"])
                judged += 1
    assert judged == sum(c["key"] not in UNADDRESSED for c in claims)
