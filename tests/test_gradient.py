"""Exact gradients: the causal seed against an independent formula, mpmath differences, errors."""

from __future__ import annotations

import sys
from fractions import Fraction as F

import mpmath
import pytest
import sympy as sp
from clients import compile_tex, katex_errors, math_blocks, pdf_text
from conftest import ROOT

import symattn
from symattn import InputError, ProblemError
from symattn.analyses.gradient import gradients, jacobian, projection_gradients
from symattn.analyses.gradient_check import check_gradients
from symattn.cli import main
from symattn.model import Projections, Upstream
from symattn.parse.spec import parse_problem

sys.path.insert(0, str(ROOT / "tools"))
from analysis_golden import analysis_golden  # noqa: E402

EXAMPLE = ROOT / "worked_examples/10_gradient/problem.toml"
LN2, LN3 = sp.log(2), sp.log(3)


@pytest.fixture(scope="module")
def seed():
    return gradients(symattn.attend(symattn.load_problem(EXAMPLE)))


def backward_by_hand(A, V, dO):
    """An independent backward pass in Fractions: the full Jacobian J = diag(a) - a aᵀ per row."""
    n_q, n_k, d_v = len(A), len(A[0]), len(V[0])
    dA = [[sum(dO[i][c] * V[j][c] for c in range(d_v)) for j in range(n_k)] for i in range(n_q)]
    dL = []
    for i in range(n_q):
        J = [[(A[i][j] if j == k else 0) - A[i][j] * A[i][k] for k in range(n_k)] for j in range(n_k)]
        dL.append([sum(J[j][k] * dA[i][k] for k in range(n_k)) for j in range(n_k)])
    dV = [[sum(A[i][j] * dO[i][c] for i in range(n_q)) for c in range(d_v)] for j in range(n_k)]
    return dA, dL, dV


def test_seed_against_an_independent_backward_pass(seed):
    A = [[F(1), F(0), F(0)], [F(1, 10), F(9, 10), F(0)], [F(1, 6), F(1, 2), F(1, 3)]]
    V = [[2, 0], [0, 4], [6, 2]]
    dA, dL, dV = backward_by_hand(A, V, [[1, 1]] * 3)

    def as_sympy(rows):
        return sp.Matrix([[sp.Rational(x.numerator, x.denominator) if isinstance(x, F) else x
                           for x in row] for row in rows])

    assert seed["dA"] == as_sympy(dA) and seed["dL"] == as_sympy(dL) and seed["dV"] == as_sympy(dV)
    # τ = 1 and d_k = 1: dR = dS = dL; dQ = dR K with K = (0, ln 3, ln 2), dK = dRᵀ Q, Q = (1, 2, 1)
    K, Q = [0, LN3, LN2], [1, 2, 1]
    dR = as_sympy(dL)
    assert seed["dQ"] == sp.Matrix([[sp.expand(sum(dR[i, j] * K[j] for j in range(3)))]
                                    for i in range(3)])
    assert seed["dK"] == sp.Matrix([[sum(dR[i, j] * Q[i] for i in range(3))] for j in range(3)])


def test_seed_values_as_the_example_states(seed):
    assert seed["dV"] == sp.Matrix([[sp.Rational(19, 15)] * 2, [sp.Rational(7, 5)] * 2,
                                    [sp.Rational(1, 3)] * 2])
    assert seed.means == (2, sp.Rational(19, 5), 5)
    assert list(seed["dL"].row(2)) == [-sp.Rational(1, 2), -sp.Rational(1, 2), 1]
    assert list(seed["dL"].row(0)) == [0, 0, 0]  # one readable key: the weight cannot move
    assert list(seed["dK"]) == [-sp.Rational(43, 50), -sp.Rational(7, 50), 1]
    assert list(seed["dQ"]) == [0, sp.Rational(9, 50) * LN3, LN2 - LN3 / 2]
    assert seed.dtau == sp.Rational(7, 50) * LN3 - LN2
    assert seed.loss_value == sp.Rational(54, 5)
    assert seed.row == 2 and seed.decimals["dtau"] == [["-0.5393"]]


def test_jacobian_of_row_three(seed):
    a = [sp.Rational(1, 6), sp.Rational(1, 2), sp.Rational(1, 3)]
    assert seed.jacobian == sp.Matrix(3, 3, lambda j, k: (a[j] if j == k else 0) - a[j] * a[k])
    assert all(sum(seed.jacobian.row(j)) == 0 for j in range(3))
    assert jacobian(seed.trace, 0) == sp.zeros(3, 3)  # one readable key: a = (1, 0, 0)


