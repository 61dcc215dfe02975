"""Checks: invariants proved exactly, the mpmath cross-check, and failures on corrupted traces."""

from __future__ import annotations

import dataclasses
import importlib
import json

import mpmath
import pytest
import sympy as sp
from conftest import EXAMPLES, VALUE_EXAMPLES

import symattn
from symattn import cli, load_problem
from symattn.api import attention
from symattn.checks.invariants import check, is_exactly_one
from symattn.reports import CHECKS
from symattn.words import phrase
from symattn.documents.checks import check_detail

R = sp.Rational
OO = sp.S.NegativeInfinity
NAMES = ("shapes", "rows of A sum to 1", "masked weights are 0", "weights are non-negative",
         "outputs within the readable values", "exact = numeric", "permutation equivariance")


def solve(path):
    return symattn.attend(symattn.load_problem(path))


def name(result):
    return phrase(f"check_name_{result.check}", "en")


def verdicts(report):
    return {name(result): result.passed for result in report.results}


def failing(report):
    return {name(result) for result in report.results if result.passed is False}


def detail(report, wanted):
    return next(check_detail(result, "en") for result in report.results if name(result) == wanted)


def with_entry(trace, stage, i, j, value, *more):
    """A copy of the trace with stage[i, j] = value (and more (i, j, value) triples)."""
    matrix = trace.stage(stage).as_mutable()
    matrix[i, j] = value
    for k, l, v in zip(more[::3], more[1::3], more[2::3]):
        matrix[k, l] = v
    return dataclasses.replace(trace, **{stage: sp.ImmutableMatrix(matrix)})


# ---------------------------------------------------------------- passing traces


@pytest.mark.parametrize("path", VALUE_EXAMPLES, ids=[p.parent.name for p in VALUE_EXAMPLES])
def test_every_worked_example_passes(path):
    report = check(solve(path))
    assert [result.check for result in report.results] == list(CHECKS)
    assert [name(result) for result in report.results] == list(NAMES)
    assert all(result.passed is True for result in report.results), report.results
    assert report.passed
    assert report.digits == 50
    assert report.max_difference < mpmath.mpf(10) ** -45


def test_six_worked_examples_are_checked():
    assert {"01", "02", "03", "04", "05", "06", "08", "11"} <= {p.parent.name[:2] for p in VALUE_EXAMPLES}


def test_details_of_a_rational_example(example):
    report = check(solve(example("02_causal_three_positions")))
    assert detail(report, "shapes") == "R, S, M, L, A are 3x3; O is 3x2"
    assert detail(report, "rows of A sum to 1") == "all 3 row(s), exactly"
    assert detail(report, "masked weights are 0") == "3 masked entries, exactly 0"
    assert detail(report, "weights are non-negative") == "exactly"
    assert detail(report, "outputs within the readable values") == "exactly"
    assert "(limit 1e-45; mpmath, 50 digits)" in detail(report, "exact = numeric")


@pytest.mark.parametrize("policy, note", [
    ("zero", "all 2 row(s), exactly (fully masked rows 1 sum to 0 by policy)"),
    ("uniform", "all 2 row(s), exactly"),
], ids=["zero", "uniform"])
def test_fully_masked_policies_pass(policy, note):
    trace = attention([[0], [1]], [[1], ["ln(2)"]], [[1], [3]], key_lengths=[0, 2],
                      fully_masked=policy)
    report = check(trace)
    assert report.passed, report.results
    assert detail(report, "rows of A sum to 1") == note


def test_symbols_get_sample_values_named_in_the_detail():
    trace = attention([["cos(theta)", "sin(theta)"]], [[1, 0], [0, 1]], [[2, 0], [0, 4]],
                      symbols={"theta": "real"})
    report = check(trace)
    assert report.passed, report.results
    assert "at theta = 3/7" in detail(report, "exact = numeric")
    assert "at theta = 3/7" in detail(report, "outputs within the readable values")


def test_two_symbols_get_distinct_sample_values():
    trace = attention([["x"]], [["y"], [0]], [[1], [0]], symbols={"x": "real", "y": "positive"})
    report = check(trace)
    assert report.passed, report.results
    assert "at x = 3/7, y = 5/7" in detail(report, "exact = numeric")


