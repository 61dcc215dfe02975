"""caches.clear() knows every process-wide memo: the source is scanned for lru_cache'd functions
and module-level memo dicts and lists, and each must be a row of caches.MEMOS."""

from __future__ import annotations

import ast
import importlib

import symattn
from conftest import ROOT
from symattn import caches

PACKAGE = ROOT / "symattn"
MEMO_DECORATORS = {"lru_cache", "cache"}
NOT_MEMOS = {("exact.attention", "NO_BIAS"),  # a shared empty linear form, never written to
             ("words.registry", "PHRASES")}  # the phrase tables, filled once at import
"""Module-level empty containers that are constants, not memos."""


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def _empty_container(node: ast.expr | None) -> bool:
    if isinstance(node, (ast.Dict, ast.List, ast.Set)):
        return not (getattr(node, "keys", None) or getattr(node, "elts", None))
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args
            and node.func.id in {"dict", "list", "set", "OrderedDict", "defaultdict"})


def found_memos() -> set[tuple[str, str]]:
    """(module, name) of every memoized function (at any depth) and module-level empty dict,
    list or set in the package's source."""
    out = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    _decorator_name(d) in MEMO_DECORATORS for d in node.decorator_list):
                out.add((module, node.name))
        for node in tree.body:
            if isinstance(node, ast.Assign) and _empty_container(node.value):
                out |= {(module, t.id) for t in node.targets if isinstance(t, ast.Name)}
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and \
                    _empty_container(node.value):
                out.add((module, node.target.id))
    return out - NOT_MEMOS


def test_every_memo_in_the_source_is_in_the_table_and_every_row_exists():
    assert sorted(found_memos()) == sorted(caches.MEMOS)


def test_the_scan_finds_the_memos_it_is_meant_to():
    code = ("from functools import lru_cache, cache\nimport functools\nA: dict = {}\nB = []\n"
            "C = {1: 2}\n@lru_cache(maxsize=2)\ndef f(): pass\n@functools.cache\ndef g(): pass\n"
            "class K:\n    @cache\n    def h(self): pass\n")
    tree = ast.parse(code)
    decorated = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                 and any(_decorator_name(d) in MEMO_DECORATORS for d in n.decorator_list)}
    assert decorated == {"f", "g", "h"}
    empty = [_empty_container(n.value) for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))]
    assert empty == [True, True, False]


def test_clear_empties_every_memo():
    trace = symattn.attention([[1], [2]], [[0], ["ln(3)"]], [[1], [2]], mask="causal")
    symattn.render(trace, "latex", detail="textbook")
    symattn.check(trace)
    caches.clear()
    for module, name in caches.MEMOS:
        memo = getattr(importlib.import_module(f"symattn.{module}"), name)
        size = memo.cache_info().currsize if hasattr(memo, "cache_info") else len(memo)
        assert size == 0, (module, name)
