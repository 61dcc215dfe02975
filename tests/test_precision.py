"""Answers as courses print them: float32 and float64 results judged by [grading] rule, numpy's
allclose, and the feedback around them (precision hints, the expected value written like the
answer, text that is no answer, every reason in English and Chinese).

The float32 arrays of DeepLearning.AI's test are copied verbatim from its grader
(Deep Learning Specialization, course 5 week 4, public_tests.py,
test_scaled_dot_product_attention); the others are computed here with PyTorch.
"""

from __future__ import annotations

import csv
import random
import re
import struct
import warnings

import pytest
import sympy as sp
from clients import need
from conftest import EXAMPLES

from symattn import attend, cli, load_problem, parse_problem
from symattn.answers.batch import grade
from symattn.answers.precision import ROUNDINGS, Sizes, allowance, short
from symattn.answers.rounding import expected_decimal
from symattn.answers.verify import facts_of, verify
from symattn.errors import InputError
from symattn.model import Grading
from symattn.numeric import context, to_mpf
from symattn.parse.claims import parse_claim
from symattn.parse.submissions import read_submissions
from symattn.targets.grades import feedback
from symattn.targets.verdicts import render_verification_text
from symattn.words import phrase
from symattn.words.answers import ANSWER_PHRASES
from symattn.words.exercises import EXERCISE_PHRASES, MISTAKE_NAMES
from symattn.words.reading import READING_PHRASES

try:
    with warnings.catch_warnings():  # torch warns at import when NumPy is absent (as in CI)
        warnings.simplefilter("ignore", UserWarning)
        import torch
except ImportError:  # judged per test by need(): a skip, or a failure in CI
    torch = None

DLAI = """title = "DeepLearning.AI scaled_dot_product_attention test"
[input]
Q = [[1, 1, 0, 1], [0, 1, 1, 1], [1, 0, 1, 1]]
K = [[1, 1, 0, 1], [1, 0, 1, 1], [1, 1, 1, 0], [0, 0, 0, 1]]
V = [[0, 0], [1, 0], [1, 0], [1, 1]]
"""
DLAI_MASK = "[attention]\nkeep = [[false, true, false, true], [true, false, false, true], " \
            "[true, true, false, true]]\n"  # the test's mask [[0, 1, 0, 1], ...]: 1 = may read
DLAI_WEIGHTS = """[[0.3874556,  0.23500372, 0.23500372, 0.14253697],
 [0.2772748,  0.2772748,  0.2772748,  0.16817565],
 [0.23500372, 0.3874556,  0.23500372, 0.14253697]]"""
DLAI_OUTPUT = """[[0.6125444,  0.14253697],
 [0.7227252,  0.16817565],
 [0.7649963,  0.14253697]]"""
DLAI_MASKED_WEIGHTS = """[[0.0,        0.62245935, 0.0,        0.37754068],
 [0.62245935, 0.0,        0.0,        0.37754068],
 [0.30719587, 0.5064804,  0.0,        0.18632373]]"""
DLAI_MASKED_OUTPUT = """[[1.0,        0.37754068],
 [0.37754068, 0.37754068],
 [0.6928041,  0.18632373]]"""
FLOAT32, FLOAT64 = Grading(rule="float32"), Grading(rule="float64")
CTX = context(40)


def judged(problem, grading, **claims):
    return verify(problem, tuple(parse_claim(k, v) for k, v in claims.items()), grading)


def test_the_published_float32_arrays_are_correct_under_rule_float32():
    """Every entry of DeepLearning.AI's expected arrays, masked and unmasked."""
    for problem, claims in ((parse_problem(DLAI), {"A": DLAI_WEIGHTS, "O": DLAI_OUTPUT}),
                            (parse_problem(DLAI + DLAI_MASK),
                             {"A": DLAI_MASKED_WEIGHTS, "O": DLAI_MASKED_OUTPUT})):
        report = judged(problem, FLOAT32, **claims)
        assert [v.status for v in report.verdicts] == ["correct", "correct"]
        assert judged(problem, FLOAT64, **claims).status == "wrong"  # float32 is not float64


