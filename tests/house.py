"""The house rules of the package's shape, read from the source with ast (imports inside functions
counted): layers in one direction, no import circle, renderers that import only nouns and
derivations, small modules, and a comment on every import made inside a function.

`violations(root)` lists every broken rule of the package at `root`; tests/test_architecture.py
runs it on symattn and on small fake trees that break each rule on purpose.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

MAX_LINES = 400

LAYERS = (
    ("base", ("errors", "limits", "vocabulary")),
    ("nouns", ("model", "reports", "kinds")),
    ("parse", ("parse", "parse.*")),
    ("numeric", ("numeric", "numeric_*")),
    ("exact", ("exact", "exact.*")),
    ("checks, answers, analyses", ("checks", "checks.*", "answers", "answers.*", "analyses",
                                   "analyses.*")),
    ("derivation", ("derivation", "derivation.*")),
    ("renderers, page, exercises", ("renderers", "renderers.*", "page", "page.*", "exercises",
                                    "exercises.*")),
    ("jobs", ("jobs", "jobs.*")),
    ("cli, api", ("", "__main__", "api", "caches", "cli", "cli.*", "notebook", "sphinx",
                  "sphinx.*")),
)
"""Lowest first: a module imports only from its own layer or the layers below it."""

NOUNS = ("errors", "limits", "model", "reports", "*.results")
RENDERER_MAY_IMPORT = NOUNS + ("derivation", "derivation.*", "renderers", "renderers.*", "parse.labels")
"""Renderers lay out nouns and derivations; parse.labels refuses control characters in labels."""
NOUNS_MAY_IMPORT = NOUNS + ("parse", "parse.*")
"""Result types hold parsed inputs (a sweep's axes, a gradient's upstream) and nothing computed."""


@dataclass(frozen=True)
class Import:
    """One import statement: who imports what, where, and whether inside a function."""

    importer: str
    target: str
    line: int
    in_function: bool
    commented: bool


def modules(root: Path) -> dict[str, Path]:
    """Module names relative to the package ("" for its __init__) -> their files."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(root: Path) -> list[Import]:
    """Every import of a package module by a package module."""
    known = modules(root)
    found = []
    for name, path in known.items():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text, filename=str(path))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        inside = {id(node) for function in ast.walk(tree)
                  if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
                  for node in ast.walk(function)}
        for node in ast.walk(tree):
            for target in _targets(node, package, root.name, known):
                commented = "#" in lines[node.lineno - 1] or (
                    node.lineno > 1 and lines[node.lineno - 2].strip().startswith("#"))
                found.append(Import(name, target, node.lineno, id(node) in inside, commented))
    return found


def _targets(node: ast.AST, package: str, top: str, known: dict[str, Path]) -> list[str]:
    """The package modules an import statement reaches (a name imported from a package may be
    a module of it)."""
    if isinstance(node, ast.Import):
        inside = [a.name.removeprefix(top).removeprefix(".") for a in node.names
                  if a.name == top or a.name.startswith(top + ".")]
        return sorted({t for t in (_known(name, known) for name in inside) if t is not None})
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        parts = package.split(".") if package else []
        if node.level - 1 > len(parts):
            return []
        base = ".".join(parts[: len(parts) - (node.level - 1)] + ([node.module] if node.module else []))
    elif node.module == top or (node.module or "").startswith(top + "."):
        base = node.module.removeprefix(top).removeprefix(".")
    else:
        return []
    out = []
    for alias in node.names:
        sub = f"{base}.{alias.name}" if base else alias.name
        out.append(sub if sub in known else _known(base, known))
    return sorted({t for t in out if t is not None})


def _known(name: str, known: dict[str, Path]) -> str | None:
    while name not in known and "." in name:
        name = name.rpartition(".")[0]
    return name if name in known else None


def layer(name: str) -> int | None:
    """The rank of a module's layer (None: not placed in any layer)."""
    for rank, (_, patterns) in enumerate(LAYERS):
        if any(fnmatch(name, p) for p in patterns):
            return rank
    return None


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch(name, p) for p in patterns)


def circles(edges: list[Import]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for e in edges:
        if e.importer != e.target:
            graph.setdefault(e.importer, set()).add(e.target)
            graph.setdefault(e.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def longest_chain(edges: list[Import]) -> list[str]:
    """The longest import chain (the graph has no circle)."""
    graph: dict[str, set[str]] = {}
    for e in edges:
        if e.importer != e.target:
            graph.setdefault(e.importer, set()).add(e.target)
    memo: dict[str, list[str]] = {}

    def chain(v: str) -> list[str]:
        if v not in memo:
            memo[v] = [v] + max((chain(w) for w in graph.get(v, ())), key=len, default=[])
        return memo[v]

    return max((chain(v) for v in graph), key=len, default=[])


def violations(root: Path) -> list[str]:
    """Every broken house rule of the package at root, one line each."""
    out = []
    for name, path in modules(root).items():
        size = len(path.read_text(encoding="utf-8").splitlines())
        if size > MAX_LINES:
            out.append(f"{name or '__init__'}: {size} lines (limit {MAX_LINES})")
        if layer(name) is None:
            out.append(f"{name}: not placed in a layer")
    edges = imports(root)
    for e in edges:
        where = f"{e.importer or '__init__'}:{e.line}"
        low, high = layer(e.target), layer(e.importer)
        if low is not None and high is not None and low > high:
            out.append(f"{where}: imports {e.target} against the direction "
                       f"({LAYERS[high][0]} -> {LAYERS[low][0]})")
        if _matches(e.importer, ("renderers", "renderers.*")) and \
                not _matches(e.target, RENDERER_MAY_IMPORT):
            out.append(f"{where}: a renderer imports the computing module {e.target}")
        if _matches(e.importer, NOUNS) and not _matches(e.target, NOUNS_MAY_IMPORT):
            out.append(f"{where}: nouns import {e.target}")
        if e.in_function and not e.commented:
            out.append(f"{where}: an import inside a function without a comment saying why")
    out += [f"import circle: {' -> '.join(group)}" for group in circles(edges)]
    return out
