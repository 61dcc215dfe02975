"""Parameter sweeps: exact values at known points, mpmath cross-checks, [sweep] errors, outputs."""

from __future__ import annotations

import ast
import sys
import xml.etree.ElementTree as ET

import mpmath
import pytest
import sympy as sp
from clients import compile_tex, katex_errors, math_blocks, pdf_text
from conftest import ROOT

import symattn
from symattn import InputError, ProblemError
from symattn.analyses.sweep import sweep
from symattn.cli import main
from symattn.parse.spec import parse_problem

sys.path.insert(0, str(ROOT / "tools"))
from analysis_golden import analysis_golden  # noqa: E402

THETA, TAU = sp.Symbol("theta", real=True), sp.Symbol("tau", positive=True)
E = sp.E


@pytest.fixture(scope="module")
def course(request):
    """The course's parameter experiment, worked example 09."""
    return sweep(symattn.load_problem(ROOT / "worked_examples/09_parameter_sweep/problem.toml"))


def at(sw, theta, tau):
    (point,) = [p for p in sw.points if p.values == (theta, tau)]
    return point.rows[0]


def same(a, b) -> bool:
    return sp.simplify(a - b) == 0


def test_axes_of_the_course_experiment(course):
    assert [a.symbol.name for a in course.axes] == ["theta", "tau"]
    assert course.x.values == tuple(sp.pi * k / 16 for k in range(9))
    assert course.series.values == (sp.Rational(1, 2), 1, 2)
    assert len(course.points) == 27 and course.rows == (0,)


def test_theta_zero_tau_one_is_e_over_e_plus_one(course):
    row = at(course, 0, 1)
    assert same(row.weights[0], E / (E + 1)) and same(row.weights[1], 1 / (E + 1))
    assert row.weights[0] == E / (1 + E)  # the form the table shows, not only an equal value
    assert same(row.output[0], 2 * E / (E + 1)) and same(row.output[1], 4 / (E + 1))
    assert same(row.entropy, sp.log(E + 1) - E / (E + 1))
    assert row.top_keys == (0,) and row.weight_decimals == ("0.7311", "0.2689")


def test_theta_quarter_pi_is_uniform_for_every_tau(course):
    for tau in (sp.Rational(1, 2), 1, 2):
        row = at(course, sp.pi / 4, tau)
        assert row.weights == (sp.Rational(1, 2), sp.Rational(1, 2))
        assert row.output == (1, 2)
        assert row.entropy == sp.log(2)  # ln Z - sum a L collapses exactly
        assert row.top_keys == (0, 1)


def test_values_like_cos_pi_over_8_stay_exact(course):
    row = at(course, sp.pi / 8, 1)
    c, s = sp.cos(sp.pi / 8), sp.sin(sp.pi / 8)
    assert same(row.weights[0], sp.exp(c) / (sp.exp(c) + sp.exp(s)))
    assert not any(isinstance(x, sp.Float) for x in sp.preorder_traversal(row.weights[0]))


def test_lower_temperature_sharpens_the_weights(course):
    """The course: tau < 1 makes the distribution sharper, tau > 1 flatter (at theta = 0)."""
    tops = [at(course, 0, tau).top_decimal for tau in (sp.Rational(1, 2), 1, 2)]
    entropies = [at(course, 0, tau).entropy_decimal for tau in (sp.Rational(1, 2), 1, 2)]
    assert tops == ["0.8808", "0.7311", "0.6225"]
    assert entropies == ["0.3653", "0.5822", "0.6628"]


