"""Textbook derivations: one test per finding of a textbook editor's reading (slash fractions,
names, no x = x, honest decimals, given forms, paragraphs, Chinese punctuation, checks as
sentences, layout options), each asserting what today's output must and must not hold."""

from __future__ import annotations

import contextlib
import io
import re

import pytest
import sympy as sp
from conftest import EXAMPLES, ROOT

import symattn
from symattn import cli
from symattn.api import render
from symattn.checks.invariants import check
from symattn.derivation import Options, derive
from symattn.derivation.approx import Approx, approximate
from symattn.exact.attention import attend
from symattn.exact.heads import attend_any, attend_heads
from symattn.parse.spec import load_problem, parse_problem
from symattn.documents.blocks import Display, Step
from symattn.documents.derivation import build

WIDE = sorted((ROOT / "tests" / "wide").glob("*.toml"))


def trace_of(name: str):
    return attend(load_problem(EXAMPLES / name / "problem.toml"))


def latex(name: str, **options) -> str:
    return render(trace_of(name), "latex", **options)


def displays(text: str) -> list[str]:
    """The body of every display of a LaTeX derivation: \\[ … \\], align* and gather*."""
    found = re.findall(r"\\\[(.*?)\\\]|\\begin\{(?:align|gather)\*\}(.*?)\\end\{(?:align|gather)\*\}",
                       text, re.S)
    return [one or many for one, many in found]


def chains(text: str) -> list[list[str]]:
    """Every display line split at its top-level = (matrices and fractions kept whole)."""
    out = []
    for body in displays(text):
        for line in re.split(r"\\\\\*?\n", body):
            depth, parts, current = 0, [], ""
            for char in line.replace("&", " ") if "array" not in line else line:
                depth += (char == "{") - (char == "}")
                if char == "=" and depth == 0:
                    parts.append(current.strip())
                    current = ""
                else:
                    current += char
            parts.append(current.strip())
            out.append(parts)
    return out


# ------------------------------------------------------------- 1. fractions in matrices

def test_rational_weights_are_slash_fractions_in_matrices_and_text():
    text = latex("02_causal_three_positions")
    assert r"1/10 & 9/10 & 0 \\ 1/6 & 1/2 & 1/3" in text
    assert r"\frac{1}{10}" not in text and r"\frac{7}{3}" not in text
    assert r"\(1/10 + 9/10 = 1\)" in text


def test_a_matrix_holding_stacked_fractions_gets_row_space():
    text = latex("14_symbolic_temperature")
    matrices = re.findall(r"\\begin\{array\}\{c+\}(.*?)\\end\{array\}", text)
    stacked = [m for m in matrices if r"\frac" in m and r"\\" in m]
    assert stacked and all(r"\\[1ex]" in m for m in stacked)


# ------------------------------------------------------------- 3. names

def test_names_never_reuse_a_letter_in_use():
    """ex14's temperature is t: the generators must not be called t; q, k, v vectors are bold."""
    d = derive(trace_of("14_symbolic_temperature"), check(trace_of("14_symbolic_temperature")))
    assert "t" not in {n.symbol.name for n in d.names}
    text = latex("05_five_tokens_temperature", detail="full")
    assert r"\mathbf q_{3} \cdot \mathbf k_{1}" in text and "q_{3} \\cdot" not in \
        text.replace(r"\mathbf q_{3} \cdot", "")


def test_two_heads_never_define_one_name_twice():
    trace = attend_heads(load_problem(EXAMPLES / "12_two_heads" / "problem.toml"))
    text = render(trace, "latex")
    defined = re.findall(r"\\\(([a-z])(?:_\{\d\})? = ", text)
    assert len(defined) == len(set(defined))
    assert r"e^{\ln 2}" not in text  # a = ln 2 would hide e^{ln 2} = 2


def test_powers_of_integers_are_written_as_powers():
    text = latex("14_symbolic_temperature")
    assert r"2^{1/t}" in text and r"3^{1/t}" in text
    assert r"e^{\ln 2/t}" not in text and r"\ln 2/t" not in text.split("Checks")[0]


