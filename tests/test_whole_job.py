"""The whole-job benchmark runs end to end on tiny problems (no timing is asserted: performance
lives in benchmarks/), and its problem files are what the report says they are."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from benchmarks import wholejob, wholejob_plot, wholejob_report
from benchmarks.jobs import (FAMILIES, FAMILY_COMMANDS, FLOAT_COMMANDS, FLOAT_NAME, FLOATS,
                            problem_toml)
from symattn.parse.spec import load_problem

ROOT = Path(__file__).resolve().parent.parent


def test_the_families_draw_from_their_sets(tmp_path):
    logs = problem_toml("logs", 12)
    assert "ln(" in logs and 'temperature = "1"' in logs
    assert "sqrt(" in problem_toml("roots", 12) and "0.85" in problem_toml("roots", 40)
    assert 'tau = "positive"' in problem_toml("symbolic", 3)
    assert problem_toml("integers", 8) == problem_toml("integers", 8)  # fixed seeds
    for family in FAMILIES:
        path = tmp_path / f"{family}.toml"
        path.write_text(problem_toml(family, 5), encoding="utf-8")
        problem = load_problem(path)
        assert (problem.n_q, problem.n_k, problem.d_v) == (5, 5, 2)


def test_the_whole_job_benchmark_runs_and_reports_every_job():
    results = wholejob.measure(ROOT, {"logs": [2], "roots": [2]}, limit=120, repeats=1,
                               problems=1, page=False, startup_repeats=1, float_sizes=(4,))
    jobs = {(r["command"], r["family"]): r for r in results["jobs"]}
    for family in ("logs", "roots"):
        for command in FAMILY_COMMANDS:
            assert jobs[(command, family)]["status"] == "ok", jobs[(command, family)]
    for command in FLOAT_COMMANDS:
        assert jobs[(command, FLOATS)]["status"] == "ok", jobs[(command, FLOATS)]
    assert jobs[("solve-json", "logs")]["bytes"] > 500
    assert jobs[("check", "roots")]["phases"]["check"] > 0
    assert jobs[("problemset", "1 generated")]["status"] == "ok"
    text = wholejob_report.section(results)
    assert text.startswith(wholejob_report.START) and "### n = 2" in text
    assert "`solve-json` | " in text and "roots and decimals" in text and FLOAT_NAME in text
    svg = ET.fromstring(wholejob_plot.plot(results))
    assert svg.tag.endswith("svg") and len(svg.findall("{http://www.w3.org/2000/svg}polyline")) == 2
    document = wholejob_report.splice("# Performance\n\nengine tables\n", text)
    assert wholejob_report.splice(document, text) == document  # rewritten in place
