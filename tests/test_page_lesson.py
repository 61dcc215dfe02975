"""The lesson around the course page's lab: the [page] table (predictions and a true/false claim),
the seven-step hand check computed from each state's exact values, and names never redefined
silently; in headless Chromium through tools/browser/check_lesson.js (as tests/test_page.py)."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
import sympy as sp
from clients import KATEX_DIR, need
from conftest import ROOT
from test_page import BROWSER_DIR, chromium, unpack

from symattn import cli, load_problem, parse_problem
from symattn.errors import InputError
from symattn.exact.attention import attend
from symattn.numeric_decimals import decimal_string
from symattn.page.build import (DEFAULT_TEMPERATURES, build_page, page_script, parse_temperatures,
                                without_comment_lines)
from symattn.page.data import MathStore, collect
from symattn.words.page import GENERATED_ONLY, TEMPLATE_ONLY, page_phrases

DEMO = ROOT / "worked_examples" / "05_five_tokens_temperature" / "problem.toml"
EXAMPLE_02 = ROOT / "worked_examples" / "02_causal_three_positions" / "problem.toml"
BASE = '[input]\nQ = [[1], [2]]\nK = [[0], [1]]\nV = [[1], [3]]\n[page]\n'
HOSTILE = BASE + '''predictions = ["</script><script>alert(1)</script>", "<img src=x onerror=alert(2)>", \
"$\\\\input{x}$ & {{p:lab}}"]
claim = "<b>bold</b> & <i>x</i>"
claim_answer = true
claim_reason = "</details><button id=evil>x</button>"
'''


def refusal(capsys, tmp_path: Path, page: str) -> str:
    path = tmp_path / "problem.toml"
    path.write_text(BASE + page, encoding="utf-8")
    assert cli.main(["page", str(path), "-o", str(tmp_path / "out.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err.strip().removeprefix("error: ").removeprefix(str(path) + ", ")


@pytest.mark.parametrize("page, message", [
    ('predictions = ["fine", "bad \u202e text"]\n',
     "page.predictions[2], column 5: U+202E (a control, format or unassigned character) is not "
     "allowed in a label"),
    ('claim = "x\\u0007"\nclaim_answer = true\nclaim_reason = "r"\n',
     "page.claim, column 2: U+0007 (a control, format or unassigned character) is not allowed "
     "in a label"),
    ('predictions = "one"\n', "page.predictions: must be a list of strings, not a string"),
    ('predictions = ["a", 2]\n', "page.predictions[2]: must be a string, not an integer"),
    ('predictions = ["  "]\n', "page.predictions[1]: must not be empty or blank"),
    ('predictions = ["a"]\npredictions_zh = ["甲", "乙"]\n',
     "page.predictions_zh: has 2 predictions but page.predictions has 1"),
    ('predictions_zh = ["甲"]\n', "page.predictions_zh: goes with page.predictions, which is missing"),
    ('claim = "c"\nclaim_answer = "false"\nclaim_reason = "r"\n',
     "page.claim_answer: must be true or false, not a string"),
    ('claim = "c"\nclaim_reason = "r"\n',
     "page.claim_answer: missing (a claim needs its answer, true or false, and the reason)"),
    ('claim = "c"\nclaim_answer = false\nclaim_reason = "r"\nclaim_zh = "丙"\n',
     "page.claim_reason_zh: missing (the Chinese claim needs its reason)"),
    ('claims = "c"\n', "page.claims: unknown key (expected one of claim, claim_answer, "
     "claim_reason, claim_reason_zh, claim_zh, predictions, predictions_zh)"),
    ('predictions = [' + ", ".join(['"p"'] * 13) + ']\n',
     "page.predictions: has 13 predictions (limit 12)"),
    ('claim = "' + "x" * 2001 + '"\nclaim_answer = true\nclaim_reason = "r"\n',
     "page.claim: is 2001 characters long (limit 2000)"),
])
def test_a_bad_page_table_is_refused_in_one_line_naming_file_key_and_column(capsys, tmp_path,
                                                                            page, message):
    assert refusal(capsys, tmp_path, page) == message


def test_every_command_reads_the_page_table_and_solve_is_unchanged_by_it(capsys, tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(BASE + 'predictions = ["p"]\n', encoding="utf-8")
    assert cli.main(["solve", str(path), "--format", "markdown"]) == 0
    with_page = capsys.readouterr().out
    path.write_text(BASE, encoding="utf-8")
    assert cli.main(["solve", str(path), "--format", "markdown"]) == 0
    assert capsys.readouterr().out == with_page


def test_example_05_carries_the_lessons_predictions_and_claim_in_both_languages():
    page = load_problem(DEMO).page
    assert len(page.predictions) == len(page.predictions_zh) == 3
    assert page.predictions_zh[1] == "当前 query 选择第三个 token“上下文”时，启用因果掩码会把哪两列变为零。"
    assert page.claim_zh == "当前行最大注意力权重对应的 token，就是最终模型预测的完整原因。"
    assert page.claim_answer is False
    for lang, claim in (("en", page.claim), ("zh", page.claim_zh)):
        lesson = unpack(build_page(load_problem(DEMO), lang=lang), "data")["lesson"]
        assert lesson["claim"] == {"text": claim, "answer": False,
                                   "reason": page.claim_reason_zh if lang == "zh" else page.claim_reason}
        assert lesson["predictions"] == list(page.predictions_zh if lang == "zh" else page.predictions)
    assert "上下文" in page.predictions[1] and "1.50" in page.predictions[2]


def test_a_chinese_page_falls_back_to_english_where_no_translation_is_given():
    problem = parse_problem(BASE + 'predictions = ["only English"]\n')
    assert unpack(build_page(problem, lang="zh"), "data")["lesson"] == {
        "predictions": ["only English"], "claim": None}
    assert unpack(build_page(parse_problem(BASE)), "data")["lesson"] is None


# ---- the hand check --------------------------------------------------------------------------

def hand(path: Path, key: str, row: int, lang: str = "en") -> tuple[list[dict], MathStore]:
    store = MathStore()
    data = collect(load_problem(path), parse_temperatures(DEFAULT_TEMPERATURES), lang, store)
    return data["variants"][key]["hand"][row - 1], store


def text(segments: list, store: MathStore) -> str:
    return "".join(s if isinstance(s, str) else "$" + store.items[s][0] + "$" for s in segments)


def test_the_hand_check_of_row_3_at_085_with_the_mask_gives_the_lessons_numbers():
    steps, store = hand(DEMO, "1:on", 3)  # temperatures 1/2, 17/20, ...: 17/20 is the second
    assert len(steps) == 7
    answers = [text(s["ans"], store) for s in steps]
    dos = [text(s["do"], store) for s in steps]
    trace = attend(load_problem(DEMO))
    assert trace.problem.temperature == sp.Rational(17, 20)
    assert answers[0] == "Q, K and V have 3, 3 and 2 columns (Q and K share d_k = 3); 上下文 is row 3."
    # q_3 = (1.34, 1, 2), k_1 = (0, 1, 1), k_2 = (1.4, 0, 0): R = 3 and 1.876 exactly
    assert trace.R[2, 0] == 3 and trace.R[2, 1] == sp.Rational(1876, 1000)
    assert r"R_{3,1} = \mathbf{q}_{3} \cdot \mathbf{k}_{1} = 1.34 \cdot 0 + 1 \cdot 1 + 2 \cdot 1 = 3" \
        in answers[1]
    assert r"= 1.34 \cdot 1.4 + 1 \cdot 0 + 2 \cdot 0 = 1.876$" in answers[1]
    assert r"\sqrt{3}$" in dos[2] and "not the temperature" in dos[2]
    assert r"S_{3,1} = \frac{R_{3,1}}{\sqrt{3}} = \sqrt{3} \approx 1.732" in answers[2]
    assert trace.S[2, 0] == sp.sqrt(3)
    assert r"\left(0, 0, 0, -\infty, -\infty\right)" in answers[3]
    assert answers[3].endswith("Blocked, with weight exactly 0: 分配 (future position), 权重 (future position).")
    assert r"\tau = 0.85" in dos[4]
    assert trace.L[2, 0] == 20 * sp.sqrt(3) / 17
    assert rf"L_{{3,1}} = \frac{{S_{{3,1}}}}{{\tau}} = \frac{{20 \sqrt{{3}}}}{{17}} \approx " \
        rf"{decimal_string(trace.L[2, 0], 3)}" in answers[4]
    assert r"L_{3,4} = -\infty" in answers[4]
    shown = [decimal_string(trace.A[2, j], 3) for j in range(3)]
    assert shown == ["0.376", "0.175", "0.448"]  # the lesson's numbers, from the exact weights
    assert sum(Decimal(x) for x in shown) == Decimal("0.999") and sp.simplify(sum(trace.A.row(2))) == 1
    assert answers[5].startswith(r"The weights are $\left(0.376, 0.175, 0.448, 0, 0\right)$; the "
                                 "rounded weights add up to 0.999, not 1")
    outputs = [decimal_string(trace.O[2, c], 3) for c in range(2)]
    assert answers[6] == (rf"$O_{{3,1}} \approx 0.376 \cdot 1 + 0.175 \cdot 0 + 0.448 \cdot 2 \approx "
                          rf"{outputs[0]}$; $O_{{3,2}} \approx 0.376 \cdot 0 + 0.175 \cdot 1 + "
                          rf"0.448 \cdot 1 \approx {outputs[1]}$; O is 5 × 2.")


def test_the_hand_check_follows_the_state_and_another_example():
    steps, store = hand(DEMO, "1:off", 3)
    trace = attend(replace(load_problem(DEMO), mask="none"))
    weights = ", ".join(decimal_string(x, 3) for x in trace.A.row(2))
    assert f"The weights are $\\left({weights}\\right)$" in text(steps[5]["ans"], store)
    assert "without a mask every cell of M is 0" in text(steps[3]["ans"], store)
    # example 02 at tau = 1, mask on, row 3: the course's A row (1/6, 1/2, 1/3) and O row (7/3, 8/3)
    steps, store = hand(EXAMPLE_02, "2:on", 3)
    answers = [text(s["ans"], store) for s in steps]
    assert answers[0] == "Q, K and V have 1, 1 and 2 columns (Q and K share d_k = 1); C is row 3."
    assert r"R_{3,2} = \mathbf{q}_{3} \cdot \mathbf{k}_{2} = 1 \cdot \ln 3 = \ln 3 \approx 1.0986" \
        in answers[1]
    assert r"\left(\frac{1}{6} \approx 0.1667, \frac{1}{2} = 0.5, \frac{1}{3} \approx 0.3333\right)" \
        in answers[5]
    assert "add up to 1.0000." in answers[5] and "not 1" not in answers[5]
    assert r"O_{3,1} = \frac{1}{6} \cdot 2 + \frac{1}{2} \cdot 0 + \frac{1}{3} \cdot 6 = \frac{7}{3}" \
        in answers[6]
    assert r"O_{3,2} = \frac{1}{6} \cdot 0 + \frac{1}{2} \cdot 4 + \frac{1}{3} \cdot 2 = \frac{8}{3}" \
        in answers[6]
    assert answers[6].endswith("; O is 3 × 2.")
    assert attend(load_problem(EXAMPLE_02)).O.row(2).tolist() == [[sp.Rational(7, 3), sp.Rational(8, 3)]]


def test_no_name_on_a_page_is_q_or_a_query_vector():
    store = MathStore()
    path = ROOT / "worked_examples" / "13_five_tokens_no_mask" / "problem.toml"
    data = collect(load_problem(path), parse_temperatures(DEFAULT_TEMPERATURES), "en", store)
    names = {entry["n"] for v in data["variants"].values() for entry in v.get("legend", [])}
    assert names >= {"t", "p", "r"}  # the page still names (many weights, so subscripts too)
    assert not {n for n in names if n == "q" or n.startswith("q_") or n in ("k", "v")}


# ---- in the browser --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lesson_browser(tmp_path_factory) -> dict:
    need(shutil.which("node") is not None, "node is not installed")
    need((KATEX_DIR / "node_modules" / "katex").is_dir(), "KaTeX is not installed (npm ci)")
    need((BROWSER_DIR / "node_modules" / "playwright-core").is_dir(),
         "playwright-core is not installed (npm ci --prefix tools/browser)")
    browser = chromium()
    need(browser is not None, "Chromium is not installed")
    out = tmp_path_factory.mktemp("lesson")
    pages = {}
    for name, path, lang, text_ in (("demo", DEMO, "en", None), ("demo_zh", DEMO, "zh", None),
                                    ("ex02", EXAMPLE_02, "en", None),
                                    ("ex13", ROOT / "worked_examples" / "13_five_tokens_no_mask" /
                                     "problem.toml", "en", None),
                                    ("hostile", None, "en", HOSTILE)):
        problem = load_problem(path) if path else parse_problem(text_)
        pages[name] = out / f"{name}.html"
        pages[name].write_text(build_page(problem, lang=lang), encoding="utf-8")
    shots = ROOT / "build" / "page-lesson"  # screenshots of the lesson's parts, for review
    shots.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["node", str(BROWSER_DIR / "check_lesson.js"), browser,
                           json.dumps({k: str(v) for k, v in pages.items()}), str(shots)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_predictions_and_the_claim_come_first_and_the_claim_answers(lesson_browser):
    seen = lesson_browser["demo"]
    assert seen["order"][:2] == ["before-lab", "controls"]
    assert seen["predictions"] == list(load_problem(DEMO).page.predictions)
    assert seen["feedbackBefore"] == ""
    assert seen["feedbackTrue"].startswith("Not quite: the claim is false.")
    assert seen["feedbackFalse"].startswith("Right: the claim is false.")
    assert load_problem(DEMO).page.claim_reason in seen["feedbackFalse"]
    assert seen["claimFocus"] == "claim-false"
    assert lesson_browser["demo_zh"]["feedbackFalse"].startswith("判断正确：这句话为假。")


def test_nothing_on_the_page_answers_the_claim_before_the_student_does(lesson_browser):
    """Before True or False is pressed, no text a reader or a screen reader meets (outside
    elements with the hidden attribute) gives the claim's answer: not its reason, not the
    feedback, not the summary's caution that a large weight is not the cause of a prediction
    (it says the claim is false); after the answer, the caution is back in the summary."""
    page = load_problem(DEMO).page
    for name, lang, reason in (("demo", "en", page.claim_reason), ("demo_zh", "zh", page.claim_reason_zh)):
        seen, words = lesson_browser[name], page_phrases(lang)
        before = seen["readableBefore"]
        assert seen["claim"] in before  # the claim is asked
        caution = words["summary_caution"]
        for giveaway in (reason, caution, words["claim_right"].split("{")[0],
                         words["claim_wrong"].split("{")[0]):
            assert giveaway not in before, (name, giveaway)
        assert caution in seen["summaryAnswered"], name
    assert "A large weight is not the cause" not in lesson_browser["demo"]["readableBefore"]
    assert "不等于最终预测的完整原因" not in lesson_browser["demo_zh"]["readableBefore"]


def test_a_skip_link_takes_the_keyboard_past_the_editor(lesson_browser):
    """The editor holds every entry of Q, K and V (15 + 15 + 10 inputs on the demo page): by Tab
    alone the hand check is more than 40 presses away; the skip link before the editor, shown
    when it has the focus, moves the focus to the next section, the walkthrough."""
    problem = load_problem(DEMO)
    entries = sum(getattr(problem, name).rows * getattr(problem, name).cols for name in "QKV")
    assert entries == 40
    for name in ("demo", "demo_zh"):
        tabs = lesson_browser[name]["tabs"]
        assert entries < tabs["plain"] < 150, (name, tabs)
        assert tabs["skipping"] <= tabs["plain"] - entries + 1, (name, tabs)  # Enter counted
        assert tabs["afterSkip"] == "walk"
        assert (tabs["skipSeen"], tabs["skipSeenFocused"]) == (False, True)  # seen when focused


def test_hand_check_answers_are_hidden_until_revealed_and_follow_the_row(lesson_browser):
    seen = lesson_browser["demo"]
    assert seen["steps"] == 7 and seen["log"]["pageErrors"] == [] and seen["log"]["requests"] == []
    assert seen["answersVisibleBefore"] == 0  # nothing shown before the student asks
    assert (seen["revealFocus"], seen["answersVisibleOne"]) == ("hand-summary-6", 1)  # by keyboard
    assert seen["answersVisibleAfter"] == 7
    assert seen["handNote"].endswith("query row 3 (上下文), τ = 17/20, mask on.")
    assert seen["answer6"].startswith(r"The weights are $\left(0.376, 0.175, 0.448, 0, 0\right)$; "
                                      "the rounded weights add up to 0.999, not 1")
    assert r"$\tau = 0.85$" in seen["dos"][4] and "not the temperature" in seen["dos"][2]
    assert seen["answers"][6].endswith("; O is 5 × 2.")
    # another row: the same answers stay open, the focus stays on the row control, new numbers
    assert (seen["openAfterRowChange"], seen["focusAfterRowChange"]) == (7, "row")
    trace = attend(load_problem(DEMO))
    row2 = ", ".join(decimal_string(x, 3) if x else "0" for x in trace.A.row(1))  # masked: 0
    assert seen["answer6Row2"] == (f"The weights are $\\left({row2}\\right)$; the rounded weights "
                                   "add up to 1.000.")
    # a free temperature: steps 1 to 4 still hold (they do not depend on tau), 5 to 7 are
    # answered in float64 (tests below)
    assert r"$\tau = 1.234$" in seen["freeDo5"]
    assert seen["freeDetails5Hidden"] is False and "分配 (future position)" in seen["freeAnswer4"]
    # the rounding note at a free temperature: shown exactly where float64's rounded weights of
    # row 3 do not add up to 1 (1.1: 0.370 + 0.205 + 0.424 = 0.999)
    for tau, summary in seen["freeSummary"].items():
        logits = [float(s) / float(tau) for s in trace.S.row(2)[:3]]
        top = max(logits)
        e = [math.exp(x - top) for x in logits]
        rounded = sum(round(x / sum(e) * 1000) for x in e)
        assert ("The rounded weights shown add up to" in summary) == (rounded != 1000), tau
    assert "add up to 0.999, not 1" in seen["freeSummary"]["1.1"]
    # example 02: the course's exact answers 1/6, 1/2, 1/3 and 7/3
    assert r"O_{3,1} = \frac{1}{6} \cdot 2 + \frac{1}{2} \cdot 0 + \frac{1}{3} \cdot 6 = \frac{7}{3}" in \
        lesson_browser["ex02"]["answer7"]


def test_a_changed_name_is_announced_beside_its_legend(lesson_browser):
    seen = lesson_browser["ex13"]
    assert seen["legendBeside"] == 2 and seen["legendNames"] == ["t"]  # tables and derivation
    assert seen["namesChangedBefore"] == ""
    trace = attend(load_problem(ROOT / "worked_examples" / "13_five_tokens_no_mask" / "problem.toml"))
    was = decimal_string(sp.exp(sp.sqrt(3) / 3 / trace.problem.temperature), 4)  # e^(S/tau), S = 1/√3
    assert seen["namesChanged"] == ("These names now stand for other values than at the previous "
                                    f"state (τ = 17/20, mask off):$t$ was ≈ {was}")
    assert seen["namesChangedInDerivation"] == seen["namesChanged"]


def test_hostile_page_text_stays_inert(lesson_browser):
    seen = lesson_browser["hostile"]
    assert seen["predictions"] == ["</script><script>alert(1)</script>",
                                   "<img src=x onerror=alert(2)>", "$\\input{x}$ & {{p:lab}}"]
    assert seen["dialogs"] == [] and seen["evil"] == 0 and seen["images"] == 0


@pytest.mark.parametrize("name", ["demo", "demo_zh", "hostile"])
def test_axe_and_no_clipping_at_two_widths(lesson_browser, name):
    for width in ("1280", "390"):
        seen = lesson_browser[name]["layouts"][width]
        assert seen["axe"] == [], seen["axe"]
        assert seen["clipped"] == [], seen["clipped"]


def test_errors_of_page_text_are_input_errors():
    with pytest.raises(InputError) as caught:
        parse_problem(BASE + 'claim = 3\nclaim_answer = true\nclaim_reason = "r"\n', source="p.toml")
    assert str(caught.value) == "p.toml, page.claim: must be a string, not an integer"


# ---- the hand check at float states (issue 31: never a stale answer) -------------------------

def float_row(Q: list[list[float]], K: list[list[float]], V: list[list[float]], row: int,
              tau: float, reads: int) -> dict[str, list[float]]:
    """Row `row` (0-based) of R, L, A, O in float64 from Q, K, V, computed here on its own: the
    scale 1/√d_k, the first `reads` keys readable (a causal row), the rest -inf."""
    d_k = len(Q[0])
    R = [sum(q * k for q, k in zip(Q[row], key)) for key in K]
    L = [r / math.sqrt(d_k) / tau for r in R[:reads]]
    top = max(L)
    e = [math.exp(x - top) for x in L]
    A = [x / sum(e) for x in e] + [0.0] * (len(K) - reads)
    O = [sum(a * v[c] for a, v in zip(A, V)) for c in range(len(V[0]))]
    return {"R": R, "L": L, "A": A, "O": O}


def entry_text(x: float) -> str:
    """An entry as the problem file writes it: 1.34, 1.4, 0, 3.1."""
    return f"({x:g})" if x < 0 else f"{x:g}"


def shown_weights(answer: str) -> list[str]:
    inside = answer.split(r"\left(", 1)[1].split(r"\right)", 1)[0]
    return [w.strip() for w in inside.split(",")]


def check_float_steps(seen: dict, Q: list[list[float]], K: list[list[float]],
                      V: list[list[float]], tau: float) -> None:
    """Steps 5 to 7 at a float state: real answers from float64 values, marked ≈."""
    assert not any("computes float64 values" in do for do in seen["dos"])  # the old pointer
    assert seen["hidden"] == [False] * 7 and all(seen["answers"])
    f = float_row(Q, K, V, 2, tau, 3)
    for j in (0, 1):  # the two cells the check picks: the first two readable
        assert rf"L_{{3,{j + 1}}} = \frac{{S_{{3,{j + 1}}}}}{{\tau}} \approx {f['L'][j]:.3f}" \
            in seen["answers"][4], seen["answers"][4]
    assert r"L_{3,4} = -\infty" in seen["answers"][4]
    weights = [f"{a:.3f}" for a in f["A"][:3]] + ["0", "0"]
    assert shown_weights(seen["answers"][5]) == weights, seen["answers"][5]
    total = sum(int(w.replace(".", "")) for w in weights[:3])
    assert f"add up to {total / 1000:.3f}" in seen["answers"][5]
    assert ("not 1" in seen["answers"][5]) == (total != 1000)
    for c in (0, 1):
        terms = " + ".join(rf"{a:.3f} \cdot {entry_text(V[j][c])}" for j, a in enumerate(f["A"][:3]))
        assert rf"O_{{3,{c + 1}}} \approx {terms} \approx {f['O'][c]:.3f}" in seen["answers"][6]
        # the shown rounded weights and V: their sum is the shown total, or the answer says not
        rounded = sum(round(a, 3) * V[j][c] for j, a in enumerate(f["A"][:3]))
        said = rf"$O_{{3,{c + 1}}} \approx {rounded:.3f}$"
        assert (said in seen["answers"][6].split("; O is 5 × 2.")[1]) == \
            (f"{rounded:.3f}" != f"{f['O'][c]:.3f}"), seen["answers"][6]
    unrounded = "the table computes O from the unrounded weights."
    assert seen["answers"][6].endswith(("; O is 5 × 2.", unrounded))


def test_the_hand_check_answers_an_edited_q_from_the_edited_values(lesson_browser):
    seen = lesson_browser["demo"]["floatHand"]["edited"]
    problem = load_problem(DEMO)
    Q = [[float(x) for x in problem.Q.row(i)] for i in range(problem.n_q)]
    K = [[float(x) for x in problem.K.row(j)] for j in range(problem.n_k)]
    V = [[float(x) for x in problem.V.row(j)] for j in range(problem.n_k)]
    Q[2][0] = 1.0  # the link's edit Q=3.1:1: row 3, column 1 is 1 (not 1.34)
    f = float_row(Q, K, V, 2, 0.85, 3)
    for j in (0, 1):
        terms = " + ".join(rf"{entry_text(q)} \cdot {entry_text(k)}" for q, k in zip(Q[2], K[j]))
        assert (rf"R_{{3,{j + 1}}} = \mathbf{{q}}_{{3}} \cdot \mathbf{{k}}_{{{j + 1}}} = {terms} "
                rf"\approx {f['R'][j]:.3f}") in seen["answers"][1], seen["answers"][1]
        assert f"{f['R'][j]:.3f}" in seen["table"]  # the table beside it shows the same
        S = f["R"][j] / math.sqrt(3)
        assert rf"S_{{3,{j + 1}}} = \frac{{R_{{3,{j + 1}}}}}{{\sqrt{{3}}}} \approx {S:.3f}" \
            in seen["answers"][2]
    assert "1.876" not in seen["answers"][1]  # the unedited R_{3,2} = 1.34 · 1.4
    assert "分配 (future position)" in seen["answers"][3]  # the mask row does not change
    assert r"$\tau = 0.85$" in seen["dos"][4]
    check_float_steps(seen, Q, K, V, 0.85)


def test_the_hand_check_answers_a_free_temperature_in_float64(lesson_browser):
    seen = lesson_browser["demo"]["floatHand"]["free"]
    problem = load_problem(DEMO)
    Q, K, V = ([[float(x) for x in m.row(i)] for i in range(m.rows)]
               for m in (problem.Q, problem.K, problem.V))
    assert r"= 1.34 \cdot 1.4 + 1 \cdot 0 + 2 \cdot 0 = 1.876$" in seen["answers"][1]  # exact
    assert r"$\tau = 1.1$" in seen["dos"][4] and seen["note"].endswith("τ = 1.1, mask on.")
    check_float_steps(seen, Q, K, V, 1.1)
    zh = lesson_browser["demo_zh"]["floatHand"]["free"]
    assert shown_weights(zh["answers"][5]) == shown_weights(seen["answers"][5])


def test_the_words_the_pages_data_leaves_out_are_never_read_by_its_script():
    script = without_comment_lines(page_script())
    left_out = TEMPLATE_ONLY | GENERATED_ONLY
    assert not [key for key in sorted(left_out) if re.search(rf"\b{key}\b", script)]
    template = (ROOT / "symattn" / "page" / "assets" / "page.html").read_text(encoding="utf-8")
    assert {key for key in TEMPLATE_ONLY if "{{p:" + key + "}}" not in template} == \
        {"intro", "intro_exact"}  # the build's own slot
    for lang in ("en", "zh"):
        html = build_page(load_problem(DEMO), lang=lang)
        assert not set(unpack(html, "data")["phrases"]) & left_out
        assert page_phrases(lang)["hand_title"] in html  # the template still says its words