def test_every_irrational_weight_of_a_named_row_is_named():
    d = derive(trace_of("13_five_tokens_no_mask"), check(trace_of("13_five_tokens_no_mask")))
    named = {n.symbol for n in d.names if n.kind == "weight"}
    for i in range(d.trace.A.rows):
        row = d.display["A"].row(i)
        if any(x in named for x in row):
            assert all(x.is_Rational or x in named for x in row), row


# ------------------------------------------------------------- 4, 5. steps and decimals

@pytest.mark.parametrize("name", ["01_two_positions", "02_causal_three_positions",
                                  "04_causal_four_positions", "05_five_tokens_temperature",
                                  "14_symbolic_temperature"])
@pytest.mark.parametrize("detail", ["textbook", "full"])
def test_no_step_repeats_itself(name, detail):
    for parts in chains(latex(name, detail=detail)):
        for left, right in zip(parts, parts[1:]):
            assert left != right or not left, parts
        assert parts[-2:] != ["1", "1"], parts


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("detail", ["textbook", "full"])
def test_a_temperature_that_is_the_symbol_tau_is_never_said_to_equal_itself(lang, detail):
    text = latex("09_parameter_sweep", lang=lang, detail=detail)
    assert r"\tau" in text and not re.search(r"\\tau\s*=\s*\\tau\b", text)


def test_every_step_of_a_row_states_formula_then_substitution_then_result():
    text = latex("05_five_tokens_temperature", detail="full")
    assert re.search(r"L_\{3,1\} &= \(S_\{3,1\} \+ M_\{3,1\}\)/\\tau = "
                     r"\([^=]+ \+ 0\)/0\.85 = ", text)
    # the masked entries on one line, going to −∞, one fraction deep (3/√3, not a stacked S),
    # every line one line high (no stacked fraction), the keys it stands for after it
    assert r"L_{3,j} &= (S_{3,j} + (-\infty))/0.85 = -\infty \quad (j = 4, 5)" in text
    assert r"(3/\sqrt{3} + 0)/0.85 = 20 \sqrt{3}/17 \approx 2.038" in text
    assert r"A_{3,j} &= 0 \quad \text{(masked)} \quad (j = 4, 5)" in text
    walk = text.split("step by step", 1)[1].split(r"\begin{tikzpicture}", 1)[0]
    assert r"\frac" not in walk
    assert r"Divided by \(\sqrt{d_k} = \sqrt{3}\), masked and divided by \(\tau = 0.85\):" in text
    assert "S_{3,1} &=" not in text  # S_{3,1} = R_{3,1}/√3 is in L's line, not a step of its own


def test_the_masking_step_is_shown_where_it_matters():
    text = latex("04_causal_four_positions")
    assert r"10 + (-\infty) = -\infty" in text


def test_a_tiny_weight_is_written_in_scientific_form_not_as_zero():
    d = derive(trace_of("04_causal_four_positions"), check(trace_of("04_causal_four_positions")))
    tiny = [a for row in d.decimals["A"] for a in row if a is not None and a.exponent < 0]
    assert tiny and all(a.digits != "0.0000" for row in d.decimals["A"] for a in row if a)
    assert r"\times 10^{-5}" in latex("04_causal_four_positions")
    assert "0.0000" not in latex("04_causal_four_positions")


@pytest.mark.parametrize("value, places, shown", [
    (sp.Rational(1, 10), 4, Approx("0.1", True)),
    (sp.Integer(1), 4, Approx("1", True)),
    (sp.Rational(1, 6), 4, Approx("0.1667", False)),
    (1 / (6 + sp.exp(10)), 4, Approx("4.5", False, -5)),
    (sp.Rational(-1, 32), 4, Approx("-0.0313", False)),
    (sp.exp(10000), 4, Approx("8.8068", False, 4342)),
    (1 / (1 + sp.exp(10000)), 4, Approx("1.1", False, -4343)),
    (sp.Rational(-996, 10 ** 9), 4, Approx("-1.0", False, -6)),
], ids=["terminates", "one", "sixth", "tiny", "negative", "huge", "huge-tiny", "rounds-up"])
def test_decimals_do_not_lie(value, places, shown):
    assert approximate(value, None, places) == shown


# ------------------------------------------------------------- 6. given forms

