"""Claims and verification: keys, structures, exact equivalence, decimals, rules, the CLI verify."""

from __future__ import annotations

import json

import pytest
import sympy as sp
from conftest import EXAMPLES

from symattn import cli, load_problem, parse_problem
from symattn.answers.verify import verify
from symattn.errors import InputError
from symattn.model import Grading
from symattn.parse.claims import Target, parse_claim, parse_key
from symattn.parse.printouts import split_structure


@pytest.mark.parametrize("key, target", [
    ("A", Target("stage", "A")),
    ("A[3]", Target("row", "A", row=2)),
    ("A[3,1]", Target("entry", "A", row=2, column=0)),
    ("A[3, 1]", Target("entry", "A", row=2, column=0)),
    ("O[:,2]", Target("column", "O", column=1)),
    ("A[2,:]", Target("row", "A", row=1)),
    ("shape(O)", Target("shape", "O")),
    ("d_k", Target("scalar", "d_k")),
    ("tau", Target("scalar", "tau")),
], ids=lambda x: x if isinstance(x, str) else None)
def test_claim_keys(key, target):
    assert parse_key(key) == target


@pytest.mark.parametrize("key", ["X", "A[0]", "A[1,0]", "A[[1]]", "shape(X)", "__class__", "A[1;2]", ""])
def test_bad_claim_keys_are_refused(key):
    with pytest.raises(InputError, match="claim key|rows and columns count from 1"):
        parse_key(key)


@pytest.mark.parametrize("text, rows", [
    ("7/3", [["7/3"]]),
    ("(1/3, 1/6, 1/2, 0)", [["1/3", "1/6", "1/2", "0"]]),
    ("[[1, 0], [0, ln(3)]]", [["1", "0"], ["0", "ln(3)"]]),
    ("[1/5, 18/5]", [["1/5", "18/5"]]),
    ("(1 + 2)", [["(1 + 2)"]]),
    ("（1/3，2/3）", [["1/3", "2/3"]]),
    ("(7)/(3)", [["(7)/(3)"]]),
    ("(1+2)/(6)", [["(1+2)/(6)"]]),
    ("[[0.1 0.2]\n [0.3 0.4]]", [["0.1", "0.2"], ["0.3", "0.4"]]),
    ("[ 1.  0. -0.]", [["1.", "0.", "-0."]]),
    ("array([[0.25, 0.75]], dtype=float32)", [["0.25", "0.75"]]),
    ("tensor([[[6.3379e-02, 9.3662e-01]]], grad_fn=<SoftmaxBackward0>)",
     [["6.3379e-02", "9.3662e-01"]]),
], ids=["scalar", "tuple", "matrix", "vector", "parenthesised", "full-width", "quotient",
        "sum-quotient", "numpy-print", "numpy-rounded", "numpy-repr", "torch"])
def test_split_structure(text, rows):
    assert split_structure(text) == rows


def claims(*items):
    return tuple(parse_claim(key, value) for key, value in items)


def verdict(example, key, value, grading=None):
    problem = load_problem(EXAMPLES / example / "problem.toml")
    return verify(problem, (parse_claim(key, value),), grading).verdicts[0]


TWO = "01_two_positions"
CAUSAL = "02_causal_three_positions"


@pytest.mark.parametrize("given", [
    "1/(1+exp(-sqrt(2)/2))",
    "exp(sqrt(2)/2)/(exp(sqrt(2)/2)+1)",
    "1 - 1/(1 + exp(1/sqrt(2)))",
    "E^(sqrt(2)/2)/(E^(sqrt(2)/2) + 1)",
    "e^(1/√2)/(e^(1/√2) + 1)",
], ids=["logistic", "as-stored", "one-minus-q", "power-of-E", "unicode-root"])
def test_equivalent_forms_are_correct_exactly(given):
    v = verdict(TWO, "A[1,1]", given)
    assert (v.status, v.entries[0].rule) == ("correct", ("exact",))


@pytest.mark.parametrize("given", ["exp(sqrt(2))/(1+exp(sqrt(2)))", "1/2", "0.669761549326656925616794945835"],
                         ids=["wrong-exponent", "half", "near-miss-decimal"])
def test_wrong_forms_are_wrong(given):
    assert verdict(TWO, "A[1,1]", given).status == "wrong"


