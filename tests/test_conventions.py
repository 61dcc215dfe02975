"""The inputs courses really have (issue 29): projection biases, Prince's columns layout and
num_heads with whole projections, each read, computed, cross-checked, shown and judged.

A problem laid out in columns (X is D x N, Q = W_Q X + b_Q 1ᵀ, A's columns sum to 1) is shown
and judged as its book writes it; num_heads splits d_model x d_model projections into heads as
torch.nn.MultiheadAttention does, and agrees with it in float64 to 1e-12.
"""

from __future__ import annotations

import json
import random
import re
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
import sympy as sp
from clients import compile_tex, katex_errors, math_blocks, need
from conftest import ROOT

import symattn
from symattn.answers.verify import verify
from symattn.checks.invariants import check
from symattn.cli.main import main
from symattn.errors import InputError
from symattn.kinds import refusal
from symattn.parse.claims import parse_claim

try:
    with warnings.catch_warnings():  # torch warns at import when NumPy is absent; none is needed
        warnings.simplefilter("ignore", UserWarning)
        import torch
except ImportError:  # judged per test by need(): a skip, or a failure in CI
    torch = None

R = sp.Rational
BOOK = """title = "The book's layout"
tokens = ["a", "b", "c"]
[input]
layout = "columns"
X = [[1, 0, 1], [0, 1, 1]]
W_Q = [[1, 0], [0, "ln(2)"]]
W_K = [["ln(3)", 0], [0, 1]]
W_V = [[1, 2], [0, 1]]
b_Q = [0, 1]
b_K = [[1], [0]]
b_V = ["1/2", -1]
[attention]
mask = "causal"
"""
ROWS = """[input]
X = [[1, 0], [0, 1], [1, 1]]
W_Q = [[1, 0], [0, "ln(2)"]]
W_K = [["ln(3)", 0], [0, 1]]
W_V = [[1, 0], [2, 1]]
b_Q = [0, 1]
b_K = [[1, 0]]
b_V = [["1/2"], [-1]]
[attention]
mask = "causal"
"""
SPLIT = """[input]
num_heads = 2
X = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
W_Q = [[1, 0, 0, 1], [0, 1, 1, 0], [0, 0, 1, 0], [1, 0, 0, 0]]
W_K = [["ln(2)", 0, 0, 0], [0, 1, 0, 0], [0, 0, "ln(3)", 0], [0, 0, 0, 1]]
W_V = [[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 1, 0]]
W_O = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
b_Q = [0, 0, 1, 0]
b_O = [1, 0, 0, -1]
"""
UDL_12_2 = ROOT / "tests" / "fixtures" / "udl_12_2_two_heads.toml"
PRINCE_12_1 = ROOT / "tests" / "corpus" / "28_prince_udl_self_attention" / "problem.toml"


def test_a_bias_is_added_to_every_row_and_the_columns_layout_is_the_transpose():
    """Q = X W_Q + 1 b_Qᵀ in rows; the same problem in columns (every matrix transposed) is
    the same problem to the engine, and only its layout differs."""
    rows, book = symattn.parse_problem(ROWS), symattn.parse_problem(BOOK)
    X = sp.Matrix([[1, 0], [0, 1], [1, 1]])
    assert rows.Q == X * sp.Matrix([[1, 0], [0, sp.log(2)]]) + sp.ones(3, 1) * sp.Matrix([[0, 1]])
    assert rows.K[0, :] == sp.Matrix([[1 + sp.log(3), 0]])
    assert rows.V == sp.Matrix([[R(3, 2), -1], [R(5, 2), 0], [R(7, 2), 0]])
    assert (book.Q, book.K, book.V) == (rows.Q, rows.K, rows.V)
    assert (rows.layout, book.layout) == ("rows", "columns")
    assert symattn.attend(book).O == symattn.attend(rows).O


def test_the_cross_check_forms_q_k_v_again_from_x_the_weights_and_the_biases():
    """numeric.recompute does not take the exact pipeline's Q: a Q that is not X W_Q + 1 b_Qᵀ
    fails the mpmath cross-check."""
    problem = symattn.parse_problem(ROWS)
    assert check(symattn.attend(problem)).passed
    wrong = replace(problem, Q=problem.Q + sp.ones(3, 2))
    report = check(symattn.attend(wrong))
    assert not report.passed
    assert [r.check for r in report.results if r.passed is False] == ["numeric"]


