"""Every input family's exact A and O are the expressions the code gave before the whole-job
work (tests/fixtures/family_results.json, written by benchmarks/record_results.py from commit
bddfbc8), and on larger n they agree with an independent mpmath computation to 50 digits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.jobs import FAMILIES, problem_toml
from benchmarks.record_results import record
from symattn.exact import linear
from symattn.exact.attention import attend
from symattn.exact.exp_eval import exp_eval
from symattn.numeric import context, exact_values, recompute
from symattn.parse.spec import load_problem

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "family_results.json"


def test_results_equal_the_recorded_expressions_exactly():
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    now = record()
    assert sorted(now) == sorted(recorded) and len(now) == 2 * len(FAMILIES)
    for key, stages in recorded.items():
        for name in ("A", "O"):
            assert now[key][name] == stages[name], (key, name)


@pytest.mark.parametrize("family", FAMILIES)
def test_larger_results_agree_with_mpmath_to_50_digits(family, tmp_path):
    path = tmp_path / "problem.toml"
    path.write_text(problem_toml(family, 24), encoding="utf-8")
    trace = attend(load_problem(path))
    values = {s: sp.Rational(3, 7) for s in trace.problem.symbols}
    exact = exact_values(trace, 50, values=values)
    numeric = recompute(trace.problem, 50, values)
    ctx = context(50)
    worst = max(abs(exact[s][i][j] - numeric[s][i][j]) / max(ctx.one, abs(numeric[s][i][j]))
                for s in "AO" for i in range(24) for j in range(len(exact[s][0])))
    assert worst < ctx.mpf(10) ** -50


@pytest.mark.parametrize("family", FAMILIES)
def test_exp_eval_builds_what_sympy_exp_builds(family, tmp_path, monkeypatch):
    seen = []

    def spy(argument):
        seen.append(argument)
        return exp_eval(argument)

    monkeypatch.setattr(linear, "exp_eval", spy)
    path = tmp_path / "problem.toml"
    path.write_text(problem_toml(family, 16), encoding="utf-8")
    attend(load_problem(path))
    assert family == "integers" or len(seen) > 20
    for argument in seen:
        assert sp.srepr(exp_eval(argument)) == sp.srepr(sp.exp(argument)), argument


def test_exp_eval_on_the_forms_it_reads_and_those_it_leaves_to_sympy():
    tau, theta = sp.Symbol("tau", positive=True), sp.Symbol("theta", real=True)
    l2, l3, r2 = sp.log(2), sp.log(3), sp.sqrt(2)
    for argument in (r2 * l3 / 4, r2 * l2 * l3 + 1, r2 * l3 / 4 + r2 * sp.log(7) / 3 + 5,
                     l2 ** 2 * r2 + sp.pi, 3 / tau + r2 * l2, theta * l2 + l3 * r2,
                     sp.Rational(3, 7) + sp.E * l2, l2 + r2, sp.I * sp.pi * sp.Rational(1, 3),
                     sp.Float(0.5) * l2, sp.log(sp.Rational(1, 2)) * r2, (1 + r2) * l2,
                     r2 * l2 / 4 + r2 * l3 / 4 + r2 * l2 * l3, r2 * l2 / 4 - sp.sqrt(3) * l2 / 5,
                     -r2 * l2 / 4 - r2 * sp.log(5) / 4 + 1, r2 * l2 / 4 + r2 * l3 / 4):
        assert sp.srepr(exp_eval(argument)) == sp.srepr(sp.exp(argument)), argument


logit_terms = st.builds(lambda c, root, log: sp.Rational(*c) * root * log,
                        st.tuples(st.integers(-9, 9).filter(bool), st.integers(1, 8)),
                        st.sampled_from((sp.S.One, sp.sqrt(2), sp.sqrt(3) / 5, sp.sqrt(6))),
                        st.sampled_from((sp.log(2), sp.log(3), sp.log(5) ** 2, sp.S.One,
                                         sp.log(2) * sp.log(7), sp.pi)))


@settings(max_examples=300, deadline=None)
@given(st.lists(logit_terms, min_size=1, max_size=6),
       st.sampled_from((0, 1, -1, sp.Rational(1, 2), 2)))
def test_exp_eval_builds_what_sympy_exp_builds_on_sums_of_logit_terms(terms, constant):
    argument = sp.Add(constant, *terms)
    assert sp.srepr(exp_eval(argument)) == sp.srepr(sp.exp(argument)), argument
