"""House rules checked on the source: layers, no import circles, documents and targets that only
lay out, phrase keys defined once, every block type set by every target, no eval on user text,
lean imports; and the rule checker itself, on fake trees that break each rule."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from typing import get_args

import house
import pytest
from conftest import ROOT

PACKAGE = ROOT / "symattn"
MODULES = sorted(PACKAGE.rglob("*.py"))
FORBIDDEN_NAMES = {"eval", "exec", "compile", "__import__", "sympify", "parse_expr", "lambdify", "S"}
FORBIDDEN_ATTRIBUTES = {"sympify", "parse_expr", "lambdify", "S", "eval", "exec"}


def _tree(path):
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_the_package_keeps_every_house_rule():
    assert house.violations(PACKAGE) == []


def test_every_module_is_in_a_layer_and_the_import_graph_is_deep_but_acyclic():
    edges = house.imports(PACKAGE)
    assert house.circles(edges) == []
    chain = house.longest_chain(edges)
    assert chain[0] in ("", "__main__") and chain[-1] in ("errors", "limits", "model")
    assert len(chain) >= 10  # the stages stack: cli, page, documents, derivation, numeric, nouns
    ranks = [house.layer(m) for m in chain]
    assert ranks == sorted(ranks, reverse=True)  # every step goes down or stays in its layer


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_no_evaluating_calls(path):
    calls = [node.func for node in ast.walk(_tree(path)) if isinstance(node, ast.Call)]
    names = {f.id for f in calls if isinstance(f, ast.Name)}
    attributes = {f.attr for f in calls if isinstance(f, ast.Attribute)}
    assert not names & FORBIDDEN_NAMES
    assert not attributes & FORBIDDEN_ATTRIBUTES


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_module_docstring(path):
    docstring = ast.get_docstring(_tree(path))
    assert docstring and docstring.splitlines()[0].strip()


def _fake(tmp_path, files: dict[str, str]):
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": '"""Fake."""\n', **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


SOUND = {"errors.py": '"""E."""\n', "model.py": '"""M."""\nfrom .errors import X\n',
         "exact/__init__.py": '"""X."""\n',
         "exact/attention.py": '"""A."""\nfrom ..model import Problem\n',
         "targets/__init__.py": '"""R."""\n',
         "targets/text.py": '"""T."""\nfrom ..model import Trace\nfrom ..derivation import D\n',
         "words/__init__.py": '"""W."""\n',
         "words/a.py": '"""A."""\nA = {"one": {"en": "one", "zh": "一"}}\n',
         "words/b.py": '"""B."""\nPREFIX = "page."\nB = {"one": {"en": "1", "zh": "一"}}\n',
         "derivation.py": '"""D."""\nfrom .exact.attention import attend\n',
         "api.py": '"""API."""\nfrom .targets.text import render\nfrom .exact import attention\n'}


def test_a_sound_fake_tree_passes(tmp_path):
    assert house.violations(_fake(tmp_path, SOUND)) == []


@pytest.mark.parametrize("change, found", [
    ({"model.py": '"""M."""\nfrom .errors import X\n\ndef f():\n    from .api import g  # lazy\n'},
     ["model:5: imports api against the direction (nouns -> cli, api)",
      "model:5: nouns import api",
      "import circle: api -> derivation -> exact.attention -> model -> targets.text"]),
    ({"exact/attention.py": '"""A."""\nfrom ..model import Problem\nfrom ..derivation import d\n'},
     ["exact.attention:3: imports derivation against the direction (exact -> derivation)",
      "import circle: derivation -> exact.attention"]),
    ({"targets/text.py": '"""T."""\nfrom ..exact.attention import attend\n'},
     ["targets.text:2: a document or target imports the computing module exact.attention"]),
    ({"targets/text.py": '"""T."""\nimport sympy as sp\n\ndef f(x):\n    return sp.N(x)\n'},
     ["targets.text:5: calls N(): documents and targets never compute"]),
    ({"documents/__init__.py": '"""D."""\n',
      "documents/walk.py": '"""W."""\ndef f(x):\n    return x.evalf() + simplify(x)\n'},
     ["documents.walk:3: calls evalf(): documents and targets never compute",
      "documents.walk:3: calls simplify(): documents and targets never compute"]),
    ({"words/b.py": '"""B."""\nB = {"two": {"en": "2", "zh": "二"},\n     "one": {"en": "1", "zh": "一"}}\n'},
     ["words.b:3: phrase one is defined twice (first at words.a:2)"]),
    ({"words/a.py": '"""A."""\nA = {"one": {"en": "one", "zh": "一"},\n     "one": {"en": "1", "zh": "一"}}\n'},
     ["words.a:3: phrase one is defined twice (first at words.a:2)"]),
    ({"exact/attention.py": '"""A."""\n' + "x = 1\n" * 400},
     ["exact.attention: 401 lines (limit 400)"]),
    ({"exact/attention.py": '"""A."""\ndef f():\n    from ..model import Problem\n'},
     ["exact.attention:3: an import inside a function without a comment saying why"]),
    ({"gadgets.py": '"""G."""\n'}, ["gadgets: not placed in a layer"]),
], ids=["circle-through-a-function", "upward", "target-imports-computing", "target-calls-N",
        "document-evaluates", "phrase-in-two-tables", "phrase-twice-in-one-table", "too-long",
        "silent-lazy", "no-layer"])
def test_each_broken_rule_is_found(tmp_path, change, found):
    assert house.violations(_fake(tmp_path, {**SOUND, **change})) == found


def test_the_house_prints_its_layers_the_longest_chain_and_no_circle():
    done = subprocess.run([sys.executable, "-m", "tests.house"], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    lines = done.stdout.splitlines()
    assert [line.split(" (")[0] for line in lines[:len(house.LAYERS)]] == [
        f"{rank}. {title}" for rank, (title, _) in enumerate(house.LAYERS)]
    assert lines[-2].startswith("longest import chain (") and lines[-1] == "import circles: 0"


def test_registering_a_phrase_key_twice_raises():
    from symattn.words.registry import PHRASES, register
    with pytest.raises(KeyError, match="phrase checks is registered twice"):
        register({"checks": {"en": "Checks again", "zh": "再核对"}})
    assert PHRASES["checks"]["en"] == "Checks"


@pytest.mark.parametrize("target", ["latex", "markdown"])
def test_each_target_sets_every_block_type(target):
    from importlib import import_module

    from symattn.documents.blocks import Block
    assert set(import_module(f"symattn.targets.{target}").SETTERS) == set(get_args(Block))


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