@pytest.mark.parametrize("given, status, places", [
    ("0.7", "correct", 1), ("0.67", "correct", 2), ("0.670", "correct", 3), ("0.6698", "correct", 4),
    ("0.66976", "correct", 5), ("0.6697", "wrong", 4), ("0.66", "wrong", 2), ("0.669", "wrong", 3),
], ids=lambda x: str(x))
def test_decimals_must_be_correctly_rounded(given, status, places):
    v = verdict(TWO, "A[1,1]", given)
    assert (v.status, v.entries[0].rule) == (status, ("places", places))


def test_exact_decimal_of_a_rational_is_exact():
    v = verdict(CAUSAL, "A[2,1]", "0.1")
    assert (v.status, v.entries[0].rule) == ("correct", ("exact",))


@pytest.mark.parametrize("given, status", [("0.13", "correct"), ("0.12", "correct"), ("0.14", "wrong")])
def test_halfway_values_accept_either_rounding(given, status):
    problem = parse_problem("[input]\nQ = [[0]]\nK = [[1]]\nV = [[0.125]]\n[answers]\nO = 1\n")
    result = verify(problem, (parse_claim("O[1,1]", given),)).verdicts[0]
    assert (result.status, result.entries[0].rule) == (status, ("tie", 2))


@pytest.mark.parametrize("grading, given, status, rule", [
    (Grading(tolerance=sp.Rational(1, 100)), "0.66", "correct", ("tolerance", sp.Rational(1, 100))),
    (Grading(tolerance=sp.Rational(1, 100)), "0.65", "wrong", ("tolerance", sp.Rational(1, 100))),
    (Grading(relative=sp.Rational(1, 100)), "0.675", "correct", ("relative", sp.Rational(1, 100))),
    (Grading(relative=sp.Rational(1, 1000)), "0.675", "wrong", ("relative", sp.Rational(1, 1000))),
    (Grading(sigfigs=3), "0.670", "correct", ("sigfigs", 3)),
    (Grading(sigfigs=3), "0.6698", "wrong", ("sigfigs", 3)),
], ids=["abs-in", "abs-out", "rel-in", "rel-out", "sigfigs-in", "sigfigs-out"])
def test_grading_rules(grading, given, status, rule):
    v = verdict(TWO, "A[1,1]", given, grading)
    assert (v.status, v.entries[0].rule) == (status, rule)


def test_an_identity_sympy_cannot_prove_is_undecided_not_correct():
    v = verdict(CAUSAL, "A[3,2]", "cos(pi/7) - cos(2*pi/7) + cos(3*pi/7)")
    assert (v.status, v.entries[0].rule) == ("undecided", ("numeric", 200))


@pytest.mark.parametrize("key, value, status, note", [
    ("A[2]", "(1/10, 9/10)", "wrong", "size"),
    ("A[4,1]", "0", "invalid", "out_of_range"),
    ("A[1,1]", "__import__('os').system('echo hi')", "invalid", ""),
    ("shape(O)", "4 by 3", "invalid", "unreadable"),
    ("shape(O)", "3x2", "correct", ""),
    ("shape(A)", [3, 3], "correct", ""),
    ("d_k", "1", "correct", ""),
    ("tau", "2", "wrong", ""),
    ("M[1,2]", "-oo", "correct", ""),
    ("O[:,1]", "(2, 0.2, 2.33)", "correct", ""),
], ids=["size", "range", "code", "shape-text", "shape", "shape-list", "scalar", "tau", "minus-inf", "column"])
def test_claims_of_every_kind(key, value, status, note):
    v = verdict(CAUSAL, key, value)
    assert (v.status, v.note) == (status, note)


def test_code_in_an_answer_never_runs(tmp_path):
    canary = tmp_path / "canary"
    for text in (f"__import__('os').system('touch {canary}')", f"open('{canary}', 'w')",
                 f"exec(\"open('{canary}','w')\")"):
        assert verdict(CAUSAL, "O[3,1]", text).status == "invalid"
    assert not canary.exists()


def test_shape_only_problem_judges_shapes_and_refuses_values():
    problem = load_problem(EXAMPLES / "07_cross_attention_shapes" / "problem.toml")
    result = verify(problem, claims(("shape(R)", "4x6"), ("A", "[[1]]"), ("d_v", "3"), ("tau", "1")))
    assert [(v.status, v.note) for v in result.verdicts] == [
        ("correct", ""), ("invalid", "shapes_only"), ("correct", ""), ("invalid", "not_given")]


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("example", ["01_two_positions", "02_causal_three_positions",
                                     "03_uniform_weights", "04_causal_four_positions",
                                     "07_cross_attention_shapes", "08_same_output_different_weights"])
