"""Problems that give printed scores (R with d_k, S, or logits L) instead of Q and K: the pipeline
starts there, the derivation says so, and nothing shows the Q and K that are not in the problem."""

from __future__ import annotations

import json

import pytest
import sympy as sp
from clients import compile_tex, katex_errors, math_blocks
from conftest import ROOT

import symattn
from symattn import cli
from symattn.errors import InputError

ALAMMAR = """title = "Thinking Machines"
tokens = ["Thinking"]
key_tokens = ["Thinking", "Machines"]
[input]
R = [[112, 96]]
d_k = 64
V = [[1, 0], [0, 1]]
"""
NAHIAN = ROOT / "tests" / "corpus" / "15_nahian_softmax_of_scores"


def test_raw_scores_with_d_k_as_the_illustrated_transformer_prints_them(capsys, tmp_path):
    problem = symattn.parse_problem(ALAMMAR)
    assert problem.start == "R" and problem.key_dimension == 64
    assert problem.scale_factor == sp.Rational(1, 8)
    trace = symattn.attend(problem)
    e2 = sp.exp(2)
    assert trace.S == sp.ImmutableMatrix([[14, 12]])
    assert sp.simplify(trace.A[0, 0] - e2 / (e2 + 1)) == 0  # 0.8808 and 0.1192, as printed
    assert symattn.check(trace).passed
    text = symattn.render(trace, "text")
    assert "Q (queries)" not in text and "K (keys)" not in text and "d_k = 64" in text
    assert "R (raw scores, given)" in text
    assert set(json.loads(symattn.render(trace, "json"))["stages"]) == set("VRSMLAO")
    path = tmp_path / "p.toml"
    path.write_text(ALAMMAR + '[answers]\n"A[1]" = "(0.88, 0.12)"\nd_k = 64\nS = "[[14, 12]]"\n'
                    'Q = "[[112, 96]]"\n', encoding="utf-8")
    assert cli.main(["verify", str(path), "--format", "json"]) == 1
    claims = json.loads(capsys.readouterr().out)["claims"]
    assert [c["status"] for c in claims] == ["correct", "correct", "correct", "invalid"]
    assert claims[3]["note"] == "Q is not given by this problem"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_derivation_starts_from_the_given_scores(lang):
    trace = symattn.attend(symattn.parse_problem(ALAMMAR))
    markdown = symattn.render(trace, "markdown", lang=lang, detail="full")
    assert ("gives the raw scores" if lang == "en" else "直接给出原始分数") in markdown
    assert "q_{1} \\cdot k_{1}" not in markdown and "d_k = 64" in markdown
    assert katex_errors(math_blocks(markdown)) == []
    compile_tex(symattn.render(trace, "latex", lang=lang, detail="full", standalone=True), lang)


def test_scaled_scores_and_logits_as_given():
    scaled = symattn.parse_problem("[input]\nS = [[0.7, 2.1, 1.3]]\nV = [[1], [0], [0]]\n"
                                   "[attention]\ntemperature = 2\n")
    assert scaled.start == "S" and scaled.scale_factor == 1 and scaled.key_dimension is None
    weights = symattn.attend(scaled).A
    expected = json.loads((NAHIAN / "expected.json").read_text())["stages"]["A"][0]
    at_tau_one = symattn.attend(symattn.parse_problem(
        "[input]\nS = [[0.7, 2.1, 1.3]]\nV = [[1], [0], [0]]\n")).A
    assert [float(x) for x in at_tau_one] == pytest.approx([float(x) for x in expected], rel=1e-14)
    assert float(weights[0, 1]) < float(at_tau_one[0, 1])  # a temperature of 2 flattens
    logits = symattn.parse_problem('[input]\nL = [["ln(2)", "-oo", 0]]\nV = [[1], [5], [3]]\n')
    trace = symattn.attend(logits)
    assert trace.A == sp.ImmutableMatrix([[sp.Rational(2, 3), 0, sp.Rational(1, 3)]])
    assert trace.O == sp.ImmutableMatrix([[sp.Rational(5, 3)]]) and trace.readable == ((True, False, True),)
    assert symattn.check(trace).passed


