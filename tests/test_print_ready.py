"""Derivations an editor can send to print, each defect tested on the case that showed it: wide
d_k set by blocks of columns with the dot products they feed, every input of a multi-head result
shown (W_O, b_O), a bias B as its own matrix beside Q, K, V (and in a problem-set question), a
bias of −1e9 written −10^9 with its leak the tiny weight it is, heatmap labels as wide as their
cells in the text's decimal format, and no empty phrase in any output."""

from __future__ import annotations

import contextlib
import io
import re

import pytest
import sympy as sp
from conftest import ROOT
from test_mask_bias import CAUSAL as MASK_BIAS  # the -1e9 lesson, written once

import symattn
from symattn.cli import main
from symattn.derivation import Options, derive
from symattn.documents.blocks import Heatmap
from symattn.documents.derivation import POINTS_PER_CM, heatmap
from symattn.exercises.generator import Settings, generate
from symattn.exercises.generator import write_problems as write
from symattn.printing.measure import width

WIDE = ROOT / "tests" / "wide"
TWO_HEADS = ROOT / "worked_examples" / "12_two_heads" / "problem.toml"
EMPTY = (", ,", "with , gives", "with ,", "记，得", "，，", "，。")

BIAS = """title = "A padding bias of -1e9"
title_zh = "加 -1e9 的偏置"
tokens = ["a", "b", "c"]
[input]
Q = [[1], [2], [1]]
K = [[0], ["ln(3)"], ["ln(2)"]]
V = [[2, 0], [0, 4], [6, 2]]
[attention]
bias = [[0, 0, -1e9], [0, 0, -1e9], [0, 0.5, -1e9]]
"""



def _solve(path, *extra: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["solve", str(path), *extra]) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def bias_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("bias") / "bias.toml"
    path.write_text(BIAS, encoding="utf-8")
    return path


# H1: d_k = 64

def test_a_projected_q_of_64_columns_is_set_in_blocks_of_columns():
    text = _solve(WIDE / "dk64.toml", "--format", "latex")
    assert not re.search(r"^[QK] &= \\left\[\\begin\{array\}", text, re.M)  # never whole
    blocks = re.findall(r"^Q_\{\\cdot,(\d+)\\ldots (\d+)\} &= ", text, re.M)
    assert blocks[0][0] == "1" and blocks[-1][1] == "64"
    assert all(int(b[0]) == int(a[1]) + 1 for a, b in zip(blocks, blocks[1:]))  # no column lost
    assert re.search(r"^K_\{\\cdot,1\\ldots \d+\} &= ", text, re.M)
    widest = max(len(line) for line in text.splitlines() if "array" in line)
    assert widest < 400  # the old single line held all 64 columns: about 650 characters


def test_the_dot_products_of_64_terms_are_broken_at_their_plus_signs():
    """Row 1 step by step: R_{1,1} = q₁·k₁ = (all 64 products) = −5, over several lines."""
    problem = symattn.load_problem(WIDE / "dk64.toml")
    trace = symattn.attend(problem)
    text = _solve(WIDE / "dk64.toml", "--format", "latex", "--detail", "full")
    start = text.index(r"R_{1,1} &= \mathbf q_{1} \cdot \mathbf k_{1} = ")
    block = text[start:text.index("R_{1,2}", start)]
    lines = block.strip().rstrip("\\").splitlines()
    assert len(lines) > 4 and all(line.startswith("&+ ") for line in lines[1:-1])
    assert block.count(r"\cdot") == 64 + 1  # the 64 products, and q₁ · k₁
    assert trace.R[0, 0] == -5 and lines[-1].rstrip(" \\").endswith("= -5")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_generator_of_d_k_64_is_written_as_powers_and_related_to_e(lang):
    """Row 1's exponentials are powers of t = e^{1/8}: t^{-5}, not a stacked 1/t^5 before the
    /Z_1 its weights are written over; row 2's weights p, q are in e, which the text relates to
    t (t^8 = e: it never said so); O's row 2 is slashed as its row 1 is."""
    trace = symattn.attend(symattn.load_problem(WIDE / "dk64.toml"))
    t = sp.exp(sp.Rational(1, 8))
    a = trace.A.row(0)  # t^{-5} : t^{-6} : t^{-4}
    assert [sp.simplify(a[0] / a[1] - t), sp.simplify(a[2] / a[1] - t**2)] == [0, 0]
    assert sp.simplify(trace.A[1, 0] - 1 / (1 + 2 * sp.E)) == 0  # p: t^{-2}/(2t^6 + t^{-2})
    text = _solve(WIDE / "dk64.toml", "--format", "latex", "--lang", lang)
    assert r"\bigl(t^{-5}, t^{-6}, t^{-4}\bigr)" in text and r"t^{-5}/Z_{1}" in text
    assert r"rac{1}{t^" not in text
    fact = r" (\(t^{8} = e\)), with" if lang == "en" else r"（\(t^{8} = e\)），记"  # not "记 t^8 = e"
    assert fact in text.split(r"\(p = 1/(1 + 2 e)")[0].rsplit("Z_{1}", 1)[1]
    assert r"- e/(1 + 2 e) & (-1 + 5 e)/(1 + 2 e)" in text