def test_the_lessons_forms_are_kept():
    text = latex("01_two_positions")
    assert r"a = 1/\sqrt{2} \approx 0.7071" in text  # the lesson's 1/√2, slashed in a sentence
    assert r"q = 1 - p = " in text
    assert r"2 p & 4 q \\ 2 q & 4 p" in text
    five = latex("05_five_tokens_temperature")
    assert r"\tau = 0.85" in five and "17/20" not in five and r"\frac{17}{20}" not in five


def test_scaled_scores_keep_the_root_in_the_denominator():
    text = latex("05_five_tokens_temperature")
    assert r"(3/\sqrt{3} + 0)/0.85" in text and r"\frac{\sqrt{3}}{3}" not in text


def test_scaled_scores_that_are_only_r_over_the_root_are_written_s_equals_r_over_root():
    """S's matrix of 1.4/√3, 0.7/√3, … says nothing R/√3 does not: S = R/√3 ≈ [decimals]."""
    text = latex("05_five_tokens_temperature")
    assert r"S &= \frac{R}{\sqrt{3}} \approx \left[\begin{array}{ccccc} 0.577 & 0.808 & 0.404" in text
    assert r"\frac{1.4}{\sqrt{3}}" not in text.split("Row 3", 1)[0]
    assert r"S = L &= \frac{R}{\sqrt{2}} = \left[" in latex("01_two_positions")  # named a = 1/√2


# ------------------------------------------------------------- 8. paragraphs

@pytest.mark.parametrize("name", ["02_causal_three_positions", "05_five_tokens_temperature"])
def test_a_display_never_starts_a_paragraph(name):
    text = latex(name, detail="full")
    assert not re.search(r"\n\n\\\[", text)
    blocks = build(derive(trace_of(name), check(trace_of(name)), Options(detail="full")))
    assert not [b for b in blocks if isinstance(b, Display)]  # every display sits in a Step
    assert all(not isinstance(b.parts[0], Display) for b in blocks if isinstance(b, Step))


# ------------------------------------------------------------- 9, 10. inputs and Chinese

def test_inputs_are_bracket_matrices_shown_once_and_tokens_are_quoted():
    text = latex("02_causal_three_positions")
    assert r"Q = \left[\begin{array}{c} 1 \\ 2 \\ 1 \end{array}\right]" in text
    assert len(re.findall(r"(?<!A)V = \\left\[", text)) == 1 and r"\hline" not in text
    assert "“A”, “B”, “C”" in text
    heads = render(attend_heads(load_problem(EXAMPLES / "12_two_heads" / "problem.toml")), "latex")
    assert heads.count("X = ") == 1


ASCII_PUNCTUATION = re.compile(r"[:;,()]")


@pytest.mark.parametrize("name", ["02_causal_three_positions", "05_five_tokens_temperature",
                                  "06_cross_attention_padding", "14_symbolic_temperature"])
def test_chinese_text_uses_full_width_punctuation_and_its_title(name):
    trace = trace_of(name)
    d = derive(trace, check(trace), Options(lang="zh", detail="full"))
    blocks = build(d)
    texts = []
    for b in blocks:
        for part in (b.parts if isinstance(b, Step) else [getattr(b, "segments", ())]):
            if not isinstance(part, Display):
                texts += [content for kind, content in part if kind == "text"]
    assert texts and not [t for t in texts if ASCII_PUNCTUATION.search(t)]
    assert blocks[0].segments == (("label", trace.problem.title_zh),)


def test_chinese_counts_and_lists():
    zh = render(attend_heads(load_problem(EXAMPLES / "12_two_heads" / "problem.toml")), "latex",
                lang="zh")
    assert "两个头读取同一输入" in zh and "2 个头读取" not in zh
    assert "“A”、“B”、“C”" in latex("02_causal_three_positions", lang="zh")


def test_a_title_table_gives_both_languages():
    problem = parse_problem('[title]\nen = "Causal"\nzh = "因果"\n[input]\nQ = [[1]]\nK = [[1]]\n'
                            'V = [[1]]\n')
    assert (problem.title, problem.title_zh) == ("Causal", "因果")
    assert r"\section*{因果}" in render(attend(problem), "latex", lang="zh")


