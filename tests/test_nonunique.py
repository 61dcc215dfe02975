"""Non-uniqueness: the course's exercise, unique rows, polytopes checked exactly and by mpmath."""

from __future__ import annotations

import sys
from fractions import Fraction as F

import mpmath
import pytest
import sympy as sp
from clients import compile_tex, katex_errors, math_blocks, pdf_text
from conftest import ROOT

import symattn
from symattn import ProblemError
from symattn.analyses.nonunique import nonunique
from symattn.cli import main

sys.path.insert(0, str(ROOT / "tools"))
from analysis_golden import analysis_golden  # noqa: E402

EXAMPLE = ROOT / "worked_examples/08_same_output_different_weights/problem.toml"
R = sp.Rational


def analyse(name, example, row=None):
    return nonunique(symattn.attend(symattn.load_problem(example(name))), row)


def test_course_exercise_any_split_gives_the_same_output(example):
    """v1 = v2 = (2, -1): every (s, 1 - s) gives (2, -1); the far-apart pair is (1, 0), (0, 1)."""
    result = analyse("08_same_output_different_weights", example)
    first, second = result.rows
    assert first.weights == (R(99, 100), R(1, 100)) and second.weights == (R(1, 100), R(99, 100))
    assert first.output == second.output == (2, -1)
    for rs in result.rows:
        assert not rs.unique and rs.dimension == 1 and rs.rank == 1
        assert rs.null_basis == ((1, -1),)
        assert set(rs.vertices) == {(1, 0), (0, 1)} and rs.complete
        assert set(rs.pair) == {(1, 0), (0, 1)} and rs.distance == 1 and rs.verified
        assert set(rs.tops) == {(0,), (1,)}  # the largest weight sits on different keys
    assert first.segment == (-R(99, 100), R(1, 100))  # a + t(1, -1) >= 0
    assert second.segment == (-R(1, 100), R(99, 100))


def test_the_course_pair_is_in_the_set(example):
    rs = analyse("08_same_output_different_weights", example).rows[0]
    (n,) = rs.null_basis
    for w in ((R(99, 100), R(1, 100)), (R(1, 100), R(99, 100))):
        t = (w[0] - rs.weights[0]) / n[0]
        assert tuple(a + t * d for a, d in zip(rs.weights, n)) == w
        assert rs.segment[0] <= t <= rs.segment[1]


@pytest.mark.parametrize("name", ["01_two_positions", "02_causal_three_positions"])
def test_rows_with_independent_values_are_unique(example, name):
    result = analyse(name, example)
    assert all(rs.unique and rs.pair is None and rs.vertices == () for rs in result.rows)
    assert [rs.rank for rs in result.rows] == [len(rs.support) for rs in result.rows]


def test_scalar_values_leave_a_segment(example):
    """Course exercise 3's row: values 0, 2, 4 read by (1/3, 1/6, 1/2) give 7/3."""
    rs = analyse("04_causal_four_positions", example, row=3).rows[0]
    assert rs.support == (0, 1, 2) and rs.null_basis == ((1, -2, 1, 0),)
    assert set(rs.vertices) == {(R(5, 12), 0, R(7, 12), 0), (0, R(5, 6), R(1, 6), 0)}
    assert rs.distance == R(5, 6) and rs.segment == (-R(1, 3), R(1, 12))
    values = [0, 2, 4, 100]
    for w in rs.vertices:  # checked here in Fractions, independently of SymPy
        fw = [F(int(x.p), int(x.q)) for x in w]
        assert sum(fw) == 1 and min(fw) >= 0
        assert sum(x * v for x, v in zip(fw, values)) == F(7, 3)


def mp_check(result, digits=50):
    """Every vertex, and the pair: on the simplex and V^T w = o to `digits` digits (mpmath)."""
    ctx = mpmath.MPContext()
    ctx.dps = digits + 10
    p = result.trace.problem
    num = lambda x: ctx.mpf(str(sp.N(x, digits + 20)))  # noqa: E731
    worst = ctx.zero
    for rs in result.rows:
        for w in rs.vertices + (rs.pair or ()):
            ws = [num(x) for x in w]
            assert min(ws) > -ctx.mpf(10) ** -digits
            worst = max(worst, abs(ctx.fsum(ws) - 1))
            for c in range(p.d_v):
                o = ctx.fsum(x * num(p.V[j, c]) for j, x in enumerate(ws))
                worst = max(worst, abs(o - num(rs.output[c])))
    return worst


@pytest.mark.parametrize("name, dimensions", [
    ("04_causal_four_positions", [0, 0, 1, 2]),
    ("05_five_tokens_temperature", [0, 0, 0, 1, 2]),
    ("06_cross_attention_padding", [1, 1]),
], ids=["large-logit", "five-tokens", "padding"])
def test_irrational_sets_against_mpmath(example, name, dimensions):
    result = analyse(name, example)
    assert [rs.dimension for rs in result.rows] == dimensions
    assert all(rs.verified for rs in result.rows if not rs.unique)
    assert mp_check(result) < mpmath.mpf(10) ** -45


def test_a_two_dimensional_set_has_three_vertices(example):
    rs = analyse("04_causal_four_positions", example, row=4).rows[0]
    assert rs.dimension == 2 and len(rs.vertices) == 3 and rs.complete
    assert all(sum(1 for x in w if x != 0) == 2 for w in rs.vertices)  # rank 2: two nonzeros