@pytest.mark.parametrize("text, message", [
    (ROWS.replace('b_Q = [0, 1]', 'b_Q = [0, 1, 2]'),
     "p.toml, input.b_Q: b_Q has 3 entries but W_Q gives 2 (its columns)"),
    (BOOK.replace('b_V = ["1/2", -1]', 'b_V = [1]'),
     "p.toml, input.b_V: b_V has 1 entries but W_V gives 2 (its rows)"),
    (ROWS.replace('b_K = [[1, 0]]', 'b_K = [[1, 0], [0, 1]]'),
     "p.toml, input.b_K: must be a vector: a list, or a 1 x d or d x 1 matrix, not 2x2"),
    (ROWS.replace('b_Q = [0, 1]', 'b_Q = [0, "x"]'),
     "p.toml, input.b_Q[2], column 1: unknown name 'x'"),
    ("[input]\nQ = [[1]]\nK = [[1]]\nV = [[1]]\nb_Q = [1]\n",
     "p.toml, input.b_Q: b_Q goes with X and W_Q (a bias of the projection)"),
    ("[input]\nQ = [[1]]\nK = [[1]]\nV = [[1]]\nb_O = [1]\n",
     "p.toml, input.b_O: b_O goes with [[heads]] or num_heads (multi-head attention)"),
    (BOOK.replace('X = [[1, 0, 1], [0, 1, 1]]', 'X = [[1, 0, 1], [0, 1, 1], [1, 1, 1]]'),
     "p.toml, input.W_Q: W_Q is 2x2 and X is 3x3: W_Q X needs W_Q's columns to equal X's rows"),
    (BOOK.replace('mask = "causal"', 'bias = [[0, 0, 0], [0, 0, 0]]'),
     "p.toml, attention.bias: shape 2x3 does not match the scores, n_k x n_q = 3x3"),
    (BOOK + "[gradient]\nloss = \"sum\"\n",
     'p.toml, gradient: [gradient] works on problems laid out in rows; layout = "columns" is one'),
    ('[input]\nlayout = "columns"\nR = [[1]]\nd_k = 1\nV = [[1]]\n',
     'p.toml, input.layout: layout = "columns" applies to Q, K and V, or X and its projections, '
     "written one column per token; give the scores in rows"),
    ('[input]\nlayout = "columns"\nQ = [[1, 0], [0, 1]]\nK = [[1, 0], [0, 1], [1, 1]]\nV = [[1, 2]]\n',
     "p.toml, input.K: Q is 2x2 and K is 3x2: Q and K must have the same number of rows (d_k)"),
    (SPLIT.replace("num_heads = 2", "num_heads = 3"),
     "p.toml, input.num_heads: 3 heads must split d_k = 4 and d_v = 4 evenly"),
    (SPLIT.replace("num_heads = 2", "num_heads = true"),
     "p.toml, input.num_heads: must be an integer from 1 to 100000"),
    (SPLIT.replace("W_O = ", "W_Z = "),
     "p.toml, input.W_Z: unknown key"),
    (SPLIT.replace("b_O = [1, 0, 0, -1]", "b_O = [1, 0]"),
     "p.toml, input.b_O: b_O has 2 entries but W_O gives 4 (its columns)"),
    (SPLIT + "[[heads]]\nW_Q = [[1]]\nW_K = [[1]]\nW_V = [[1]]\n",
     "p.toml, input.num_heads: give [[heads]] or num_heads with whole projections, not both"),
], ids=["bias-size", "bias-size-columns", "bias-not-a-vector", "bias-entry", "bias-without-X",
        "b_O-single-head", "columns-product", "columns-attention-bias", "columns-gradient",
        "columns-scores", "columns-shapes", "heads-do-not-split", "heads-not-an-integer",
        "split-unknown-key", "b_O-size", "heads-and-num_heads"])
def test_bad_conventions_are_one_line_naming_file_and_key(text, message):
    with pytest.raises(InputError) as error:
        symattn.parse_problem(text, source="p.toml")
    assert str(error.value).startswith(message) and "\n" not in str(error.value)


