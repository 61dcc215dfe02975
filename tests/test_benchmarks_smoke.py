"""The benchmark harness runs end to end on tiny inputs, and the performance paths it measures
(lazy stages, sums built in one pass, the memoizing evaluator) give exactly what they replace.
No timing is asserted here: performance lives in benchmarks/.
"""

from __future__ import annotations

import pickle
import xml.etree.ElementTree as ET

import pytest
import sympy as sp

import symattn
from benchmarks import report, svgplot, targets
from benchmarks.cases import log_case, random_case
from benchmarks.check import Values, summarize_symbolic, verdict
from benchmarks.methods import symattn_attention, symattn_every_stage
from benchmarks.naive import mpmath_attention, naive_plain, naive_simplify
from symattn.numeric import Evaluator, context, exact_values, recompute, to_mpf


@pytest.mark.parametrize("case", [random_case(5, 2), random_case(4, 4), log_case(6)],
                         ids=["random-d2", "random-d4", "log"])
def test_every_method_agrees_with_the_mpmath_reference(case):
    reference = mpmath_attention(case)
    for compute in (symattn_attention, symattn_every_stage, naive_plain, naive_simplify):
        assert verdict(*reference, summarize_symbolic(compute(case))) == "agree"


def test_log_designed_weights_are_rational_and_equal_naive_sympy():
    case = log_case(8)
    A, O = symattn_attention(case)
    assert all(x.is_Rational for x in list(A) + list(O))
    naive_A, naive_O = naive_plain(case)
    assert A == naive_A and O == naive_O


def test_cases_are_deterministic():
    assert random_case(8, 4) == random_case(8, 4)
    assert log_case(8).K == log_case(8).K and all(x[0].startswith("ln(") for x in log_case(8).K)


def _fake_results():
    def entry(seconds, status="ok", size=None):
        return {"status": status, "times": [seconds] if seconds else [], "median": seconds,
                "cpu_median": seconds, "detail": "", "size": size, "check": "agree",
                "rational": True}

    grid = []
    for d_k in (2, 4):
        for n, naive in ((8, 1.5), (16, 25.0), (32, None)):
            grid.append({"n": n, "d_k": d_k, "family": "random", "methods": {
                "symattn": entry(0.001 * n, size=10 * n), "symattn_all": entry(0.002 * n),
                "naive_simplify": entry(naive, size=11 * n) if naive else entry(None, "timeout"),
                "naive_plain": entry(0.01 * n, size=20 * n), "mpmath": entry(0.0005 * n)}})
    log = [{"n": 64, "d_k": 1, "family": "log", "methods": {"symattn": entry(0.1)}}]
    return {"machine": report.machine(), "load_before": (1.0, 1.0, 1.0),
            "load_after": (1.0, 1.0, 1.0), "command": "python -m benchmarks", "cap": 60.0,
            "quick": False, "grid": grid, "log": log, "seconds": 60.0,
            "numeric": [{"n": 32, "d_k": 2, "status": "ok", "exact_values": 0.01,
                         "recompute": 0.02, "evalf": 0.5, "max_difference": "1e-60",
                         "agree_1e48": True}],
            "latex": [{"n": 32, "d_k": 2, "status": "ok", "weights_and_output": 0.1,
                       "check": 0.2, "derive": 0.1, "render_derivation": 0.3, "render": 1.5,
                       "characters": 1000}],
            "cli": {"solve": 0.6, "solve_latex": 0.7, "import_sympy": 0.45, "python": 0.05,
                    "modules": "['mpmath', 'symattn', 'sympy']", "heavy": []},
            "memory": [{"n": 128, "d_k": 2, "peak_rss_mb": 150.0, "after_imports_mb": 80.0,
                        "tracemalloc_peak_mb": 30.0, "seconds": 0.3}],
            "ground_types": None, "profiles": {"render": "  ncalls  tottime ..."}}


def test_targets_report_and_plot_from_results():
    results = _fake_results()
    results["targets"] = targets.evaluate(results)
    verdicts = {t["id"]: t["verdict"] for t in results["targets"]}
    assert verdicts["n32"] == "met" and verdicts["render"] == "MISSED"
    assert verdicts["ratio_naive_simplify"] == "met"  # > 60 s / 0.032 s is a lower bound > 500
    assert verdicts["flint"] == "n/a"
    text = report.build(results, "performance.svg")
    assert "## Targets" in text and "![Time against n" in text and "> 60" in text
    assert "ncalls" in text  # the profile of the missed render target
    svg = svgplot.plot(results)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert svg.count("<polyline") == 2 * 4 + 2  # 2 panels; naive + simplify has 2 points each
    assert svg.count("&gt; 60 s") == 2  # one triangle per panel for the timed-out run


# The paths the benchmarks measure give exactly the values they replace.

def test_lazy_stages_are_built_once_and_survive_pickling():
    trace = symattn.attention([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[2, 0], [0, 4]],
                              mask="causal")
    assert "Lazy" in type(trace.__dict__["L"]).__name__
    assert trace.L is trace.L and trace.R == sp.eye(2)
    copy = pickle.loads(pickle.dumps(trace))
    assert copy == trace and copy.Z == trace.Z


def test_exact_values_agree_with_the_independent_recomputation():
    trace = symattn.attention(random_case(12, 2).Q, random_case(12, 2).K, random_case(12, 2).V,
                              mask="causal", temperature="17/20")
    exact, numeric = exact_values(trace, 50), recompute(trace.problem, 50)
    worst = max(abs(exact[s][i][j] - numeric[s][i][j]) for s in "AO"
                for i in range(12) for j in range(len(exact[s][0])))
    assert worst < context(50).mpf(10) ** -55


def test_the_evaluator_falls_back_to_evalf_where_a_sum_cancels():
    big = sp.exp(50)
    cancelling = sp.Add((big + 1) ** 3, -sp.exp(150), -3 * sp.exp(100), -3 * big,
                        sp.Rational(-5, 6))
    ctx = context(50)
    assert abs(to_mpf(ctx, cancelling, {}) - ctx.mpf(1) / 6) < ctx.mpf(10) ** -50
    assert abs(Evaluator(30)(sp.sqrt(2) * sp.pi) - ctx.sqrt(2) * ctx.pi) < ctx.mpf(10) ** -29
    with pytest.raises(ValueError, match="cannot evaluate"):
        to_mpf(ctx, sp.Integer(-8) ** sp.Rational(1, 3), {})


def test_the_benchmark_value_walk_matches_evalf():
    e3, e5 = sp.exp(sp.Rational(3, 17)), sp.exp(sp.Rational(5, 17))
    x = e3 / (1 + e3 + 2 * e5)
    values = Values()
    assert abs(values(x) - values.ctx.mpf(str(x.evalf(70)))) < values.ctx.mpf(10) ** -60


def test_an_output_column_of_equal_readable_values_is_that_value():
    trace = symattn.attention([[1], [2], [3]], [[1], [2], [0]], [[3, 1], [3, 2], [3, 5]],
                              mask="causal", temperature="17/20")
    assert list(trace.O.col(0)) == [3, 3, 3]  # not (3 + 3 e^{40/17})/(1 + e^{40/17})
    assert not trace.O[2, 1].is_Rational
    assert symattn.check(trace).passed
