"""Symbolic parameters: exact substitution, temperature limits, derivatives of the weights."""

from __future__ import annotations

import json
import re

import pytest
import sympy as sp
from clients import compile_tex, katex_errors, math_blocks

import symattn
from symattn import cli
from symattn.analyses.parameters import derivative, temperature_limits
from symattn.errors import InputError
from symattn.exact.substitute import substitute
from symattn.parse.options import read_substitutions

ROTATING = """[symbols]
theta = "real"
[input]
Q = [["cos(theta)", "sin(theta)"]]
K = [[1, 0], [0, 1]]
V = [[2, 0], [0, 4]]
"""
theta = sp.Symbol("theta", real=True)


def test_substitution_is_exact():
    problem = symattn.parse_problem(ROTATING)
    at = substitute(problem, read_substitutions(problem.symbols, ["theta=pi/4"]))
    assert at.symbols == ()
    assert symattn.attend(at).A == sp.ImmutableMatrix([[sp.Rational(1, 2), sp.Rational(1, 2)]])
    at0 = substitute(problem, read_substitutions(problem.symbols, ["theta=0"]))
    a = sp.exp(sp.sqrt(2) / 2)
    assert sp.simplify(symattn.attend(at0).A[0, 0] - a / (a + 1)) == 0


@pytest.mark.parametrize("items, message", [
    (["phi=1"], "expected NAME=VALUE with a declared symbol \\(theta\\)"),
    (["theta"], "expected NAME=VALUE"),
    (["theta=2pi"], "--subs theta: column 2: implicit multiplication"),
], ids=["undeclared", "no-value", "bad-value"])
def test_bad_substitutions(items, message):
    with pytest.raises(InputError, match=message):
        read_substitutions(symattn.parse_problem(ROTATING).symbols, items)


def test_positive_symbol_must_stay_positive():
    problem = symattn.parse_problem('[symbols]\nt = "positive"\n[input]\nQ = [[1]]\nK = [[1]]\n'
                                   'V = [[1]]\n[attention]\ntemperature = "t"\n')
    with pytest.raises(InputError, match="t is declared positive; got -1"):
        read_substitutions(problem.symbols, ["t=-1"])


def test_limits_of_the_causal_seed(example):
    limits = temperature_limits(symattn.attend(symattn.load_problem(example("02_causal_three_positions"))))
    third = sp.Rational(1, 3)
    assert limits.cold == sp.ImmutableMatrix([[1, 0, 0], [0, 1, 0], [0, 1, 0]])
    assert limits.hot == sp.ImmutableMatrix([[1, 0, 0], [sp.Rational(1, 2)] * 2 + [0], [third] * 3])
    assert limits.proved and limits.by_signs
    assert [r.top for r in limits.rows] == [(0,), (1,), (1,)]


LIMIT_CASES = {  # name -> [input] (and [attention]) of a problem; ties and near-ties
    "tie": 'Q = [[1]]\nK = [[1], [1], [0]]\nV = [[1], [2], [3]]\n',
    "tie-in-disguise": 'Q = [["sqrt(2)"]]\nK = [["sqrt(8)/2"], ["sqrt(2)"], [1]]\nV = [[1], [2], [3]]\n',
    "logs": 'Q = [[1, 1]]\nK = [["ln(6)", 0], ["ln(2)", "ln(3)"], ["ln(5)", "1/2"]]\n'
            'V = [[1], [2], [3]]\n[attention]\nscale = 1\n',
    "near": 'Q = [[1]]\nK = [["exp(-40)"], [0], [-1]]\nV = [[1], [2], [3]]\n[attention]\nmask = "causal"\n',
}


@pytest.mark.parametrize("name", sorted(LIMIT_CASES))
def test_the_sign_rule_gives_sympys_limits(name):
    """Each weight's limits computed here by SymPy's limit of 1/Σ_r e^((G_r − G_j)/τ), G = S + M,
    against what `limits` reads off the signs (which never calls sympy.limit on these)."""
    trace = symattn.attend(symattn.parse_problem("[input]\n" + LIMIT_CASES[name]))
    limits = temperature_limits(trace)
    assert limits.by_signs and limits.proved
    tau = sp.Symbol("tau", positive=True)
    for i, row in enumerate(trace.readable):
        read = [j for j, ok in enumerate(row) if ok]
        G = {j: trace.S[i, j] + trace.M[i, j] for j in read}
        for j in range(trace.problem.n_k):
            if j not in read:
                assert limits.cold[i, j] == limits.hot[i, j] == 0
                continue
            weight = 1 / sp.Add(*(sp.exp((G[r] - G[j]) / tau) for r in read))
            assert limits.cold[i, j] == sp.limit(weight, tau, 0, "+"), (i, j)
            assert limits.hot[i, j] == sp.limit(weight, tau, sp.oo), (i, j)