def test_keep_and_bias_are_read_one_column_per_query_in_columns():
    """In the book's layout a mask is n_k x n_q: its column j is query j's keys."""
    text = BOOK.replace('mask = "causal"', "keep = [[true, true, false], [false, true, true], "
                                          "[true, true, true]]\nbias = [[0, \"ln(2)\", 0], "
                                          "[0, 0, 0], [0, 0, 0]]")
    p = symattn.parse_problem(text)
    assert p.keep == ((True, False, True), (True, True, True), (False, True, True))
    assert p.bias[1, 0] == sp.log(2) and p.bias[0, 1] == 0


def test_num_heads_is_the_same_problem_as_its_heads_written_out():
    """Head k takes columns k·d_head ... of W_Q, W_K, W_V and the same entries of the biases."""
    split = symattn.parse_problem(SPLIT)
    written = symattn.parse_problem("""[input]
X = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
W_O = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
b_O = [1, 0, 0, -1]
[[heads]]
W_Q = [[1, 0], [0, 1], [0, 0], [1, 0]]
W_K = [["ln(2)", 0], [0, 1], [0, 0], [0, 0]]
W_V = [[1, 0], [0, 1], [0, 0], [1, 0]]
b_Q = [0, 0]
[[heads]]
W_Q = [[0, 1], [1, 0], [1, 0], [0, 0]]
W_K = [[0, 0], [0, 0], ["ln(3)", 0], [0, 1]]
W_V = [[0, 1], [0, 0], [1, 0], [1, 0]]
b_Q = [1, 0]
""")
    assert split.num_heads == 2 and written.num_heads is None
    assert [h.Q for h in split.heads] == [h.Q for h in written.heads]
    assert [h.scale_factor for h in split.heads] == [1 / sp.sqrt(2)] * 2
    assert symattn.attend_heads(split).output == symattn.attend_heads(written).output


def _torch_case(seed: int, heads: int, d_model: int, n_q: int, n_k: int, cross: bool,
                biases: bool, causal: bool) -> tuple[str, dict]:
    """A num_heads problem with decimal and ln entries, and the float64 values torch gets."""
    rng = random.Random(seed)
    pool = ["0.5", "-0.25", "1.2", "-1.1", "0.3", "0", "2", "-0.7", "1/3"]

    def matrix(rows: int, cols: int, irrational: bool = False) -> list[list[str]]:
        choices = pool + ["ln(2)", "-sqrt(2)/3"] if irrational else pool  # in X only: fast
        return [[rng.choice(choices) for _ in range(cols)] for _ in range(rows)]
    values = {"X": matrix(n_q, d_model, irrational=True), "W_Q": matrix(d_model, d_model),
              "W_K": matrix(d_model, d_model), "W_V": matrix(d_model, d_model),
              "W_O": matrix(d_model, d_model)}
    if cross:
        values["Y"] = matrix(n_k, d_model)
    if biases:
        values |= {name: matrix(1, d_model) for name in ("b_Q", "b_K", "b_V", "b_O")}

    def toml(rows: list[list[str]]) -> str:
        return "[" + ", ".join("[" + ", ".join(f'"{x}"' for x in row) + "]" for row in rows) + "]"
    text = f"[input]\nnum_heads = {heads}\n" + "".join(f"{k} = {toml(v)}\n" for k, v in values.items())
    if causal:
        text += '[attention]\nmask = "causal"\n'
    return text, values


TORCH_CASES = [(seed, heads, d, n_q, n_k, cross, biases, causal)
               for seed, (heads, d, n_q, n_k, cross, biases, causal) in enumerate([
                   (2, 4, 3, 3, False, True, False), (2, 4, 3, 3, False, False, True),
                   (4, 4, 2, 2, False, True, True), (1, 3, 3, 3, False, True, False),
                   (3, 6, 4, 4, False, True, True), (2, 4, 2, 4, True, True, False),
                   (2, 6, 3, 5, True, False, False), (3, 3, 3, 3, False, True, True)])]