# ---------------------------------------------------------------- corrupted traces


@pytest.fixture(scope="module")
def causal():
    return solve(EXAMPLES / "02_causal_three_positions" / "problem.toml")


CORRUPTIONS = [
    ("one-weight", ("A", 1, 0, R(2, 10)), {"rows of A sum to 1", "exact = numeric"}),
    ("masked-weight", ("A", 1, 2, R(1, 10), 1, 1, R(8, 10)),
     {"masked weights are 0", "exact = numeric"}),
    ("masked-weight-row-sum", ("A", 0, 1, R(1, 10)),
     {"rows of A sum to 1", "masked weights are 0", "exact = numeric"}),
    ("negative-weight", ("A", 1, 0, R(-1, 10), 1, 1, R(11, 10)),
     {"weights are non-negative", "exact = numeric"}),
    ("output-above", ("O", 2, 0, 7), {"outputs within the readable values", "exact = numeric"}),
    ("output-below", ("O", 1, 1, R(-1, 100)),
     {"outputs within the readable values", "exact = numeric"}),
    ("output-inside-but-wrong", ("O", 2, 0, 3), {"exact = numeric"}),
    ("logit", ("L", 2, 1, sp.log(3) + 1), {"exact = numeric", "permutation equivariance"}),
    ("raw-score", ("R", 1, 1, sp.log(3)), {"exact = numeric"}),
    ("scaled-score", ("S", 0, 0, R(1, 10**40)), {"exact = numeric"}),
    ("unmasked-mask", ("M", 0, 1, 0), {"exact = numeric"}),
]


@pytest.mark.parametrize("change, expected", [c[1:] for c in CORRUPTIONS],
                         ids=[c[0] for c in CORRUPTIONS])
def test_corrupted_trace_fails_exactly_the_right_checks(causal, change, expected):
    report = check(with_entry(causal, *change))
    assert failing(report) == expected
    assert all(verdicts(report)[name] is True for name in NAMES if name not in expected)
    assert not report.passed


def test_cross_check_names_the_worst_entry(causal):
    report = check(with_entry(causal, "A", 1, 0, R(2, 10)))
    assert detail(report, "exact = numeric").startswith("largest difference 0.1 at A[2,1]")
    assert report.max_difference == pytest.approx(0.1, rel=1e-12)
    assert detail(report, "rows of A sum to 1") == "row(s) 2 do not"


def test_failure_details_name_the_entries(causal):
    assert detail(check(with_entry(causal, "A", 0, 2, R(1, 10))), "masked weights are 0") \
        == "A[1,3] not exactly 0"
    assert detail(check(with_entry(causal, "A", 1, 0, R(-1, 10), 1, 1, R(11, 10))),
                  "weights are non-negative") == "A[2,1] negative"
    assert detail(check(with_entry(causal, "O", 2, 1, 5)),
                  "outputs within the readable values") == "O[3,2] outside"


@pytest.mark.parametrize("stage, shape", [("O", (3, 3)), ("O", (2, 2)), ("A", (3, 2)),
                                          ("R", (3, 2)), ("L", (2, 3))],
                         ids=["O-wide", "O-short", "A-narrow", "R-narrow", "L-short"])
def test_wrong_shape_fails_without_raising(causal, stage, shape):
    bad = dataclasses.replace(causal, **{stage: sp.ImmutableMatrix(sp.ones(*shape))})
    report = check(bad)
    assert verdicts(report)["shapes"] is False
    assert detail(report, "shapes") == f"{stage} is {shape}, expected {causal.stage(stage).shape}"
    assert not report.passed
    assert [r.passed for r in report.results][1:] == [None] * 6


def test_transcendental_rows_are_decided(example):
    trace = solve(example("01_two_positions"))
    swapped = with_entry(trace, "A", 0, 0, trace.A[0, 1], 0, 1, trace.A[0, 0])
    assert failing(check(swapped)) == {"exact = numeric"}  # still sums to 1, exactly
    bumped = with_entry(trace, "A", 0, 0, trace.A[0, 0] + R(1, 10**30))
    assert failing(check(bumped)) == {"rows of A sum to 1", "exact = numeric"}
    negative = with_entry(trace, "A", 0, 0, -trace.A[0, 0])
    assert {"weights are non-negative", "rows of A sum to 1"} <= failing(check(negative))