@pytest.mark.parametrize("text, message", [
    ("[input]\nR = [[1, 2]]\nV = [[1], [2]]\n", "input.d_k: missing: with R give d_k"),
    ("[input]\nR = [[1, 2]]\nQ = [[1]]\nV = [[1], [2]]\nd_k = 1\n",
     "input.R: give the raw scores R alone with V, not with Q"),
    ("[input]\nQ = [[1]]\nK = [[1]]\nV = [[1]]\nd_k = 3\n", "input.d_k: d_k goes with given scores R"),
    ("[input]\nL = [[1, 2]]\nV = [[1], [2]]\n[attention]\ntemperature = 2\n",
     "attention.temperature: the logits L already hold the temperature"),
    ("[input]\nS = [[1, 2]]\n", "input.V: missing (V is needed with the scaled scores S)"),
    ("[input]\nR = [[1, 2]]\nV = [[1], [2]]\nd_k = 0\n", "input.d_k: must be an integer from 1"),
    ("[input]\nS = [[1, \"-oo\"]]\nV = [[1], [2]]\n", "input.S[1][2], column 2: infinity is allowed only"),
], ids=["no-d_k", "with-Q", "d_k-alone", "L-temperature", "no-V", "d_k-zero", "S-minus-oo"])
def test_given_scores_refused_with_the_key(text, message):
    with pytest.raises(InputError) as error:
        symattn.parse_problem(text, source="p.toml")
    assert f"p.toml, {message}" in str(error.value)


def test_column_vectors_and_a_mask_written_true_where_hidden(capsys, tmp_path):
    columns = symattn.parse_problem('[input]\nlayout = "columns"\nQ = [[1, 0], [0, 1]]\n'
                                    'K = [[1, 0, 1], [0, 1, 1]]\nV = [[1, 2, 3]]\n')
    rows = symattn.parse_problem("[input]\nQ = [[1, 0], [0, 1]]\nK = [[1, 0], [0, 1], [1, 1]]\n"
                                 "V = [[1], [2], [3]]\n")
    assert columns.Q == rows.Q and columns.K == rows.K and columns.V == rows.V
    with pytest.raises(InputError, match='set layout = "columns" in \\[input\\]'):
        symattn.parse_problem("[input]\nQ = [[1, 0], [0, 1]]\nK = [[1, 0, 1], [0, 1, 1]]\n"
                              "V = [[1, 2, 3]]\n")
    hidden = symattn.parse_problem("[input]\nQ = [[1], [1]]\nK = [[1], [0], [1]]\n"
                                   "V = [[1], [2], [3]]\n[attention]\n"
                                   "masked = [[false, true, false], [false, true, true]]\n")
    assert hidden.keep == ((True, False, True), (True, False, False))
    with pytest.raises(InputError, match="attention.masked\\[1\\]\\[2\\]: must be true or false"):
        symattn.parse_problem("[input]\nQ = [[1]]\nK = [[1], [0]]\nV = [[1], [2]]\n"
                              "[attention]\nmasked = [[false, 1]]\n")


BOOK = """title = "Scaled scores from a book with d_k = 64"
[input]
S = [[14, 12], [1, 0.5]]
d_k = 64
V = [[1, 0], [0, 1]]
[answers]
d_k = 64
s = "1/8"
"""


@pytest.mark.parametrize("start", ["S", "L"])
def test_scores_given_with_the_books_d_k_change_no_value(start, capsys, tmp_path):
    text = BOOK.replace("S = ", f"{start} = ")
    book, plain = (symattn.parse_problem(t) for t in (text, text.replace("d_k = 64\nV", "V")))
    assert book.key_dimension == 64 and plain.key_dimension is None
    assert book.scale_factor == plain.scale_factor == 1
    assert symattn.attend(book).A == symattn.attend(plain).A
    trace = symattn.attend(book)
    assert "d_k = 64" in symattn.render(trace, "text").splitlines()[1]
    assert f"the given {start} already include the scale 1/sqrt(64)" in symattn.render(trace, "text")
    for lang, words in (("en", "with the book's $d_k = 64$ they already include "
                                "$1/\\sqrt{d_k} = 1/8$"), ("zh", "按书中的 $d_k = 64$")):
        markdown = symattn.render(trace, "markdown", lang=lang)
        assert "$d_k = 64$" in markdown and words in markdown
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["verify", str(path), "--format", "json"]) == 0
    assert [c["status"] for c in json.loads(capsys.readouterr().out)["claims"]] == ["correct"] * 2


@pytest.mark.parametrize("start", ["S", "L"])
def test_nothing_prints_a_d_k_the_book_did_not_state(start, capsys, tmp_path):
    text = BOOK.replace("S = ", f"{start} = ").replace("d_k = 64\nV", "V").split("[answers]")[0]
    text = text.replace(" with d_k = 64", "")
    trace = symattn.attend(symattn.parse_problem(text))
    for to in ("text", "json", "latex", "markdown"):
        for lang in ("en", "zh"):
            shown = symattn.render(trace, to, lang=lang, **({"detail": "full"} if to in
                                                               ("latex", "markdown") else {}))
            assert "d_k" not in shown and "d_{k}" not in shown, (to, lang)
    path = tmp_path / "p.toml"
    path.write_text(text + '[answers]\nd_k = 1\n', encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 1
    assert "d_k is not given by this problem" in capsys.readouterr().out
