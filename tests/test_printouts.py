"""Printouts with batch and singleton axes, as claims and as inputs: axes of size 1 squeezed
wherever they are, one matrix of a batch picked by index (counted from 0), a stated shape=(...)
checked against the brackets, and a batch without an index refused in one line (exit 2)."""

from __future__ import annotations

import json

import pytest
import sympy as sp

import symattn
from symattn.cli.main import main
from symattn.errors import InputError
from symattn.parse.batches import BatchError, matrix_rows
from symattn.parse.claims import parse_claim
from symattn.parse.printouts import split_structure

TF_3_1_5 = """tf.Tensor(
[[[0.1 0.2 0.3 0.2 0.2]]

 [[0.5 0.5 0.  0.  0. ]]

 [[0.2 0.2 0.2 0.2 0.2]]], shape=(3, 1, 5), dtype=float32)"""

TF_2_2_3 = """tf.Tensor(
[[[1. 0. 0.]
  [0. 1. 0.]]

 [[0.5 0.5 0. ]
  [0.25 0.25 0.5 ]]], shape=(2, 2, 3), dtype=float32)"""

REPR = """<tf.Tensor: shape=(3, 3), dtype=float32, numpy=
array([[1., 0., 0.],
       [1., 1., 0.],
       [1., 1., 1.]], dtype=float32)>"""


@pytest.mark.parametrize("text, index, rows", [
    (TF_3_1_5, None, [["0.1", "0.2", "0.3", "0.2", "0.2"], ["0.5", "0.5", "0.", "0.", "0."],
                      ["0.2", "0.2", "0.2", "0.2", "0.2"]]),
    (TF_3_1_5, (1,), [["0.5", "0.5", "0.", "0.", "0."]]),
    (TF_2_2_3, (1,), [["0.5", "0.5", "0."], ["0.25", "0.25", "0.5"]]),
    (REPR, None, [["1.", "0.", "0."], ["1.", "1.", "0."], ["1.", "1.", "1."]]),
    ("[[[1], [2]]]", None, [["1"], ["2"]]),  # a batch of one 2x1 column keeps its column
    ("[[[[0.5, 0.5]]], [[[0.2, 0.8]]]]", None, [["0.5", "0.5"], ["0.2", "0.8"]]),
    ("tensor([[[[0.1, 0.9], [0.4, 0.6]]]])", (0, 0), [["0.1", "0.9"], ["0.4", "0.6"]]),
], ids=["tf-3-1-5", "tf-3-1-5-index", "tf-batch-index", "notebook-repr", "column",
        "two-singletons", "torch-batch-heads"])
def test_squeezed_and_indexed(text, index, rows):
    assert split_structure(text, index) == rows


@pytest.mark.parametrize("text, index, message", [
    (TF_2_2_3, None, "holds 2 matrices of 2x3 (shape (2, 2, 3)); say which: "
                     "{value = ..., index = [0]} is x[0], counted from 0"),
    (TF_2_2_3, (2,), "index [2]: axis 1 of shape (2, 2, 3) counts 0 to 1"),
    (TF_2_2_3, (0, 1), "index [0, 1] does not fit a value of shape (2, 2, 3)"),
    ("[[0.1, 0.9]]", (0,), "index [0] goes with a batch of matrices; this value has shape (1, 2)"),
], ids=["ambiguous", "out-of-range", "too-long", "not-a-batch"])
def test_a_batch_needs_an_index_that_fits(text, index, message):
    with pytest.raises(BatchError, match=message.replace("[", r"\[").replace("(", r"\(")
                       .replace(")", r"\)").replace("{", r"\{").replace("}", r"\}")
                       .replace(".", r"\.")):
        split_structure(text, index)


@pytest.mark.parametrize("text, message", [
    (TF_2_2_3.replace("(2, 2, 3)", "(2, 3, 3)"),
     "the printout says shape=(2, 3, 3) but its brackets hold (2, 2, 3)"),
    ("[[[1, 2], [3]]]", "lists of 1 and 2 entries side by side"),
    ("[" * 10 + "1" + "]" * 10, "a value of more than 8 axes"),
], ids=["stated-shape", "ragged", "too-deep"])
def test_unreadable_printouts_are_invalid_claims(text, message):
    claim = parse_claim("A", text)
    assert claim.error is not None and message in claim.error