def test_every_point_against_an_independent_mpmath_formula(course):
    """a_1 = e^(cos θ/τ)/(e^(cos θ/τ) + e^(sin θ/τ)); H = -Σ a ln a; O = (2 a_1, 4 a_2)."""
    ctx = mpmath.MPContext()
    ctx.dps = 60
    worst = ctx.mpf(0)
    for point in course.points:
        theta, tau = (ctx.mpf(str(sp.N(v, 70))) for v in point.values)
        l1, l2 = ctx.cos(theta) / tau, ctx.sin(theta) / tau
        a = [ctx.exp(l1) / (ctx.exp(l1) + ctx.exp(l2)), ctx.exp(l2) / (ctx.exp(l1) + ctx.exp(l2))]
        h = -sum(x * ctx.log(x) for x in a)
        row = point.rows[0]
        exact = [ctx.mpf(str(sp.N(x, 70))) for x in (*row.weights, row.entropy, *row.output, row.top)]
        expected = [*a, h, 2 * a[0], 4 * a[1], max(a)]
        worst = max([worst] + [abs(x - y) for x, y in zip(exact, expected)])
    assert worst < ctx.mpf(10) ** -50
    assert course.max_difference < mpmath.mpf(10) ** -45


def test_general_weights_keep_the_symbols(course):
    (row,) = course.general
    assert same(row[0], sp.exp(sp.cos(THETA) / TAU) /
                (sp.exp(sp.cos(THETA) / TAU) + sp.exp(sp.sin(THETA) / TAU)))


PROBLEM = """
[symbols]
{symbols}
[input]
Q = [["cos(theta)", "sin(theta)"]]
K = [[1, 0], [0, 1]]
V = [[2, 0], [0, 4]]
[attention]
scale = "none"
temperature = "tau"
[sweep]
{sweep}
"""
SYMBOLS = 'theta = "real"\ntau = "positive"'
GOOD = 'theta = {from = "0", to = "pi/2", steps = 3}\ntau = [1]'


def problem(sweep_table: str = GOOD, symbols: str = SYMBOLS, q: str | None = None):
    text = PROBLEM.format(symbols=symbols, sweep=sweep_table)
    if q is not None:
        text = text.replace('Q = [["cos(theta)", "sin(theta)"]]', q)
    return parse_problem(text, source="p.toml")


@pytest.mark.parametrize("table, symbols, q, message", [
    ('theta = {from = "0", to = "pi/2", steps = 3}\nphi = [1]\ntau = [1]', None, None,
     "p.toml, sweep.phi: 'phi' is not a declared symbol"),
    ('theta = {from = "0", to = "pi/2", steps = 1}\ntau = [1]', None, None,
     "sweep.theta.steps: must be an integer from 2 to 101"),
    ('theta = {from = "1", to = "0", steps = 3}\ntau = [1]', None, None,
     "sweep.theta.to: must be greater than from (1)"),
    ('theta = {from = "0", to = "1", steps = 3, step = 2}\ntau = [1]', None, None,
     "sweep.theta.step: unknown key"),
    ('theta = {from = "0", steps = 3}\ntau = [1]', None, None, "sweep.theta.to: missing"),
    ('theta = [0, "0.0"]\ntau = [1]', None, None, "sweep.theta[2]: repeats the value 0"),
    ('theta = [0]\ntau = [0]', None, None, "sweep.tau[1]: 'tau' is declared positive; 0 is not"),
    ('theta = [0]\ntau = ["x"]', None, None, "sweep.tau[1], column 1: unknown name 'x'"),
    ('theta = [0]\ntau = []', None, None, "sweep.tau: list 1 to 50 values"),
    ('theta = 3\ntau = [1]', None, None, "sweep.theta: must be a range"),
    ('theta = [0]', None, None, "sweep: the declared symbol 'tau' is not swept"),
    ('theta = [0]\ntau = [1]\nrow = 2', None, None, "sweep.row: must be an integer from 1 to 1"),
    ('theta = {from = "0", to = "1", steps = 101}\ntau = ["1/2", 1, 2, 3, 4]', None, None,
     "sweep: 505 points (limit 400)"),
    ('theta = ["2000"]\ntau = [1]', None, None, "sweep.theta[1]: must lie within ±1000"),
    ('theta = [0]\ntau = [1]\nphi = [0]', 'theta = "real"\ntau = "positive"\nphi = "real"', None,
     "sweep: sweep one or two symbols, not 3"),
], ids=["undeclared", "steps", "backwards", "range-key", "missing-to", "repeat", "positive",
        "bad-value", "empty", "not-range", "unswept", "row", "too-many", "magnitude", "three"])
