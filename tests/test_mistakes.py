"""Each classic mistake: its exact result, and its diagnosis by verify and grade from an answer
produced by committing it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import sympy as sp

from symattn import parse_problem
from symattn.answers.mistakes import MISTAKES, distractors, mistakes
from symattn.cli import main
from symattn.exact.attention import attend

# causal + temperature + a finite bias + d_k = 2 with the scale + d_v = d_k: every mistake applies
PROBLEM = """title = "All seven mistakes"

[input]
Q = [[1, 0], [0, 1], [1, 1]]
K = [["sqrt(2)*ln(2)", 0], [0, "sqrt(2)*ln(3)"], ["sqrt(2)*ln(2)", "sqrt(2)*ln(2)"]]
V = [[1, 0], [0, 2], [2, 1]]

[attention]
mask = "causal"
temperature = "1/2"
bias = [[0, 0, 0], [0, 0, 0], ["ln(2)", 0, 0]]
"""
WORDS = {"columns": "softmax over columns", "no_scale": "forgetting the 1/√d_k scale",
         "mask_after_softmax": "masking after the softmax without renormalising",
         "no_causal_mask": "omitting the causal mask",
         "mask_after_tau": "adding the mask after dividing by τ",
         "swap_kv": "swapping the roles of K and V",
         "sum_normalised": "dividing each logit by the sum of its query's logits instead of "
                           "the softmax"}
R = sp.Rational


@pytest.fixture(scope="module")
def found():
    return {m.name: m for m in mistakes(parse_problem(PROBLEM))}


def _text(matrix: sp.ImmutableMatrix) -> str:
    return "[" + ", ".join("[" + ", ".join(sp.sstr(x) for x in matrix.row(i)) + "]"
                           for i in range(matrix.rows)) + "]"


def test_every_mistake_applies_and_gives_its_own_weights(found):
    assert list(found) == list(MISTAKES) and all(m.applies for m in found.values())
    weights = [m.A for m in found.values()] + [attend(parse_problem(PROBLEM)).A]
    assert all((a - b).applyfunc(sp.simplify) != sp.zeros(3, 3)
               for k, a in enumerate(weights) for b in weights[k + 1:])


def test_the_mistaken_weights_by_hand(found):
    # columns: column 1 of L/τ is (ln 4, ln 1, ln 16) -> 4/21, 1/21, 16/21
    assert found["columns"].A.col(0) == sp.Matrix([R(4, 21), R(1, 21), R(16, 21)])
    # after the softmax, row 1 keeps 4/9 of the open row (4, 1, 4)/9 and does not renormalise
    assert found["mask_after_softmax"].A.row(0) == sp.Matrix([[R(4, 9), 0, 0]])
    assert sum(found["mask_after_softmax"].A.row(0)) != 1
    # no causal mask: row 1 reads all three keys
    assert found["no_causal_mask"].A.row(0) == sp.Matrix([[R(4, 9), R(1, 9), R(4, 9)]])
    # S/τ + M: the bias ln 2 counts once instead of twice in row 3: (4·2, 9, 16)/33
    assert found["mask_after_tau"].A.row(2) == sp.Matrix([[R(8, 33), R(9, 33), R(16, 33)]])
    correct = attend(parse_problem(PROBLEM)).A
    assert correct.row(2) == sp.Matrix([[R(16, 41), R(9, 41), R(16, 41)]])
    # each logit over its row's sum: row 2 is (0, 2 ln 3) -> (0, 1); row 3 (4 ln 2, 2 ln 3, 4 ln 2)
    summed = found["sum_normalised"].A
    assert summed.row(0) == sp.Matrix([[1, 0, 0]]) and summed.row(1) == sp.Matrix([[0, 1, 0]])
    third = 2 * sp.log(2) / (4 * sp.log(2) + sp.log(3))
    assert sp.simplify(summed[2, 0] - third) == 0 and sp.simplify(sum(summed.row(2)) - 1) == 0


def test_mistakes_that_do_not_apply_say_so():
    problem = parse_problem("[input]\nQ = [[1]]\nK = [[0], [1]]\nV = [[1, 2], [3, 4]]\n")
    reasons = {m.name: m.reason for m in mistakes(problem)}
    assert reasons["no_causal_mask"] == reasons["mask_after_tau"] == "not_applicable"
    assert reasons["swap_kv"] == "not_applicable" and reasons["no_scale"] == "same_result"


@pytest.mark.parametrize("name", MISTAKES)
def test_verify_diagnoses_an_answer_made_by_the_mistake(name, found, tmp_path, capsys):
    problem = tmp_path / "p.toml"
    problem.write_text(PROBLEM, encoding="utf-8")
    answers = tmp_path / "a.toml"
    answers.write_text(f'[answers]\nA = "{_text(found[name].A)}"\nO = "{_text(found[name].O)}"\n',
                       encoding="utf-8")
    assert main(["verify", str(problem), "--answers", str(answers)]) == 1
    out = capsys.readouterr().out
    assert out.count(f"matches {WORDS[name]}") == 2, out
    assert main(["verify", str(problem), "--answers", str(answers), "--lang", "zh"]) == 1
    assert "的结果一致" in capsys.readouterr().out


def test_a_wrong_answer_that_is_no_mistake_gets_no_diagnosis(tmp_path, capsys):
    problem = tmp_path / "p.toml"
    problem.write_text(PROBLEM + '\n[answers]\n"A[1]" = "(1/2, 1/2, 0)"\n', encoding="utf-8")
    assert main(["verify", str(problem)]) == 1
    assert "matches" not in capsys.readouterr().out


def test_grade_diagnoses_each_mistake(found, tmp_path, capsys):
    problem = tmp_path / "p.toml"
    problem.write_text(PROBLEM, encoding="utf-8")
    rows = [["id", "A", "O[2]"]] + [[name, _text(found[name].A), _text(found[name].O.row(1))[1:-1]]
                                    for name in MISTAKES]
    submissions = tmp_path / "s.csv"
    with submissions.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    report = tmp_path / "r.csv"
    assert main(["grade", str(problem), "--submissions", str(submissions), "-o", str(report)]) == 0
    capsys.readouterr()
    graded = {row["id"]: row for row in csv.DictReader(report.open(encoding="utf-8"))}
    for name in MISTAKES:
        assert graded[name]["A"] == "wrong"
        assert graded[name]["A feedback"] == f"matches {WORDS[name]}"
    # row 2 has no bias entry, so adding the mask after dividing by τ changes nothing there
    assert graded["mask_after_tau"]["O[2]"] == "correct"
    for name in set(MISTAKES) - {"mask_after_tau"}:
        assert graded[name]["O[2] feedback"] == f"matches {WORDS[name]}"


def test_distractors_are_distinct_from_the_answer_and_each_other(found):
    correct = attend(parse_problem(PROBLEM)).O
    rows = distractors(tuple(found.values()), correct)
    values = [correct.row(-1)] + [value for _, value in rows]
    assert len(rows) >= 4
    assert all((a - b).applyfunc(sp.simplify) != sp.zeros(1, 2)
               for k, a in enumerate(values) for b in values[k + 1:])


def test_mistakes_command(tmp_path, capsys):
    problem = tmp_path / "p.toml"
    problem.write_text(PROBLEM, encoding="utf-8")
    assert main(["mistakes", str(problem)]) == 0
    out = capsys.readouterr().out
    assert "[columns] softmax over columns" in out and "A' = [[4/21, 0, 0]," in out
    assert "L' = S/τ + M instead of (S + M)/τ" in out
    assert main(["mistakes", str(problem), "--lang", "zh"]) == 0
    assert "沿列做 softmax" in capsys.readouterr().out
    assert Path(problem).exists()


@pytest.mark.parametrize("lang, words", [("en", ("Take ", "Done correctly, with $Z_{4} = 6 + e^{10}$")),
                                         ("zh", ("取 ", "正确计算时（记 $Z_{4} = 6 + e^{10}$）"))])
def test_mistakes_document_states_the_problem_and_its_correct_result(capsys, lang, words):
    """Issue 30: the mistakes of example 04 had no problem statement and no correct A and O to
    compare each A' and O' with; solve's setup and the correct result now come first, row 4's
    sum named Z_4 as solve names it, and a mistake's own sums Z' (it wrote Z for both)."""
    path = Path(__file__).resolve().parent.parent / "worked_examples/04_causal_four_positions/problem.toml"
    assert main(["mistakes", str(path), "--format", "markdown", "--lang", lang]) == 0
    out = capsys.readouterr().out
    setup, correct, first = out.index(words[0]), out.index(words[1]), out.index("A' &=")
    assert setup < out.index(r"V = \left[\begin{array}{c} 0 \\ 2 \\ 4 \\ 100") < correct < first
    a = (r"A &= \left[\begin{array}{cccc} 1 & 0 & 0 & 0 \\ 2/3 & 1/3 & 0 & 0 \\ 1/3 & 1/6 & "
         r"1/2 & 0 \\ 2/Z_{4} & 1/Z_{4} & 3/Z_{4} & e^{10}/Z_{4} \end{array}\right]")
    o = r"O &= \left[\begin{array}{c} 0 \\ 2/3 \\ 7/3 \\ (14 + 100 e^{10})/Z_{4} \end{array}\right]"
    assert correct < out.index(a) < out.index(o) < first
    solve = _markdown(["solve", str(path), "--lang", lang], capsys)
    assert a.removeprefix("A &= ") in solve and "$Z_{4} = 6 + e^{10}$" in solve
    assert "Z_{" not in out[first:] and "Z'" in out[first:]  # the mistakes' own sums



@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("to", ["latex", "markdown"])
def test_multi_head_mistakes_state_each_head_and_the_output_projection(to, lang, capsys):
    """Example 12: each head's section opens with its own projections (W_K of head 1 holds
    ln 2, of head 2 ln 3) and its correct A and O, and the section of every head mistaken alike
    with W_O and MHA(X) done correctly, the book's stated answer (before, no head's inputs and no
    W_O were written, so no mistaken output could be recomputed)."""
    two = Path(__file__).resolve().parent.parent / "worked_examples" / "12_two_heads" / "problem.toml"
    assert main(["mistakes", str(two), "--format", to, "--lang", lang]) == 0
    text = capsys.readouterr().out
    heads = ["——第 1 个头", "——第 2 个头", "——输出"] if lang == "zh" else \
        ["head 1", "head 2", "every head"]
    assert [text.count(h) for h in heads] == [1, 1, 1]
    first, second, output = (text[text.index(a):text.index(b) if b else None]
                             for a, b in zip(heads, heads[1:] + [None]))
    columns = "沿列做 softmax" if lang == "zh" else "Softmax over columns"
    for section, log in ((first, r"\ln 2 \\ 0"), (second, r"0 \\ \ln 3")):
        assert section.index(rf"W_K = \left[\begin{{array}}{{c}} {log}") < section.index(columns)
    assert r"W_O = \left[\begin{array}{cc} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{array}\right]" in output
    assert (r"\operatorname{MHA}(X) = \operatorname{Concat}(\text{head}_{1}, \text{head}_{2})\,W_O"
            r" = \left[\begin{array}{cc} 5/3 & 4/3 \\ 15/14 & 10/7 \\ 48/35 & 10/7 \end{array}\right]"
            ) in output
    assert "W_O" not in first + second


def _markdown(argv: list[str], capsys) -> str:
    assert main([*argv, "--format", "markdown"]) == 0
    return capsys.readouterr().out