def test_a_sign_no_precision_decides_falls_back_to_sympys_limit(monkeypatch):
    """A difference of e^-100 lies within the margin of 60 digits: with 60 the only precision
    allowed, the row goes to SymPy's limit, which still finds the rule's values."""
    import symattn.analyses.parameters as parameters

    monkeypatch.setattr(parameters, "SIGN_DIGITS", (60,))
    trace = symattn.attend(symattn.parse_problem(
        '[input]\nQ = [[1]]\nK = [["exp(-100)"], [0]]\nV = [[1], [2]]\n'))
    limits = temperature_limits(trace)
    assert not limits.by_signs and limits.proved
    assert limits.cold == sp.ImmutableMatrix([[1, 0]]) and limits.hot == sp.ImmutableMatrix([[sp.Rational(1, 2)] * 2])


def test_ties_share_the_cold_limit_equally():
    trace = symattn.attention([[1, 0]], [[1, 0], [1, 0], [0, 1]], [[1], [2], [3]])
    limits = temperature_limits(trace)
    assert limits.cold == sp.ImmutableMatrix([[sp.Rational(1, 2), sp.Rational(1, 2), 0]])


def test_tau_derivative_matches_direct_differentiation(example):
    problem = symattn.load_problem(example("02_causal_three_positions"))
    found = derivative(symattn.attend(problem))
    tau = sp.Symbol("tau", positive=True)
    logits = [0, sp.log(3), sp.log(2)]
    direct = [sp.diff(sp.exp(l / tau) / sp.Add(*(sp.exp(m / tau) for m in logits)), tau).subs(tau, 1)
              for l in logits]
    assert all(sp.simplify(found.matrix[2, j] - direct[j]) == 0 for j in range(3))
    assert found.difference < 1e-20


def test_theta_derivative_is_checked_numerically():
    found = derivative(symattn.attend(symattn.parse_problem(ROTATING)), "theta")
    a = sp.exp(sp.sqrt(2) * sp.cos(theta) / 2)
    b = sp.exp(sp.sqrt(2) * sp.sin(theta) / 2)
    assert sp.simplify(found.matrix[0, 0] - sp.diff(a / (a + b), theta)) == 0
    assert found.difference < 1e-20


def test_cli_limits(capsys, example, tmp_path):
    assert cli.main(["limits", str(example("02_causal_three_positions"))]) == 0
    out = capsys.readouterr().out
    assert "limits read off the signs of the logit differences" in out
    assert "  ~ ['0.1301', '-0.1591', '0.0291']" in out
    assert cli.main(["solve", "-", "--subs", "x=1"]) == 2
    for lang in ("en", "zh"):
        target = tmp_path / f"limits.{lang}.tex"
        assert cli.main(["limits", str(example("05_five_tokens_temperature")), "--format", "latex",
                         "--lang", lang, "--standalone", "-o", str(target)]) == 0
        compile_tex(target.read_text(encoding="utf-8"), lang)
        assert cli.main(["limits", str(example("01_two_positions")), "--format", "markdown",
                         "--lang", lang]) == 0
        assert katex_errors(math_blocks(capsys.readouterr().out)) == []


def test_limits_write_the_places_the_file_and_the_option_ask_for(capsys, example):
    """Example 05 asks for 3 places in [derivation]: limits wrote ∂A/∂τ with 4 beside a statement
    with 3; --places 5 overrides the file. Row 2's derivative, recomputed here by its formula
    800√3 e^{40√3/51}/(867 (1 + e^{40√3/51})²), rounds to the place asked for."""
    five = example("05_five_tokens_temperature")
    a = sp.exp(40 * sp.sqrt(3) / 51)
    d = (800 * sp.sqrt(3) * a / (867 * (1 + a) ** 2)).evalf(30)
    for extra, places in (([], 3), (["--places", "5"], 5)):
        assert cli.main(["limits", str(five), "--format", "latex", *extra]) == 0
        out = capsys.readouterr().out
        assert f"{d:.{places}f}" in out and f"-{d:.{places}f}" in out
        analysis = out.split("Limits in the")[1].split("Central differences")[0] \
            .replace(r"\tau = 0.85", "")  # the derivatives' decimals: not τ, not the check
        decimals = re.findall(r"(?<![\d.])\d\.\d+(?![\d.])", analysis)
        assert {len(x.split(".")[1]) for x in decimals} == {places}


