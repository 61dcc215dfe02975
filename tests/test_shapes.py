"""Problems that give only shapes: a batch axis and heads, shape claims of any rank, the shape
argument as a derivation, and errors that name the key the author wrote."""

from __future__ import annotations

import json

import pytest
from clients import compile_tex, katex_errors, math_blocks

import symattn
from symattn import cli
from symattn.errors import InputError
from symattn.targets.shapes import render_shapes

D2L = """title = "Multi-head attention shapes"
[input]
Q = {shape = [4, 100]}
K = {shape = [6, 100]}
V = {shape = [6, 100]}
batch = 2
heads = 5
W_O = {shape = [100, 100]}
[answers]
"shape(O)" = "(2, 4, 100)"
"shape(A)" = "2x5x4x6"
"shape(concat)" = [2, 4, 100]
"shape(Q)" = "torch.Size([2, 4, 100])"
heads = 5
"shape(R)" = "2x4x6"
"""


def test_batch_and_heads_give_the_textbook_shapes(tmp_path, capsys):
    problem = symattn.parse_problem(D2L)
    assert problem.shapes["O"] == (2, 4, 100) and problem.shapes["A"] == (2, 5, 4, 6)
    path = tmp_path / "p.toml"
    path.write_text(D2L, encoding="utf-8")
    assert cli.main(["verify", str(path), "--format", "json"]) == 1
    claims = json.loads(capsys.readouterr().out)["claims"]
    assert [c["status"] for c in claims] == ["correct"] * 5 + ["wrong"]
    assert claims[5]["entries"][0]["expected"] == "2x5x4x6"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_shape_argument_is_a_derivation(lang):
    problem = symattn.parse_problem(D2L)
    markdown = render_shapes(problem, "markdown", lang)
    assert r"(4 \times 20)(20 \times 6) \to 2 \times 5 \times 4 \times 6" in markdown
    assert r"\to 2 \times 4 \times 100" in markdown
    assert katex_errors(math_blocks(markdown)) == []
    compile_tex(render_shapes(problem, "latex", lang, standalone=True), lang)


@pytest.mark.parametrize("extra, key, message", [
    ("heads = 3\n", "input.heads", "3 heads must split d_k = 100 and d_v = 100 evenly"),
    ("W_O = {shape = [100, 8]}\n", "input.W_O", "W_O goes with heads = h"),
    ("heads = 5\nW_O = {shape = [90, 8]}\n", "input.W_O", "W_O has 90 rows but the heads' outputs"),
    ("batch = 0\n", "input.batch", "must be an integer from 1"),
    ("X = [[1]]\n", "input.X", "unknown key"),
], ids=["uneven-heads", "W_O-without-heads", "W_O-rows", "batch-zero", "values-mixed-in"])
def test_bad_shape_problems_name_their_key(extra, key, message):
    text = "[input]\nQ = {shape = [4, 100]}\nK = {shape = [6, 100]}\nV = {shape = [6, 100]}\n"
    with pytest.raises(InputError) as error:
        symattn.parse_problem(text + extra, source="p.toml")
    assert str(error.value).startswith(f"p.toml, {key}: ") and message in str(error.value)


def test_heads_given_as_shapes_are_refused_by_the_key_written():
    text = ("[input]\nX = {shape = [4, 8]}\nW_O = {shape = [8, 8]}\n[[heads]]\n"
            "W_Q = {shape = [8, 4]}\nW_K = {shape = [8, 4]}\nW_V = {shape = [8, 4]}\n")
    with pytest.raises(InputError, match=r"^p.toml, input.X: a problem given as shapes writes "):
        symattn.parse_problem(text, source="p.toml")
    with pytest.raises(InputError, match=r"^p.toml, heads\[1\].W_Q: "):
        symattn.parse_problem(text.replace("X = {shape = [4, 8]}", "X = [[1, 0]]"), source="p.toml")