def test_fully_masked_rows():
    zero = symattn.attention([[1], [1]], [[0], [1]], [[1], [2]],
                             keep=[[False, False], [True, True]], fully_masked="zero")
    result = nonunique(zero)
    assert result.skipped == (0,) and [rs.row for rs in result.rows] == [1]
    with pytest.raises(ProblemError, match="row 1 reads no key and its weights are all 0"):
        nonunique(zero, 1)
    uniform = symattn.attention([[1], [1]], [[0], [1]], [[1], [1]],
                                keep=[[False, False], [True, True]], fully_masked="uniform")
    rs = nonunique(uniform, 1).rows[0]
    assert rs.support == (0, 1) and not rs.unique and rs.verified


def test_symbols_are_refused():
    problem = symattn.load_problem(ROOT / "worked_examples/09_parameter_sweep/problem.toml")
    with pytest.raises(ProblemError, match="symbols: the weights contain symbols"):
        nonunique(symattn.attend(problem))


def test_committed_nonunique_documents_are_current():
    files = analysis_golden(EXAMPLE)
    assert sorted(n for n in files if n.startswith("nonunique")) == [
        "nonunique.en.md", "nonunique.en.tex", "nonunique.zh.md", "nonunique.zh.tex"]
    for name, text in files.items():
        assert (EXAMPLE.parent / name).read_text(encoding="utf-8") == text, \
            f"{name} differs: run python tools/regenerate.py and review the diff"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_nonunique_document_compiles(lang):
    tex = (EXAMPLE.parent / f"nonunique.{lang}.tex").read_text(encoding="utf-8")
    text = pdf_text(compile_tex(tex, lang))
    assert {"en": "Non-uniqueness", "zh": "非唯一性"}[lang] in text


def test_nonunique_markdown_renders_with_katex():
    md = {lang: (EXAMPLE.parent / f"nonunique.{lang}.md").read_text(encoding="utf-8")
          for lang in ("en", "zh")}
    assert r"\textstyle\sum_j w'_j V_{j,2} &= 0 \cdot \left(-1\right) + 1 \cdot \left(-1\right) = -1" \
        in md["en"]
    assert "最大权重位于不同的 key（$k_{1}$ 与 $k_{2}$）" in md["zh"]
    assert katex_errors(math_blocks(md["en"]) + math_blocks(md["zh"])) == []


def test_cli_nonunique(example, capsys):
    assert main(["nonunique", str(EXAMPLE), "--row", "1"]) == 0
    out = capsys.readouterr().out
    assert "row 1: weights a = (99/100, 1/100)" in out and "row 2" not in out
    assert "total variation distance 1 ~ 1.0000; both give o exactly: yes" in out
    assert main(["nonunique", str(example("02_causal_three_positions")), "--format", "json"]) == 0
    assert '"unique": true' in capsys.readouterr().out
    assert main(["nonunique", str(EXAMPLE), "--row", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "--row must be from 1 to 2" in err and err.count("\n") == 1


def test_python_api():
    from symattn.api import render_analysis, weights_with_same_output
    trace = symattn.attention([[1]], [["ln(3)"], [0]], [[2, -1], [2, -1]], scale="none")
    result = weights_with_same_output(trace, 1)
    assert result.rows[0].weights == (R(3, 4), R(1, 4)) and not result.rows[0].unique
    assert "both give o exactly: yes" in render_analysis(result, "text")


def test_zero_tests_are_bounded_and_never_guess():
    """A numerator that vanishes to 60 digits is expanded once more and evaluated to 400; one
    that is still 0 there but not provably so raises, instead of an unbounded simplify."""
    from symattn.errors import UndecidedError
    from symattn.exact.tidy import is_zero
    assert is_zero(sp.exp(sp.log(2) / 3) ** 3 - 2)
    assert is_zero(sp.sqrt(2) * sp.sqrt(3) - sp.sqrt(6))
    assert not is_zero(sp.sqrt(2) - 1)
    assert not is_zero(sp.exp(sp.Rational(1, 10 ** 70)) - 1)  # 1e-70 beside 1: 400 digits tell
    with pytest.raises(UndecidedError, match="0 to 400 digits"):
        is_zero(sp.sin(1) ** 2 + sp.cos(1) ** 2 - 1)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("suffix", ["tex", "md"])
def test_nonunique_shows_v_before_using_its_entries(lang, suffix):
    """Issue 30: the document summed w_j V_{j,1} and never displayed V; it now opens with
    solve's setup, Q, K and V as solve shows them."""
    text = (EXAMPLE.parent / f"nonunique.{lang}.{suffix}").read_text(encoding="utf-8")
    v = r"V = \left[\begin{array}{cc} 2 & -1 \\ 2 & -1 \end{array}\right]"
    assert v in text and text.index(v) < text.index("V_{j,1}")
    assert text.index("Take " if lang == "en" else "取 ") < text.index(v)


def test_a_segment_with_terminating_ends_has_no_decimals_after_it(capsys):
    """Example 08: −99/100 ≤ t ≤ 1/100 was followed by (−0.9900 ≤ t ≤ 0.0100)."""
    from conftest import EXAMPLES
    from symattn import cli
    path = EXAMPLES / "08_same_output_different_weights" / "problem.toml"
    assert cli.main(["nonunique", str(path), "--format", "latex"]) == 0
    text = capsys.readouterr().out
    assert r"\[- \frac{99}{100} \le t \le \frac{1}{100}\]" in text and "-0.9900" not in text