def test_without_a_rule_they_are_wrong_and_said_to_agree_to_float32():
    report = judged(parse_problem(DLAI), Grading(), A=DLAI_WEIGHTS, O=DLAI_OUTPUT)
    weights = report.verdicts[0]
    bad = [e for e in weights.entries if e.status != "correct"]
    assert weights.status == "wrong" and len(bad) == 7
    assert weights.diagnosis is None and weights.remarks == ()  # no mistake, nothing impossible
    assert bad[0].position == (0, 1) and bad[0].given == "0.23500372"
    assert bad[0].hint == ("hint_float", "float32", ("off_relative", "3e-8"))
    assert bad[0].expected_decimal == "0.23500371"  # as many places as the answer
    text = render_verification_text(report)
    assert ("    the 7 entries marked wrong all agree with the exact values to float32 precision; "
            'set rule = "float32" in [grading] to accept') in text
    assert ("    A[1,2]: expected exp(1/2)/(1 + e + 2*exp(1/2)) (≈ 0.23500371), given 0.23500372 "
            "(3e-8 relative)") in text
    assert "no classic mistake" not in text and "must be the exact value" not in text
    zh = render_verification_text(report, "zh")
    assert "判为错误的 7 个条目都与精确值在 float32 精度内一致；在 [grading] 中设 rule = \"float32\" 即可接受" in zh
    assert "(相对误差 3e-8)" in zh


def test_a_single_entry_says_it_in_one_sentence():
    report = judged(parse_problem(DLAI), Grading(), **{"O[1,2]": "0.14253697"})
    assert ("O[1,2]: expected 1/(1 + e + 2*exp(1/2)) (≈ 0.14253696), given 0.14253697; agrees "
            'with the exact value to float32 precision (9e-8 relative); set rule = "float32" in '
            "[grading] to accept") in render_verification_text(report)


def test_float32_judged_as_float64_says_it_is_float32():
    report = judged(parse_problem(DLAI), FLOAT64, **{"A[1,2]": "0.23500372"})
    entry = report.verdicts[0].entries[0]
    assert entry.rule == ("float", "float64", ("off_relative", "3e-8"))
    assert entry.hint == ("hint_float", "float32", ("off_relative", "3e-8"))


def test_the_rule_is_exactly_the_documented_bound():
    """|d - x| <= h + 32·2^-24·λ·x + 2^-126 for a weight, λ = 1 + |L_ij| + 2|m_i|: just inside
    is correct, just outside is wrong."""
    problem = parse_problem(DLAI)
    facts = facts_of(problem)
    x = facts.matrices["A"][0, 0]  # logits (1.5, 1, 1, 0.5): λ = 1 + 1.5 + 2·1.5
    size = Sizes(facts).of("A", (0, 0), x)
    assert abs(size - sp.Rational(11, 2) * to_mpf(CTX, x, {})) < CTX.mpf(10) ** -35
    bound = ROUNDINGS * CTX.mpf(2) ** -24 * size + CTX.mpf(2) ** -126
    for factor, status in ((0.99, "correct"), (1.01, "wrong")):
        given = CTX.nstr(to_mpf(CTX, x, {}) + factor * bound, 30, min_fixed=-1, max_fixed=1)
        assert judged(problem, FLOAT32, **{"A[1,1]": given}).status == status, given
    assert allowance("float32", lambda: size) >= sp.Rational(int(bound * 10 ** 12), 10 ** 12)


@pytest.mark.parametrize("given, status", [
    ("0.3875", "correct"),  # PyTorch's four places: correctly rounded is always accepted
    ("0.38746", "correct"), ("0.38747", "wrong"), ("0.3874", "wrong"), ("3.8745561e-01", "correct"),
    ("0.387455582618713378906", "correct"),  # the float32 nearest, printed in full
])
def test_float32_widens_correct_rounding_never_narrows_it(given, status):
    assert judged(parse_problem(DLAI), FLOAT32, **{"A[1,1]": given}).status == status


def _float32_attention(problem, dtype, *, scale=True, causal=True):
    """A and O as PyTorch computes them (softmax(QKᵀ·s + M) V, like the labs) in dtype."""
    trace = attend(problem)

    def tensor(matrix):
        return torch.tensor([[float(to_mpf(CTX, x, {})) if x != -sp.oo else float("-inf")
                              for x in row] for row in matrix.tolist()], dtype=dtype)
    q, k, v, m = tensor(trace.Q), tensor(trace.K), tensor(trace.V), tensor(trace.M)
    s = float(to_mpf(CTX, problem.scale_factor, {})) if scale else 1.0
    tau = float(to_mpf(CTX, problem.temperature, {}))
    a = torch.softmax((q @ k.T * s + (m if causal else torch.zeros_like(m))) / tau, dim=-1)
    return a, a @ v