# ------------------------------------------------------------- 11. checks

def test_checks_are_sentences_with_their_values():
    text = latex("02_causal_three_positions", checks="full")
    checks = text.split("Checks}")[1]
    assert "All 7 checks pass." in checks and ": holds" not in checks
    assert "All 3 masked weights are exactly 0." in checks
    assert re.search(r"largest difference is \\\(\d\.\d \\times 10\^\{-\d+\}\\\)", checks)


def test_a_symbolic_temperature_check_says_where_it_was_compared():
    text = latex("14_symbolic_temperature", checks="full")
    assert re.search(r"gives the same values at the sample point \\\(t = \d+/\d+\\\)", text)
    assert "（取" not in latex("14_symbolic_temperature", lang="zh", checks="full")  # no parentheses in parentheses


# ------------------------------------------------------------- 12, 14. the lesson's examples

def test_example_2_reads_as_the_lesson_writes_it():
    text = latex("02_causal_three_positions")
    assert r"\bigl(1, 0, 0\bigr),\qquad \bigl(1, 9, 0\bigr),\qquad \bigl(1, 3, 2\bigr)" in text
    assert r"with sums \(1\), \(10\) and \(6\)" in text
    assert r"Because \(\sqrt{d_k} = 1\), scaling leaves the raw scores unchanged" in text
    assert r"\(A\) is \(3 \times 3\) and \(V\) is \(3 \times 2\), so \(O\) is \(3 \times 2\)" in text
    assert r"O_{3,1} = \left(1/6\right) \cdot 2 + \left(1/2\right) \cdot 0 + \left(1/3\right) " \
           r"\cdot 6 = 7/3" in text


def test_the_five_token_example_gives_the_lessons_row():
    trace = trace_of("05_five_tokens_temperature")
    weights = [sp.N(trace.A[2, j], 30) for j in range(5)]
    assert [round(float(w), 3) for w in weights] == [0.376, 0.175, 0.448, 0, 0]
    assert abs(sum(weights) - 1) < 1e-25  # the row sums to 1 (proved by the checks) ...
    assert sum(round(float(w), 3) for w in weights) == pytest.approx(0.999)  # ... shown as 0.999
    assert r"0.376, 0.175, 0.448, 0, 0" in latex("05_five_tokens_temperature")


# ------------------------------------------------------------- 7. fragments in a book

def test_headings_follow_the_options():
    text = latex("02_causal_three_positions", heading="subsection", numbered=True, checks="full",
                 label="ex:causal")
    assert text.startswith(r"\subsection[Causal attention, three positions]{\hyphenpenalty=10000 "
                           r"\exhyphenpenalty=10000 Causal attention, three positions}"
                           r"\label{ex:causal}")
    assert r"\subsubsection{Checks}\label{ex:causal:checks}" in text  # short: never two lines


def test_token_labels_that_are_a_letter_and_a_number_are_subscripted():
    """k1 is k₁ wherever a label stands alone (headings, heatmaps, legends, keys named in a
    sentence); a word label stays text and quoted listings keep the names as written."""
    text = latex("08_same_output_different_weights", detail="full")
    assert r"Row 1 (\(q_{1}\))" in text and "Row 1 (q1)" not in text
    assert "(k1)" not in text
    sweep = (ROOT / "worked_examples" / "09_parameter_sweep" / "sweep.en.tex").read_text("utf-8")
    assert r"\addlegendentry{$a_{1}\ (k_{1}),\ \tau = 1/2$}" in sweep
    five = latex("05_five_tokens_temperature", figure=True)
    assert r"\node[anchor=east,font=\footnotesize] at (0,0.5) {模型};" in five
    default = latex("02_causal_three_positions")
    assert default.startswith(r"\section*{") and r"\label" not in default


