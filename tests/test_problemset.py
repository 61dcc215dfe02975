"""Problem sets: 20 generated problems as questions, solutions and an answer key, compiled by the
real TeX engine in both languages, and as KaTeX-safe Markdown."""

from __future__ import annotations

import pytest
from clients import compile_tex, katex_errors, math_blocks, pdf_text

from symattn.cli import main
from symattn.exercises.generator import KINDS, Settings, generate
from symattn.exercises.generator import write_problems as write


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
    assert tex.count(r"\text{20.}\quad A =") == 1
    zh = documents["zh.tex"]
    assert zh.count("第 20 题解答") == 1 and "答案速查" in zh


def test_the_key_holds_the_exact_answers(documents, twenty):
    first = sorted(twenty.glob("*.toml"))[0].read_text()
    weights = first.split('A = "')[1].split('"')[0]
    entry = weights.strip("[]").split(",")[0].strip()  # the first weight, e.g. 1
    key = documents["en.md"].split("## Answer key")[1]
    assert r"\text{1.}\quad A =" in key and entry in key.split(r"\text{2.}")[0]


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
