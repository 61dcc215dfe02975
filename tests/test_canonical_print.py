"""The one-pass printers of JSON and text write each entry so that SymPy reads it back as the
same expression, on every input family of the whole-job benchmark."""

from __future__ import annotations

import json

import pytest
import sympy as sp

import symattn
from benchmarks.jobs import FAMILIES, problem_toml
from symattn.exact.shown import shown_stages
from symattn.parse.spec import load_problem
from symattn.printing.canonical import CanonicalPrinter
from symattn.printing.plain import CanonicalTextPrinter

TAU = sp.Symbol("tau", positive=True)


@pytest.fixture(params=FAMILIES)
def trace(request, tmp_path):
    path = tmp_path / "problem.toml"
    path.write_text(problem_toml(request.param, 7), encoding="utf-8")
    return symattn.attend(load_problem(path))


def test_json_entries_read_back_as_the_same_expressions(trace):
    document = json.loads(symattn.render(trace, "json"))
    for name, rows in document["stages"].items():
        matrix = trace.stage(name)
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                assert sp.sympify(text, locals={"tau": TAU}) == matrix[i, j], (name, i, j)


def test_text_entries_read_back_as_the_same_expressions(trace):
    printer = CanonicalTextPrinter()
    names = {"tau": TAU, "e": sp.E, "ln": sp.log}
    for name in ("S", "L", "A", "O"):
        for x in trace.stage(name):
            assert sp.sympify(printer.doprint(x), locals=names) == x
    if not shown_stages(trace):  # a problem in decimals shows them instead
        assert printer.doprint(trace.A[-1, 0]) in symattn.render(trace, "text")


def test_the_printer_writes_what_sympy_writes_up_to_the_order_of_terms():
    x = sp.exp(sp.sqrt(2) / 3) / (1 + 2 * sp.exp(sp.log(3) * sp.sqrt(2))) - sp.Rational(1, 7)
    printed = CanonicalPrinter().doprint(x)
    assert sp.sympify(printed) == x
    assert sorted(printed.replace("(", " ").replace(")", " ").split()) == \
        sorted(str(x).replace("(", " ").replace(")", " ").split())
