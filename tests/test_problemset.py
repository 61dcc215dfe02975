"""Problem sets: 20 generated problems as questions, solutions and an answer key, compiled by the
real TeX engine in both languages, and as KaTeX-safe Markdown."""

from __future__ import annotations

from pathlib import Path

import pytest
from clients import compile_tex, katex_errors, math_blocks, pdf_text

from symattn.cli import main
from symattn.exercises.problemset import problem_files
from symattn.exercises.generator import KINDS, Settings, generate
from symattn.exercises.generator import write_problems as write

EXAMPLES = Path(__file__).resolve().parent.parent / "worked_examples"


@pytest.fixture(scope="module")
def twenty(tmp_path_factory):
    directory = tmp_path_factory.mktemp("set")
    single_head = [kind for kind in KINDS if kind != "multihead"]  # sets take single heads
    problems = [p for kind in single_head for p in generate(Settings(kind=kind), 4, seed=11)]
    write(problems, directory)
    return directory


@pytest.fixture(scope="module")
def documents(twenty, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    texts = {}
    for lang in ("en", "zh"):
        for suffix, jobs in ((".tex", "3"), (".md", "1")):
            target = out / f"set.{lang}{suffix}"
            assert main(["problemset", str(twenty), "--lang", lang, "--jobs", jobs, "--standalone",
                         "-o", str(target)]) == 0
            texts[lang + suffix] = target.read_text(encoding="utf-8")
    return texts


def test_twenty_questions_solutions_and_a_key(documents):
    tex = documents["en.tex"]
    assert tex.count(r"\subsubsection*{Question ") == 20
    assert tex.count(r"\subsubsection*{Solution ") == 20
    assert tex.index("Questions") < tex.index("Solutions") < tex.index("Answer key")
    assert tex.split("Answer key")[1].count("Question 20:") == 1
    zh = documents["zh.tex"]
    assert zh.count("第 20 题解答") == 1 and "答案速查" in zh


def test_the_key_holds_the_exact_answers(documents, twenty):
    first = sorted(twenty.glob("*.toml"))[0].read_text()
    weights = first.split('A = "')[1].split('"')[0]
    entry = weights.strip("[]").split(",")[0].strip()  # the first weight, e.g. 1
    key = documents["en.md"].split("## Answer key")[1]
    first_key = key.split("Question 2:")[0]
    assert "Question 1:" in first_key and "A =" in first_key and entry in first_key


def test_the_parallel_set_equals_the_serial_one(twenty, tmp_path):
    for jobs in ("1", "2"):
        assert main(["problemset", str(twenty), "--jobs", jobs, "-o",
                     str(tmp_path / f"s{jobs}.tex")]) == 0
    assert (tmp_path / "s1.tex").read_bytes() == (tmp_path / "s2.tex").read_bytes()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_set_compiles(documents, lang):
    text = pdf_text(compile_tex(documents[f"{lang}.tex"], lang, f"set_{lang}"))
    assert ("Answer key" if lang == "en" else "答案速查") in text


def test_the_markdown_renders_with_katex(documents):
    assert katex_errors(math_blocks(documents["en.md"]) + math_blocks(documents["zh.md"])) == []


def test_a_missing_directory_is_bad_input(tmp_path, capsys):
    assert main(["problemset", str(tmp_path / "none")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_a_folder_of_worked_examples_is_read_one_level_down(tmp_path):
    """worked_examples/ holds NN_name/problem.toml: the set finds those, sorted, beside *.toml."""
    for name in ("b_second", "a_first"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "problem.toml").write_text("[input]\nQ = [[1]]\nK = [[0], [1]]\n"
                                                      "V = [[2], [4]]\n", encoding="utf-8")
    (tmp_path / "a_first" / "notes.toml").write_text("", encoding="utf-8")  # not a problem
    (tmp_path / "c_third.toml").write_text("[input]\nQ = [[1]]\nK = [[1]]\nV = [[3]]\n",
                                           encoding="utf-8")
    assert [str(p.relative_to(tmp_path)) for p in problem_files(tmp_path)] == \
        ["a_first/problem.toml", "b_second/problem.toml", "c_third.toml"]
    assert main(["problemset", str(tmp_path), "-o", str(tmp_path / "set.tex")]) == 0
    key = (tmp_path / "set.tex").read_text(encoding="utf-8").split("Answer key")[1]
    assert key.count("Question ") == 3


def test_every_question_states_the_scale_the_temperature_and_the_symbols(tmp_path):
    """Example 09 asks for no scaling, a symbolic θ and τ: the question says all three, as the
    solution does (its key: the named exponentials t_1, t_2 and their sum Z_1)."""
    (tmp_path / "q.toml").write_text(
        (EXAMPLES / "09_parameter_sweep" / "problem.toml").read_text(encoding="utf-8"),
        encoding="utf-8")
    for lang, words in (("en", ("no scaling (\\(s = 1\\))", "the temperature \\(\\tau\\)",
                                 "\\(\\theta \\in \\mathbb{R}\\) and \\(\\tau > 0\\)")),
                        ("zh", ("不缩放（\\(s = 1\\)）", "温度 \\(\\tau\\)",
                                "\\(\\theta \\in \\mathbb{R}\\)、\\(\\tau > 0\\)"))):
        assert main(["problemset", str(tmp_path), "--lang", lang,
                     "-o", str(tmp_path / f"{lang}.tex")]) == 0
        tex = (tmp_path / f"{lang}.tex").read_text(encoding="utf-8")
        question = tex.split("ubsection*{Solutions}" if lang == "en" else "解答}")[0]
        assert [w for w in words if w not in question] == []
    key = tex.split("答案速查")[1]
    assert r"Z_{1} = t_{1} + t_{2}" in key and r"A = \left[\begin{array}{cc} t_{1}/Z_{1} & t_{2}/Z_{1}" in key


def test_a_shapes_problem_in_the_folder_is_skipped_with_a_note(tmp_path, capsys):
    """worked_examples/ holds 07, which gives only shapes: the set is made of the others and says
    which file it left out and why (it refused the whole folder); a folder of shapes alone is
    refused in one line."""
    for name in ("02_causal_three_positions", "07_cross_attention_shapes"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "problem.toml").write_bytes((EXAMPLES / name / "problem.toml").read_bytes())
    assert main(["problemset", str(tmp_path), "-o", str(tmp_path / "set.tex")]) == 0
    err = capsys.readouterr().err
    assert err == (f"note: skipped {tmp_path / '07_cross_attention_shapes' / 'problem.toml'}: "
                   "'problemset' does not take this shapes problem: a problem set asks for "
                   "weights, and this problem gives only shapes\n")
    key = (tmp_path / "set.tex").read_text(encoding="utf-8").split("Answer key")[1]
    assert key.count("Question ") == 1
    (tmp_path / "02_causal_three_positions" / "problem.toml").unlink()
    assert main(["problemset", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "no problem a set can take" in err and err.count("\n") == 1
