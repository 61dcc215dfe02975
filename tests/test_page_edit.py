"""The course page's editable inputs (any entry of Q, K, V, computed in the page in float64) and
the speed of its control changes, in headless Chromium (tools/browser/check_edit.js).

The expected weights and outputs are computed here in plain float64 Python, in the order the page
computes them; the browser tests skip without node, Chromium or playwright-core (they fail
instead when SYMATTN_REQUIRE_CLIENTS=1, as in .ci/run).
"""

from __future__ import annotations

import json
import math
import statistics
from fractions import Fraction

import pytest
import sympy as sp
from clients import need
from conftest import ROOT
from test_page import ARTIFACTS, BROWSER_DIR, DEMO, chromium, clean, run_jobs

from symattn import load_problem
from symattn.page.build import build_page
from symattn.page.edit import edit_data, text

EXAMPLES = ROOT / "worked_examples"
PROJECTIONS = EXAMPLES / "11_policy_raises_wages_jobs" / "problem.toml"
SYMBOLIC = EXAMPLES / "14_symbolic_temperature" / "problem.toml"
EXACT_ROW_3 = ["0.376", "0.175", "0.448", "0", "0"]  # the course's weights at tau = 17/20, causal
SCALE = float(1 / sp.sqrt(3))  # 1/sqrt(d_k) correctly rounded (1 / math.sqrt(3) is one ulp above)


def test_each_entry_is_given_as_float_text_and_exact_fraction():
    data = edit_data(load_problem(DEMO / "problem.toml"))
    assert data["Q"][2][0] == [1.34, "1.34", "67/50"]
    assert data["K"][2][0] == [-1.3, "-1.3", "-13/10"]
    assert data["V"][4] == [[3.0, "3", "3/1"], [0.0, "0", "0/1"]]
    assert data["scale"] == SCALE and data["limit"] == 1000 and data["editable"] == ["Q", "K", "V"]


def test_an_irrational_entry_has_no_fraction_and_a_symbol_in_the_inputs_no_editor():
    data = edit_data(load_problem(PROJECTIONS))
    assert data["editable"] == ["X", "W_Q", "W_K", "W_V"]  # Q, K, V follow from them
    assert data["W_K"][2][0] == [float(sp.log(3)), "1.09861", None]
    assert data["K"][0][0] == [math.log(2), "0.693147", None]  # K = XW_K: row 1 is ln 2
    assert edit_data(load_problem(EXAMPLES / "09_parameter_sweep" / "problem.toml")) is None  # theta in Q


@pytest.mark.parametrize("value, shown", [(Fraction(1, 3), "1/3"), (Fraction(-13, 10), "-1.3"),
                                          (Fraction(7), "7"), (Fraction(-1, 8), "-0.125"),
                                          (Fraction(1, 2 ** 50), f"1/{2 ** 50}")])
def test_an_entry_is_shown_as_a_student_would_type_it(value, shown):
    assert text(value) == shown


# ---- in the browser ---------------------------------------------------------------------------

def demo_floats() -> dict[str, list[list[float]]]:
    problem = load_problem(DEMO / "problem.toml")
    return {name: [[float(x) for x in getattr(problem, name).row(i)]
                   for i in range(getattr(problem, name).rows)] for name in "QKV"}