@pytest.mark.parametrize("name, lang, lines", [
    ("02_causal_three_positions", "en", [r"\usepackage{amsmath,amssymb}"]),
    ("05_five_tokens_temperature", "en", [r"\usepackage{amsmath,amssymb}", r"\usepackage{tikz}",
                                          r"\usepackage{CJKutf8}"]),
    ("05_five_tokens_temperature", "zh", ["% XeLaTeX with ctex: \\documentclass{ctexbook} (or "
                                          "ctexart), or \\usepackage{ctex} in another class",
                                          r"\usepackage{amsmath,amssymb}", r"\usepackage{tikz}"]),
    ("07_cross_attention_shapes", "en", [r"\usepackage{amsmath,amssymb}"]),
], ids=["plain", "cjk-labels-and-figure", "chinese", "shapes-only"])
def test_preamble_prints_exactly_the_packages_a_fragment_needs(capsys, name, lang, lines):
    path = EXAMPLES / name / "problem.toml"
    assert cli.main(["solve", str(path), "--format", "latex", "--lang", lang, "--preamble"]) == 0
    assert capsys.readouterr().out.splitlines() == lines


@pytest.mark.parametrize("argv, message", [
    (["--width", "2cm"], "width '2cm' is 57pt; it must be from 150pt to 2000pt"),
    (["--width", "wide"], "width 'wide': give article, book, a length (12cm, 400pt) or a number"),
    (["--label-prefix", "a b"], "label prefix 'a b': use letters, digits and : . _ - only"),
    (["--preamble", "--format", "markdown"], "--preamble goes with --format latex"),
], ids=["narrow", "unknown", "label", "preamble-markdown"])
def test_layout_options_are_checked(capsys, argv, message):
    path = EXAMPLES / "02_causal_three_positions" / "problem.toml"
    args = ["solve", str(path)] + (argv if "--format" in argv else ["--format", "latex"] + argv)
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_a_narrower_width_breaks_more_lines():
    wide = latex("05_five_tokens_temperature", width="17cm")
    narrow = latex("05_five_tokens_temperature", width="book")
    def lines(text: str) -> int:  # display lines ended by \\ or \\* (a matrix's rows not counted)
        return len(re.findall(r"\\\\\*?\n", text))
    assert lines(narrow) > lines(wide) + 10


# ------------------------------------------------------------- 13. shapes and wide cases

@pytest.mark.parametrize("path", WIDE, ids=[p.stem for p in WIDE])
def test_wide_cases_set_rows_that_fit(path):
    from symattn.printing.measure import width
    text = render(attend_any(load_problem(path)), "latex")
    for body in displays(text):
        for line in re.split(r"\\\\\*?\n", body.strip()):
            line = line.replace(r"\begin{aligned}", "").replace(r"\end{aligned}", "")
            line = line.replace(r"\begin{gathered}", "").replace(r"\end{gathered}", "")
            assert width(line.replace("&", "")) <= 345 * 1.0, line[:120]


CORPUS = ROOT / "tests" / "corpus"


def _solve_latex(path, *extra: str) -> str:
    """`symattn solve PATH --format latex`, as a user runs it."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["solve", str(path), "--format", "latex", *extra]) == 0
    return out.getvalue()


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*/problem.toml")) + WIDE,
                         ids=lambda p: p.parent.name if p.name == "problem.toml" else p.stem)
def test_the_worked_output_entry_is_never_a_placeholder(path):
    text = _solve_latex(path)
    assert "...." not in text and "&= ..." not in text


def test_a_worked_entry_too_long_to_multiply_out_uses_the_weights_decimals():
    """Raschka's six-token example (published O row 6: 0.4177, 0.6503, 0.5645): A's exact
    entries are long, so O_{6,1} is worked from A_{6,j} V_{j,1} with A's decimals."""
    text = _solve_latex(CORPUS / "03_raschka_simplified_self_attention" / "problem.toml")
    worked = text.split("For example,", 1)[1].split(r"\end{aligned}", 1)[0]
    names = re.findall(r"A_\{6,(\d)\} V_\{(\d),1\}", worked)
    assert names == [(str(j), str(j)) for j in range(1, 7)]
    products = re.findall(r"(\d\.\d{4}) \\cdot (\d\.\d+)", worked)
    assert len(products) == 6
    total = sum(float(a) * float(v) for a, v in products)
    result = float(re.findall(r"\\approx (\d\.\d{4})\.", worked)[-1])
    assert result == 0.4177 and abs(total - result) <= 6 * 0.5e-4


