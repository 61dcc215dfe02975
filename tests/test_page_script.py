"""The course page's script without a browser: every part (symattn/page/assets/script/*.js, ES
modules) parses (node --check) and passes eslint's no-undef and no-unused-vars (pinned in
tools/browser), and the page's float64 attention (script/float.js) agrees with symattn's own
numeric recomputation (symattn/numeric.py) on every corpus problem and worked example whose page
computes in float64 (tools/browser/float_attention.test.mjs, node's built-in test runner).

The float test needs node only (no npm package), so it runs wherever node is; eslint skips without
`npm ci --prefix tools/browser` (and fails instead when SYMATTN_REQUIRE_CLIENTS=1, as in .ci/run).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import mpmath
import pytest
import sympy as sp
from clients import need
from conftest import EXAMPLE_FILES, ROOT

from symattn import load_problem
from symattn.errors import InputError
from symattn.model import MultiHeadProblem, ShapeProblem
from symattn.numeric import context, recompute
from symattn.page.build import ASSETS, SCRIPT_PARTS, page_script
from symattn.page.data import MathStore, collect, mask_states
from symattn.page.edit import float_problem
from symattn.page.heads import heads_data

BROWSER_DIR = ROOT / "tools" / "browser"
SCRIPTS = [ASSETS / "script" / f"{name}.js" for name in SCRIPT_PARTS]
CORPUS = sorted((ROOT / "tests" / "corpus").glob("*/problem.toml"))
TAUS = ("1/20", "3/10", "1", "27/10", "5")  # free temperatures, across the page's [0.05, 5]
DIGITS = 30


def node() -> str:
    found = shutil.which("node")
    need(found is not None, "node is not installed")
    return found


def test_every_script_part_is_in_the_page_and_the_removed_renderer_is_gone():
    assert sorted(p.name for p in (ASSETS / "script").glob("*.js")) == sorted(p.name for p in SCRIPTS)
    assert not (ASSETS / "katex_render.js").exists()
    joined = page_script()
    assert "\nimport " not in joined and "\nexport " not in joined


def test_node_parses_every_part_as_a_module_and_the_loader_as_a_script():
    for script in SCRIPTS:
        done = subprocess.run([node(), "--input-type=module", "--check"],
                              input=script.read_text(encoding="utf-8"), capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, f"{script.name}: {done.stderr}"
    done = subprocess.run([node(), "--check", str(ASSETS / "loader.js")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([node(), "--check", "-"], input=page_script(), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, f"the joined page script: {done.stderr}"


def test_eslint_finds_no_undefined_and_no_unused_name():
    eslint = BROWSER_DIR / "node_modules" / ".bin" / "eslint"
    need(eslint.exists(), "eslint is not installed (npm ci --prefix tools/browser)")
    files = [*SCRIPTS, ASSETS / "loader.js", *sorted(BROWSER_DIR.glob("*.mjs"))]
    done = subprocess.run([str(eslint), "--no-warn-ignored", "--max-warnings", "0", "-c",
                           str(BROWSER_DIR / "eslint.config.mjs"),
                           *(str(f.relative_to(ROOT)) for f in files)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_joined_script_refuses_an_import_its_part_does_not_export(monkeypatch, tmp_path):
    import symattn.page.build as build
    (tmp_path / "script").mkdir()
    for script in SCRIPTS:
        shutil.copy(script, tmp_path / "script" / script.name)
    start = tmp_path / "script" / "start.js"
    start.write_text('import { nowhere } from "./core.js";\n' + start.read_text(encoding="utf-8"),
                     encoding="utf-8")
    monkeypatch.setattr(build, "ASSETS", tmp_path)
    with pytest.raises(ValueError, match="start.js imports nowhere from core.js"):
        build.page_script()


# ---- float64 attention against symattn's recomputation -------------------------------------

def floats(grid) -> list[list[float | None]]:
    """mpmath numbers as float64, rounded once; None for -inf."""
    return [[None if x == mpmath.ninf else float(x) for x in row] for row in grid]


def page_of(problem) -> dict:
    """The page's data, as build_page gathers it, at the problem's own temperature only (the
    generated states feed the float code only the weights of a row that reads no key)."""
    gather = heads_data if isinstance(problem, MultiHeadProblem) else collect
    return gather(problem, [], "en", MathStore())


def head_case(head, data: dict, edit: dict, label: str) -> dict | None:
    """One head's page data and symattn's R, S, L, A, O at TAUS for each mask state the page has."""
    free = data["free"]
    if free is None:
        return None
    base = {}
    for mask in free["M"]:
        states = [v for k, v in data["variants"].items() if k.endswith(":" + mask)]
        base[mask] = next((v for v in states if "error" not in v), states[0])
        base[mask] = {"weights": base[mask].get("weights")}
    kinds = mask_states(head)
    plain = float_problem(head)
    expected = {}
    for mask in free["M"]:
        expected[mask] = []
        for tau in TAUS:
            stages = recompute(replace(plain, mask=kinds[mask], temperature=sp.Rational(tau)), DIGITS)
            expected[mask].append({"tau": tau, "tauValue": float(sp.Rational(tau)),
                                   **{name: floats(stages[name]) for name in ("R", "S", "L", "A", "O")}})
    return {"label": label, "free": free, "edit": edit, "base": base, "expected": expected}


def multi_head_output(problem: MultiHeadProblem) -> list[list[float]]:
    """C W_O from symattn's recomputation of each head at its own temperature and mask."""
    ctx = context(DIGITS)
    blocks = [recompute(float_problem(head), DIGITS)["O"] for head in problem.heads]
    C = [[x for block in blocks for x in block[i]] for i in range(len(blocks[0]))]
    W = [[ctx.mpf(int(x.p)) / int(x.q) if x.is_Rational else ctx.mpf(str(sp.N(x, DIGITS + 5)))
          for x in problem.W_O.row(r)] for r in range(problem.W_O.rows)]
    return [[float(ctx.fsum(c[k] * W[k][col] for k in range(len(W)))) for col in range(len(W[0]))]
            for c in C]