def finite_differences(problem, dO, digits=40):
    """An independent forward pass in mpmath (softmax written out here) and central differences."""
    ctx = mpmath.MPContext()
    ctx.dps = digits + 20
    h = ctx.mpf(10) ** -(digits // 2 + 2)
    num = lambda x: ctx.mpf(str(sp.N(x, digits + 25)))  # noqa: E731
    Q, K, V = ([[num(x) for x in m.row(i)] for i in range(m.rows)] for m in (problem.Q, problem.K,
                                                                              problem.V))
    s, tau = num(problem.scale_factor), num(problem.temperature)
    readable = symattn.attend(problem).readable

    def bias(i: int, j: int):
        return 0 if problem.bias is None else num(problem.bias[i, j])

    def loss(Q, K):
        total = 0
        for i, q in enumerate(Q):
            logits = [(s * sum(a * b for a, b in zip(q, k)) + bias(i, j)) / tau
                      if readable[i][j] else None for j, k in enumerate(K)]
            exps = [ctx.exp(x) if x is not None else 0 for x in logits]
            weights = [e / sum(exps) for e in exps]
            total += sum(num(dO[i, c]) * sum(w * v[c] for w, v in zip(weights, V))
                         for c in range(len(V[0])))
        return total

    out = {}
    for name, M in (("dQ", Q), ("dK", K)):
        grads = []
        for i in range(len(M)):
            for j in range(len(M[0])):
                M[i][j] += h
                up = loss(Q, K)
                M[i][j] -= 2 * h
                down = loss(Q, K)
                M[i][j] += h
                grads.append((up - down) / (2 * h))
        out[name] = grads
    return ctx, out


@pytest.mark.parametrize("name, dO", [
    ("01_two_positions", [[1, -2], ["1/3", 0]]),
    ("05_five_tokens_temperature", None),
    ("06_cross_attention_padding", [["1/2", 0], [-1, 2]]),
], ids=["two-positions", "five-tokens", "padding-bias"])
def test_exact_gradients_against_independent_differences(example, name, dO):
    trace = symattn.attend(symattn.load_problem(example(name)))
    p = trace.problem
    upstream = Upstream(sp.ones(p.n_q, p.d_v) if dO is None else sp.Matrix(
        [[symattn.parse_expression(str(x)) for x in row] for row in dO]), None)
    g = gradients(trace, upstream)
    ctx, numeric = finite_differences(p, upstream.dO)
    for key in ("dQ", "dK"):
        exact = [ctx.mpf(str(sp.N(x, 60))) for x in g[key]]
        assert max(abs(x - y) for x, y in zip(exact, numeric[key])) < ctx.mpf(10) ** -15
    check = check_gradients(g)
    assert check.passed and check.max_difference < mpmath.mpf(10) ** -35
    assert check.compared == p.Q.rows * p.Q.cols + p.K.rows * p.K.cols + p.V.rows * p.V.cols + 1


def test_symbolic_problem_is_checked_at_sample_values():
    problem = symattn.load_problem(ROOT / "worked_examples/09_parameter_sweep/problem.toml")
    g = gradients(symattn.attend(problem), Upstream(sp.ones(1, 2), "sum"))
    assert g.decimals == {} and g["dQ"].free_symbols == set(problem.symbols)
    check = check_gradients(g)
    assert check.passed and [s.name for s, _ in check.values] == ["theta", "tau"]


def test_fully_masked_row_has_no_softmax_gradient():
    trace = symattn.attention([[1], [1]], [[0], [1]], [[1], [2]],
                              keep=[[False, False], [True, True]], fully_masked="uniform")
    g = gradients(trace, Upstream(sp.ones(2, 1), "sum"))
    assert list(g["dL"].row(0)) == [0, 0] and g.means[0] is None
    assert list(g["dV"]) == [sp.Rational(1, 2) + trace.A[1, 0], sp.Rational(1, 2) + trace.A[1, 1]]
    assert check_gradients(g).passed


def test_projection_gradients_on_plain_matrices():
    X = sp.ImmutableMatrix([[1, 2], [3, 4]])
    W = [sp.ImmutableMatrix([[1, 0], [0, 1]]), sp.ImmutableMatrix([[0, 1], [1, 0]]),
         sp.ImmutableMatrix([[2, 0], [0, 3]])]
    dQ, dK, dV = (sp.ImmutableMatrix([[1, 0], [0, 1]]), sp.ImmutableMatrix([[0, 1], [1, 1]]),
                  sp.ImmutableMatrix([[1, 1], [0, 2]]))
    g = projection_gradients(dQ, dK, dV, Projections(X, *W))
    assert g.dW_Q == X.T * dQ and g.dW_K == X.T * dK and g.dW_V == X.T * dV
    assert g.dX == dQ * W[0].T + dK * W[1].T + dV * W[2].T and g.dY is None
    Y = sp.ImmutableMatrix([[1, 1], [0, 1], [2, 0]])
    cross = projection_gradients(dQ, sp.ones(3, 2), sp.ones(3, 2), Projections(X, *W, Y=Y))
    assert cross.dX == dQ * W[0].T and cross.dW_K == Y.T * sp.ones(3, 2)
    assert cross.dY == sp.ones(3, 2) * W[1].T + sp.ones(3, 2) * W[2].T


def test_projection_gradients_from_a_problem_file_are_cross_checked():
    problem = parse_problem("""
[input]
X = [[1, 0], [0, 1], [1, 1]]
W_Q = [[1, 0], [0, "ln(2)"]]
W_K = [[1, 0], [0, 1]]
W_V = [[2, 0], [0, 1]]
[attention]
mask = "causal"
[gradient]
dO = [[1, 0], [0, 1], [1, -1]]
""")
    g = gradients(symattn.attend(problem))
    assert {"dX", "dW_Q", "dW_K", "dW_V"} <= set(g.matrices)
    check = check_gradients(g)
    assert check.passed and check.compared == 6 + 4 * 3 + 1


@pytest.mark.parametrize("table, message", [
    ('loss = "sum"\ndO = [[1, 1]]', "gradient: give exactly one of"),
    ('row = 1', "gradient: give exactly one of"),
    ('loss = "mean"', "gradient.loss: must be \"sum\""),
    ('dO = [[1, 1], [1, 1]]', "gradient.dO: dO is 2x2 but O is 3x2"),
    ('dO = [[1, 1], ["1 +", 1], [0, 0]]', "gradient.dO[2][1], column 4:"),
    ('dO = [[1, 1], [0.5, 1], [0, 0]]\nscale = 2', "gradient.scale: unknown key"),
    ('loss = "sum"\nrow = 4', "gradient.row: must be an integer from 1 to 3"),
], ids=["both", "neither", "loss", "shape", "entry", "unknown", "row"])
def test_bad_gradient_tables_name_the_key(example, table, message):
    text = example("02_causal_three_positions").read_text(encoding="utf-8")
    with pytest.raises(InputError) as error:  # read with the problem, before any computing
        parse_problem(text + f"\n[gradient]\n{table}\n", source="g.toml")
    assert str(error.value).startswith("g.toml, " + message.split(":")[0])
    assert message in str(error.value) and "\n" not in str(error.value)


def test_committed_gradient_documents_are_current():
    files = analysis_golden(EXAMPLE)
    assert sorted(files) == ["gradient.en.md", "gradient.en.tex", "gradient.zh.md",
                             "gradient.zh.tex"]
    for name, text in files.items():
        assert (EXAMPLE.parent / name).read_text(encoding="utf-8") == text, \
            f"{name} differs: run python tools/regenerate.py and review the diff"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_gradient_document_compiles(lang):
    tex = (EXAMPLE.parent / f"gradient.{lang}.tex").read_text(encoding="utf-8")
    text = pdf_text(compile_tex(tex, lang))
    assert "0.5393" in text and ("Gradients by backpropagation" in text or "反向传播" in text)


def test_gradient_markdown_renders_with_katex():
    md = {lang: (EXAMPLE.parent / f"gradient.{lang}.md").read_text(encoding="utf-8")
          for lang in ("en", "zh")}
    assert r"\bar a_{3} &= \sum_r a_{3,r}\, dA_{3,r} = \frac{1}{6} \cdot 2 + \frac{1}{2} \cdot 4 + " \
           r"\frac{1}{3} \cdot 8 = 5" in md["en"]
    assert "逐行经过 softmax" in md["zh"] and "反向传播" in md["zh"]
    assert katex_errors(math_blocks(md["en"]) + math_blocks(md["zh"])) == []


def test_cli_gradient(example, capsys):
    assert main(["gradient", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "dK = dR^T Q   [3x1]" in out and "-43/50" in out and "[ok] mpmath" in out
    assert main(["gradient", str(example("01_two_positions")), "--loss", "sum",
                 "--format", "json"]) == 0
    assert '"passed": true' in capsys.readouterr().out


def test_cli_gradient_errors_are_one_line(example, tmp_path, capsys):
    assert main(["gradient", str(example("01_two_positions"))]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "gradient: the problem has no [gradient] table" in err
    assert err.count("\n") == 1
    bad = tmp_path / "bad.toml"
    bad.write_text(EXAMPLE.read_text(encoding="utf-8").replace('loss = "sum"', 'dO = [[1]]'),
                   encoding="utf-8")
    assert main(["gradient", str(bad)]) == 2
    assert capsys.readouterr().err == f"error: {bad}, gradient.dO: dO is 1x1 but O is 3x2\n"
    assert main(["gradient", str(EXAMPLE), "--row", "9"]) == 2
    assert "--row must be from 1 to 3" in capsys.readouterr().err


def test_problem_errors_are_problem_errors():
    trace = symattn.attention([[1]], [[1]], [[1]])
    with pytest.raises(ProblemError, match="dO is 1x2 but O is 1x1"):
        symattn.gradients(trace, dO=[[1, 1]])


def test_python_api():
    from symattn.api import gradients as api_gradients
    from symattn.api import render_analysis
    trace = symattn.attention([[1], [2], [1]], [[0], ["ln(3)"], ["ln(2)"]], [[2, 0], [0, 4], [6, 2]],
                              mask="causal")
    g = api_gradients(trace, dO=[["1/2", 0], [0, 0], [0, 1]])
    assert list(g["dV"].col(0)) == [sp.Rational(1, 2), 0, 0]
    # row 3: dA = (0, 4, 2), ā = 0/6 + 4/2 + 2/3 = 8/3, dL = a (dA - ā)
    assert list(g["dL"].row(2)) == [-sp.Rational(4, 9), sp.Rational(2, 3), -sp.Rational(2, 9)]
    assert api_gradients(trace, loss="sum")["dK"] == sp.Matrix([-sp.Rational(43, 50),
                                                                -sp.Rational(7, 50), 1])
    with pytest.raises(InputError, match=r"gradient\.dO\[1\]\[1\], column 1: unknown name 'x'"):
        api_gradients(trace, dO=[["x", 0], [0, 0], [0, 1]])
    md = render_analysis(g, "markdown", lang="zh")
    assert md.split("\n\n", 1)[1].startswith("# 反向传播计算梯度") and "中心差分" in md
    with pytest.raises(ValueError, match="unknown format 'svg'"):
        render_analysis(g, "svg")


def test_exact_gradients_that_grow_past_their_budget_are_refused_in_one_line(monkeypatch, capsys):
    """Raschka's 4-digit random weights (corpus 33, 6 tokens): the exact dX ran 486 s of CPU;
    past GRADIENT_CPU_SECONDS (here shortened to 1 s) the command exits 2 saying why."""
    from symattn import cli
    from symattn.analyses import gradient
    monkeypatch.setattr(gradient, "GRADIENT_CPU_SECONDS", 1.0)
    path = ROOT / "tests" / "corpus" / "33_raschka_trainable_weights_v1" / "problem.toml"
    assert cli.main(["gradient", str(path), "--loss", "sum"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "took more than 1 s of CPU time" in err and str(path) in err


STATED = {"en": ("Take ", r"with the scale ", r"with no scaling (", r"with the given scale "),
          "zh": ("取 ", "（缩放因子 ", "（不缩放，", "（给定的缩放因子 ")}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("suffix", ["tex", "md"])
def test_gradient_document_states_tau_d_k_and_s_before_using_them(lang, suffix):
    """Issue 30: the document used τ, d_k and s ("S = sR gives dR = s dS") and never gave
    them; it now opens with solve's setup (τ = 1, d_k = 1, Q, K, V) and says what s is."""
    text = (EXAMPLE.parent / f"gradient.{lang}.{suffix}").read_text(encoding="utf-8")
    setup = text.index(STATED[lang][0])
    assert setup < text.index(r"d_k = 1") < text.index(r"\tau = 1") < text.index("Q = ")
    assert text.index(r"\tau") == text.index(r"\tau = 1")  # τ given where it first appears
    assert text.index("V = ") < text.index(r"dA = dO\, V")  # V shown before dA uses it
    said = text.index(STATED[lang][1] + ("$" if suffix == "md" else r"\(")
                      + r"s = 1/\sqrt{d_k} = 1")
    assert said < text.index(r"dR = s\, dS")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("scale, said", [('"none"', 2), ('"1/2"', 3)])
def test_gradient_says_s_when_the_problem_sets_the_scale(tmp_path, capsys, lang, scale, said):
    path = tmp_path / "g.toml"
    path.write_text(EXAMPLE.read_text(encoding="utf-8").replace(
        '[attention]\n', f'[attention]\nscale = {scale}\n'), encoding="utf-8")
    assert main(["gradient", str(path), "--format", "markdown", "--lang", lang]) == 0
    out = capsys.readouterr().out
    words = STATED[lang][said] + ("$s = 1$" if said == 2 else "$s = 1/2$")
    assert words in out and out.index(words) < out.index(r"dR = s\, dS")
    assert STATED[lang][1] + r"$s = 1/\sqrt" not in out