def test_decimals_after_a_row_written_entry_by_entry_name_their_row():
    text = _solve_latex(CORPUS / "03_raschka_simplified_self_attention" / "problem.toml")
    block = text.split("The output is", 1)[1].split(r"\end{align*}", 1)[0]
    lines = [line.strip() for line in block.splitlines()]
    decimal_lines = [line for line in lines if r"&\approx \bigl(" in line]
    assert decimal_lines and all(line.startswith(r"O_{") and r",\cdot} &\approx" in line
                                 for line in decimal_lines)
    assert r"O_{1,\cdot} &\approx \bigl(0.4421, 0.5931, 0.5790\bigr)" in block


@pytest.mark.parametrize("lang, singular, plural", [
    ("en", ["Exponentiating the row", "dividing the row by its sum",
            r"The row sums to 1: \((e^{2} + 1 + e^{1.8})/Z_{1} = 1\)"],
     ["each row", "Every row sums", "with sums"]),
    ("zh", ["对该行取指数得到", "指数之和记为", r"该行权重之和为 \((e^{2} + 1 + e^{1.8})/Z_{1} = 1\)"],
     ["各行", "逐行归一化", "指数化后"])])
def test_a_single_query_is_the_row_not_each_row(lang, singular, plural):
    """OSL's one-query exercise: one row of weights, spoken of as one row."""
    text = _solve_latex(CORPUS / "12_osl_what_is_attention" / "problem.toml", "--lang", lang)
    body = text.split("\\subsection*", 1)[0]  # the checks after it speak of A's rows in general
    assert all(phrase in body for phrase in singular)
    assert not any(phrase in body for phrase in plural)


def test_a_bias_stands_beside_q_k_v_and_m_holds_only_the_mask():
    """Example 06: B is an input of its own, M holds only 0 and −∞, and L = S + M + B."""
    text = _solve_latex(EXAMPLES / "06_cross_attention_padding" / "problem.toml")
    inputs = text.split("scaled scores are", 1)[0]
    assert r"B = \left[\begin{array}{cccc} \ln 2 & 0 & 0 & 0 \\ 0 & 0 & 0 & 0 \end{array}\right]." \
        in inputs
    assert r"M = \left[\begin{array}{cccc} 0 & 0 & 0 & -\infty \\ 0 & 0 & 0 & -\infty \end{array}" \
        r"\right]" in text
    assert r"the logits \(L = S + M + B\) are, row by row," in text
    assert "a masked score is removed however large it is, even one larger than every score its " \
        r"row may read: \(S_{1,4} + M_{1,4} = 5 + (-\infty) = -\infty\)" in text
    assert "it hides a score even though" not in text


def test_parentheses_in_a_markdown_title_stay_text():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["solve", str(CORPUS / "19_yangshiteng_two_heads" / "problem.toml"),
                         "--format", "markdown"]) == 0
    assert "\n# Two heads, two tokens (I, love)\n" in out.getvalue()  # \( would open math


def test_a_row_vector_holding_a_stacked_fraction_gets_parentheses_that_grow():
    """Unfold's causal example: the logits (2/√3, −∞, −∞) are stacked fractions in a display,
    which \\bigl( is too short for."""
    text = _solve_latex(CORPUS / "08_unfold_causal_mask" / "problem.toml")
    assert r"\left(\frac{2}{\sqrt{3}}, -\infty, -\infty\right)" in text
    assert not re.search(r"\\bigl\([^)]*\\frac", text)


@pytest.mark.parametrize("lang, words", [("en", "and the temperature \\(\\tau = 1\\)"),
                                         ("zh", "温度 \\(\\tau = 1\\)")])
def test_tau_is_called_the_temperature_where_it_is_given(lang, words):
    text = _solve_latex(EXAMPLES / "02_causal_three_positions" / "problem.toml", "--lang", lang)
    assert words in text.splitlines()[2]


def test_the_scale_factor_s_is_named_before_it_is_used():
    text = _solve_latex(CORPUS / "12_osl_what_is_attention" / "problem.toml")
    assert r"The problem asks for no scaling (scale factor \(s = 1\))" in text