# H2: every input of a multi-head result

@pytest.mark.parametrize("to", ["latex", "markdown"])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("detail", ["summary", "textbook", "full"])
def test_example_12_shows_w_o_before_the_result(to, lang, detail):
    text = _solve(TWO_HEADS, "--format", to, "--lang", lang, "--detail", detail)
    w_o = r"W_O = \left[\begin{array}{cc} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{array}\right]"
    assert w_o in text and text.index(w_o) < text.index(r"\operatorname{MHA}(X) = C\,W_O")


def test_an_output_bias_is_shown_beside_w_o(tmp_path):
    path = tmp_path / "heads.toml"
    source = TWO_HEADS.read_text(encoding="utf-8").split("[answers]")[0]
    path.write_text(source.replace("W_O = [[1, 0], [0, 1], [1, 1]]",
                                   "W_O = [[1, 0], [0, 1], [1, 1]]\nb_O = [1, -1]"), encoding="utf-8")
    text = _solve(path, "--format", "latex")
    assert re.search(r"b_O\^\{\\mathsf T\} &?= \\left\[\\begin\{array\}\{cc\} 1 & -1 \\end", text)
    assert text.index("b_O^{\\mathsf T} &=") < text.index(r"\operatorname{MHA}(X) = C")
    assert r"\operatorname{MHA}(X) = C\,W_O + \mathbf 1 b_O^{\mathsf T}" in text
    assert r"\left[\begin{array}{cc} 8/3 & 1/3 \\ 29/14 & 3/7 \\ 83/35 & 3/7 \end{array}\right]" \
        in text  # the result of example 12 plus (1, -1) in every row


# H7 / M11 and H3: a bias B, and a bias of −1e9

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bias_is_its_own_matrix_and_minus_1e9_is_ten_to_the_nine(bias_file, lang):
    text = _solve(bias_file, "--format", "latex", "--lang", lang, "--detail", "full")
    inputs = text.split(r"\sqrt{d_k}", 1)[0]
    assert r"B = \left[\begin{array}{ccc} 0 & 0 & - 10^{9} \\ 0 & 0 & - 10^{9} \\ " \
        r"0 & 0.5 & - 10^{9} \end{array}\right]." in inputs
    assert "M = " not in text and "M_{" not in text  # no mask: M would hold only zeros
    assert r"L &= (S + B)/\tau" in text and r"L_{1,3} &= S_{1,3} + B_{1,3} = \ln 2 + (- 10^{9})" \
        in text
    assert "1000000000" not in text  # no 10^9 written out, no e^{1000000000.5}
    assert r"\epsilon = e^{- 10^{9}} \approx 1.2 \times 10^{-434294482}" in text
    # the leak: a tiny weight, named, over its row's sum named once
    assert r"Z_{1} = 2 \epsilon + 4" in text and r"2 \epsilon/Z_{1}" in text
    assert r"6.2 \times 10^{-434294483}" in text


def test_the_leak_of_a_bias_of_minus_1e9_is_the_exact_tiny_weight(bias_file):
    trace = symattn.attend(symattn.load_problem(bias_file))
    eps = sp.exp(-1000000000)
    assert sp.simplify(trace.A[0, 2] - 2 * eps / (4 + 2 * eps)) == 0
    assert sp.simplify(trace.A[0, 0] - 1 / (4 + 2 * eps)) == 0
    assert not any(a.args[0] > 1000 for x in trace.A for a in x.atoms(sp.exp))  # no e^(10^9)


def test_a_generated_question_with_a_bias_shows_b(tmp_path):
    """A problem-set question that says "with the bias B added" writes B out."""
    write(generate(Settings(kind="temperature"), 2, seed=11), tmp_path)
    out = tmp_path / "set.tex"
    assert main(["problemset", str(tmp_path), "-o", str(out)]) == 0
    questions = out.read_text(encoding="utf-8").split("Solutions", 1)[0]
    asked = questions.count("with the bias \\(B\\) added")
    assert asked == 2 and questions.count(r"B = \left[") == asked