def test_course_answers_verify(capsys, example):
    code, out, err = run(capsys, "verify", str(EXAMPLES / example / "problem.toml"))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1].startswith("all ")


def test_altered_answers_are_rejected_naming_the_wrong_entries(capsys, tmp_path):
    altered = tmp_path / "altered.toml"
    altered.write_text('[answers]\n"A[3]" = "(1/3, 1/6, 1/2, 1/10)"\n"O[3,1]" = "2.34"\n',
                       encoding="utf-8")
    code, out, _ = run(capsys, "verify", str(EXAMPLES / "04_causal_four_positions" / "problem.toml"),
                       "--answers", str(altered))
    assert code == 1
    assert "[wrong] A[3]: 1 of 4 entries not correct" in out
    assert "    A[3,4]: expected 0, given 1/10; exact comparison" in out
    assert ("    O[3,1]: expected 7/3 (≈ 2.33), given 2.34; a decimal with 2 places must be "
            "the exact value rounded to 2 places") in out  # the expected value to the answer's places
    assert out.splitlines()[-1] == "0 of 2 claims correct"


def test_json_and_chinese_feedback(capsys, tmp_path):
    answers = tmp_path / "a.toml"
    answers.write_text('[answers]\n"O[3,1]" = "2.3"\n"A[3,1]" = "0.17"\n', encoding="utf-8")
    path = str(EXAMPLES / CAUSAL / "problem.toml")
    code, out, _ = run(capsys, "verify", path, "--answers", str(answers), "--format", "json")
    document = json.loads(out)
    assert (code, document["status"]) == (0, "correct")
    assert document["claims"][0]["entries"][0]["rule"] == ["places", "1"]
    code, out, _ = run(capsys, "verify", path, "--answers", str(answers), "--lang", "zh")
    assert "[正确] O[3,1]: 1 位小数须等于精确值四舍五入到 1 位" in out


@pytest.mark.parametrize("content, message", [
    ('[answers]\n"X[1]" = "1"\n', "unknown claim key 'X[1]'"),
    ('[other]\nx = 1\n', "an answers file holds an [answers] table and optionally [grading]"),
    ('title = "x"\n', "an answers file holds an [answers] table and optionally [grading]"),
    ('answers = 3\n', "must be a table of claims"),
], ids=["bad-key", "extra-table", "extra-key", "not-a-table"])
def test_bad_answer_files_exit_2(capsys, tmp_path, content, message):
    answers = tmp_path / "a.toml"
    answers.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "verify", str(EXAMPLES / CAUSAL / "problem.toml"), "--answers", str(answers))
    assert code == 2 and message in err and len(err.splitlines()) == 1


def test_no_claims_exit_2(capsys):
    code, _, err = run(capsys, "verify", str(EXAMPLES / "13_five_tokens_no_mask" / "problem.toml"))
    assert code == 2 and "no claims to verify" in err


@pytest.mark.parametrize("table, message", [
    ("[grading]\ntolerance = 0\n", "grading.tolerance: must be positive"),
    ("[grading]\nsigfigs = 0\n", "grading.sigfigs: must be an integer from 1 to 50"),
    ("[grading]\ntolerance = 0.1\nsigfigs = 2\n", "grading: give one rule"),
    ("[grading]\nrounding = 2\n", "grading.rounding: unknown key"),
], ids=["zero-tolerance", "zero-sigfigs", "two-rules", "unknown"])
def test_bad_grading_tables(table, message):
    with pytest.raises(InputError, match=message):
        parse_problem("[input]\nQ = [[1]]\nK = [[1]]\nV = [[1]]\n" + table)