@pytest.mark.parametrize("seed, heads, d, n_q, n_k, cross, biases, causal", TORCH_CASES)
def test_num_heads_agrees_with_torch_multihead_attention(seed, heads, d, n_q, n_k, cross, biases,
                                                         causal):
    """nn.MultiheadAttention in float64 with symattn's weights (its in_proj_weight holds W_Qᵀ,
    W_Kᵀ, W_Vᵀ; out_proj.weight W_Oᵀ): the output and every head's weights within 1e-12."""
    need(torch is not None, "torch is not installed (pip install torch==2.13.0, the CPU build)")
    text, values = _torch_case(seed, heads, d, n_q, n_k, cross, biases, causal)
    trace = symattn.attend_heads(symattn.parse_problem(text))

    def tensor(rows) -> torch.Tensor:
        from symattn.parse.expressions import parse_expression
        return torch.tensor([[float(parse_expression(x)) for x in row] for row in rows],
                            dtype=torch.float64)

    def floats(m: sp.Matrix) -> torch.Tensor:
        return torch.tensor([[float(sp.N(x, 30)) for x in row] for row in m.tolist()],
                            dtype=torch.float64)
    mha = torch.nn.MultiheadAttention(d, heads, bias=biases, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([tensor(values[w]).T for w in ("W_Q", "W_K", "W_V")]))
        mha.out_proj.weight.copy_(tensor(values["W_O"]).T)
        if biases:
            mha.in_proj_bias.copy_(torch.cat([tensor(values[b])[0] for b in ("b_Q", "b_K", "b_V")]))
            mha.out_proj.bias.copy_(tensor(values["b_O"])[0])
    x = tensor(values["X"])[None]
    y = tensor(values["Y"])[None] if cross else x
    mask = torch.triu(torch.ones(n_q, n_k, dtype=torch.bool), 1) if causal else None  # True: hidden
    out, weights = mha(x, y, y, attn_mask=mask, need_weights=True, average_attn_weights=False)
    assert (out[0] - floats(trace.output)).abs().max().item() <= 1e-12
    for k, head in enumerate(trace.heads):
        assert (weights[0, k] - floats(head.A)).abs().max().item() <= 1e-12


def _solve(text: str, tmp_path: Path, *options: str) -> str:
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["solve", str(path), *options]) == 0
    return path.read_text(encoding="utf-8")


def test_text_and_json_show_the_books_matrices(tmp_path, capsys):
    """Every matrix of a columns problem is shown transposed: X 2x3, b_Q a column, A 3x3 with
    columns summing to 1 (upper triangular under the causal mask), O = V A 2x3."""
    _solve(BOOK, tmp_path, "--format", "json")
    document = json.loads(capsys.readouterr().out)
    assert document["layout"] == "columns"
    assert document["shapes"]["X"] == [2, 3] and document["shapes"]["O"] == [2, 3]
    assert document["inputs"]["b_Q"] == [["0"], ["1"]]
    assert document["stages"]["M"] == [["0", "0", "0"], ["-oo", "0", "0"], ["-oo", "-oo", "0"]]
    assert [row[0] for row in document["stages"]["O"]] == ["3/2", "-1"]
    _solve(BOOK, tmp_path)
    text = capsys.readouterr().out
    assert "Q = W_Q X + b_Q 1^T (queries)   [2x3]" in text and "O = V A (output)   [2x3]" in text
    assert "A = softmax(L), column by column (weights)   [3x3]" in text
    assert "R = K^T Q (raw scores)" in text
    _solve(ROWS, tmp_path)
    rows = capsys.readouterr().out
    assert "Q = X W_Q + 1 b_Q^T (queries)   [3x2]" in rows and "b_K (key bias)   [1x2]" in rows


CLAIMS = """[answers]
"O[:,1]" = "(3/2, -1)"
"A[:,1]" = "(1, 0, 0)"
"A[1,2]" = "0.2320"
"shape(O)" = "2x3"
"shape(A)" = "3x3"
"A[:,3]" = "(0.2, 0.2, 0.2)"
"O[2]" = "[-1, -0.2320, -0.1714]"
"""


def test_claims_are_read_in_the_books_orientation(tmp_path):
    """O[:,1] is query 1's output, A[:,3] query 3's weights (whose sum must be 1), shape(O) is
    d_v x n_q."""
    problem = symattn.parse_problem(BOOK + CLAIMS)
    verdicts = {v.key: v for v in verify(problem).verdicts}
    assert {k: v.status for k, v in verdicts.items()} == {
        "O[:,1]": "correct", "A[:,1]": "correct", "A[1,2]": "correct", "shape(O)": "correct",
        "shape(A)": "correct", "A[:,3]": "wrong", "O[2]": "correct"}
    assert verdicts["A[:,3]"].remarks == (("row_sum_columns", (3, "0.6")),)
    bad = [e.position for e in verdicts["A[:,3]"].entries if e.status != "correct"]
    assert bad == [(1, 2), (2, 2)]  # A[2,3] and A[3,3], 0-based, in the book's orientation


