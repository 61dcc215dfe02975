"""Generated exercises: valid files whose own answer key verifies, checks that pass, determinism,
no duplicates, the difficulty controls, multiple-choice distractors."""

from __future__ import annotations

import tomllib

import pytest
import sympy as sp

from symattn import parse_problem
from symattn.answers.verify import verify
from symattn.checks.heads import check_heads
from symattn.answers.mistakes import MISTAKES
from symattn.checks.invariants import check
from symattn.cli import main
from symattn.errors import InputError
from symattn.exact.attention import attend
from symattn.exact.heads import attend_heads
from symattn.exercises.generator import KINDS, Settings, generate

MIXES = [Settings(kind=kind, d_k=d_k, answers=answers, scaled=scaled)
         for kind in KINDS for d_k, answers, scaled in ((1, "rational", True), (2, "rational", True),
                                                        (4, "e", True), (3, "rational", False))]


def test_200_problems_across_all_kinds_verify_against_their_key_and_pass_check():
    count = 0
    for settings in MIXES:
        for name, text in generate(settings, 10, seed=7):
            problem = parse_problem(text, source=name)
            assert verify(problem).passed, name
            if settings.kind == "multihead":
                assert check_heads(attend_heads(problem), digits=30).passed, name
            else:
                assert check(attend(problem), digits=30).passed, name
            count += 1
    assert count == 10 * len(MIXES) >= 200


def test_rational_answers_are_rational_and_e_answers_involve_e():
    for _, text in generate(Settings(kind="temperature", d_k=2), 5, seed=1):
        trace = attend(parse_problem(text))
        assert all(x.is_Rational for x in trace.A) and all(x.is_Rational for x in trace.O)
    involve_e = 0
    for _, text in generate(Settings(kind="full", answers="e"), 5, seed=1):
        weights = attend(parse_problem(text)).A
        involve_e += any(x.has(sp.E) or bool(x.atoms(sp.exp)) for x in weights)
    assert involve_e >= 4


def test_each_kind_has_its_structure():
    def first(kind: str, **extra) -> dict:
        return tomllib.loads(generate(Settings(kind=kind, **extra), 1, seed=3)[0][1])
    assert first("causal")["attention"]["mask"] == "causal"
    assert "attention" not in first("full")
    cross = first("cross", n=2)
    assert len(cross["input"]["K"]) == 3 and len(cross["input"]["Q"]) == 2
    assert min(first("padding")["attention"]["key_lengths"]) < 3
    temperature = first("temperature")["attention"]
    assert temperature["temperature"] in ("1/2", "1/3") and temperature["bias"][2][0] == "ln(2)"
    assert first("full", d_k=2)["input"]["K"][0][0] in (0, "sqrt(2)*ln(2)", "sqrt(2)*ln(3)")
    assert first("full", scaled=False)["attention"]["scale"] == "none"
    heads = first("multihead")
    assert len(heads["heads"]) == 2 and len(heads["input"]["W_O"]) == 2
    assert set(tomllib.loads(generate(Settings(kind="multihead"), 1, seed=3)[0][1])["answers"]) == {"O"}


def test_same_seed_same_files_different_seed_different_set(tmp_path):
    args = ["generate", "--kind", "all", "--count", "4", "--seed", "7", "--choices"]
    assert main(args + ["-o", str(tmp_path / "a")]) == 0
    assert main(args + ["-o", str(tmp_path / "b")]) == 0
    assert main(args[:-2] + ["8", "-o", str(tmp_path / "c")]) == 0
    a, b, c = (sorted((tmp_path / d).iterdir()) for d in "abc")
    assert len(a) == 6 * 4 + 5 * 4 and [p.read_bytes() for p in a] == [p.read_bytes() for p in b]
    assert {p.read_text().split("\n", 1)[1] for p in a if "choices" not in p.name} != \
        {p.read_text().split("\n", 1)[1] for p in c if "choices" not in p.name}


def test_no_duplicates_and_a_clear_error_when_the_space_is_too_small():
    problems = generate(Settings(kind="causal", n=2), 30, seed=5)
    bodies = [text.split("\n", 1)[1] for _, text in problems]
    assert len(set(bodies)) == 30
    with pytest.raises(InputError, match="distinct"):
        generate(Settings(kind="full", n=1, d_k=1, d_v=1), 500, seed=5)


def test_choices_have_distinct_distractors_named_by_mistake(tmp_path):
    assert main(["generate", "--kind", "temperature", "--count", "3", "--seed", "2", "--choices",
                 "-o", str(tmp_path)]) == 0
    for path in sorted(tmp_path.glob("*.choices.toml")):
        data = tomllib.loads(path.read_text())
        values = [data["correct"]] + [d["value"] for d in data.get("distractors", [])]
        assert len(set(values)) == len(values) >= 3
        assert {d["mistake"] for d in data["distractors"]} <= set(MISTAKES)


def test_bad_options_are_refused(capsys):
    assert main(["generate", "--kind", "sideways", "-o", "/tmp/never"]) == 2
    assert main(["generate", "--n", "9", "-o", "/tmp/never"]) == 2
    assert "error:" in capsys.readouterr().err