def _float32_str(x: float) -> str:
    """As NumPy prints a float32: the fewest digits that read back as the same float32."""
    def single(v: float) -> float:
        return struct.unpack("f", struct.pack("f", v))[0]
    value = single(x)
    digits = next(f"{value:.{p}g}" for p in range(1, 10) if single(float(f"{value:.{p}g}")) == value)
    return repr(float(digits))  # 1 -> 1.0, 1e-05 stays: NumPy's spelling of the same digits


def _printed(t) -> str:
    """As NumPy prints the array: float32 shortest reprs, float64 reprs."""
    show = _float32_str if t.dtype == torch.float32 else (lambda x: repr(float(x)))
    return "[" + ", ".join("[" + ", ".join(show(x) for x in row) + "]" for row in t.tolist()) + "]"


@pytest.mark.parametrize("name", ["02_causal_three_positions", "05_five_tokens_temperature",
                                  "06_cross_attention_padding", "13_five_tokens_no_mask"])
def test_pytorch_results_are_accepted_under_their_rule(name):
    need(torch is not None, "torch is not installed (pip install 'symattn[torch]')")
    problem = load_problem(EXAMPLES / name / "problem.toml")
    for dtype, rule in ((torch.float32, FLOAT32), (torch.float64, FLOAT64)):
        a, o = _float32_attention(problem, dtype)
        claims = {"A": _printed(a), "O": _printed(o)}
        assert judged(problem, rule, **claims).status == "correct", (name, rule)
        plain = judged(problem, Grading(), **claims)  # without the rule: said so, never silent
        for verdict in plain.verdicts:
            assert all(e.hint and e.hint[1] == rule.rule for e in verdict.entries
                       if e.status != "correct"), (name, rule, verdict)


def test_random_float32_problems_stay_within_the_rule():
    """Sixty seeded problems with decimals, masks and temperatures, computed in float32 by
    PyTorch: every entry accepted (the measurement behind ROUNDINGS, in small)."""
    need(torch is not None, "torch is not installed (pip install 'symattn[torch]')")
    rng = random.Random(29)
    for case in range(60):
        n_q, n_k, d_k = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4)
        def rows(n, d):
            return "[" + ", ".join("[" + ", ".join(f'"{rng.randint(-30, 30) / 10}"'
                                                   for _ in range(d)) + "]" for _ in range(n)) + "]"
        tau = rng.choice(["1", "0.5", "17/20", "2"])
        text = (f"[input]\nQ = {rows(n_q, d_k)}\nK = {rows(n_k, d_k)}\nV = {rows(n_k, 2)}\n"
                f'[attention]\ntemperature = "{tau}"\n')
        problem = parse_problem(text)
        a, o = _float32_attention(problem, torch.float32)
        report = judged(problem, FLOAT32, A=_printed(a), O=_printed(o))
        assert report.status == "correct", (case, text, render_verification_text(report))


def test_a_classic_mistake_is_still_diagnosed_under_float32():
    need(torch is not None, "torch is not installed (pip install 'symattn[torch]')")
    dlai = parse_problem(DLAI)
    _, o = _float32_attention(dlai, torch.float32, scale=False)  # forgot 1/sqrt(d_k)
    verdict = judged(dlai, FLOAT32, O=_printed(o)).verdicts[0]
    assert (verdict.status, verdict.diagnosis) == ("wrong", "no_scale")
    causal = load_problem(EXAMPLES / "02_causal_three_positions" / "problem.toml")
    a, _ = _float32_attention(causal, torch.float32, causal=False)
    verdict = judged(causal, FLOAT32, A=_printed(a)).verdicts[0]
    assert (verdict.status, verdict.diagnosis) == ("wrong", "no_causal_mask")
    assert not any(e.hint for e in verdict.entries)  # a mistake is not a precision matter


ALLCLOSE = '[grading]\nrule = "allclose"\n'


