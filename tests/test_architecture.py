"""House rules checked on the source: no eval on user text, renderers never compute, lean imports."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from conftest import ROOT

PACKAGE = ROOT / "symattn"
MODULES = sorted(PACKAGE.rglob("*.py"))
FORBIDDEN_NAMES = {"eval", "exec", "compile", "__import__", "sympify", "parse_expr", "lambdify", "S"}
FORBIDDEN_ATTRIBUTES = {"sympify", "parse_expr", "lambdify", "S", "eval", "exec"}
COMPUTING = {"pipeline", "checks", "numeric", "linear", "expressions", "spec", "api"}


def _tree(path):
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_no_evaluating_calls(path):
    calls = [node.func for node in ast.walk(_tree(path)) if isinstance(node, ast.Call)]
    names = {f.id for f in calls if isinstance(f, ast.Name)}
    attributes = {f.attr for f in calls if isinstance(f, ast.Attribute)}
    assert not names & FORBIDDEN_NAMES
    assert not attributes & FORBIDDEN_ATTRIBUTES


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_module_docstring_and_size(path):
    tree = _tree(path)
    docstring = ast.get_docstring(tree)
    assert docstring and docstring.splitlines()[0].strip()
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 320


def test_renderers_never_import_computing_modules():
    for path in sorted((PACKAGE / "renderers").glob("*.py")):
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[-1] not in COMPUTING, (path.name, node.module)


def test_starting_the_cli_imports_nothing_heavy():
    code = ("import sys, symattn.cli; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'numpy', 'matplotlib', 'torch', 'scipy', 'sympy', 'mpmath'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=ROOT)
    assert done.stdout.strip() == "[]"


def test_solving_imports_no_numeric_stack(example):
    code = ("import sys; from symattn import cli; cli.main(['solve', sys.argv[1]]); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'numpy', 'matplotlib', 'torch', 'scipy'}), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, str(example("02_causal_three_positions"))],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stderr.strip() == "[]"