def float_cases() -> tuple[list[dict], list[str]]:
    """The cases for float_attention.test.mjs, and the problems left out with the reason."""
    cases, left_out = [], []
    for path in [*CORPUS, *EXAMPLE_FILES]:
        name = f"{path.parent.parent.name}/{path.parent.name}"
        problem = load_problem(path)
        if isinstance(problem, ShapeProblem):
            left_out.append(f"{name}: shapes only")
            continue
        heads = problem.heads if isinstance(problem, MultiHeadProblem) else (problem,)
        if any(getattr(h, "start", "Q") != "Q" for h in heads):
            left_out.append(f"{name}: gives {heads[0].start}, no page")
            continue
        try:
            data = page_of(problem)
        except InputError as error:
            left_out.append(f"{name}: no page ({error})")
            continue
        if isinstance(problem, MultiHeadProblem):
            shared = data["combine"]["edit"]
            if shared is None:
                left_out.append(f"{name}: symbols, no float values")
                continue
            own = [{**{n: shared[n] for n in ("X", "Y") if n in shared},
                    **{n: shared[f"{n}_{k}"] for n in ("W_Q", "W_K", "W_V")}, "scale": d["edit"]["scale"]}
                   for k, d in enumerate(data["heads"], start=1)]
            found = [head_case(h, d, e, f" head {k}") for k, (h, d, e)
                     in enumerate(zip(problem.heads, data["heads"], own), start=1)]
            settings = [{"index": k, "mask": "on" if h.mask != "none" else "off", "tau": float(h.temperature)}
                        for k, h in enumerate(problem.heads)]
            case = {"name": name, "heads": found,
                    "combine": {"W_O": [[e[0] for e in row] for row in shared["W_O"]], "heads": settings,
                                "MHA": multi_head_output(problem)}}
        else:
            found = [head_case(problem, data, data["edit"], "")]
            case = {"name": name, "heads": found}
        if None in found:
            left_out.append(f"{name}: symbols, no float values")
            continue
        cases.append(case)
    return cases, left_out


@pytest.fixture(scope="module")
def cases_file(tmp_path_factory) -> tuple[Path, list[dict], list[str]]:
    cases, left_out = float_cases()
    path = tmp_path_factory.mktemp("float") / "cases.json"
    path.write_text(json.dumps(cases), encoding="utf-8")
    return path, cases, left_out


def run_float_test(path: Path, test: Path = BROWSER_DIR / "float_attention.test.mjs"):
    return subprocess.run([node(), "--test", str(test)], env={**os.environ, "SYMATTN_FLOAT_CASES": str(path)},
                          capture_output=True, text=True, timeout=300)


def test_the_cases_are_every_float_page_of_the_corpus_and_the_examples(cases_file):
    _, cases, left_out = cases_file
    names = {case["name"] for case in cases}
    assert len(names) + len(left_out) == len(CORPUS) + len(EXAMPLE_FILES), left_out
    assert "worked_examples/05_five_tokens_temperature" in names and \
        "worked_examples/12_two_heads" in names
    assert all("shapes only" in why or "symbols" in why or "no page" in why for why in left_out), left_out


def test_the_pages_float_attention_agrees_with_symattns_recomputation(cases_file):
    path, _, _ = cases_file
    done = run_float_test(path)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    assert "# fail 0" in done.stdout


def test_the_float_test_fails_when_the_pages_softmax_is_off(cases_file, tmp_path):
    """The test can fail: the same test on a float.js whose softmax is off by one part in 1e10."""
    path, _, _ = cases_file
    browser = tmp_path / "tools" / "browser"
    script = tmp_path / "symattn" / "page" / "assets" / "script"
    browser.mkdir(parents=True)
    script.mkdir(parents=True)
    shutil.copy(BROWSER_DIR / "float_attention.test.mjs", browser)
    source = (ASSETS / "script" / "float.js").read_text(encoding="utf-8")
    off = source.replace("return e.map((x) => x / z);", "return e.map((x) => x / (z * (1 + 1e-10)));")
    assert off != source
    (script / "float.js").write_text(off, encoding="utf-8")
    done = run_float_test(path, browser / "float_attention.test.mjs")
    assert done.returncode != 0 and " A[" in done.stdout, done.stdout[-2000:]