def times(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    """a b in float64, each sum from its first term on (as the page adds)."""
    out = []
    for row in a:
        line = []
        for c in range(len(b[0])):
            s = 0.0
            for k, x in enumerate(row):
                s += x * b[k][c]
            line.append(s)
        out.append(line)
    return out


def float64_attention(q: list[float], keys: list[list[float]], values: list[list[float]],
                      scale: float, tau: float) -> tuple[list[float], list[float]]:
    """One query's weights over the keys it may read and its output, in float64 as the page
    computes them: r = q.k, s = r * scale, l = (s + 0) / tau, softmax from the largest logit."""
    logits = [(times([q], [[x] for x in k])[0][0] * scale + 0.0) / tau for k in keys]
    top = max(logits)
    e = [math.exp(x - top) for x in logits]
    z = 0.0
    for x in e:
        z += x
    weights = [x / z for x in e]
    return weights, times([weights], values)[0]


def float64_row(edits: dict[tuple[str, int, int], Fraction], tau: float, row: int = 3
                ) -> tuple[list[str], list[str]]:
    """Row `row` of A and O (3 places, as shown) for the demo with edited entries (1-based
    places), causal mask (keys 1..row), in float64."""
    m = demo_floats()
    for (name, i, j), value in edits.items():
        m[name][i - 1][j - 1] = value.numerator / value.denominator
    weights, out = float64_attention(m["Q"][row - 1], m["K"][:row], m["V"][:row], SCALE, tau)
    return [f"≈{w:.3f}" for w in weights] + ["0"] * (5 - row), [f"≈ {o:.3f}" for o in out]


@pytest.fixture(scope="module")
def edit_run(tmp_path_factory) -> dict:
    """One run of tools/browser/check_edit.js: edits, timing, pages with projections and symbols,
    screenshots after an edit at 1280 and 390 px (build/page/edit-*.png)."""
    need(chromium() is not None, "Chromium is not installed (apt-get install chromium)")
    need((BROWSER_DIR / "node_modules" / "playwright-core").is_dir(),
         "playwright-core is not installed (npm ci --prefix tools/browser)")
    folder = tmp_path_factory.mktemp("edit")
    pages = {}
    for name, source in (("demo", DEMO / "problem.toml"), ("projections", PROJECTIONS),
                         ("symbolic", SYMBOLIC)):
        pages[name] = folder / f"{name}.html"
        pages[name].write_text(build_page(load_problem(source)), encoding="utf-8")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    demo = str(pages["demo"])
    edited = "row=3&tau=17%2F20&mask=on&step=4&Q=3.1:1/2&K=2.1:-0.75"
    jobs = [{"name": "edit", "page": demo, "scenario": "edit"},
            {"name": "timing", "page": demo, "scenario": "timing", "runs": 5},
            {"name": "projections", "page": str(pages["projections"]), "scenario": "open"},
            {"name": "projections-edited", "page": str(pages["projections"]), "scenario": "open",
             "hash": "row=4&step=4&W_Q=1.1:2&X=1.2:1/2"},
            {"name": "symbolic", "page": str(pages["symbolic"]), "scenario": "open"},
            {"name": "steady", "page": demo, "scenario": "steady", "hash": "row=3&tau=17%2F20&mask=on&step=4"}]
    jobs += [{"name": f"shot-{w}", "page": demo, "scenario": "screenshot", "width": w, "height": h,
              "hash": edited, "screenshot": str(ARTIFACTS / f"edit-{w}.png")}
             for w, h in ((1280, 900), (390, 844))]
    jobs += [{"name": f"shot-editor-{w}", "page": demo, "scenario": "screenshot", "width": w,
              "height": h, "hash": edited, "scrollTo": "edit-block", "axe": True,
              "screenshot": str(ARTIFACTS / f"edit-editor-{w}.png")} for w, h in ((1280, 900), (390, 844))]
    return run_jobs("check_edit.js", jobs)


def test_a_reader_of_the_derivation_keeps_their_place_through_a_free_temperature(edit_run):
    run = edit_run["steady"]
    assert not run["log"]["console"] and not run["log"]["pageErrors"]
    start, free, back = run["places"]
    assert (start["tau"], free["tau"], back["tau"]) == ("17/20", "0.853", "17/20")
    assert free["note"] and not start["note"] and not back["note"]  # a note in the derivation's place
    # the note comes just below the controls; back, the derivation is where its reader had it
    assert start["scroll"] > 1000 and back["top"] == start["top"] == 0
    assert 40 <= free["top"] <= 0.25 * 900 and free["note_top"] >= free["cover"]


def test_an_edited_entry_changes_a_and_o_as_float64_predicts(edit_run):
    run = edit_run["edit"]
    assert run["initial"]["heat"]["3"] == EXACT_ROW_3 and run["initial"]["checks"] == "passed"
    edited = run["edited"]
    weights, outputs = float64_row({("Q", 3, 1): Fraction(1, 2)}, 17 / 20)
    assert weights != [f"≈{w}" for w in EXACT_ROW_3[:3]] + ["0", "0"]
    assert edited["heat"]["3"] == weights
    assert f"Output, row 3 of O: ({outputs[0]}, {outputs[1]})." in edited["summary"]
    assert [c["text"] for c in edited["tables"]["A"][2]] == [w.replace("≈", "≈ ") for w in weights[:3]] + ["0", "0"]
    assert [c["text"] for c in edited["tables"]["O"][2]] == outputs
    assert edited["tables"]["Q"][2][0] == {"tex": None, "text": "1/2", "edited": True}
    assert edited["tables"]["Q"][2][1]["tex"] == "1"  # an entry not edited stays exact
    assert edited["fields"]["edit-Q-3-1"]["edited"] and edited["focus"] == "edit-Q-3-1"
    assert edited["hash"] == "#row=3&tau=17%2F20&mask=on&step=4&Q=3.1:1/2"
    assert "Edited entries: 1. R, S, L, A and O" in edited["derivation"] and edited["checks"] is None
    assert "undo the edits to see them" in edited["mistakes"]
    second = run["second"]
    weights, outputs = float64_row({("Q", 3, 1): Fraction(1, 2), ("K", 2, 1): Fraction(-3, 4)}, 0.85)
    assert second["heat"]["3"] == weights
    assert f"({outputs[0]}, {outputs[1]})" in second["summary"]
    assert second["hash"].endswith("&Q=3.1:1/2&K=2.1:-0.75")
    assert clean(run["log"])


def test_a_bad_entry_is_refused_in_view_with_the_focus_kept(edit_run):
    run = edit_run["edit"]
    for name in ("refused", "refusedText"):
        seen = run[name]
        assert seen["editError"].startswith("V, row 1 (模型), column 1: give a number between "
                                            "-1000 and 1000")
        assert seen["fields"]["edit-V-1-1"]["invalid"] == "true"
        assert seen["focus"] == "edit-V-1-1"
        assert seen["hash"] == run["second"]["hash"] and seen["heat"] == run["second"]["heat"]
    escaped = run["escaped"]
    assert escaped["editError"] is None and escaped["fields"]["edit-V-1-1"] == {
        "value": "1", "edited": False, "invalid": None, "label": "V, row 1 (模型), column 1"}


def test_edits_at_a_free_temperature_survive_the_link_and_a_reload(edit_run):
    run = edit_run["edit"]
    weights, outputs = float64_row({("Q", 3, 1): Fraction(1, 2), ("K", 2, 1): Fraction(-3, 4)}, 1.234)
    free = run["freeTau"]
    assert free["hash"] == "#row=3&tau=1.234&mask=on&step=4&Q=3.1:1/2&K=2.1:-0.75"
    assert free["heat"]["3"] == weights and f"({outputs[0]}, {outputs[1]})" in free["summary"]
    for name in ("restored", "reloaded"):
        seen = run[name]
        assert seen["hash"] == free["hash"] and seen["heat"] == free["heat"]
        assert seen["summary"] == free["summary"] and seen["fields"] == free["fields"]
        assert seen["tables"] == free["tables"] and seen["tau"] == "1.234"
    assert clean(run["sharedLog"])


def test_a_malformed_link_is_ignored_matrix_by_matrix(edit_run):
    run = edit_run["edit"]
    malformed = run["malformed"]  # Q names an entry 9.9 of a 5 x 3 matrix, K's value is not a number
    assert malformed["hash"] == "#row=2&tau=17%2F20&mask=on&step=2&V=1.2:5/2,2.1:7"
    assert not malformed["fields"]["edit-Q-1-1"]["edited"]
    assert malformed["fields"]["edit-V-1-2"]["value"] == "5/2"
    weights, outputs = float64_row({("V", 1, 2): Fraction(5, 2), ("V", 2, 1): Fraction(7)}, 0.85, row=2)
    assert malformed["heat"]["2"] == weights
    everything = run["malformedAll"]  # 1/0, a row 0, a value out of range: nothing is read
    assert everything["hash"] == "#row=2&tau=17%2F20&mask=on&step=1"
    assert everything["heat"]["3"] == EXACT_ROW_3
    assert clean(run["sharedLog"])


def test_typing_the_entries_back_or_resetting_gives_the_exact_values_again(edit_run):
    run = edit_run["edit"]
    undone = run["undone"]
    assert undone["hash"] == "#row=3&tau=17%2F20&mask=on&step=4"
    assert undone["heat"]["3"] == EXACT_ROW_3 and undone["checks"] == "passed"
    assert [c["tex"] for c in undone["tables"]["A"][2][3:]] == ["0", "0"]
    assert undone["tables"]["Q"][2][0]["tex"] == r"\frac{67}{50}"
    assert not any(f["edited"] for f in undone["fields"].values())
    reset = run["reset"]
    assert reset["hash"] == "#row=3&tau=17%2F20&mask=on&step=1"
    assert reset["fields"]["edit-V-2-2"]["value"] == "1" and reset["editStatus"] == "The problem's own inputs."


def test_which_entries_are_editable_is_said_where_the_problem_gives_projections(edit_run):
    projections = edit_run["projections"]["first"]
    assert projections["editShown"] and projections["projectionsNote"]
    assert sorted({key.split("-")[1] for key in projections["fields"]}) == ["W_K", "W_Q", "W_V", "X"]
    assert projections["fields"]["edit-W_K-1-1"]["value"] == "0.693147"  # ln 2, as a float
    assert edit_run["symbolic"]["first"]["editShown"]  # a symbolic tau: Q, K, V are floats all the same
    for name in ("projections", "symbolic"):
        assert clean(edit_run[name]["log"])


def test_screenshots_after_an_edit_are_kept_for_review(edit_run):
    for name in ("edit-1280", "edit-390", "edit-editor-1280", "edit-editor-390"):
        assert clean(edit_run[name.replace("edit", "shot", 1)]["log"])
        assert (ARTIFACTS / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_control_changes_are_timed_and_kept(edit_run):
    """Recorded, not asserted against a clock (docs/performance.md): time to usable (median of 5
    loads) and each control change at the top of the page, with the tables and with the derivation
    in view, to the end of its forced layout and to the next frame; then first visits by trusted
    keys, as the page measures them and as Chromium's Event Timing does."""
    seen = edit_run["timing"]
    assert len(seen["loads"]) == 5 and all(t > 0 for t in seen["loads"])
    record = {"usable_ms_median": round(statistics.median(seen["loads"]))}
    for where, changes in seen["changes"].items():
        assert len(changes) == 26
        assert all(c["paint"] >= c["ms"] > 0 for c in changes)  # the frame comes after the layout
        ms = sorted(c["ms"] for c in changes)
        paint = sorted(c["paint"] for c in changes)
        record[where] = {"change_ms_median": round(statistics.median(ms)), "change_ms_max": round(ms[-1]),
                         "next_frame_ms_median": round(statistics.median(paint)),
                         "next_frame_ms_max": round(paint[-1]),
                         "by_control_ms_median": {k: round(statistics.median(
                             [c["ms"] for c in changes if c["name"] == k]))
                             for k in ("row", "tau slider", "mask", "edit")}}
    for where, keys in seen["events"].items():
        # each key reached the page and changed its state: rows 2, 1, 2, 3, 4, 5, the mask off and
        # on, a free temperature one step right, then 17/20 again
        assert [k["state"].split("&")[:3] for k in keys] == [
            [f"#row={r}", "tau=17%2F20", "mask=on"] for r in (2, 1, 2, 3, 4, 5)] + [
            ["#row=5", "tau=17%2F20", "mask=off"], ["#row=5", "tau=17%2F20", "mask=on"],
            ["#row=5", "tau=0.853", "mask=on"], ["#row=5", "tau=17%2F20", "mask=on"]], where
        frames = sorted(k["frame"] for k in keys)
        events = sorted(k["event"] for k in keys if k["event"] is not None)  # None: under 16 ms
        record[where]["keys_next_frame_ms_median"] = round(statistics.median(frames))
        record[where]["keys_next_frame_ms_max"] = round(frames[-1])
        record[where]["keys_event_timing_ms"] = events
    (ARTIFACTS / "performance-edit.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    print(json.dumps(record))


def test_the_demo_page_offers_every_entry_of_q_k_v():
    data = edit_data(load_problem(DEMO / "problem.toml"))
    problem = load_problem(DEMO / "problem.toml")
    for name in "QKV":
        matrix = getattr(problem, name)
        assert [[Fraction(e[2]) for e in row] for row in data[name]] == \
            [[Fraction(int(sp.Rational(x).p), int(sp.Rational(x).q)) for x in matrix.row(i)]
             for i in range(matrix.rows)]


def test_axe_finds_no_serious_violation_after_an_edit_and_a_refused_entry(edit_run):
    for w in (1280, 390):
        serious = [v for v in edit_run[f"shot-editor-{w}"]["axe"] if v["impact"] in ("serious", "critical")]
        assert serious == [], w


def test_edited_x_and_projections_give_q_k_v_a_and_o_as_float64_predicts(edit_run):
    seen = edit_run["projections-edited"]["first"]
    problem = load_problem(PROJECTIONS)  # X, W_Q, W_K = (ln 2, 0, ln 3), W_V; d_k = 1, tau = 1
    given = problem.projections
    floats = {name: [[float(x) for x in getattr(given, name).row(i)]
                     for i in range(getattr(given, name).rows)] for name in ("X", "W_Q", "W_K", "W_V")}
    floats["W_Q"][0][0] = 2.0
    floats["X"][0][1] = 0.5
    q, k, v = (times(floats["X"], floats[w]) for w in ("W_Q", "W_K", "W_V"))
    weights, out = float64_attention(q[3], k, v, 1.0, 1.0)  # row 4 reads all four keys
    assert seen["heat"]["4"] == [f"≈{w:.4f}" for w in weights]
    assert f"Output, row 4 of O: (≈ {out[0]:.4f}, ≈ {out[1]:.4f})." in seen["summary"]
    assert [c["text"] for c in seen["tables"]["Q"][0]] == ["≈ 2.5000"]  # (1, 1/2, 0) W_Q
    assert seen["fields"]["edit-X-1-2"] == {"value": "1/2", "edited": True, "invalid": None,
                                            "label": "X, row 1 (policy), column 2"}
    assert seen["hash"] == "#row=4&tau=1&mask=on&step=4&X=1.2:1/2&W_Q=1.1:2"
    assert clean(edit_run["projections-edited"]["log"])


def test_the_tag_beside_tau_says_float64_while_an_input_is_edited(edit_run):
    """An edited input makes every value of the page float64: the tag beside the course's own
    tau 17/20 says so, and says exact again once the edits are typed back or reset."""
    run = edit_run["edit"]
    assert run["initial"]["tauTag"] == ["exact-tag exact"]
    for name in ("edited", "second"):
        assert run[name]["tauTag"] == ["approx-tag ≈ float64, computed in this page"], name
    assert run["freeTau"]["tauTag"] == run["edited"]["tauTag"]  # a free tau: float64 anyway
    assert run["undone"]["tauTag"] == run["reset"]["tauTag"] == ["exact-tag exact"]