def test_nested_toml_lists_read_like_printouts():
    assert matrix_rows([[[1, 2], [3, 4]]]) == [[1, 2], [3, 4]]
    assert matrix_rows([[[1, 2]], [[3, 4]]]) == [[1, 2], [3, 4]]
    assert matrix_rows([[[1, 2]], [[3, 4]]], (1,)) == [[3, 4]]
    assert matrix_rows([[1, 2], [3]]) == [[1, 2], [3]]  # two axes: left for the judge


def test_verify_picks_the_indexed_matrix(tmp_path, capsys):
    path = tmp_path / "p.toml"
    thirds = TF_2_2_3.replace("0.5 0.5 0. ", "0.3333 0.3333 0.3333").replace(
        "0.25 0.25 0.5 ", "0.3333 0.3333 0.3333")
    path.write_text("[input]\nQ = [[0], [0]]\nK = [[0], [0], [0]]\nV = [[1], [2], [3]]\n"
                    f"[answers]\nA = {{value = '''{thirds}''', index = [1]}}\n", encoding="utf-8")
    assert main(["verify", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["claims"][0]["status"] == "correct"


@pytest.mark.parametrize("answers, key", [
    (f"A = '''{TF_2_2_3}'''", "answers.'A'"),
    (f"A = {{value = '''{TF_2_2_3}''', index = [5]}}", "answers.'A'"),
    ("A = {value = '[[1]]', index = [-1]}", "answers.'A'"),
    ("A = {values = '[[1]]'}", "answers.'A'"),
], ids=["no-index", "index-out-of-range", "negative-index", "unknown-key"])
def test_a_file_with_an_ambiguous_claim_exits_2_in_one_line(answers, key, tmp_path, capsys):
    path = tmp_path / "p.toml"
    path.write_text("[input]\nQ = [[0], [0]]\nK = [[0], [0], [0]]\nV = [[1], [2], [3]]\n"
                    f"[answers]\n{answers}\n", encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}, {key}: ") and err.count("\n") == 1, err


def test_a_student_cell_with_a_batch_is_invalid_not_fatal(tmp_path, capsys):
    problem = tmp_path / "p.toml"
    problem.write_text("[input]\nQ = [[0], [0]]\nK = [[0], [0], [0]]\nV = [[1], [2], [3]]\n",
                       encoding="utf-8")
    csv = tmp_path / "class.csv"
    batch = TF_2_2_3.replace('\n', ' ')
    csv.write_text(f'id,A\ns1,"{batch}"\ns2,"{TF_3_1_5.replace(chr(10), " ")}"\n', encoding="utf-8")
    report = tmp_path / "report.csv"
    assert main(["grade", str(problem), "--submissions", str(csv), "-o", str(report), "-q"]) == 0
    text = report.read_text(encoding="utf-8")
    assert "invalid" in text and "holds 2 matrices" in text
    capsys.readouterr()


def test_inputs_pasted_from_batched_printouts():
    problem = symattn.parse_problem(
        "[input]\n"
        "Q = '''tf.Tensor([[[1. 0.] [0. 1.]]], shape=(1, 2, 2), dtype=float32)'''\n"
        "K = [[[1, 0], [0, 1]]]\n"
        "V = {value = [[[9, 9], [9, 9]], [[1, 2], [3, 4]]], index = [1]}\n")
    plain = symattn.parse_problem("[input]\nQ = [[1.0, 0.0], [0.0, 1.0]]\nK = [[1, 0], [0, 1]]\n"
                                  "V = [[1, 2], [3, 4]]\n")
    assert (problem.Q, problem.K, problem.V) == (plain.Q, plain.K, plain.V)
    assert problem.decimals  # 1. and 0. are decimals, as 1.0 is


def test_x_and_projections_picked_from_batches():
    """X of shape (B, n, d) with an index, as in `batch = torch.stack((inputs, inputs))`, and a
    projection as a table too: the matrices they pick, in one head and with num_heads."""
    batch = "{value = [[[1, 2], [3, 4], [5, 6]], [[0, 1], [1, 0], [2, 2]]], index = [1]}"
    rest = "W_K = [[1, 0], [0, 1]]\nW_V = [[2, 0], [0, 3]]\n"
    problem = symattn.parse_problem(f"[input]\nX = {batch}\n"
                                    "W_Q = {value = [[[1, 1], [0, 1]]]}\n" + rest)
    plain = symattn.parse_problem("[input]\nX = [[0, 1], [1, 0], [2, 2]]\n"
                                  "W_Q = [[1, 1], [0, 1]]\n" + rest)
    assert (problem.Q, problem.K, problem.V) == (plain.Q, plain.K, plain.V)
    assert problem.Q == sp.Matrix([[0, 1], [1, 1], [2, 4]])
    heads = symattn.parse_problem(f"[input]\nX = {batch}\nnum_heads = 2\n"
                                  "W_Q = [[1, 1], [0, 1]]\n" + rest + "W_O = [[1, 0], [0, 1]]\n")
    assert [h.V for h in heads.heads] == [sp.Matrix([[0], [2], [4]]), sp.Matrix([[3], [0], [6]])]


@pytest.mark.parametrize("text, message", [
    ("Q = [[[1, 0], [0, 1]], [[1, 1], [0, 0]]]",
     "p.toml, input.Q: the value holds 2 matrices of 2x2 (shape (2, 2, 2))"),
    ("Q = {value = [[[1, 0], [0, 1]]], index = [3]}",
     "p.toml, input.Q: index [3]: axis 1 of shape (1, 2, 2) counts 0 to 0"),
    ("Q = {value = [[1, 0], [0, 1]], index = 0}",
     "p.toml, input.Q.index: must be a list of whole numbers from 0"),
    ("Q = {value = [[1, 0], [0, 1]], at = [0]}", "p.toml, input.Q.at: unknown key"),
    ("Q = '''tf.Tensor([[1. 0.] [0. 1.]], shape=(2, 3), dtype=float32)'''",
     "p.toml, input.Q: the printout says shape=(2, 3) but its brackets hold (2, 2)"),
], ids=["batch", "out-of-range", "index-not-list", "unknown-key", "stated-shape"])
def test_inputs_refused_with_the_key(text, message):
    with pytest.raises(InputError) as error:
        symattn.parse_problem(f"[input]\n{text}\nK = [[1, 0], [0, 1]]\nV = [[1], [2]]\n",
                              source="p.toml")
    assert str(error.value).startswith(message)


def test_a_claim_thousands_of_brackets_deep_is_invalid_not_an_internal_error(tmp_path, capsys):
    path = tmp_path / "p.toml"
    deep = "[" * 3000 + "1" + "]" * 3000
    path.write_text(f'[input]\nQ = [[0]]\nK = [[0]]\nV = [[1]]\n[answers]\nA = "{deep}"\n',
                    encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert "a value of more than 8 axes" in capsys.readouterr().out


@pytest.mark.parametrize("claimed, status", [("torch.Size([2, 2, 1])", "correct"), ("2x1", "correct"),
                                             ("torch.Size([3, 2, 1])", "wrong"), ("1x2", "wrong")])
def test_a_shape_claim_may_give_the_batch_the_inputs_were_picked_from(claimed, status):
    """Q is x[1] of a batch of two: the book prints the batch's output shape, torch.Size([2, 2, 1])."""
    from symattn.answers.verify import verify
    problem = symattn.parse_problem(
        "[input]\nQ = {value = [[[9, 9], [9, 9]], [[1, 0], [0, 1]]], index = [1]}\n"
        f"K = [[1, 0], [0, 1]]\nV = [[1], [2]]\n[answers]\n\"shape(O)\" = \"{claimed}\"\n")
    assert problem.batch == (2,)
    assert [v.status for v in verify(problem).verdicts] == [status]