def test_bad_sweep_tables_name_the_key(table, symbols, q, message):
    with pytest.raises(InputError) as error:
        sweep(problem(table, symbols or SYMBOLS, q))
    assert message in str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("table, q, message", [
    (GOOD, 'Q = [["1/theta", "sin(theta)"]]',
     "p.toml, input.Q[1][1]: at theta = 0, tau = 1: division by zero"),
    ("theta = [1, 10]\ntau = [1]", 'Q = [["exp(exp(exp(theta)))", 1]]',
     "input.Q[1][1]: at theta = 10, tau = 1: exp argument too large (limit 10000)"),
    (GOOD, 'Q = [["tan(theta)", 1]]',
     "input.Q[1][1]: at theta = pi/2, tau = 1: tan is undefined here (cos is zero)"),
], ids=["division-by-zero", "tower", "tan"])
def test_a_point_where_an_entry_fails_is_named(table, q, message):
    with pytest.raises(ProblemError) as error:
        sweep(problem(table, q=q))
    assert message in str(error.value)


def test_a_listed_sweep_alone_goes_along_x_and_a_row_can_be_chosen():
    sw = sweep(problem('tau = ["1/2", 1, 2]', 'tau = "positive"',
                       'Q = [[1, 0], [0, 1]]'), row=2)
    assert sw.series is None and sw.rows == (1,)
    assert [p.rows[0].weights[1] for p in sw.points][1] == E / (1 + E)


def test_temperature_of_a_masked_row(example):
    text = example("02_causal_three_positions").read_text(encoding="utf-8")
    text = text.replace('mask = "causal"', 'mask = "causal"\ntemperature = "tau"')
    text += '\n[symbols]\ntau = "positive"\n\n[sweep]\ntau = ["1/2", 1]\n'
    sw = sweep(parse_problem(text))
    row3 = [p.rows[2] for p in sw.points]
    assert row3[1].weights == (sp.Rational(1, 6), sp.Rational(1, 2), sp.Rational(1, 3))
    assert row3[0].weights == (sp.Rational(1, 14), sp.Rational(9, 14), sp.Rational(2, 7))
    assert sw.points[0].rows[0].entropy == 0 and sw.points[0].rows[0].weights == (1, 0, 0)
    assert row3[1].entropy == sp.Rational(2, 3) * sp.log(2) + sp.log(3) / 2


EXAMPLE = ROOT / "worked_examples/09_parameter_sweep/problem.toml"


def test_committed_sweep_documents_are_current():
    files = analysis_golden(EXAMPLE)
    assert sorted(files) == ["sweep.en.md", "sweep.en.tex", "sweep.svg", "sweep.zh.md",
                             "sweep.zh.tex"]
    for name, text in files.items():
        assert (EXAMPLE.parent / name).read_text(encoding="utf-8") == text, \
            f"{name} differs: run python tools/regenerate.py and review the diff"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sweep_document_compiles_with_pgfplots(lang):
    tex = (EXAMPLE.parent / f"sweep.{lang}.tex").read_text(encoding="utf-8")
    assert r"\usepackage{pgfplots}" in tex and tex.count(r"\addplot") == 6
    text = pdf_text(compile_tex(tex, lang))
    assert "0.8808" in text and {"en": "Parameter experiment", "zh": "参数实验"}[lang] in text


def test_sweep_markdown_renders_with_katex():
    blocks = []
    for lang in ("en", "zh"):
        md = (EXAMPLE.parent / f"sweep.{lang}.md").read_text(encoding="utf-8")
        assert "![" in md and "](sweep.svg)" in md
        blocks += math_blocks(md)
    assert len(blocks) > 50
    assert katex_errors(blocks) == []


def test_svg_is_well_formed_with_one_line_per_curve():
    root = ET.fromstring((EXAMPLE.parent / "sweep.svg").read_text(encoding="utf-8"))
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 6
    assert len(lines[0].get("points").split()) == 9


