"""Self-attention from X with projections, cross-attention from Y, and multi-head attention."""

from __future__ import annotations

import json
import re

import pytest
import sympy as sp
from clients import compile_tex, katex_errors, math_blocks
from conftest import EXAMPLES, ROOT

import symattn
from symattn import cli
from symattn.checks.heads import check_heads
from symattn.errors import InputError
from symattn.exact.heads import attend_heads, combined

R = sp.Rational
FOUR = EXAMPLES / "11_policy_raises_wages_jobs" / "problem.toml"
HEADS = EXAMPLES / "12_two_heads" / "problem.toml"


def test_projections_give_q_k_v_and_exact_weights():
    problem = symattn.load_problem(FOUR)
    assert problem.Q == sp.ImmutableMatrix([[1], [1], [1], [2]])
    assert problem.K == sp.ImmutableMatrix([[sp.log(2)], [0], [sp.log(3)], [sp.log(2)]])
    trace = symattn.attend(problem)
    assert list(trace.A.row(3)) == [R(2, 9), R(1, 18), R(1, 2), R(2, 9)]
    assert list(trace.O.row(3)) == [R(17, 18), R(7, 9)]


def test_the_derivation_shows_the_projections_first():
    md = symattn.render(symattn.attend(symattn.load_problem(FOUR)), "markdown", lang="zh")
    assert "query、key、value 由 $X$ 线性投影得到，每行对应一个 token：" in md
    assert md.index("Q &= XW_Q") < md.index("QK^{\\mathsf T}")


def test_cross_attention_from_y():
    problem = symattn.parse_problem("[input]\nX = [[1, 0]]\nY = [[1, 0], [0, 1], [1, 1]]\n"
                                   "W_Q = [[1], [0]]\nW_K = [[\"ln(2)\"], [0]]\nW_V = [[1], [2]]\n"
                                   "[attention]\nscale = \"none\"\n")
    trace = symattn.attend(problem)
    assert (problem.n_q, problem.n_k) == (1, 3)
    assert list(trace.A.row(0)) == [R(2, 5), R(1, 5), R(2, 5)]
    md = symattn.render(trace, "markdown")
    assert "The queries are projections of $X$, the keys and values of $Y$:" in md
    assert r"K &= YW_K = " in md


@pytest.mark.parametrize("text, message", [
    ("[input]\nX = [[1, 0]]\nW_Q = [[1]]\nW_K = [[1], [0]]\nW_V = [[1], [0]]\n",
     "input.W_Q: X is 1x2 and W_Q is 1x1"),
    ("[input]\nX = [[1]]\nW_Q = [[1]]\nW_K = [[1]]\n", "input.W_V: missing"),
    ("[input]\nX = [[1]]\nQ = [[1]]\nW_Q = [[1]]\nW_K = [[1]]\nW_V = [[1]]\n", "give either Q, K and V"),
    ("[input]\nQ = [[1]]\nK = [[1]]\nV = [[1]]\nW_O = [[1]]\n", "W_O goes with \\[\\[heads\\]\\]"),
    ("[input]\nX = [[1]]\n[[heads]]\nW_Q = [[1]]\nW_K = [[1]]\nW_V = [[1]]\n", "input.W_O: missing"),
    ("[input]\nX = [[1]]\nW_O = [[1], [1]]\n[[heads]]\nW_Q = [[1]]\nW_K = [[1]]\nW_V = [[1]]\n",
     "W_O has 2 rows but the heads' outputs together have 1 columns"),
    ("[input]\nX = [[1]]\nW_O = [[1]]\n[[heads]]\nW_Q = [[1]]\nW_K = [[1]]\nW_V = [[1]]\nfoo = 1\n",
     "heads\\[1\\].foo: unknown key"),
], ids=["shapes", "missing-w", "both", "stray-w-o", "no-w-o", "w-o-rows", "head-key"])
def test_bad_projection_files(text, message):
    with pytest.raises(InputError, match=message):
        symattn.parse_problem(text)


def test_two_heads_concatenate_and_project_exactly():
    trace = attend_heads(symattn.load_problem(HEADS))
    assert trace.heads[0].A == sp.ImmutableMatrix([[1, 0, 0], [R(1, 2), R(1, 2), 0],
                                                   [R(2, 5), R(1, 5), R(2, 5)]])
    assert trace.heads[1].problem.mask == "none"
    assert trace.concat.shape == (3, 3)
    assert trace.output == sp.ImmutableMatrix([[R(5, 3), R(4, 3)], [R(15, 14), R(10, 7)],
                                               [R(48, 35), R(10, 7)]])
    report = check_heads(trace)
    assert report.passed and report.difference < 1e-45


