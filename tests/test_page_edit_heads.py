"""The course page's editor on a multi-head page (X and W_O shared, each head's W_Q, W_K, W_V) and
on a page whose temperature is a symbol, in headless Chromium (tools/browser/check_edit_heads.js).

The expected values are computed here in plain float64 Python from the worked examples' files, in
the order the page adds; the browser tests skip without node, Chromium or playwright-core (they
fail instead when SYMATTN_REQUIRE_CLIENTS=1, as in .ci/run).
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
from test_page import ARTIFACTS, BROWSER_DIR, chromium, clean, run_jobs
from test_page_edit import times

from symattn import load_problem
from symattn.page.build import build_page
from symattn.page.data import free_data
from symattn.page.edit import edit_data
from symattn.page.edit_heads import heads_edit

EXAMPLES = ROOT / "worked_examples"
TWO_HEADS = EXAMPLES / "12_two_heads" / "problem.toml"
SYMBOLIC = EXAMPLES / "14_symbolic_temperature" / "problem.toml"
SWEEP = EXAMPLES / "09_parameter_sweep" / "problem.toml"
Matrix = list[list[float]]


def symbolic_heads(folder) -> str:
    """The two-head example with its temperature the symbol t (and no answers): a problem file."""
    text = TWO_HEADS.read_text(encoding="utf-8").split("[answers]")[0]
    text = text.replace('mask = "causal"', 'mask = "causal"\ntemperature = "t"', 1)
    path = folder / "symbolic_heads.toml"
    path.write_text(text + '\n[symbols]\nt = "positive"\n', encoding="utf-8")
    return str(path)


def floats(matrix: sp.ImmutableMatrix) -> Matrix:
    return [[float(x) for x in matrix.row(i)] for i in range(matrix.rows)]


def transpose(a: Matrix) -> Matrix:
    return [list(column) for column in zip(*a)]


def attention(Q: Matrix, K: Matrix, V: Matrix, scale: float, tau: float, causal: bool
              ) -> tuple[Matrix, Matrix]:
    """A and O in float64 as the page computes them: s = r * scale, l = (s + 0) / tau over the
    keys a row may read, softmax from the largest logit (a masked key adds exp(-inf) = 0)."""
    S = [[r * scale for r in row] for row in times(Q, transpose(K))]
    A = []
    for i, row in enumerate(S):
        logits = [(s + 0.0) / tau if not causal or j <= i else -math.inf for j, s in enumerate(row)]
        top = max(logits)
        e = [math.exp(x - top) for x in logits]
        z = 0.0
        for x in e:
            z += x
        A.append([x / z for x in e])
    return A, times(A, V)


def shown(m: Matrix) -> list[list[str]]:
    """A float64 table as the page shows it (4 places, marked ≈; -0.0 is written 0)."""
    return [[f"≈ {x + 0.0:.4f}" for x in row] for row in m]


def shown_weights(A: Matrix, causal: bool) -> list[list[str]]:
    """Weights as the page shows them: a masked weight is exactly 0, the one key a row reads
    has exactly 1, the others are float64 (≈)."""
    def cell(i: int, j: int) -> str:
        if causal and j > i:
            return "0"
        return "1" if causal and i == 0 else f"≈ {A[i][j]:.4f}"
    return [[cell(i, j) for j in range(len(row))] for i, row in enumerate(A)]


def two_heads(edits: dict[tuple[str, int, int], Fraction]) -> dict[str, Matrix]:
    """Each head's A and O at its own settings (head 1: causal; head 2: no mask, no scale; both
    at tau = 1), C and MultiHead(X) = C W_O, with the edited entries (1-based places; W_Q_2 is
    head 2's W_Q)."""
    problem = load_problem(TWO_HEADS)
    m = {"X": floats(problem.heads[0].projections.X), "W_O": floats(problem.W_O)}
    for h, head in enumerate(problem.heads, start=1):
        m |= {f"{n}_{h}": floats(getattr(head.projections, n)) for n in ("W_Q", "W_K", "W_V")}
    for (name, i, j), value in edits.items():
        m[name][i - 1][j - 1] = value.numerator / value.denominator
    out: dict[str, Matrix] = {}
    for h, head in enumerate(problem.heads, start=1):
        Q, K, V = (times(m["X"], m[f"{n}_{h}"]) for n in ("W_Q", "W_K", "W_V"))
        out[f"A{h}"], out[f"O{h}"] = attention(Q, K, V, float(head.scale_factor), float(head.temperature),
                                               head.mask == "causal")
    out["C"] = [o1 + o2 for o1, o2 in zip(out["O1"], out["O2"])]
    out["MHA"] = times(out["C"], m["W_O"])
    return out


# ---- the page's data ------------------------------------------------------------------------

def test_a_multi_head_page_offers_x_w_o_and_each_heads_projections():
    data = heads_edit(load_problem(TWO_HEADS))
    assert data["editable"] == ["X", "W_Q_1", "W_K_1", "W_V_1", "W_Q_2", "W_K_2", "W_V_2", "W_O"]
    assert data["W_K_1"] == [[[math.log(2), "0.693147", None]], [[0.0, "0", "0/1"]]]
    assert data["W_V_2"][0] == [[0.0, "0", "0/1"], [1.0, "1", "1/1"]]
    assert data["W_O"][2] == [[1.0, "1", "1/1"], [1.0, "1", "1/1"]] and data["limit"] == 1000


def test_a_symbolic_temperature_has_float_inputs_and_another_symbol_none():
    problem = load_problem(SYMBOLIC)
    data = edit_data(problem)
    assert data["editable"] == ["Q", "K", "V"] and data["scale"] == 1.0  # d_k = 1
    assert data["K"][1][0] == [math.log(3), "1.09861", None]
    free = free_data(problem, {"on": "causal", "off": "none"})
    assert free["S"][2] == [0.0, math.log(3), math.log(2)] and free["M"]["on"][0] == [0.0, None, None]
    assert edit_data(load_problem(SWEEP)) is None  # theta is in the inputs: no float values


# ---- in the browser ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    """One run of tools/browser/check_edit_heads.js, with screenshots after an edit at 1280 and
    390 px (build/page/edit-heads-*.png, edit-symbolic-*.png)."""
    need(chromium() is not None, "Chromium is not installed (apt-get install chromium)")
    need((BROWSER_DIR / "node_modules" / "playwright-core").is_dir(),
         "playwright-core is not installed (npm ci --prefix tools/browser)")
    folder = tmp_path_factory.mktemp("edit-heads")
    pages = {}
    for name, source in (("heads", TWO_HEADS), ("symbolic", SYMBOLIC), ("heads-t", symbolic_heads(folder))):
        pages[name] = str(folder / f"{name}.html")
        (folder / f"{name}.html").write_text(build_page(load_problem(source)), encoding="utf-8")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    jobs = [{"name": "heads", "page": pages["heads"], "scenario": "heads"},
            {"name": "timing", "page": pages["heads"], "scenario": "timing"},
            {"name": "heads-t", "page": pages["heads-t"], "scenario": "open",
             "hash": "head=2&row=2&tau=1.234&mask=off"},
            {"name": "symbolic", "page": pages["symbolic"], "scenario": "symbolic"}]
    shots = [("heads", "head=2&row=2&tau=1&mask=off&step=4&X=1.2:1/2&W_Q_2=2.1:2&W_O=3.1:-1", "edit-block"),
             ("heads", "head=2&row=2&tau=1&mask=off&step=4&X=1.2:1/2&W_Q_2=2.1:2&W_O=3.1:-1", "heads-block"),
             ("symbolic", "row=3&tau=1.234&mask=on&step=4&Q=3.1:2", "edit-block"),
             ("symbolic", "row=3&tau=t&mask=on&step=4&Q=3.1:2", None)]
    for page, hash_, where in shots:
        for w, h in ((1280, 900), (390, 844)):
            name = f"edit-{page}-{where or 'top'}-{w}"
            jobs.append({"name": name, "page": pages[page], "scenario": "screenshot", "width": w, "height": h,
                         "hash": hash_, "scrollTo": where, "screenshot": str(ARTIFACTS / f"{name}.png")})
    return run_jobs("check_edit_heads.js", jobs)


def test_an_edit_of_head_2_changes_its_a_the_concatenation_and_the_output(run):
    seen = run["heads"]
    initial, edited = seen["initial"], seen["edited"]
    want = two_heads({("W_Q_2", 2, 1): Fraction(2)})
    assert initial["tables"]["A"][1] == ["tex:\\frac{1}{7}", "tex:\\frac{3}{7}", "tex:\\frac{3}{7}"]
    assert edited["hash"] == "#head=2&row=2&tau=1&mask=off&step=4&W_Q_2=2.1:2"
    assert edited["tables"]["W_Q"] == [["tex:0"], ["2"]]  # as typed; the other entry stays exact
    assert edited["tables"]["A"] == shown(want["A2"]) and edited["tables"]["O"] == shown(want["O2"])
    assert edited["heat"]["2"] == [w.replace(" ", "") for w in shown(want["A2"])[1]]
    assert edited["heat"]["2"] != initial["heat"]["2"]
    assert edited["tables"]["C"] == shown(want["C"]) and edited["tables"]["MHA"] == shown(want["MHA"])
    assert edited["tables"]["C"] != initial["tables"]["C"]
    assert "float64 values computed in this page" in edited["headsNote"]
    assert edited["cards"] == ["X", "W_Q · head 2", "W_K · head 2", "W_V · head 2", "W_O"]
    assert edited["editTitle"] == "Edit X, this head's W_Q, W_K, W_V, and W_O"
    assert edited["fields"]["edit-W_Q_2-2-1"] == {"value": "2", "edited": True,
                                                 "label": "W_Q · head 2, row 2 (2), column 1"}
    assert clean(seen["log"])


def test_each_head_keeps_its_edits_and_x_and_w_o_feed_every_head(run):
    seen = run["heads"]
    head1 = seen["head1"]  # head 2's edit does not touch head 1's own tables; C keeps it
    assert head1["hash"] == "#head=1&row=2&tau=1&mask=on&step=4&W_Q_2=2.1:2"
    assert head1["tables"]["A"][2] == ["tex:\\frac{2}{5}", "tex:\\frac{1}{5}", "tex:\\frac{2}{5}"]
    assert head1["tables"]["C"] == seen["edited"]["tables"]["C"]
    assert head1["cards"] == ["X", "W_Q · head 1", "W_K · head 1", "W_V · head 1", "W_O"]
    both = seen["both"]
    edits = {("W_Q_2", 2, 1): Fraction(2), ("X", 1, 2): Fraction(1, 2), ("W_O", 3, 1): Fraction(-1)}
    want = two_heads(edits)
    assert both["hash"] == "#head=1&row=2&tau=1&mask=on&step=4&X=1.2:1/2&W_Q_2=2.1:2&W_O=3.1:-1"
    assert both["tables"]["A"] == shown_weights(want["A1"], True)
    assert both["tables"]["A"][0] == ["1", "0", "0"]  # one readable key: exactly 1, as float64 has it
    assert both["tables"]["C"] == shown(want["C"]) and both["tables"]["MHA"] == shown(want["MHA"])
    assert both["tables"]["W_O"][2] == ["-1", "tex:1"] and both["tables"]["X"][0] == ["tex:1", "1/2"]
    assert "Masked, weight exactly 0: wages (future position)." in both["summary"]


def test_a_link_with_edits_of_several_heads_restores_them(run):
    seen = run["heads"]
    restored, before = seen["restored"], seen["both"]
    for key in ("hash", "head", "heat", "summary", "tables", "fields", "headsNote"):
        assert restored[key] == before[key], key
    assert clean(seen["sharedLog"])


def test_typing_back_or_resetting_gives_the_exact_heads_again(run):
    seen = run["heads"]
    initial, undone, reset = seen["initial"], seen["undone"], seen["reset"]
    assert undone["hash"] == "#head=2&row=2&tau=1&mask=off&step=4"
    for key in ("heat", "tables", "headsNote", "summary"):
        assert undone[key] == initial[key], key
    assert undone["tables"]["MHA"][2] == ["tex:\\frac{48}{35}", "tex:\\frac{10}{7}"]
    assert reset["hash"] == "#head=2&row=3&tau=1&mask=off&step=1"
    assert reset["tables"] == initial["tables"] and not any(f["edited"] for f in reset["fields"].values())


def test_the_symbolic_temperature_page_edits_at_a_numeric_temperature(run):
    seen = run["symbolic"]
    assert seen["initial"]["editShown"] and seen["initial"]["stateError"] is None
    assert seen["initial"]["sliderDimmed"] and not seen["numeric"]["sliderDimmed"]  # t: off the slider
    at_t = seen["edited"]  # at tau = t an edit has no exact value: the page says so
    assert at_t["hash"] == "#row=3&tau=t&mask=on&step=4&Q=3.1:2"
    assert at_t["stateError"].startswith("At τ = t the weights are functions of t")
    numeric = seen["numeric"]
    assert numeric["hash"] == "#row=3&tau=1.234&mask=on&step=4&Q=3.1:2"
    problem = load_problem(SYMBOLIC)
    Q, K, V = floats(problem.Q), floats(problem.K), floats(problem.V)
    Q[2][0] = 2.0
    A, O = attention(Q, K, V, 1.0, 1.234, True)
    assert numeric["tables"]["A"] == shown_weights(A, True) and numeric["tables"]["O"] == shown(O)
    assert numeric["heat"]["3"] == [w.replace(" ", "") for w in shown(A)[2]]
    assert numeric["tables"]["Q"][2] == ["2"] and numeric["stateError"] is None
    for key in ("hash", "heat", "summary", "tables", "fields"):
        assert seen["restored"][key] == numeric[key], key
    assert seen["slid"] == "#row=3&tau=0.05&mask=on&step=4&Q=3.1:2"  # the slider's left end
    reset = seen["reset"]
    assert reset["hash"] == "#row=3&tau=t&mask=on&step=1" and reset["tables"] == seen["initial"]["tables"]
    assert clean(seen["log"]) and clean(seen["sharedLog"])


def test_axe_finds_no_serious_violation_after_an_edit(run):
    shots = [name for name in run if name.startswith("edit-")]
    assert len(shots) == 8
    for name in shots:
        assert clean(run[name]["log"]), name
        assert [v for v in run[name]["axe"] if v["impact"] in ("serious", "critical")] == [], name
        assert (ARTIFACTS / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_edits_on_a_multi_head_page_are_timed(run):
    """Recorded, not asserted against a clock (docs/performance.md): each edit and head change on
    the two-head page, from the event to the end of the forced layout."""
    changes = run["timing"]["changes"]
    assert len(changes) == 12 and all(c["ms"] > 0 for c in changes)
    medians = {name: round(statistics.median(c["ms"] for c in changes if c["name"] == name))
               for name in ("edit W_Q", "edit W_O", "head")}
    print(json.dumps({"change_ms_median_by_control": medians,
                      "change_ms_max": round(max(c["ms"] for c in changes))}))


def test_a_multi_head_page_with_a_symbolic_temperature_says_why_it_has_no_editor(run, tmp_path):
    assert heads_edit(load_problem(symbolic_heads(tmp_path))) is None
    seen = run["heads-t"]["first"]
    assert seen["editShown"] and seen["fields"] == {}
    assert seen["editNote"].startswith("No editor on this page: C and MultiHead(X) take every head")
    scores = [0.0, math.log(3), math.log(3)]  # head 2, row 2 at a free tau: its float64 softmax
    weights = [math.exp(s / 1.234) for s in scores]
    assert seen["heat"]["2"] == [f"≈{w / sum(weights):.4f}" for w in weights]
    assert clean(run["heads-t"]["log"])
