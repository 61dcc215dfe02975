"""A repeated row sum named once (Z_4 = 6 + e^{10}, then 2/Z_4), every short row check written
out, irrational rows too, and no decimal that only repeats an exact value (issue 30, M2–M4)."""

from __future__ import annotations

import contextlib
import io

import pytest
import sympy as sp
from conftest import EXAMPLES, ROOT

from symattn import cli
from symattn.printing.entries import adds_nothing
from symattn.printing.shared import over_names, shared_sums

E04 = EXAMPLES / "04_causal_four_positions" / "problem.toml"
E05 = EXAMPLES / "05_five_tokens_temperature" / "problem.toml"


def _run(verb: str, path, *extra: str) -> str:
    """`symattn VERB PATH …`, as a user runs it."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main([verb, str(path), *extra]) == 0
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["latex", "markdown"])
def test_example_04_names_its_last_row_sum_once(fmt):
    text = _run("solve", E04, "--format", fmt)
    body = text.split("All 7 checks", 1)[0]
    assert r"\(Z_{4} = 6 + e^{10}\)" in body or "$Z_{4} = 6 + e^{10}$" in body
    assert r"2/Z_{4} & 1/Z_{4} & 3/Z_{4} & e^{10}/Z_{4}" in body
    assert r"1/3 & 1/6 & 1/2 & 0" in body  # a short rational row stays as it is
    assert r"(14 + 100 e^{10})/Z_{4}" in body
    assert body.count("6 + e^{10}") == 1  # named once, never repeated
    assert (r"O_{4,1} &= (2 \cdot 0 + 1 \cdot 2 + 3 \cdot 4 + e^{10} \cdot 100)/Z_{4} "
            r"= (14 + 100 e^{10})/Z_{4}") in body
    assert r"(2 + 1 + 3 + e^{10})/Z_{4} = 1" in body


def test_example_04_in_chinese_says_ji():
    text = _run("solve", E04, "--format", "markdown", "--lang", "zh")
    assert "各行指数之和分别为 $2$、$3$、$6$、$Z_{4} = 6 + e^{10}$，逐行归一化" in text  # no 记 mid-list


def test_example_09_writes_t1_plus_t2_once():
    text = _run("solve", EXAMPLES / "09_parameter_sweep" / "problem.toml", "--format", "latex")
    body = text.split("All 7 checks", 1)[0]
    assert r"with sum \(Z_{1} = t_{1} + t_{2}\)" in body  # the keys' order, as exponentiated
    assert "+ t_{2}}" not in body and "+ t_{1}}" not in body  # in no denominator
    assert r"\begin{array}{cc} 2 t_{1}/Z_{1} & 4 t_{2}/Z_{1} \end{array}" in body


def test_example_13_names_every_row_sum():
    text = _run("solve", EXAMPLES / "13_five_tokens_no_mask" / "problem.toml", "--format", "latex")
    assert r"t/Z_{2} & t/Z_{2} & t/Z_{2} & t^{2}/Z_{2} & t/Z_{2}" in text
    assert r"\frac{1}{t + 4}" not in text


@pytest.mark.parametrize("lang, words", [
    ("en", r"Rows 1 and 2 sum to 1: \(1\) and \((e^{40 \sqrt{3}/51} + 1)/Z_{2} = 1\). "
           "The other rows sum to exactly 1 too"),
    ("zh", r"第 1、2 行权重之和分别是 \(1\)、\((e^{40 \sqrt{3}/51} + 1)/Z_{2} = 1\)。"
           "其余各行权重之和也都精确为 1")])
def test_example_05_writes_the_short_checks_of_irrational_rows(lang, words):
    text = _run("solve", E05, "--format", "latex", "--lang", lang)
    assert words in text
    assert "Every row sums to exactly 1" not in text


def test_example_05_writes_no_decimal_that_repeats_the_exact_row():
    text = _run("solve", E05, "--format", "latex")
    assert r"A_{1,\cdot} &= \bigl(1, 0, 0, 0, 0\bigr) \\" in text
    assert r"O_{1,\cdot} &= \bigl(1, 0\bigr) \\" in text
    assert r"\approx \bigl(1, 0" not in text
    assert r"A_{2,\cdot} &= Z_{2}^{-1}\bigl(e^{40 \sqrt{3}/51}, 1, 0, 0, 0\bigr) " \
        r"\approx \bigl(0.796, 0.204, 0, 0, 0\bigr)" in text


@pytest.mark.parametrize("lang, words", [("en", r"It gives, with \(Z' = 6 + e^{10}\):"),
                                         ("zh", r"记 \(Z' = 6 + e^{10}\)，由此得到：")])
def test_mistakes_of_example_04_name_the_shared_sum(lang, words):
    text = _run("mistakes", E04, "--format", "latex", "--lang", lang)
    assert words in text
    assert r"2/Z' & 1/Z' & 3/Z' & e^{10}/Z' \\" in text  # a mistake's sum: Z', not solve's Z_4
    assert r"\frac{2}{6 + e^{10}}" not in text


def test_nonunique_of_example_04_names_the_row_sum():
    text = _run("nonunique", E04, "--format", "latex")
    assert r"Observed weights and output, with \(Z = 6 + e^{10}\):" in text
    assert r"a &= \left(2/Z, 1/Z, 3/Z, e^{10}/Z\right)" in text
    # one format with the derivation's: 4.5 × 10^{-5}, not 0.0000 for 1/Z; an exact 0 as 0
    assert r"\approx \left(0.0001, 4.5 \times 10^{-5}, 0.0001, 0.9997\right)" in text
    assert r"\approx \left(0.6667, 0.3333, 0, 0\right)" in text
    assert "0.0000" not in text and "e-5)" not in text


def test_nonunique_writes_no_decimal_of_an_exact_distance():
    text = _run("nonunique", EXAMPLES / "08_same_output_different_weights" / "problem.toml",
                "--format", "latex")
    assert r"(total variation distance \(1\))" in text
    assert r"\approx 1.0000" not in text and r"\left(1, 0, 0\right) \approx" not in text


def test_gradient_writes_no_decimals_of_whole_numbers():
    text = _run("gradient", EXAMPLES / "10_gradient" / "problem.toml", "--format", "latex")
    assert "2.0000 & 4.0000 & 8.0000" not in text
    assert r"-0.1800 & 0.1800" not in text  # dL = [0, -9/50, …]: every decimal ends
    assert r"\approx -0.5393" in text  # d tau = -ln 2 + 7 ln 3/50: a decimal that informs


@pytest.mark.parametrize("x, decimal, nothing", [
    (sp.Rational(1, 10), "0.1000", True), (sp.Integer(2), "2.0000", True),
    (sp.Rational(1, 2), "0.5", True), (sp.Rational(7, 3), "2.3333", False),
    (sp.Rational(1, 1024), "0.0010", False), (sp.Rational(1, 8), "0.12", False),
    (sp.sqrt(2), "1.4142", False)])
def test_a_decimal_adds_nothing_only_when_it_is_the_exact_value(x, decimal, nothing):
    assert adds_nothing(x, decimal) is nothing


def test_shared_sums_name_one_sum_z_and_several_z_i():
    e = sp.exp(10)
    one = sp.Matrix([[2 / (6 + e), 1 / (6 + e), 3 / (6 + e), sp.Rational(1, 3)]])
    names = shared_sums([one])
    assert names == {6 + e: "Z"}
    assert over_names(one, names) == [["2/Z", "1/Z", "3/Z", "1/3"]]
    two = sp.Matrix([[1 / (1 + e)] * 3, [1 / (2 + e)] * 3])
    assert list(shared_sums([two]).values()) == ["Z_{1}", "Z_{2}"]
    assert shared_sums([sp.Matrix([[1 / (1 + e), 2 / (1 + e)]])]) == {}  # twice: as it is


def test_chinese_says_ji_once_when_every_sum_is_named():
    text = _run("solve", EXAMPLES / "13_five_tokens_no_mask" / "problem.toml", "--format",
                "markdown", "--lang", "zh")
    assert "各行指数之和分别记为 $Z_{1} = 2 t^{2} + 2 t + 1$、$Z_{2} = t^{2} + 4 t$、" in text
    assert "记 $Z" not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_named_weights_in_a_check_are_collected(lang):
    """Weights p, p, q: the row's check reads 2p + q = 1, in the text and the row walk, not
    p + p + q = 1; a row of numbers keeps its terms, 1/3 + 1/3 + 1/3 = 1."""
    text = _run("solve", ROOT / "tests" / "forms" / "ones.toml", "--format", "latex",
                "--detail", "full", "--lang", lang)
    assert text.count(r"\(2 p + q = 1\)") == 2 and "p + p + q" not in text
    assert r"\(1/3 + 1/3 + 1/3 = 1\)" in text