def test_cli_subs_on_solve(capsys, tmp_path):
    path = tmp_path / "rot.toml"
    path.write_text(ROTATING, encoding="utf-8")
    assert cli.main(["solve", str(path), "--subs", "theta=pi/4", "--format", "json"]) == 0
    assert '"1/2", "1/2"' in capsys.readouterr().out
    assert cli.main(["solve", str(path), "--subs", "phi=1"]) == 2
    assert "declared symbol (theta)" in capsys.readouterr().err


PROJECTED = """title = "projected"
tokens = ["a", "b"]
[symbols]
theta = "real"
[input]
X = [["cos(theta)", 1], [0, "sin(theta)"]]
W_Q = [[1, 0], [0, "theta"]]
W_K = [["theta", 0], [0, 1]]
W_V = [[1], ["2*theta"]]
[attention]
mask = "causal"
bias = [[0, "-oo"], ["theta", 0]]
"""


def test_subs_reaches_the_projections_and_every_stage_shown(capsys, tmp_path):
    path = tmp_path / "projected.toml"
    path.write_text(PROJECTED, encoding="utf-8")
    for to in ("json", "latex", "text"):
        assert cli.main(["solve", str(path), "--subs", "theta=1", "--format", to]) == 0
        out = capsys.readouterr().out
        assert "theta" not in out and "\\theta" not in out
    at = substitute(symattn.load_problem(path), {theta: sp.Integer(1)})
    assert at.projections.X == sp.ImmutableMatrix([[sp.cos(1), 1], [0, sp.sin(1)]])
    assert at.Q == sp.ImmutableMatrix([[sp.cos(1), 1], [0, sp.sin(1)]])  # X W_Q at theta = 1
    assert at.K == sp.ImmutableMatrix([[sp.cos(1), 1], [0, sp.sin(1)]])
    assert at.V == sp.ImmutableMatrix([[sp.cos(1) + 2], [2 * sp.sin(1)]])
    assert at.bias == sp.ImmutableMatrix([[0, sp.S.NegativeInfinity], [1, 0]])
    assert at.symbols == ()


@pytest.mark.parametrize("entry, subs, key, reason", [
    ('Q = [["1/theta"]]\nK = [[1]]\nV = [[1]]', "theta=0", "input.Q[1][1]", "division by zero"),
    ('Q = [[1]]\nK = [["1/(theta - 1)"]]\nV = [[1]]', "theta=1", "input.K[1][1]",
     "division by zero"),
    ('Q = [[1]]\nK = [[1]]\nV = [["exp(exp(exp(theta)))"]]', "theta=10", "input.V[1][1]",
     "exp argument too large (limit 10000)"),
    ('X = [["1/theta"]]\nW_Q = [[1]]\nW_K = [[1]]\nW_V = [[1]]', "theta=0", "input.X[1][1]",
     "division by zero"),
    ('Q = [[1]]\nK = [[1]]\nV = [[1]]\n[attention]\nbias = [["tan(theta)"]]', "theta=pi/2",
     "attention.bias[1][1]", "tan is undefined here (cos is zero)"),
], ids=["reciprocal", "pole", "tower", "projection", "bias"])
def test_subs_refuses_an_entry_by_its_key(capsys, tmp_path, entry, subs, key, reason):
    path = tmp_path / "p.toml"
    path.write_text(f'[symbols]\ntheta = "real"\n[input]\n{entry}\n', encoding="utf-8")
    for command in ("solve", "check", "verify", "limits"):
        assert cli.main([command, str(path), "--subs", subs]) == 2
        assert capsys.readouterr().err == (
            f"error: {path}, {key}: at {subs.replace('=', ' = ')}: {reason}\n")