def test_the_wrong_axis_of_a_columns_book_is_softmax_over_rows(tmp_path, capsys):
    """The book's reader errs by normalising the rows of Kᵀ Q; verify names that mistake, and
    `mistakes` lists it first, in the book's indices."""
    problem = symattn.parse_problem(BOOK)
    from symattn.answers.book import BookMistakes
    from symattn.answers.mistakes import Mistakes
    mistaken = BookMistakes(Mistakes(problem)).stages("rows")["A"]
    assert all(sp.simplify(sum(mistaken.row(i)) - 1) == 0 for i in range(3))  # rows sum to 1
    claim = "[" + ", ".join("[" + ", ".join(str(sp.N(x, 12)) for x in row) + "]"
                            for row in mistaken.tolist()) + "]"
    verdict = verify(problem, (parse_claim("A", claim),)).verdicts[0]
    assert verdict.status == "wrong" and verdict.diagnosis == "rows"
    path = tmp_path / "p.toml"
    path.write_text(BOOK, encoding="utf-8")
    assert main(["verify", str(path), "--answers", str(_answers(tmp_path, "A", claim))]) == 1
    assert "matches softmax over rows" in capsys.readouterr().out
    assert main(["mistakes", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[rows] softmax over rows" in out and "(normalised along row i)" in out
    assert "[columns]" not in out and "R' = Vᵀ Q, O' = K A'" in out


def _answers(folder: Path, key: str, value: str) -> Path:
    path = folder / "answers.toml"
    path.write_text(f'[answers]\n"{key}" = "{value}"\n', encoding="utf-8")
    return path


ROW_WORDS = re.compile(r"\brows?\b|逐行|各行|每行|该行|每一行|第 \d+ 行")


@pytest.mark.parametrize("text", [BOOK, PRINCE_12_1.read_text(encoding="utf-8"),
                                  BOOK.replace('mask = "causal"', 'temperature = 2\nkey_lengths = '
                                               '[1, 3, 2]'),
                                  BOOK.replace('mask = "causal"', 'mask = "causal"\n'
                                               'mask_bias = "-1e9"')],
                         ids=["causal", "prince-12-1", "temperature-padding", "mask_bias"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_columns_derivation_never_says_row(text, lang, tmp_path, capsys):
    """Every detail, both targets: the book's derivation goes column by column."""
    for detail in ("summary", "textbook", "full"):
        for to in ("latex", "markdown"):
            _solve(text, tmp_path, "--format", to, "--lang", lang, "--detail", detail, "--figure")
            out = capsys.readouterr().out
            out = out.split("\n", 1)[1] if to == "markdown" else out  # past its note on renderers
            assert not ROW_WORDS.search(out), (detail, to, ROW_WORDS.search(out))


def test_a_multi_head_columns_derivation_is_written_from_the_left(tmp_path, capsys):
    """MHA(X) = W_O Concat(heads) + b_O 1ᵀ, W_O shown as the book's Ω_c, every head by columns."""
    heads = """[input]
layout = "columns"
X = [[1, 0, 1], [0, 1, 1]]
W_O = [[1, 0, 1], [0, 1, 1]]
b_O = [0, 1]
[[heads]]
W_Q = [[1, 0]]
W_K = [["ln(2)", 0]]
W_V = [[1, 0]]
b_Q = [1]
[[heads]]
W_Q = [[0, 1]]
W_K = [[0, "ln(3)"]]
W_V = [[0, 1], [1, 0]]
b_V = [0, 1]
"""
    for lang in ("en", "zh"):
        _solve(heads, tmp_path, "--format", "latex", "--lang", lang, "--detail", "full")
        out = capsys.readouterr().out
        assert r"W_O\,C + b_O\mathbf 1^{\mathsf T}" in out
        assert r"W_O &= \left[\begin{array}{ccc} 1 & 0 & 1 \\ 0 & 1 & 1 \end{array}\right]" in out
        assert not ROW_WORDS.search(out)


def test_the_split_is_said_as_torch_splits_it(tmp_path, capsys):
    _solve(SPLIT, tmp_path, "--format", "markdown")
    out = capsys.readouterr().out
    assert "As PyTorch's nn.MultiheadAttention splits them, the whole projections are split " \
        "into $h = 2$ heads" in out
    assert r"C\,W_O + \mathbf 1 b_O^{\mathsf T}" in out and r"b_Q^{\mathsf T} =" in out


@pytest.mark.parametrize("text, lang", [(BOOK, "en"), (BOOK, "zh"), (ROWS, "en"), (SPLIT, "zh")],
                         ids=["columns-en", "columns-zh", "rows-en", "num_heads-zh"])
def test_a_derivation_with_biases_compiles_without_overfull_boxes(text, lang, tmp_path, capsys):
    """The book's layout with biases (and rows, and heads split with b_O), in full with the
    heatmap: TeX accepts it, no box is too wide, and KaTeX renders its Markdown."""
    _solve(text, tmp_path, "--format", "latex", "--lang", lang, "--detail", "full", "--figure",
           "--standalone")
    pdf = compile_tex(capsys.readouterr().out, lang, name="book")
    log = pdf.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
    assert "Overfull" not in log
    _solve(text, tmp_path, "--format", "markdown", "--lang", lang, "--detail", "full")
    assert katex_errors(math_blocks(capsys.readouterr().out)) == []


def test_prince_12_2_two_heads_in_columns_give_the_notebooks_true_values():
    """The book's multi-head example (Ω_c from the left, biases β in every head) in its own
    layout: the notebook's printed true values of X' (3 decimals, NumPy) are correct."""
    printed = """[[-21.207  -5.373 -20.933  -9.179 -11.319 -17.812]
 [ -1.995   7.906 -10.516   3.452   9.863  -7.24 ]
 [  5.479   1.115   9.244   0.453   5.656   7.089]
 [ -7.413  -7.416   0.363  -5.573  -6.736  -0.848]
 [-11.261  -9.937  -4.848  -8.915 -13.378  -5.761]
 [  3.548  10.036  -2.244   1.604  12.113  -2.557]
 [  4.888  -5.814   2.407   3.228  -4.232   3.71 ]
 [  1.248  18.894  -6.409   3.224  19.717  -5.629]]"""
    problem = symattn.load_problem(UDL_12_2)
    verdicts = verify(problem, (parse_claim("O", printed), parse_claim("shape(O)", "8x6"))).verdicts
    assert [v.status for v in verdicts] == ["correct", "correct"]


@pytest.mark.parametrize("verb", ["page", "sweep", "gradient", "nonunique", "limits"])
def test_verbs_that_work_in_rows_refuse_a_columns_problem_in_one_sentence(verb):
    reason = refusal(symattn.parse_problem(BOOK), verb)
    assert reason.startswith(f"'{verb}' does not take a problem laid out in columns")
    assert refusal(symattn.parse_problem(BOOK), "problemset") is None


def test_the_page_and_gradients_refuse_biases_and_the_rest_take_them():
    for text in (ROWS, SPLIT):
        problem = symattn.parse_problem(text)
        assert "projection biases" in refusal(problem, "page")
        assert all(refusal(problem, verb) is None for verb in ("solve", "check", "verify", "grade",
                                                                "mistakes", "problemset"))
    assert "projection biases" in refusal(symattn.parse_problem(ROWS), "gradient")
    assert refusal(symattn.parse_problem(ROWS), "nonunique") is None


def test_the_python_api_takes_biases_and_the_columns_layout():
    """attention(b_Q=..., layout="columns") and multi_head(b_O=...) are the file's keys."""
    trace = symattn.attention(X=[[1, 0, 1], [0, 1, 1]], W_Q=[[1, 0], [0, "ln(2)"]],
                              W_K=[["ln(3)", 0], [0, 1]], W_V=[[1, 2], [0, 1]], b_Q=[0, 1],
                              b_K=[1, 0], b_V=["1/2", -1], layout="columns", mask="causal")
    assert trace.O == symattn.attend(symattn.parse_problem(BOOK)).O
    assert "layout: columns" in symattn.render(trace, "text")
    heads = symattn.multi_head([[1, 0], [0, 1]], [{"W_Q": [[1], [0]], "W_K": [[1], [1]],
                                                   "W_V": [[1], [0]], "b_V": [1]}], [[2]],
                               b_O=["1/2"])
    assert heads.output == sp.Matrix([[R(7, 2)], [R(7, 2)]])  # V = (2, 1), equal scores: 3/2·2 + 1/2