def test_an_entry_broken_over_lines_is_never_split_between_pages():
    """Raschka's O_{1,1} = 1/Z_1(… + … \\\\ + …): TeX may break a long display between
    entries, not inside one (\\\\* before a line that goes on with the sum above)."""
    text = _solve_latex(CORPUS / "03_raschka_simplified_self_attention" / "problem.toml")
    output = text.split("The output is", 1)[1].split(r"\end{align*}", 1)[0]
    lines = output.splitlines()
    pairs = list(zip(lines, lines[1:]))
    continued = [(a, b) for a, b in pairs if b.startswith("&+")]
    assert len(continued) >= 18 and all(a.endswith(r" \\*") for a, _ in continued)
    assert all(a.endswith(r" \\") for a, b in pairs if b.startswith("O_{"))


def test_a_worked_entry_longer_than_a_line_is_displayed_not_squeezed_into_the_text():
    """OSL's exercise: O_{1,1} with its three fractions is wider than a line; in running text
    TeX squeezed it and left ≈ at a line's end (an overfull line), so it is a display."""
    text = _solve_latex(CORPUS / "12_osl_what_is_attention" / "problem.toml")
    assert "For example, \\(O_{1,1}" not in text
    worked = text.split("For example,", 1)[1].split(r"\end{align*}", 1)[0]
    assert worked.lstrip().startswith("{\\allowdisplaybreaks\n\\begin{align*}")
    assert r"\approx 28.1447." in worked


def test_an_approximate_matrix_gives_every_decimal_the_same_places():
    """0.5 among 0.1667 and 0.3333 read as less precise; PyTorch prints 0.5000 there too. Whole
    numbers (a masked 0, a 1) stay as they are."""
    text = latex("02_causal_three_positions")
    assert r"\approx \left[\begin{array}{ccc} 1 & 0 & 0 \\ 0.1000 & 0.9000 & 0 \\ " \
        r"0.1667 & 0.5000 & 0.3333 \end{array}\right]" in text
    assert r"\approx \left[\begin{array}{cc} 2 & 0 \\ 0.2000 & 3.6000 \\ 2.3333 & 2.6667" in text


def test_sums_and_numerators_keep_the_keys_order():
    """Raschka's six tokens: row 1 is exponentiated as (e^{0.9995}, e^{0.9544}, …); Z_1 and the
    numerator of O_{1,1} list their terms in that order, the latter with V's first column
    (0.43, 0.55, 0.57, 0.22, 0.77, 0.05, the published inputs), so a student can line them up."""
    text = _solve_latex(CORPUS / "03_raschka_simplified_self_attention" / "problem.toml")
    row = re.search(r"A_\{1,\\cdot\} &= Z_\{1\}\^\{-1\}\\bigl\(([^)]*)\\bigr\)", text)[1]
    exponentials = row.split(", ")
    assert rf"Z_{{1}} = {' + '.join(exponentials)} \\" in text
    numerator = text.split(r"O_{1,1} &= Z_{1}^{-1}\bigl(", 1)[1].split(r"\bigr)", 1)[0]
    pairs = re.findall(r"(\d\.\d+) (e\^\{[\d.]+\})", numerator)
    assert [c for c, _ in pairs] == ["0.43", "0.55", "0.57", "0.22", "0.77", "0.05"]
    assert [e for _, e in pairs] == exponentials


def test_a_sum_of_products_of_powers_keeps_the_keys_order():
    """ln in Q and K (the benchmark's family): row exponentials such as 5^{√2/4}·7^{√2/2} are
    products of powers, one of which (7^{√2/2}) is another key's exponential; each term is
    matched whole, so Z_i's terms come out as the row's exponentials, in the keys' order."""
    from benchmarks.jobs import problem_toml
    from symattn.derivation.keys import key_order
    trace = attend(parse_problem(problem_toml("logs", 8)))
    derivation = derive(trace, check(trace), Options(detail="textbook"))
    ordered = 0
    for i in range(trace.A.rows):
        row = [derivation.display["E"][i, j] for j in range(trace.A.cols) if trace.readable[i][j]]
        order = key_order(derivation, i, derivation.sums[i])
        if order is not None:
            assert order == row
            ordered += len(row) > 1
    assert ordered >= 4  # most rows: those whose exponentials are all different


