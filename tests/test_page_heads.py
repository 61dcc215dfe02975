"""Course pages of multi-head problems (a head selector, each head's tables, C and W_O), symbolic
states of a page, and a page for every worked example.

The values are compared with `symattn solve --format json` of the same file; the browser checks
(tools/browser/check_heads.js, headless Chromium driven by playwright-core) switch heads, round-trip
the link, and run axe-core at 1280 and 390 px.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
import sympy as sp
from clients import need
from conftest import EXAMPLE_FILES, MULTI_HEAD, ROOT
from test_page import run_jobs

from symattn import cli, load_problem
from symattn.page.build import DEFAULT_TEMPERATURES, build_page, parse_temperatures
from symattn.page.data import MathStore, cell_decimal, collect
from symattn.page.heads import heads_data
from symattn.parse.expressions import parse_expression
from symattn.printing.printer import math as tex_of

TWO_HEADS = ROOT / "worked_examples" / "12_two_heads" / "problem.toml"
SYMBOLIC_TAU = ROOT / "worked_examples" / "14_symbolic_temperature" / "problem.toml"
SWEEP = ROOT / "worked_examples" / "09_parameter_sweep" / "problem.toml"
DEMO = ROOT / "worked_examples" / "05_five_tokens_temperature" / "problem.toml"
BROWSER_DIR = ROOT / "tools" / "browser"
ARTIFACTS = ROOT / "build" / "page"
PAGE_LIMIT = 300_000


def chromium() -> str | None:
    """$SYMATTN_CHROMIUM, else Debian's chromium (as tests/test_page.py finds it)."""
    candidates = (os.environ.get("SYMATTN_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium")
    return next((c for c in candidates if c and Path(c).is_file()), None)


def solved(capsys, path: Path) -> dict:
    capsys.readouterr()
    assert cli.main(["solve", str(path), "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def value(text: str) -> sp.Expr:
    """A value of solve's JSON, read by symattn's own parser ("-oo" is a mask entry)."""
    return sp.S.NegativeInfinity if text == "-oo" else parse_expression(text)


def assert_cells_equal(cells, expected, store: MathStore, places: int, where: str) -> None:
    """Each cell [math, decimal] shows solve's value: the same TeX, the same decimal."""
    assert len(cells) == len(expected), where
    for i, (row, want_row) in enumerate(zip(cells, expected)):
        assert len(row) == len(want_row), where
        for j, ((index, decimal, *_), text) in enumerate(zip(row, want_row)):
            want = value(text)
            assert store.items[index][0] == tex_of(want), (where, i, j)
            assert decimal == cell_decimal(want, places), (where, i, j)


@pytest.fixture(scope="module")
def two_heads() -> tuple[dict, MathStore]:
    store = MathStore()
    data = heads_data(load_problem(TWO_HEADS), parse_temperatures(DEFAULT_TEMPERATURES), "en", store)
    return data, store


def test_every_head_shows_the_values_solve_gives(capsys, two_heads):
    data, store = two_heads
    want = solved(capsys, TWO_HEADS)
    assert len(data["heads"]) == len(want["heads"]) == 2
    for h, (head, expected) in enumerate(zip(data["heads"], want["heads"]), start=1):
        keys = [t["key"] for t in head["temperatures"]]
        state = head["variants"][f"{keys.index(head['defaults']['tau'])}:{head['defaults']['mask']}"]
        for name in "QKV":
            assert_cells_equal(head["inputs"][name], expected[name], store, data["places"], f"{h}.{name}")
        for name in "RSMLAO":
            assert_cells_equal(state["tables"][name], expected[name], store, data["places"], f"{h}.{name}")
        for name in "AO":  # rational weights and outputs as fractions, as solve writes them
            assert state["fractions"][name] == [[t if "/" in t else None for t in row]
                                                for row in expected[name]], (h, name)
    # head 1 is causal at tau = 1 (row 1 reads one key), head 2 has no mask and no scale
    assert [head["defaults"]["mask"] for head in data["heads"]] == ["on", "off"]
    assert data["heads"][1]["variants"]["2:off"]["fractions"]["A"][1] == ["1/7", "3/7", "3/7"]


def test_the_concatenation_w_o_and_output_are_those_of_solve(capsys, two_heads):
    data, store = two_heads
    want = solved(capsys, TWO_HEADS)
    tables = data["combine"]["tables"]
    assert_cells_equal(tables["C"], want["concat"], store, data["places"], "C")
    assert_cells_equal(tables["MHA"], want["output"], store, data["places"], "output")
    assert_cells_equal(tables["W_O"], [["1", "0"], ["0", "1"], ["1", "1"]], store, data["places"], "W_O")
    assert [row[0][1] for row in tables["MHA"]] == ["1.6667", "1.0714", "1.3714"]  # 5/3, 15/14, 48/35
    assert data["combine"]["settings"] == [{"tau": "1", "mask": "causal"}, {"tau": "1", "mask": "none"}]


def test_every_head_offers_the_same_temperatures_and_its_own_projections(two_heads):
    data, store = two_heads
    lists = [[t["key"] for t in head["temperatures"]] for head in data["heads"]]
    assert lists[0] == lists[1] == ["1/2", "17/20", "1", "3/2", "2"]
    for head in data["heads"]:
        assert sorted(head["projections"]["tables"]) == ["W_K", "W_Q", "W_V", "X"]
    w_k = [[store.items[cell[0]][0] for cell in row] for row in data["heads"][1]["projections"]["tables"]["W_K"]]
    assert w_k == [["0"], [r"\ln 3"]]
    second = data["heads"][1]
    assert store.items[second["projections"]["headings"]["K"]][0] == "K^{(2)} = XW_K^{(2)}"
    assert store.items[second["headings"]["O"]][0] == "O^{(2)} = AV"  # the block of C it becomes
    assert data["title"] == "Two heads" and data["defaults"]["head"] == 1


def test_the_multi_head_page_stays_light():
    for path in (TWO_HEADS, DEMO):
        size = len(build_page(load_problem(path), lang="en").encode("utf-8"))
        assert size <= PAGE_LIMIT, (path.parent.name, size)


# ---- a symbolic temperature, at a number and as itself -----------------------------------------

def test_a_symbolic_temperature_at_a_number_has_weights_and_decimals():
    store = MathStore()
    data = collect(load_problem(SYMBOLIC_TAU), parse_temperatures(DEFAULT_TEMPERATURES), "en", store)
    keys = [t["key"] for t in data["temperatures"]]
    assert keys == ["1/2", "17/20", "1", "3/2", "2", "t"]
    numeric = data["variants"]["0:on"]  # tau = 1/2: weights 1/82 and 81/82 in row 2
    assert numeric["symbols"] == [] and numeric["weights"][1] == ["0.0122", "0.9878", "0"]
    assert numeric["fractions"]["A"][1] == ["1/82", "81/82", None]
    assert numeric["tables"]["L"][1][1][1] == "4.3944"  # 4 ln 3
    symbolic = data["variants"]["5:on"]
    assert symbolic["symbols"] == ["t"] and symbolic["weights"] is None
    assert symbolic["tables"]["A"][1][0][1] is None  # 1/(3^(2/t) + 1): no decimal
    assert symbolic["tables"]["S"][1][1][1] == "2.1972"  # 2 ln 3 does not depend on t
    assert data["inputs"]["K"][1][0][1] == "1.0986"  # ln 3, on every state


def test_a_symbol_other_than_the_temperature_stays_symbolic_at_every_temperature():
    data = collect(load_problem(SWEEP), parse_temperatures(DEFAULT_TEMPERATURES), "en", MathStore())
    for state in data["variants"].values():
        assert state["symbols"] and "theta" in state["symbols"] and state["weights"] is None


# ---- every worked example ---------------------------------------------------------------------

def _page(job: tuple[str, str, str]) -> tuple[int, int]:
    path, lang, out = job
    code = cli.main(["page", path, "--lang", lang, "-o", out])
    return code, Path(out).stat().st_size if code == 0 else 0


def test_every_worked_example_makes_a_page_in_both_languages(tmp_path):
    jobs = [(str(path), lang, str(tmp_path / f"{path.parent.name}.{lang}.html"))
            for path in EXAMPLE_FILES for lang in ("en", "zh")]
    assert any(path in MULTI_HEAD for path in EXAMPLE_FILES)
    with ProcessPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        results = dict(zip(jobs, pool.map(_page, jobs)))
    failed = {job[2]: code for job, (code, _) in results.items() if code != 0}
    assert not failed
    assert all(0 < size <= PAGE_LIMIT for _, size in results.values())


# ---- in a browser -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser(tmp_path_factory) -> dict:
    need(chromium() is not None, "Chromium is not installed (apt-get install chromium)")
    need((BROWSER_DIR / "node_modules" / "playwright-core").is_dir(),
         "playwright-core is not installed (npm ci --prefix tools/browser)")
    folder = tmp_path_factory.mktemp("heads")
    pages = {"heads": (TWO_HEADS, "en"), "heads.zh": (TWO_HEADS, "zh"), "symbolic": (SYMBOLIC_TAU, "en")}
    for name, (path, lang) in pages.items():
        (folder / f"{name}.html").write_text(build_page(load_problem(path), lang=lang), encoding="utf-8")
    # both heads causal at τ = 1: two states that differ only by their head
    same = TWO_HEADS.read_text(encoding="utf-8").split("[answers]")[0]
    (folder / "same.toml").write_text(same.replace('attention = {mask = "none", scale = "none"}\n', ""),
                                      encoding="utf-8")
    (folder / "same.html").write_text(build_page(load_problem(folder / "same.toml"), lang="en"), encoding="utf-8")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = str(folder / "heads.html")
    jobs = [{"name": "switch", "page": page, "scenario": "switch"},
            {"name": "symbolic", "page": str(folder / "symbolic.html"), "scenario": "symbolic"},
            {"name": "switch-same", "page": str(folder / "same.html"), "scenario": "switch"}]
    jobs += [{"name": f"layout-{w}", "page": page, "scenario": "layout", "width": w, "height": h,
              "hash": "head=2&row=3&tau=1&mask=off&step=4", "screenshot": str(ARTIFACTS / f"heads-{w}.png")}
             for w, h in ((1280, 900), (390, 844))]
    jobs += [{"name": "layout-zh-390", "page": str(folder / "heads.zh.html"), "scenario": "layout",
              "width": 390, "height": 844, "hash": "head=1&row=2&step=5"}]
    return run_jobs("check_heads.js", jobs)


def clean(log: dict) -> bool:
    return not log["console"] and not log["pageErrors"] and \
        all(url.startswith(("file:", "data:")) for url in log["requests"])


def test_the_head_selector_changes_every_head_table(browser):
    seen = browser["switch"]
    assert clean(seen["log"])
    first, second = seen["first"], seen["second"]
    assert first["head"] == "1" and second["head"] == "2" and second["focus"] == "head"
    assert "head=2" in second["hash"] and second["hash"].startswith("#head=2&row=")
    # head 1's A (causal, row 1 reads one key) and head 2's (no mask: 1/3 in row 1)
    assert first["A"][0] == ["1", "0", "0"] and first["A"][2] == [r"\frac{2}{5}", r"\frac{1}{5}", r"\frac{2}{5}"]
    assert second["A"][0] == [r"\frac{1}{3}"] * 3 and second["A"][1] == [r"\frac{1}{7}", r"\frac{3}{7}", r"\frac{3}{7}"]
    assert first["mask"] is True and second["mask"] is False  # each head's own mask
    assert first["heat"] != second["heat"] and first["derivation"] != second["derivation"]
    assert first["tag"] == " · head 1" and second["tag"] == " · head 2"
    # the combination is the file's, whichever head is shown
    for state in (first, second):
        assert state["MHA"] == [[r"\frac{5}{3}", r"\frac{4}{3}"], [r"\frac{15}{14}", r"\frac{10}{7}"],
                                [r"\frac{48}{35}", r"\frac{10}{7}"]]
        assert state["C"][1] == [r"\frac{1}{2}", r"\frac{6}{7}", r"\frac{4}{7}"]
    assert "another temperature or mask" not in second["note"]
    assert "another temperature or mask" in seen["hotter"]["note"]


def test_heads_of_the_same_temperature_and_mask_each_show_their_own_derivation(browser):
    seen = browser["switch-same"]
    assert clean(seen["log"])
    first, second = seen["first"], seen["second"]
    assert first["mask"] is True and second["mask"] is True and first["tau"] == second["tau"]
    assert second["A"][0] == ["1", "0", "0"] and first["A"] != second["A"]
    assert first["derivation"] != second["derivation"]


def test_a_link_with_a_head_restores_that_state(browser):
    seen = browser["switch"]
    before, restored = seen["before"], seen["restored"]
    assert before["hash"] == "#head=2&row=2&tau=3%2F2&mask=on&step=3"
    for key in ("head", "hash", "A", "heat", "mask", "row", "tau"):
        assert restored[key] == before[key], key
    assert seen["bad"]["head"] == "1"  # a head that does not exist: the first


def test_a_free_temperature_on_the_second_head_is_its_float64_softmax(browser):
    seen = browser["switch"]["free"]
    assert seen["head"] == "2" and seen["hash"] == "#head=2&row=2&tau=1.234&mask=off&step=1"
    scores = [0.0, math.log(3), math.log(3)]  # head 2, row 2: S = (0, ln 3, ln 3), no mask, no scale
    weights = [math.exp(s / 1.234) for s in scores]
    assert seen["heat"][3:6] == [f"≈{w / sum(weights):.4f}" for w in weights]


@pytest.mark.parametrize("name", ["layout-1280", "layout-390", "layout-zh-390"])
def test_a_multi_head_page_is_reachable_and_accessible(browser, name):
    seen = browser[name]
    assert clean(seen["log"])
    assert seen["unreachable"] == [] and seen["overflow"] <= 0
    assert [v for v in seen["axe"] if v["impact"] in ("serious", "critical")] == []
    assert seen["sticky"]["share"] <= 0.2


def test_a_symbolic_temperature_says_why_it_has_no_colours(browser):
    seen = browser["symbolic"]
    assert clean(seen["log"])
    assert seen["numeric"]["note"] is None and seen["numeric"]["coloured"] == 6  # row 1 reads 1 key, row 2: 2, row 3: 3
    assert seen["symbolic"]["coloured"] == 0
    assert seen["symbolic"]["note"].startswith("At τ = t the weights are functions of t, not numbers")