@pytest.mark.parametrize("table, given, status", [
    ("", "0.66977", "wrong"),  # numpy's defaults: 8.5e-6 > 1e-08 + 1e-05 * 0.67
    ("", "0.669765", "correct"),
    ("rtol = 1e-4\n", "0.66977", "correct"),  # a TOML number, read from its text
    ('rtol = "0"\natol = "1e-5"\n', "0.66977", "correct"),
    ('rtol = "0"\natol = "1e-6"\n', "0.66977", "wrong"),
    ("atol = 0.01\n", "0.67", "correct"), ("atol = 0.01\n", "0.68", "wrong"),
    ("atol = 0.01\n", "2/3", "correct"),  # an expression is compared by value under the rule
], ids=lambda x: x if isinstance(x, str) else None)
def test_allclose_with_rtol_and_atol(table, given, status):
    two = (EXAMPLES / "01_two_positions" / "problem.toml").read_text(encoding="utf-8")
    problem = parse_problem(two.replace("[answers]", ALLCLOSE + table + "[answers]", 1))
    assert problem.grading.rule == "allclose"
    verdict = verify(problem, (parse_claim("A[1,1]", given),)).verdicts[0]
    assert verdict.status == status
    if status == "wrong" and "/" not in given:
        assert verdict.entries[0].rule[0] == "allclose"


def test_allclose_reads_numpys_defaults():
    problem = parse_problem("[input]\nQ = [[1]]\nK = [[1]]\nV = [[1]]\n" + ALLCLOSE)
    assert problem.grading == Grading(rule="allclose", rtol=sp.Rational(1, 10 ** 5),
                                      atol=sp.Rational(1, 10 ** 8))
    verdict = verify(problem, (parse_claim("O[1,1]", "1.00002"),)).verdicts[0]
    assert "|given − exact| ≤ atol + rtol·|exact| (rtol = 1e-05, atol = 1e-08)" in \
        render_verification_text(verify(problem, (parse_claim("O[1,1]", "1.00002"),)))
    assert verdict.status == "wrong"