# H4: heatmap labels

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_heatmap_labels_are_the_texts_decimals_and_fit_their_cells(tmp_path, lang):
    path = tmp_path / "mask.toml"
    path.write_text(MASK_BIAS, encoding="utf-8")
    text = _solve(path, "--format", "latex", "--figure", "--lang", lang)
    assert r"{\(3.7 \times 10^{-434294482}\)};" in text  # as in A ≈ […], not 3.7e-434294482
    assert r"{\(0.5000\)};" in text and r"0.1667 & 0.5000 & 0.3333" in text  # one format
    cell = float(re.search(r"\\begin\{tikzpicture\}\[x=([\d.]+)cm", text).group(1))
    labels = re.findall(r"\{\\\((.*?)\\\)\};", text)
    assert cell * POINTS_PER_CM >= max(width(label, "T") for label in labels) * 0.8 * 1.12 + 8
    markdown = _solve(path, "--format", "markdown", "--figure", "--lang", lang)
    assert r"{$3.7 \times 10^{-434294482}$}" in markdown


EIGHT = """[input]
Q = [[1], [1], [1], [1], [1], [1], [1], [1]]
K = [[0], [1], [2], [3], [4], [5], [6], [7]]
V = [[1, 0], [0, 1], [1, 1], [1, 0], [0, 1], [1, 1], [1, 0], [0, 1]]
[attention]
mask = "causal"
mask_bias = "-1e9"
"""


def test_a_heatmap_too_wide_for_one_line_labels_stacks_them():
    """Eight keys with e^(-10^9)-small weights: the labels go on two lines, the grid fits."""
    trace = symattn.attend(symattn.parse_problem(EIGHT))
    d = derive(trace, symattn.check(trace), Options(figure=True))
    (block,) = heatmap(d)
    assert isinstance(block, Heatmap) and block.stacked
    assert block.cell_cm * 8 * POINTS_PER_CM * block.scale <= d.options.width - 15.0 and block.scale < 1
    text = symattn.render(trace, "latex", figure=True)
    assert re.search(r"\{\\\([\d.]+ \\times\\\)\\\\\\\(10\^\{-\d+\}\\\)\};", text)


# Empty phrases and the causal sentence (M17)

@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("source", ["mask", "bias", "causal"])
def test_no_empty_phrase(tmp_path, bias_file, source, lang):
    path = {"bias": bias_file, "causal": ROOT / "worked_examples" / "02_causal_three_positions" /
            "problem.toml", "mask": tmp_path / "mask.toml"}[source]
    if source == "mask":
        path.write_text(MASK_BIAS, encoding="utf-8")
    for to in ("latex", "markdown"):
        for detail in ("summary", "textbook", "full"):
            text = _solve(path, "--format", to, "--lang", lang, "--detail", detail)
            assert not [e for e in EMPTY if e in text], (to, detail)
            assert "it hides a score even though" not in text
            assert "掩码也照样屏蔽它" not in text


def test_a_line_is_measured_with_its_arrays_columns():
    """fits() dropped every & of a line, an array's too, so a matrix measured as one narrow cell:
    the eight-key system of nonunique was set on one line 1.9 pt too wide in Chinese."""
    from symattn.printing.entries import fits, unaligned
    from symattn.printing.fit import Fit
    line = r"A &= \left[\begin{array}{cc} 1 & 2 \\ 3 & 4 \end{array}\right]"
    assert unaligned(line) == r"A = \left[\begin{array}{cc} 1 & 2 \\ 3 & 4 \end{array}\right]"
    wide = r"\left[\begin{array}{cccccccc} " + " & ".join("12345678") + r" \end{array}\right]"
    from symattn.printing.measure import width
    assert fits([wide], Fit(width(wide) * 1.2)) and not fits([wide], Fit(width(wide)))


@pytest.mark.parametrize("command, example", [("gradient", "10_gradient"), ("sweep", "09_parameter_sweep"),
                                              ("limits", "05_five_tokens_temperature")])