def test_claims_on_each_head_and_the_concatenation(tmp_path, capsys):
    answers = tmp_path / "a.toml"
    answers.write_text('[answers]\n"heads[1].A[3]" = "(0.4, 0.2, 0.4)"\n'
                       '"heads[2].A" = "[[1/3, 1/3, 1/3], [1/7, 3/7, 3/7], [1/7, 3/7, 3/7]]"\n'
                       '"heads[2].O[2,1]" = "0.86"\n'
                       '"concat[3]" = "(0.8, 0.857, 0.571)"\n'
                       '"shape(heads[2].O)" = "3x2"\n"O[3,1]" = "1.371"\n'
                       '"heads[1].A[2]" = "(0.6, 0.4, 0)"\n', encoding="utf-8")
    problem = EXAMPLES / "12_two_heads" / "problem.toml"
    assert run(capsys, "verify", str(problem), "--answers", str(answers))[0] == 1
    report = json.loads(run(capsys, "verify", str(problem), "--answers", str(answers),
                            "--format", "json")[1])
    assert [c["status"] for c in report["claims"]] == ["correct"] * 6 + ["wrong"]
    wrong = report["claims"][-1]
    assert [e["expected"] for e in wrong["entries"]] == ["1/2", "1/2", "0"]
    assert run(capsys, "verify", str(problem), "--answers", str(answers))[1].count("[wrong]") == 1
    with pytest.raises(InputError, match="unknown claim key 'heads\\[1\\]\\.concat'"):
        parse_key("heads[1].concat")


# ---- symattn.verify, the API: the CLI's verdicts from a mapping of claims ----------------------
@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*/problem.toml")), ids=lambda p: p.parent.name)
def test_the_api_gives_the_clis_verdicts_on_every_example(capsys, tmp_path, example):
    """Every kind (values, shapes only, several heads): the file's own [answers] and the same
    claims given as a mapping, one of them spoilt, judged as `symattn verify --answers` does."""
    import symattn

    problem = load_problem(example)
    code = cli.main(["verify", str(example), "--format", "json"])
    out, err = capsys.readouterr()
    if code == 2:  # no [answers]: refused by both, in the same words
        with pytest.raises(InputError) as caught:
            symattn.verify(problem)
        assert err == f"error: {caught.value}\n"
    else:
        own = symattn.verify(problem)
        assert [v.status for v in own.verdicts] == [c["status"] for c in json.loads(out)["claims"]]
    claims = {"d_k": 99, "shape(O)": "99x99"}
    answers = tmp_path / "answers.toml"
    answers.write_text('[answers]\nd_k = 99\n"shape(O)" = "99x99"\n', encoding="utf-8")
    assert cli.main(["verify", str(example), "--answers", str(answers), "--format", "json"]) == 1
    cli_given = json.loads(capsys.readouterr().out)
    given = symattn.verify(problem, claims)
    assert [v.status for v in given.verdicts] == [c["status"] for c in cli_given["claims"]]
    assert given.verdicts[-1].status == "wrong" and not given.passed


def test_the_api_reads_claims_and_rules_with_the_parser_and_names_a_bad_key():
    import symattn

    problem = load_problem(EXAMPLES / "02_causal_three_positions" / "problem.toml")
    result = symattn.verify(problem, {"O[3,1]": "7/3", "A[3]": "(0.167, 0.5, 0.333)",
                                      "O[2,2]": 3.6, "O[1]": "(1, 0)", "A[1,1]": "__import__('os')"})
    assert [v.status for v in result.verdicts] == ["correct", "correct", "correct", "wrong", "invalid"]
    assert symattn.verify(problem, {"O[3,1]": 2.34}).verdicts[0].status == "wrong"  # 2.3333...
    assert symattn.verify(problem, {"O[3,1]": "2.3"}).passed  # correct to the places it gives
    assert not symattn.verify(problem, {"O[3,1]": "2.3"}, grading={"sigfigs": 3}).passed
    with pytest.raises(InputError) as caught:
        symattn.verify(problem, {"Z[1]": 1})
    assert str(caught.value).startswith("answers.'Z[1]': unknown claim key 'Z[1]'")
    with pytest.raises(InputError) as caught:
        symattn.verify(problem, {"O[1,1]": 2}, grading={"sigfig": 3})
    assert str(caught.value).startswith("grading.sigfig: unknown key")


def test_the_api_writes_a_verification_as_the_cli_does(capsys):
    import symattn

    path = EXAMPLES / "02_causal_three_positions" / "problem.toml"
    result = symattn.verify(load_problem(path))
    for to in ("text", "json"):
        for lang in ("en", "zh"):
            assert cli.main(["verify", str(path), "--format", to, "--lang", lang]) == 0
            assert symattn.render_verification(result, to, lang=lang) == capsys.readouterr().out
    with pytest.raises(ValueError, match="unknown format 'latex'; formats are text, json"):
        symattn.render_verification(result, "latex")