def test_fragment_has_no_preamble_and_the_preamble_names_its_packages(course):
    from symattn.targets.emit import Page
    from symattn.targets.sweep import render_sweep
    tex = render_sweep(course, "latex")
    assert tex.startswith(r"\section*{Parameter experiment}")
    assert r"\documentclass" not in tex and r"\usepackage" not in tex
    assert render_sweep(course, "latex", page=Page(preamble=True)).splitlines() == [
        r"\usepackage{amsmath,amssymb}", r"\usepackage{pgfplots}", r"\pgfplotsset{compat=1.17}"]


def test_cli_sweep(capsys):
    assert main(["sweep", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "row 1, tau = 1/2" in out and "pi/16    0.8280  0.1720" in out
    assert main(["sweep", str(EXAMPLE), "--format", "json"]) == 0
    assert '"weights_decimal": [' in capsys.readouterr().out


def test_cli_sweep_bad_table_is_one_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(PROBLEM.format(symbols=SYMBOLS, sweep='theta = {from = "0", to = "1", '
                                   'steps = 0}\ntau = [1]'), encoding="utf-8")
    assert main(["sweep", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {path}, sweep.theta.steps: must be an integer from 2 to 101\n"
    assert main(["sweep", str(ROOT / "worked_examples/01_two_positions/problem.toml")]) == 2
    assert "sweep: the problem has no [sweep] table" in capsys.readouterr().err


def test_analysis_phrases_do_not_redefine_existing_keys():
    from symattn.words.analyses import ANALYSIS_PHRASES
    tree = ast.parse((ROOT / "symattn/words/derivation.py").read_text(encoding="utf-8"))
    keys = {node.value for d in ast.walk(tree) if isinstance(d, ast.Dict)
            for node in d.keys if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert not keys & set(ANALYSIS_PHRASES)


def test_python_api_with_a_table_given():
    from symattn.api import parameter_sweep, render_analysis
    sw = parameter_sweep(problem(), {"theta": ["pi/4"], "tau": ["1/2", 2]})
    assert [p.rows[0].weights for p in sw.points] == [(sp.Rational(1, 2), sp.Rational(1, 2))] * 2
    assert render_analysis(sw, "svg").startswith("<svg ")
    with pytest.raises(InputError, match="p.toml, sweep.tau: list 1 to 50 values"):
        parameter_sweep(problem(), {"theta": [0], "tau": []})


def test_swapping_values_keeps_the_weights_and_moves_the_output():
    """The course's third step: change only the values; the weights stay, the output moves."""
    sw = sweep(parse_problem("""
[symbols]
c = "real"
[input]
Q = [[1, 0]]
K = [[1, 0], [0, 1]]
V = [[2, 0], [0, "4*c"]]
[attention]
scale = "none"
[sweep]
c = [1, -1, 10]
"""))
    rows = [p.rows[0] for p in sw.points]
    assert len({r.weights for r in rows}) == 1 and rows[0].weights[0] == E / (1 + E)
    assert [r.output[1] for r in rows] == [4 / (1 + E), -4 / (1 + E), 40 / (1 + E)]
    assert sw.general == ((E / (1 + E), 1 / (1 + E)),)


@pytest.mark.parametrize("lang, words", [("en", "no scaling (scale factor {s})"),
                                         ("zh", "本题不缩放（缩放因子 {s}）")])
@pytest.mark.parametrize("suffix, s", [("tex", r"\(s = 1\)"), ("md", "$s = 1$")])
def test_sweep_says_its_scale_in_words(lang, words, suffix, s):
    """Issue 30: a bare "s = 1" under Q, K, V; now solve's setup and its sentence on the
    scale (scale = "none"), before the axes, and s = 1 nowhere else."""
    text = (EXAMPLE.parent / f"sweep.{lang}.{suffix}").read_text(encoding="utf-8")
    said = words.format(s=s)
    assert text.count("s = 1") == text.count(said) == 1
    assert text.index("Q = ") < text.index(said) < text.index(r"\theta\) runs" if suffix == "tex"
                                                              and lang == "en" else "9")