def test_multi_head_cli(capsys, tmp_path):
    assert cli.main(["check", str(HEADS)]) == 0
    assert capsys.readouterr().out.endswith("all checks passed\n")
    assert cli.main(["solve", str(HEADS), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["output"][2] == ["48/35", "10/7"] and len(document["heads"]) == 2
    assert cli.main(["verify", str(HEADS)]) == 0
    assert capsys.readouterr().out.endswith("all 2 claims correct\n")
    assert cli.main(["limits", str(HEADS)]) == 2
    assert "'limits' does not take this multi-head problem" in capsys.readouterr().err
    for lang in ("en", "zh"):
        target = tmp_path / f"heads.{lang}.tex"
        assert cli.main(["solve", str(HEADS), "--format", "latex", "--standalone", "--lang", lang,
                         "-o", str(target)]) == 0
        compile_tex(target.read_text(encoding="utf-8"), lang)
        assert cli.main(["solve", str(HEADS), "--format", "markdown", "--lang", lang]) == 0
        md = capsys.readouterr().out
        assert katex_errors(math_blocks(md)) == []
    assert "\\operatorname{MHA}(X) = C\\,W_O" in md


def test_the_python_api_takes_x_and_heads():
    trace = symattn.attention(X=[[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]], W_Q=[[1], [1], [1]],
                              W_K=[["ln(2)"], [0], ["ln(3)"]], W_V=[[1, 0], [0, 1], [1, 1]],
                              mask="causal")
    assert list(trace.O.row(3)) == [R(17, 18), R(7, 9)]
    heads = symattn.multi_head(
        X=[[1, 0], [0, 1], [1, 1]], W_O=[[1, 0], [0, 1], [1, 1]], mask="causal",
        heads=[{"W_Q": [[1], [0]], "W_K": [["ln(2)"], [0]], "W_V": [[1], [0]]},
               {"W_Q": [[0], [1]], "W_K": [[0], ["ln(3)"]], "W_V": [[0, 1], [1, 0]],
                "attention": {"mask": "none", "scale": "none"}}])
    assert heads.output == attend_heads(symattn.load_problem(HEADS)).output


def test_heads_whose_outputs_share_a_denominator_combine_exactly(capsys):
    """Yang Shiteng's two-head exercise (published: 0.50 everywhere): each entry of C W_O is
    1/(2 + 2e) + e/(2 + 2e), which is exactly 1/2; the text output writes it so, and e as e."""
    path = ROOT / "tests" / "corpus" / "19_yangshiteng_two_heads" / "problem.toml"
    trace = attend_heads(symattn.load_problem(path))
    assert trace.output == sp.ImmutableMatrix([[R(1, 2), R(1, 2)], [R(1, 2), R(1, 2)]])
    assert cli.main(["solve", str(path)]) == 0
    text = capsys.readouterr().out
    tail = text.split("C = Concat(heads):", 1)[1]
    assert "E" not in tail and "e/(1 + e)" in tail
    assert tail.split("MHA(X) = C W_O:", 1)[1].split() == ["1", "2", "I", "1/2", "1/2",
                                                           "love", "1/2", "1/2"]


def test_heads_over_different_denominators_stay_expanded():
    e = sp.E
    x = sp.exp(2) / (1 + sp.exp(2)) / 3 + 1 / (1 + e)
    assert combined(x) == sp.expand(x)  # together would multiply the row sums out
    assert combined(1 / (2 + 2 * e) + e / (2 + 2 * e)) == R(1, 2)


@pytest.mark.parametrize("lang, defined", [
    ("en", r"head \(k\)'s output \(O\) is written \(\text{head}_k\). The \(h = 2\)"),
    ("zh", r"第 \(k\) 个头的输出 \(O\) 记作 \(\text{head}_k\)。\(h = 2\)")])
def test_a_multi_head_derivation_defines_head_k_and_h(capsys, lang, defined):
    path = ROOT / "tests" / "corpus" / "19_yangshiteng_two_heads" / "problem.toml"
    assert cli.main(["solve", str(path), "--format", "latex", "--lang", lang]) == 0
    text = capsys.readouterr().out
    assert defined in text
    assert cli.main(["solve", str(path), "--format", "latex", "--lang", lang, "--checks", "full"]) == 0
    text = capsys.readouterr().out  # the output check's numbers: with --checks full
    assert re.search(r"(largest difference|最大差) \\\((0|\d\.\d \\times 10\^\{-\d+\})\\\)", text)