def test_a_check_says_its_difference_as_a_power_of_ten(capsys, command, example):
    """mpmath's 3.3e-41 in running text, where solve's checks write 1.6 × 10^{-61}."""
    from conftest import EXAMPLES
    from symattn import cli
    assert cli.main([command, str(EXAMPLES / example / "problem.toml"), "--format", "latex"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"\\\(\d\.\d \\times 10\^\{-\d+\}\\\)", text)
    assert not re.search(r"\d\.\de-\d", text)


def test_every_bundled_problem_with_a_title_has_its_chinese_title():
    """A Chinese document carried "Two heads on NumPy float64 values (six tokens)" as its title:
    the file had no title_zh (an editor's High). Every problem file the tests and examples ship
    that names itself names itself in Chinese too."""
    files = sorted((ROOT / "tests" / "wide").glob("*.toml")) + \
        sorted((ROOT / "worked_examples").glob("*/problem.toml"))
    untitled = [f.name for f in files
                if "\ntitle = " in "\n" + f.read_text(encoding="utf-8")
                and "\ntitle_zh = " not in "\n" + f.read_text(encoding="utf-8")]
    assert len(files) > 20 and untitled == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_analyses_define_every_name_they_use(lang, capsys):
    """An editor's reading: the sweep's H = ln Z − Σ a_j L_j never said what Z, L_j and v_j
    are, nonunique wrote v_j, o_i and "give o" undefined; the sweep's θ column set π/16 and
    3π/16 as stacked fractions that touched (now slashed, as its tick labels need not be)."""
    examples = ROOT / "worked_examples"
    assert main(["sweep", str(examples / "09_parameter_sweep" / "problem.toml"), "--format",
                 "latex", "--lang", lang]) == 0
    sweep = capsys.readouterr().out
    assert r"\(Z = \sum_j e^{L_j}\)" in sweep and r"\(o = \sum_j a_j v_j\)" in sweep
    table = sweep.split(r"\begin{array}{c|cc|cccc}", 1)[1].split(r"\end{array}", 1)[0]
    assert r"\pi/16 &" in table and r"3 \pi/16 &" in table and r"\frac" not in table
    assert main(["nonunique", str(examples / "08_same_output_different_weights" / "problem.toml"),
                 "--format", "latex", "--lang", lang]) == 0
    nonunique = capsys.readouterr().out
    defined = {"en": (r"Here \(v_j\) is row \(j\) of \(V\)", r"\(o_i\) the output of row \(i\)"),
               "zh": (r"其中 \(v_j\) 为 \(V\) 的第 \(j\) 行", r"\(o_i\) 为第 \(i\) 行的输出")}[lang]
    assert all(words in nonunique for words in defined)
    assert nonunique.index(defined[0]) < nonunique.index(r"\sum_j w_j v_j = o_i")
    assert "give $o$" not in nonunique and r"give \(o\)" not in nonunique and "/Z >" not in nonunique


def test_a_continued_line_is_set_after_a_relation_so_its_minus_is_a_sign():
    """W_O's continued rows began "− 0.3108…": after \\phantom{=} (an ordinary box) TeX sets a
    minus as subtraction; after \\mathrel{\\phantom{=}} it is the entry's sign, and the line is
    aligned with the relation's own space."""
    text = _solve(WIDE / "float64_two_heads.toml", "--format", "latex", "--detail", "full")
    continued = [line for line in text.splitlines() if r"\phantom{" in line]
    assert continued and all(line.startswith(r"&\mathrel{\phantom{") for line in continued)
    assert any(r"\quad -" in line for line in continued)  # the case that showed it


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("command, example", [("gradient", "10_gradient"),
                                              ("mistakes", "05_five_tokens_temperature")])
def test_an_analysis_says_its_title_is_the_problems(command, example, lang, capsys):
    """The problem's title stood under the analysis heading as a bare line, unpunctuated, read
    as a stray heading (an editor's reading): "The problem: …." (题目：…。) before the setup."""
    path = ROOT / "worked_examples" / example / "problem.toml"
    assert main([command, str(path), "--format", "latex", "--lang", lang]) == 0
    text = capsys.readouterr().out
    problem = symattn.load_problem(path)
    name = problem.title_zh if lang == "zh" else problem.title
    line = f"题目：{name}。" if lang == "zh" else f"The problem: {name}."
    assert f"\n{line}\n" in text and text.index(line) < text.index("取 " if lang == "zh" else "Take ")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_gradient_says_what_its_lowercase_a_is(lang, capsys):
    """J_i = diag(a_i) − a_i a_iᵀ and a_{3,r} were written with an a the document never defined
    (it calls the weights A everywhere else)."""
    path = ROOT / "worked_examples" / "10_gradient" / "problem.toml"
    assert main(["gradient", str(path), "--format", "latex", "--lang", lang]) == 0
    text = capsys.readouterr().out
    said = {"en": r"Write \(a_i\) for row \(i\) of \(A\)", "zh": r"记 \(a_i\) 为 \(A\) 的第 \(i\) 行"}[lang]
    assert said in text and text.index(said) < text.index(r"\operatorname{diag}(a_i)")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_matrix_set_in_blocks_says_what_its_block_names_mean(lang):
    """X_{·,1…2} and W_{Q,·,11…20} were never explained (an editor's reading): the first
    display that sets a matrix in blocks of columns is followed by one sentence saying so."""
    text = _solve(WIDE / "dk64.toml", "--format", "latex", "--lang", lang)
    said = {"en": r"Here \({W_Q}_{\cdot,1\ldots 10}\) stands for columns 1 to 10 of \(W_Q\)",
            "zh": r"这里 \({W_Q}_{\cdot,1\ldots 10}\) 表示 \(W_Q\) 的第 1 到 10 列"}[lang]
    assert text.count(said) == 1
    first = text.index(r"{W_Q}_{\cdot,1\ldots 10} = ")
    assert first < text.index(said) < text.index(r"Q_{\cdot,1\ldots")
    plain = _solve(ROOT / "worked_examples" / "05_five_tokens_temperature" / "problem.toml",
                   "--format", "latex", "--lang", lang)
    assert "stands for columns" not in plain and "列：一行放不下" not in plain


def test_the_rows_of_mha_are_named_as_mha_not_as_one_heads_output():
    """Written row by row, MHA(X) = C W_O labelled its rows O_{1,·}, the name of one head's
    output in the sections above (an editor's reading)."""
    text = _solve(WIDE / "float64_two_heads.toml", "--format", "latex", "--detail", "full")
    tail = text.split(r"\operatorname{MHA}(X) &= C\,W_O", 1)[1]
    rows = re.findall(r"^(\S+)_\{(\d),\\cdot\} &\\approx", tail, re.M)
    assert [r for r, _ in rows] == [r"\operatorname{MHA}(X)"] * 6 and [i for _, i in rows] == list("123456")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_heads_that_differ_each_say_their_own_d_v_scale_and_mask(lang, tmp_path):
    """Example 12 opened "d_v = 1 … with the causal mask" for the whole problem, and its
    problem-set question said nothing else, while head 2 has d_v = 2, no scaling and no mask: a
    student following the question got MHA row 1 = (2, 1), not (5/3, 4/3) (an editor's High)."""
    text = _solve(TWO_HEADS, "--format", "latex", "--lang", lang)
    opening = text.split(r"\subsection*", 1)[0]
    assert "d_v" not in opening and ("mask" not in opening if lang == "en" else "掩码" not in opening)
    said = {"en": [r"This head has \(d_k = 1\), \(d_v = 1\) and the temperature \(\tau = 1\), with "
                   r"the causal mask.", r"This head has \(d_k = 1\), \(d_v = 2\) and the "
                   r"temperature \(\tau = 1\), without a mask."],
            "zh": [r"该头取 \(d_k = 1\)、\(d_v = 1\)、温度 \(\tau = 1\)，使用因果掩码。",
                   r"该头取 \(d_k = 1\)、\(d_v = 2\)、温度 \(\tau = 1\)，不使用掩码。"]}[lang]
    heads = text.split(r"\subsection*")[1:3]
    assert [said[0] in heads[0], said[1] in heads[1]] == [True, True]
    (tmp_path / "12.toml").write_bytes(TWO_HEADS.read_bytes())
    assert main(["problemset", str(tmp_path), "--lang", lang, "-o", str(tmp_path / "s.tex")]) == 0
    question = (tmp_path / "s.tex").read_text(encoding="utf-8").split(
        "Solutions" if lang == "en" else "解答")[0]
    second = {"en": r"Head 2 has \(d_k = 1\), \(d_v = 2\), no scaling (\(s = 1\)) and the "
                    r"temperature \(\tau = 1\), without a mask.",
              "zh": r"第 2 个头取 \(d_k = 1\)、\(d_v = 2\)、不缩放（\(s = 1\)）、温度 \(\tau = 1\)，不使用掩码。"}
    assert second[lang] in question
    trace = symattn.attend_heads(symattn.load_problem(TWO_HEADS))  # the key the question leads to
    assert list(trace.output.row(0)) == [sp.Rational(5, 3), sp.Rational(4, 3)]