def test_transcendental_output_bounds_are_checked_numerically(example):
    trace = solve(example("04_causal_four_positions"))
    assert check(trace).passed
    report = check(with_entry(trace, "O", 3, 0, 100 + sp.exp(-50)))
    assert "outputs within the readable values" in failing(report)


@pytest.mark.parametrize("total, verdict", [
    (R(1), True), (R(9, 10), False),
    (sp.exp(1) / (sp.exp(1) + 2) + 2 / (sp.exp(1) + 2), True),
    (sp.exp(1) / (sp.exp(1) + 2) + 1 / (sp.exp(1) + 2), False),
], ids=["one", "nine-tenths", "shared-denominator", "short-by-one-term"])
def test_is_exactly_one(total, verdict):
    assert is_exactly_one(total) is verdict


# ---------------------------------------------------------------- digits


def test_digits_set_the_limit(causal):
    tiny = R(1, 10**30)
    nudged = with_entry(causal, "A", 1, 0, R(1, 10) + tiny, 1, 1, R(9, 10) - tiny)
    strict = check(nudged)
    assert failing(strict) == {"exact = numeric"}
    assert "limit 1e-45" in detail(strict, "exact = numeric")
    loose = check(nudged, digits=20)
    assert loose.passed, loose.results
    assert loose.digits == 20
    assert "(limit 1e-15; mpmath, 20 digits)" in detail(loose, "exact = numeric")
    assert loose.max_difference == pytest.approx(1e-30, rel=1e-6)


def test_digits_change_the_precision_of_the_recomputation(example):
    trace = solve(example("05_five_tokens_temperature"))
    for digits in (20, 50, 80):
        report = check(trace, digits=digits)
        assert report.passed
        assert report.max_difference < mpmath.mpf(10) ** -(digits - 5)


# ---------------------------------------------------------------- the command line


def test_cli_check_passes_on_a_worked_example(example, capsys):
    assert cli.main(["check", str(example("02_causal_three_positions"))]) == 0
    out = capsys.readouterr().out
    assert out.endswith("all checks passed\n")
    assert "[ok] rows of A sum to 1: all 3 row(s), exactly" in out
    assert "FAIL" not in out


@pytest.mark.parametrize("path", VALUE_EXAMPLES, ids=[p.parent.name for p in VALUE_EXAMPLES])
def test_cli_check_exit_0_on_every_worked_example(path, capsys):
    assert cli.main(["check", str(path), "--digits", "30"]) == 0
    assert "limit 1e-25; mpmath, 30 digits" in capsys.readouterr().out


@pytest.mark.parametrize("corrupt, line", [
    (lambda t: with_entry(t, "A", 1, 0, R(2, 10)), "[FAIL] rows of A sum to 1: row(s) 2 do not"),
    (lambda t: with_entry(t, "O", 2, 0, 7), "[FAIL] outputs within the readable values: O[3,1]"),
    (lambda t: dataclasses.replace(t, O=sp.ImmutableMatrix(sp.ones(3, 3))),
     "[FAIL] shapes: O is (3, 3), expected (3, 2)"),
], ids=["weight", "output", "shape"])
def test_cli_check_exit_1_on_a_corrupted_trace(example, capsys, monkeypatch, corrupt, line):
    pipeline = importlib.import_module("symattn.cli.solve")  # the attend_any `symattn check` calls
    real = pipeline.attend_any
    monkeypatch.setattr(pipeline, "attend_any", lambda problem: corrupt(real(problem)))
    assert cli.main(["check", str(example("02_causal_three_positions"))]) == 1
    captured = capsys.readouterr()
    assert line in captured.out
    assert captured.out.endswith("some checks did not pass\n")
    assert captured.err == ""


def test_swapped_logit_rows_fail_the_permutation_check(causal):
    L = causal.L
    swapped = dataclasses.replace(causal, L=sp.ImmutableMatrix([L.row(1), L.row(0), L.row(2)]))
    report = check(swapped)
    assert verdicts(report)["permutation equivariance"] is False
    assert detail(report, "permutation equivariance") == "O did not follow: query order, key order"