@pytest.mark.parametrize("lang, exponentiate, output", [
    ("en", "Exponentiating the row gives", "The output is, with $t = e^{100}"),
    ("zh", "对该行取指数得到", "输出为，记 $t = e^{100}"),
])
def test_a_name_only_the_outputs_use_is_introduced_with_them(lang, exponentiate, output):
    """t = e^100 comes from V (1/8 + e^-100), not from the exponentials of the row (e): it is
    introduced where O uses it, not at the softmax step, where it named nothing shown."""
    problem = symattn.parse_problem('[input]\nQ = [[1]]\nK = [[1]]\nV = [["1/8 + exp(-100)"]]\n')
    text = symattn.render(symattn.attend(problem), "markdown", lang=lang)
    assert exponentiate in text and output in text and text.count("t = e^{100}") == 1
    assert text.index(output) < text.index(r"1/8 + \frac{1}{t}")


@pytest.mark.parametrize("lang, here", [("en", "Here "), ("zh", "其中 ")])
def test_the_summary_defines_every_name_its_matrices_use(lang, here):
    """Summary detail wrote S = [[a, 0], [0, a]] and A = [[p, q], [q, p]] and never said what
    a, p and q are (the textbook's sentences that define them are left out of a summary)."""
    text = latex("01_two_positions", detail="summary", lang=lang)
    sep = ", " if lang == "en" else "、"
    assert (here + r"\(a = 1/\sqrt{2} \approx 0.7071\)" + sep +
            r"\(p = e^{a}/(e^{a} + 1) \approx 0.6698\)") in text
    assert r"\(q = 1 - p = 1/(e^{a} + 1) \approx 0.3302\)" in text
    named = latex("13_five_tokens_no_mask", detail="summary", lang=lang)
    assert here + r"\(t = e^{20 \sqrt{3}/51} \approx 1.9724\)" in named


def test_a_subscripted_name_in_a_title_is_set_as_math():
    """"d_k = 64" in a title printed as the text d\\_k = 64; only letters, digits, a point and a
    minus reach the math, anything else stays escaped text."""
    from symattn.documents.blocks import titled
    assert titled("Two queries, three keys, d_k = 64") == (
        ("label", "Two queries, three keys, "), ("math", "d_{k} = 64"))
    assert titled(r"x_\input{y} and $d_k$") == (("label", r"x_\input{y} and $"),
                                                ("math", "d_{k}"), ("label", "$"))
    text = _solve_latex(ROOT / "tests" / "wide" / "dk64.toml", "--lang", "zh")
    assert r"\section*{\hyphenpenalty=10000 \exhyphenpenalty=10000 两个 query、三个 key，\(d_{k} = 64\)}" \
        in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_row_without_a_mask_is_never_said_to_be_masked(lang):
    """Example 13 has no mask: its row walk said "masked and divided by τ" and wrote
    (S_{3,1} + M_{3,1})/τ with an M the document never defines; L was "(S)/τ". A bias without
    a mask is "added", not "masked"."""
    text = latex("13_five_tokens_no_mask", lang=lang, row=3)
    assert "M_{" not in text and "(S)" not in text and r"L &= S/\tau" in text
    assert r"L_{3,1} &= S_{3,1}/\tau = (2/\sqrt{3})/0.85 = 40 \sqrt{3}/51" in text
    words = {"en": (r"Divided by \(\sqrt{d_k} = \sqrt{3}\) and by \(\tau = 0.85\):", "masked"),
             "zh": (r"除以 \(\sqrt{d_k} = \sqrt{3}\)，再除以 \(\tau = 0.85\)：", "掩码")}[lang]
    walk = text.split("step by step" if lang == "en" else "逐步")[1]
    assert words[0] in walk and words[1] not in walk
    assert ("the readable logits" if lang == "en" else "可读取位置") not in walk  # every key read
    biased = _solve_latex(ROOT / "tests" / "wide" / "bias_minus_1e9.toml", "--detail", "full",
                          "--lang", lang)
    assert ("With the bias added" if lang == "en" else "加上偏置（") in biased
    assert ("Masked (" if lang == "en" else "加掩码（") not in biased