def test_subs_reaches_every_head(capsys, example, tmp_path):
    text = example("12_two_heads").read_text(encoding="utf-8")
    path = tmp_path / "heads.toml"
    path.write_text(text.replace('W_V = [[1], [0]]', 'W_V = [["w"], [0]]') + '\n[symbols]\nw = "real"\n',
                    encoding="utf-8")
    problem = symattn.load_problem(path)
    assert problem.heads[0].projections.W_V.free_symbols == {sp.Symbol("w", real=True)}
    at = substitute(problem, {sp.Symbol("w", real=True): sp.Integer(1)})
    original = symattn.attend_heads(symattn.load_problem(example("12_two_heads")))
    assert symattn.attend_heads(at).output == original.output
    assert cli.main(["solve", str(path), "--subs", "w=1", "--format", "json"]) == 0
    assert '"w"' not in capsys.readouterr().out


def test_gradient_and_nonunique_take_subs(capsys, tmp_path):
    path = tmp_path / "rot.toml"
    path.write_text(ROTATING, encoding="utf-8")
    assert cli.main(["nonunique", str(path)]) == 2
    assert "give them values first" in capsys.readouterr().err
    assert cli.main(["nonunique", str(path), "--subs", "theta=pi/4", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"][0]["unique"] is True
    assert cli.main(["gradient", str(path), "--loss", "sum", "--subs", "theta=pi/4"]) == 0
    out = capsys.readouterr().out
    assert "theta" not in out and "dV" in out


def test_a_derivative_too_long_to_write_is_shown_by_its_decimals(capsys):
    """Float64 inputs: each exact ∂A/∂τ has 68-digit numerators (2555 pt past the margin); the
    document writes the decimals, marked ≈, and says so, while the check uses the exact values."""
    from conftest import ROOT
    path = ROOT / "tests" / "wide" / "float64_four_tokens.toml"
    for lang, said in (("en", "each is written by its decimals"), ("zh", "每个值按小数写出")):
        assert cli.main(["limits", str(path), "--format", "latex", "--lang", lang]) == 0
        text = capsys.readouterr().out
        derivative_part = text.split(r"\subsection*", 2)[-1]
        assert said in derivative_part
        assert r"\frac{\partial A}{\partial \tau} \approx \left[\begin{array}{cccc} 0.1106 & -0.3186" \
            in derivative_part
        assert not re.search(r"\d{20}", derivative_part)
    five = ROOT / "worked_examples" / "05_five_tokens_temperature" / "problem.toml"
    assert cli.main(["limits", str(five), "--format", "latex"]) == 0
    text = capsys.readouterr().out.split(r"\subsection*", 2)[-1]  # exact entries, written exactly
    assert "written by its decimals" not in text
    assert re.search(r"agree to \\\(\d\.\d \\times 10\^\{-\d+\}\\\)\.", text)  # not 3.6e-27
    assert r"{\partial_{\tau} A}_{2,2} &= \frac{800 \sqrt{3} e^{40 \sqrt{3}/51}}{867" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_limits_say_where_the_derivative_is_taken_and_quote_their_tokens(capsys, example, lang):
    """An editor's reading: ∂A/∂τ of example 05 never said it is taken at τ = 0.85; example
    14's "the largest logit is at A alone" read the token A as the matrix A; r was undefined in
    c = (S + M)_{ir} − (S + M)_{ij}. A symbolic τ (example 14) has no value to be taken at."""
    def limits(name):
        assert cli.main(["limits", str(example(name)), "--format", "latex", "--lang", lang]) == 0
        return capsys.readouterr().out
    five, fourteen = limits("05_five_tokens_temperature"), limits("14_symbolic_temperature")
    at = {"en": r"Its entries below are at \(\tau = 0.85\).",
          "zh": r"下面的各项取 \(\tau = 0.85\) 时的值。"}[lang]
    assert five.index(at) < five.index(r"{\partial_{\tau} A}_{2,1}") and "17/20" not in five
    assert at.split(r"\(")[0] not in fourteen
    assert ("at “A” alone" if lang == "en" else "只在 “A”") in fourteen
    assert ("between key \\(r\\) and key \\(j\\) of row \\(i\\)" if lang == "en" else
            "第 \\(i\\) 行中 key \\(r\\) 与 key \\(j\\) 之差") in five