def _positional_engine(monkeypatch, position):
    """The engine with position(i, j)/10 added to every raw score: attention that sees order."""
    from fractions import Fraction

    from symattn.exact import attention as engine
    from symattn.exact.linear import ONE, add
    real = engine.raw_scores

    def raw_scores(problem):
        return [[add(form, {ONE: Fraction(position(i, j), 10)}) for j, form in enumerate(row)]
                for i, row in enumerate(real(problem))]
    monkeypatch.setattr(engine, "raw_scores", raw_scores)
    return engine.attend


@pytest.mark.parametrize("position, broken", [
    (lambda i, j: j, "key order"), (lambda i, j: i, "query order")])
def test_an_engine_that_sees_positions_fails_on_that_order(monkeypatch, position, broken):
    attend = _positional_engine(monkeypatch, position)
    problem = solve(EXAMPLES / "02_causal_three_positions" / "problem.toml").problem
    report = check(attend(dataclasses.replace(problem, mask="none")))
    assert detail(report, "permutation equivariance") == f"O did not follow: {broken}"
    assert verdicts(report)["rows of A sum to 1"] is True  # a trace consistent in itself


def test_check_speaks_chinese(example, capsys):
    assert cli.main(["check", str(example("02_causal_three_positions")), "--lang", "zh"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "[通过] 形状：R、S、M、L、A 为 3x3；O 为 3x2",
        "[通过] A 的每行之和为 1：全部 3 行，精确成立",
        "[通过] 被掩码的权重为 0：3 个被掩码的位置，精确为 0",
        "[通过] 权重非负：精确成立",
        "[通过] 输出位于可读取的 value 之间：精确成立",
        "[通过] 精确值 = 数值计算：最大差 1.17e-61（上限 1e-45；mpmath，50 位）",
        "[通过] 置换等变：倒转 query 的顺序，O 的行随之倒转；key 与 value 一起倒转，O 不变；精确成立",
        "全部检查通过"]
    assert cli.main(["check", str(example("12_two_heads")), "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[头 1] [通过] 形状：") and out.endswith("全部检查通过\n")
    assert "输出 = Concat(heads) W_O：与 mpmath 的最大差" in out


def test_every_detail_a_check_reports_has_words_in_both_languages(example):
    corrupted = check(with_entry(solve(example("02_causal_three_positions")), "A", 0, 2, R(-1, 10)))
    symbolic = check(attention([["x"]], [[1], [2]], [[1], [3]], symbols={"x": "real"}))
    shapes = check(dataclasses.replace(solve(example("02_causal_three_positions")),
                                       O=sp.ImmutableMatrix(sp.ones(3, 3))))
    for report in (corrupted, symbolic, shapes):
        for result in report.results:
            for lang in ("en", "zh"):
                assert "{" not in check_detail(result, lang)
            assert check_detail(result, "zh") != check_detail(result, "en")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*/problem.toml")), ids=lambda p: p.parent.name)
def test_check_in_json_says_what_the_text_report_says(capsys, example, lang):
    """Every kind (one head, several heads, shapes only): each JSON check is one line of the
    text report, in the same words, and the verdict and exit code agree."""
    code = cli.main(["check", str(example), "--lang", lang])
    lines = capsys.readouterr().out.splitlines()
    assert cli.main(["check", str(example), "--lang", lang, "--format", "json"]) == code
    document = json.loads(capsys.readouterr().out)
    assert document["passed"] is (code == 0) and document["title"] == load_problem(example).title
    said = []
    for c in document["checks"]:
        assert c["status"] in ("passed", "failed", "undecided")
        if c["check"].startswith("shape_"):  # a problem of shapes: its two constraints
            said.append(f"[{c['mark']}] {c['detail']}")
            continue
        line = phrase("check_line", lang, mark=c["mark"], name=c["name"], detail=c["detail"])
        said.append(f"[{phrase('head_mark', lang, k=c['head'])}] {line}" if c["head"] else line)
    assert said == [line for line in lines if line.startswith("[")]