@pytest.mark.parametrize("table, message", [
    ('rule = "float16"', 'grading.rule: must be one of "float32", "float64", "allclose"'),
    ("rule = 32", "grading.rule: must be one of"),
    ('rtol = "1e-5"', 'grading.rtol: goes with rule = "allclose"'),
    ('rule = "float32"\natol = 0.1', 'grading.atol: goes with rule = "allclose"'),
    ('rule = "allclose"\nrtol = "-1e-5"', "grading.rtol: must be 0 or more"),
    ('rule = "allclose"\natol = "1e-"', "grading.atol, column 2: implicit multiplication"),
    ('rule = "allclose"\natol = true', "grading.atol: must be a number, 0 or more"),
    ('rule = "float32"\ntolerance = 0.1', "grading: give one rule"),
])
def test_bad_rules_are_one_line_errors_naming_the_key(tmp_path, capsys, table, message):
    path = tmp_path / "p.toml"
    path.write_text(DLAI + "[answers]\nO = 1\n[grading]\n" + table + "\n", encoding="utf-8")
    code = cli.main(["verify", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1 and str(path) in err, err
    with pytest.raises(InputError):
        load_problem(path)


@pytest.mark.parametrize("text", ["see my notebook", "idk", "42 lol", "N/A", "不知道", "?",
                                  "__import__('os')", "the answer is 0.5"])
def test_text_that_is_no_answer_gets_one_plain_sentence(text):
    claim = parse_claim("O[1,1]", text)
    reasons = [g.reason for row in claim.rows for g in row if g.value is None] or [claim.reason]
    assert reasons == [("read_unreadable",)], (text, reasons)
    line = render_verification_text(judged(parse_problem(DLAI), Grading(), **{"O[1,1]": text}))
    assert "could not read this as a number or matrix" in line
    assert "implicit multiplication" not in line and "unknown name" not in line
    zh = render_verification_text(judged(parse_problem(DLAI), Grading(), **{"O[1,1]": text}), "zh")
    assert "无法将其读作数字或矩阵" in zh


@pytest.mark.parametrize("text, reason", [
    ("2pi", ("read_implicit", 2, "2*pi")),
    ("ln 3", ("read_parentheses", 4, "ln", "ln(3)")),
    ("x/2", ("read_unknown_name", 1, "x")),
    ("cos(theta)", ("read_unknown_name", 5, "theta")),
    ("1/0", ("read_division_by_zero", 2)),
    ("sqrt(-1)", ("read_not_real", 1)),
    ("0.5²", ("read_character", 4, "'²' (U+00B2)")),
])
def test_a_near_miss_keeps_its_precise_hint(text, reason):
    claim = parse_claim("O[1,1]", text)
    assert (claim.reason or claim.rows[0][0].reason) == reason


def test_a_shortened_printout_or_open_bracket_says_so():
    assert parse_claim("A", "[[0.1 0.2 ... 0.3]]").reason == ("read_shortened",)
    assert parse_claim("A", "[[0.1, 0.2], [0.3, 0.4]").reason == ("read_brackets",)


def test_the_expected_value_is_written_like_the_answer():
    x = sp.exp(sp.Rational(1, 2)) / (1 + sp.E + 2 * sp.exp(sp.Rational(1, 2)))  # 0.2350037122

    def shown(text, value=x, sigfigs=None):
        return expected_decimal(value, parse_claim("A[1,1]", text).rows[0][0], sigfigs)
    assert shown("0.23500372") == "0.23500371"  # 8 places beside 8 places
    assert shown("2.3500372e-01") == "2.3500371e-01"  # 8 significant figures, as written
    assert shown("6.0337e-06", sp.Rational(6033751, 10 ** 12)) == "6.0338e-06"
    assert shown("0.24") == "0.235"  # the same digits as the answer: one more place
    assert shown("exp(1)/3") == "0.2350"  # beside an expression: four places
    assert shown("0", x / 40000) == "5.9e-06"  # never 0.0000
    assert shown("0.1", sp.Rational(128, 10 ** 4)) == "0.013"  # not 0.0
    assert shown("0.6698", sp.Rational(66976, 10 ** 5), 3) == "0.670"  # the rule's figures


def test_a_row_sum_shows_the_digits_that_make_it_not_1():
    causal = load_problem(EXAMPLES / "03_uniform_weights" / "problem.toml")
    report = judged(causal, Grading(sigfigs=3), **{"A[1]": "(0.3333334, 0.3333334, 0.3333334)"})
    assert report.verdicts[0].remarks == (("row_sum", (1, "1.0000002")),)
    assert "sum to 1.0000002, not 1" in render_verification_text(report)


def test_a_long_or_decimal_closed_form_is_shown_by_its_decimal():
    problem = parse_problem('[input]\nQ = [["cos(0.01)", "sin(0.01)"], [1, 0]]\n'
                            'K = [["cos(0.01)", "sin(0.01)"], [0, 1]]\nV = [[0.5, 0], [0, 0.5]]\n')
    text = render_verification_text(judged(problem, Grading(), **{"A[1,1]": "0.6", "R[2,1]": "0.9",
                                                                  "R[1,1]": "0.9"}))
    assert "    A[1,1]: expected ≈ 0.7, given 0.6;" in text
    assert "    R[2,1]: expected ≈ 1.0, given 0.9;" in text  # cos(0.01), by its decimal
    assert "    R[1,1]: expected 1, given 0.9;" in text  # cos²(0.01) + sin²(0.01), exactly 1
    assert "sin(0.01)" not in text and "**" not in text


def test_short_numbers():
    assert [short(CTX.mpf(x)) for x in ("3.3e-8", "0.00249", "0.4", "7.4", "2500", "0.096", "0")] \
        == ["3e-8", "0.002", "0.4", "7", "2e3", "0.1", "0"]


def _english_fragments() -> set[str]:
    """Every fixed piece of words (two or more) of the English answer and reading phrases
    that its Chinese text does not share (statuses stay machine names in the CSV)."""
    out = set()
    for table in (ANSWER_PHRASES, READING_PHRASES, EXERCISE_PHRASES, MISTAKE_NAMES):
        for texts in table.values():
            for piece in re.split(r"\{[^}]*\}", texts["en"]):
                piece = piece.strip(" ;:,()")
                if " " in piece and re.search("[a-z]{3}", piece) and piece not in texts["zh"]:
                    out.add(piece)
    return out


def test_chinese_reports_of_verify_and_grade_have_no_english_reason(tmp_path, capsys):
    problem = tmp_path / "dlai.toml"
    problem.write_text(DLAI, encoding="utf-8")
    answers = tmp_path / "answers.toml"
    answers.write_text(f'[answers]\nA = """{DLAI_WEIGHTS}"""\n"O[1,1]" = "see my notebook"\n'
                       '"O[2,1]" = "2pi"\n"O[3]" = "(0.5, 0.5, 0.5)"\n"A[2]" = "(0.25, 0.25, 0.25, 0.24)"\n'
                       '"O[1,2]" = "0.14"\n"shape(A)" = "4 by 3"\n"O[3,1]" = "1/0"\n',
                       encoding="utf-8")
    assert cli.main(["verify", str(problem), "--answers", str(answers), "--lang", "zh"]) == 1
    verified = capsys.readouterr().out
    assert "无法将其读作数字或矩阵" in verified and "第 2 列：省略了乘号" in verified
    subs = tmp_path / "class.csv"
    subs.write_text('id,A[1],"O[1,1]",O[2]\nann,"(0.3874556, 0.23500372, 0.23500372, 0.14253697)",'
                    'idk,\nben,"\x00",1,2\ncid,"(0.25, 0.25, 0.25, 0.25)",0.61,"(0.7, 0.2"\n',
                    encoding="utf-8")
    report = tmp_path / "report.csv"
    assert cli.main(["grade", str(problem), "--submissions", str(subs), "--lang", "zh", "-q",
                     "-o", str(report)]) == 0
    graded = report.read_text(encoding="utf-8") + capsys.readouterr().out
    assert "未作答" in graded and "无法解析：第 3 行：含有 NUL 字符" in graded
    for piece in _english_fragments():
        assert piece not in verified, piece
        assert piece not in graded, piece


def test_grading_a_class_under_the_rule(tmp_path):
    """grade: the rule of the problem file reaches every student's answers."""
    subs = tmp_path / "class.csv"
    subs.write_text(f'id,A,O,"A[1,1]"\nann,"{DLAI_WEIGHTS}","{DLAI_OUTPUT}",0.3874556\n'
                    'ben,see my notebook,"[[1, 0], [1, 0], [1, 0]]",0.39\n', encoding="utf-8")
    submissions = read_submissions(subs)
    for grading, expected in ((FLOAT32, [["correct"] * 3, ["invalid", "wrong", "correct"]]),
                              (Grading(), [["wrong", "wrong", "correct"], ["invalid", "wrong", "correct"]])):
        problem = parse_problem(DLAI)
        graded = grade(submissions, facts_of(problem), grading, {}, workers=1)
        assert [[v.status for v in g.verdicts] for g in graded] == expected
    ann = graded[0].verdicts
    assert feedback(ann[0], "en") == ("the 7 entries marked wrong all agree with the exact values to "
                                      'float32 precision; set rule = "float32" in [grading] to accept')
    assert feedback(graded[1].verdicts[0], "zh") == "see my notebook: 无法将其读作数字或矩阵"
    written = tmp_path / "p.toml"
    written.write_text(DLAI + '[grading]\nrule = "float32"\n', encoding="utf-8")
    out = tmp_path / "report.csv"
    assert cli.main(["grade", str(written), "--submissions", str(subs), "-q", "-o", str(out)]) == 0
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert [r[:3] for r in rows[1:]] == [["ann", "3", "3"], ["ben", "1", "3"]]
    assert rows[2][4] == "see my notebook: could not read this as a number or matrix"


def test_every_phrase_used_here_exists_in_both_languages():
    for key in ("hint_float", "hint_float_all", "rule_float", "rule_float_off", "rule_allclose",
                "off_relative", "off_absolute", *READING_PHRASES):
        assert phrase(key, "zh", *(["x"] * 5), rtol="x", atol="x")


def test_a_row_that_reads_no_key_is_judged_under_its_policy():
    """fully_masked = "uniform" (JAX): float32's 1/3 is 0.33333334, its logits all -oo."""
    problem = parse_problem('[input]\nQ = [[1], [2]]\nK = [[1], [0], [1]]\nV = [[1], [2], [3]]\n'
                            '[attention]\nkeep = [[false, false, false], [true, true, true]]\n'
                            'fully_masked = "uniform"\n')
    report = judged(problem, FLOAT32, **{"A[1]": "[0.33333334, 0.33333334, 0.33333334]",
                                         "O[1,1]": "2.0000002"})
    assert [v.status for v in report.verdicts] == ["correct", "correct"]
    assert judged(problem, FLOAT32, **{"A[1]": "[0.3333, 0.3334, 0.3333]"}).status == "wrong"
