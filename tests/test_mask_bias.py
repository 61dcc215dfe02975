"""Masks that add a large negative number instead of -oo ([attention] mask_bias = "-1e9", as
courses code scores += (1 - mask) * -1e9): exact values of what that code computes, masked keys
shown as masked (M with -10^9, ε = e^(-10^9)), the leak bounded by a check, the independent
cross-check consistent at e^(-10^9), and claims in the course's convention judged right."""

from __future__ import annotations

import json

import mpmath
import pytest
import sympy as sp
from clients import compile_tex, katex_errors, math_blocks, need

import symattn
from symattn.answers.verify import verify
from symattn.checks.leaks import NEGLIGIBLE_DIGITS
from symattn.cli.main import main
from symattn.errors import InputError
from symattn.numeric import Evaluator, recompute
from symattn.parse.claims import parse_claim

CAUSAL = """tokens = ["a", "b", "c"]
[input]
Q = [[1], [2], [1]]
K = [[0], ["ln(3)"], ["ln(2)"]]
V = [[2, 0], [0, 4], [6, 2]]
[attention]
mask = "causal"
mask_bias = "-1e9"
"""


@pytest.fixture(scope="module")
def trace():
    return symattn.attend(symattn.parse_problem(CAUSAL))


def test_the_values_are_what_the_code_computes(trace):
    """Exactly softmax(S + M) with M = -10^9 where masked: a masked weight is e^(-10^9)-small,
    never 0, every row sums to 1, and no weight is written over e^(10^9)."""
    eps = sp.exp(-1000000000)
    assert trace.M[0, 1] == -1000000000 and trace.readable[0] == (True, True, True)
    assert trace.masked_by_bias == ((False, True, True), (False, False, True), (False,) * 3)
    assert sp.simplify(trace.A[0, 1] - 3 * eps / (1 + 5 * eps)) == 0
    assert trace.A[0, 1] != 0 and trace.A[2, 0] == sp.Rational(1, 6)
    assert not any(a.args[0] > 0 for x in trace.A for a in x.atoms(sp.exp))


def test_the_cross_check_is_consistent_at_e_to_minus_a_billion(trace):
    """mpmath has no underflow: the independent recomputation gives the same tiny weights."""
    numbers = recompute(trace.problem, 50)["A"]
    exact = Evaluator(50)(trace.A[0, 1])
    assert 0 < numbers[0][1] < mpmath.mpf(10) ** -434294481
    assert abs(numbers[0][1] - exact) <= mpmath.mpf(10) ** -40 * numbers[0][1]
    report = symattn.check(trace)
    assert report.passed
    small = next(r for r in report.results if r.check == "masked_small")
    assert dict(small.values)["below"] == 434294481 and dict(small.values)["count"] == 3


def test_a_bias_too_small_to_mask_fails_its_check(capsys, tmp_path):
    path = tmp_path / "p.toml"
    path.write_text("[input]\nQ = [[10]]\nK = [[10], [-10]]\nV = [[1], [2]]\n[attention]\n"
                    'keep = [[true, false]]\nmask_bias = -100\nscale = "none"\n', encoding="utf-8")
    # the masked logit is -100 - 100 against 100: e^(-400), below 10^-173: negligible
    assert main(["check", str(path)]) == 0
    path.write_text("[input]\nQ = [[10]]\nK = [[-10], [10]]\nV = [[1], [2]]\n[attention]\n"
                    'keep = [[true, false]]\nmask_bias = -200\nscale = "none"\n', encoding="utf-8")
    # -200 + 100 against -100: e^0, the masked key weighs 1/2
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "[FAIL] masked weights negligible" in out and f"10^-{NEGLIGIBLE_DIGITS} needed" in out


@pytest.mark.parametrize("given, status, rule", [
    ("0.0", "correct", ("places", 1)),
    ("0.0000000e+00", "correct", ("places", 7)),
    ("0", "correct", ("masked", 200)),
    ("(1, 0, 0)", "correct", ("masked", 200)),
    ("1/2", "wrong", ("exact",)),
], ids=["decimal", "float32-zero", "exact-zero", "row", "wrong"])
def test_claims_in_the_courses_convention_are_right(given, status, rule, trace):
    key = "A[1]" if given.startswith("(") else "A[1,2]"
    verdict = verify(trace.problem, (parse_claim(key, given),)).verdicts[0]
    assert verdict.status == status
    assert verdict.entries[-1].rule == rule


def test_minus_infinity_in_M_and_exact_rows(trace, capsys, tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(CAUSAL + '[answers]\n"M[1,2]" = "-oo"\n"L[1,2]" = "-1e9 + ln(3)"\n'
                    '"A[2]" = "(1/10, 9/10, 0)"\n"O[1]" = [2, 0]\n"A[3]" = "(1/6, 1/2, 1/3)"\n',
                    encoding="utf-8")
    assert main(["verify", str(path), "--format", "json", "--lang", "zh"]) == 0
    claims = json.loads(capsys.readouterr().out)["claims"]
    assert [c["status"] for c in claims] == ["correct"] * 5
    assert "mask_bias" in claims[0]["entries"][0]["rule_text"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_derivation_shows_the_masks_and_the_small_name(lang, trace):
    markdown = symattn.render(trace, "markdown", lang=lang, detail="full")
    assert r"\epsilon = e^{- 10^{9}}" in markdown and "- 10^{9}" in markdown
    assert "1000000000" not in markdown and r"e^{- \infty}" not in markdown
    assert r"Z_{1} = 5 \epsilon + 1" in markdown and r"3 \epsilon/Z_{1}" in markdown  # a leak, named
    assert ("not 0 but" in markdown or "No masked weight is exactly 0" in markdown) \
        if lang == "en" else "不精确为 0" in markdown
    assert katex_errors(math_blocks(markdown)) == []
    latex = symattn.render(trace, "latex", lang=lang, detail="full", standalone=True)
    pdf = compile_tex(latex, lang)
    log = pdf.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
    assert "Overfull" not in log


def test_the_heatmap_writes_a_tiny_weight_as_the_text_does(trace):
    """e^(-10^9)-small weights are no 0: the heatmap writes them as A ≈ […] does, in cells
    wide enough for the label (tests/test_print_ready.py measures them)."""
    assert r"{$3.7 \times 10^{-434294482}$}" in symattn.render(trace, "markdown", figure=True)
    assert r"{\(3.7 \times 10^{-434294482}\)};" in symattn.render(trace, "latex", figure=True)


def test_text_and_json_say_what_the_masks_add(trace):
    text = symattn.render(trace, "text")
    assert "the masks add mask_bias = -1000000000 instead of -oo" in text
    assert "M (additive mask: 0 = may read, -1000000000 = may not, mask_bias for -oo)" in text
    document = json.loads(symattn.render(trace, "json"))
    assert document["mask_bias"] == "-1000000000"
    assert document["masked_by_bias"][0] == [False, True, True]


def test_a_row_that_masks_every_key_is_the_softmax_of_its_scores():
    problem = symattn.parse_problem(
        "[input]\nQ = [[1], [1]]\nK = [[0], [1]]\nV = [[1], [2]]\n[attention]\n"
        'key_lengths = [0, 1]\nmask_bias = "-1e9"\n')
    trace = symattn.attend(problem)
    e = sp.exp(sp.Rational(1, 1))
    assert sp.simplify(trace.A[0, 1] - e / (1 + e)) == 0  # the bias cancels in row 1
    assert symattn.check(trace).passed
    markdown = symattn.render(trace, "markdown")
    assert "Row 1 masks every key" in markdown


def test_temperature_limits_read_off_the_signs(capsys, tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(CAUSAL, encoding="utf-8")
    assert main(["limits", str(path)]) == 0
    out = capsys.readouterr().out
    assert "limits read off the signs of the logit differences" in out
    assert "['1/3', '1/3', '1/3']" in out  # the bias fades: every key shares the hot limit


def test_agrees_with_torch_given_the_same_bias(trace):
    try:
        import torch
    except ImportError:
        torch = None
    need(torch is not None, "torch is not installed")
    p = trace.problem
    q = torch.tensor([[float(x) for x in p.Q.row(i)] for i in range(p.n_q)], dtype=torch.float64)
    k = torch.tensor([[float(x) for x in p.K.row(i)] for i in range(p.n_k)], dtype=torch.float64)
    v = torch.tensor([[float(x) for x in p.V.row(i)] for i in range(p.n_k)], dtype=torch.float64)
    mask = torch.tensor([[1.0 if j > i else 0.0 for j in range(3)] for i in range(3)],
                        dtype=torch.float64)
    weights = torch.softmax(q @ k.T + mask * -1e9, dim=-1)
    assert torch.allclose(weights, torch.tensor([[float(x) for x in trace.A.row(i)]
                                                 for i in range(3)], dtype=torch.float64),
                          atol=1e-12, rtol=0)
    assert torch.allclose(weights @ v, torch.tensor([[float(x) for x in trace.O.row(i)]
                                                     for i in range(3)], dtype=torch.float64))


@pytest.mark.parametrize("options, message", [
    ('mask = "causal"\nmask_bias = -10', "attention.mask_bias: must be a negative number, at most "
                                        "-100, such as -1e9"),
    ('mask = "causal"\nmask_bias = "-oo"', "attention.mask_bias: -oo is the default"),
    ('mask = "causal"\nmask_bias = "t"', "attention.mask_bias, column 1: unknown name 't'"),
    ('mask = "causal"\nmask_bias = true', "attention.mask_bias: must be a number such as -1e9"),
    ('mask_bias = "-1e9"', "attention.mask_bias: there is no mask for it to apply"),
    ('mask = "causal"\nmask_bias = "-1e9"\nbias = [[0, "-oo"], [0, 0]]',
     "attention.bias: with mask_bias the masks add it, not -oo"),
    ('mask = "causal"\nmask_bias = "-1e9"\nfully_masked = "zero"',
     "attention.fully_masked: does not apply with mask_bias"),
], ids=["too-small", "minus-infinity", "symbol", "boolean", "no-mask", "oo-bias", "policy"])
def test_mask_bias_refused_with_the_key(options, message):
    with pytest.raises(InputError) as error:
        symattn.parse_problem(f"[input]\nQ = [[1], [2]]\nK = [[1], [2]]\nV = [[1], [2]]\n"
                              f"[attention]\n{options}\n", source="p.toml")
    assert str(error.value).startswith(f"p.toml, {message}")


def test_minus_infinity_in_given_logits_is_refused_with_mask_bias():
    with pytest.raises(InputError, match="p.toml, input.L: with mask_bias give the masked"):
        symattn.parse_problem('[input]\nL = [[1, "-oo"]]\nV = [[1], [2]]\n[attention]\n'
                              'keep = [[true, true]]\nmask_bias = "-1e9"\n', source="p.toml")


def test_multi_head_claims_in_the_courses_convention(tmp_path, capsys):
    path = tmp_path / "p.toml"
    path.write_text("[input]\nX = [[1, 0], [0, 1], [1, 1]]\nW_O = [[1, 0], [0, 1], [1, 1]]\n"
                    '[attention]\nmask = "causal"\nmask_bias = "-1e9"\n'
                    '[[heads]]\nW_Q = [[1], [0]]\nW_K = [["ln(2)"], [0]]\nW_V = [[1], [0]]\n'
                    '[[heads]]\nW_Q = [[0], [1]]\nW_K = [[0], ["ln(3)"]]\nW_V = [[0, 1], [1, 0]]\n'
                    '[answers]\n"head[1].A[1]" = "(1, 0, 0)"\n"O[1]" = "(2, 1)"\n',
                    encoding="utf-8")
    assert main(["verify", str(path)]) == 0, capsys.readouterr().out
    assert main(["check", str(path)]) == 0
    assert "masked weights negligible" in capsys.readouterr().out
