"""The house rules of the package's shape, read from the source with ast (imports inside functions
counted): layers in one direction, no import circle, documents and targets that import only nouns,
derivations, printing and words and call nothing that computes, each phrase key defined once,
small modules, and a comment on every import made inside a function.

`violations(root)` lists every broken rule of the package at `root`; tests/test_architecture.py
runs it on symattn and on small fake trees that break each rule on purpose. `python -m
tests.house` (from the repository's root) prints the layers with their modules, the longest
import chain and the number of import circles.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

MAX_LINES = 400

LAYERS = (
    ("base", ("errors", "limits", "vocabulary")),
    ("words", ("words", "words.*")),
    ("nouns", ("model", "lazy", "reports", "kinds")),
    ("parse", ("parse", "parse.*")),
    ("numeric", ("numeric", "numeric_*")),
    ("exact", ("exact", "exact.*")),
    ("checks, answers, analyses", ("checks", "checks.*", "answers", "answers.*", "analyses",
                                   "analyses.*")),
    ("derivation", ("derivation", "derivation.*")),
    ("printing", ("printing", "printing.*")),
    ("documents", ("documents", "documents.*")),
    ("targets", ("targets", "targets.*")),
    ("page, exercises", ("page", "page.*", "exercises", "exercises.*")),
    ("jobs", ("jobs", "jobs.*")),
    ("cli, api", ("", "__main__", "api", "caches", "cli", "cli.*", "notebook", "sphinx",
                  "sphinx.*")),
)
"""Lowest first: a module imports only from its own layer or the layers below it."""

NOUNS = ("errors", "limits", "vocabulary", "model", "lazy", "reports", "kinds", "*.results")
LAYING_OUT = ("documents", "documents.*", "targets", "targets.*")
"""Documents and targets lay out; what they show was computed before they were called."""
LAYING_OUT_MAY_IMPORT = NOUNS + ("derivation", "derivation.*", "printing", "printing.*", "words",
                                 "words.*", "parse.labels", "documents", "documents.*", "targets",
                                 "targets.*")
"""Nouns, derivations, the math printer and the words; parse.labels refuses control characters in
labels."""
NOUNS_MAY_IMPORT = NOUNS + ("parse", "parse.*")
"""Result types hold parsed inputs (a sweep's axes, a gradient's upstream) and nothing computed."""
COMPUTING = frozenset({"N", "simplify", "together", "fraction", "evalf", "nsimplify"})
"""Calls (sp.N(x), N(x), x.evalf(), simplify(x), ...) that documents and targets never make."""
PHRASE_TABLES = ("words", "words.*")


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
        if _matches(e.importer, LAYING_OUT) and not _matches(e.target, LAYING_OUT_MAY_IMPORT):
            out.append(f"{where}: a document or target imports the computing module {e.target}")
        if _matches(e.importer, NOUNS) and not _matches(e.target, NOUNS_MAY_IMPORT):
            out.append(f"{where}: nouns import {e.target}")
        if e.in_function and not e.commented:
            out.append(f"{where}: an import inside a function without a comment saying why")
    out += [f"import circle: {' -> '.join(group)}" for group in circles(edges)]
    out += computing_calls(root) + twice_defined_phrases(root)
    return out


def computing_calls(root: Path) -> list[str]:
    """Every call of sp.N, N, simplify, together, fraction, evalf or nsimplify in documents and
    targets (as a name or an attribute: sp.N(x), x.evalf())."""
    out = []
    for name, path in modules(root).items():
        if not _matches(name, LAYING_OUT):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Call):
                called = node.func.id if isinstance(node.func, ast.Name) else \
                    node.func.attr if isinstance(node.func, ast.Attribute) else None
                if called in COMPUTING:
                    out.append(f"{name}:{node.lineno}: calls {called}(): documents and targets "
                               "never compute")
    return out


def phrase_keys(root: Path) -> list[tuple[str, str, int]]:
    """Every phrase key defined in the words' tables, as (key, module, line): the keys of each
    module-level dict whose entries are {"en": ..., "zh": ...} or Same(...), prefixed with the
    module's PREFIX if it has one."""
    found = []
    for name, path in modules(root).items():
        if not _matches(name, PHRASE_TABLES):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        prefix = ""
        for node in tree.body:
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] \
                    == ["PREFIX"] and isinstance(node.value, ast.Constant):
                prefix = node.value.value
        for node in tree.body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if isinstance(value, ast.Dict) and value.keys and all(_is_phrase(v) for v in value.values):
                found += [(prefix + k.value, name, k.lineno) for k in value.keys
                          if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return found


def _is_phrase(node: ast.AST) -> bool:
    if isinstance(node, ast.Call):
        return getattr(node.func, "id", None) == "Same"
    return isinstance(node, ast.Dict) and any(
        isinstance(k, ast.Constant) and k.value == "en" for k in node.keys)


def twice_defined_phrases(root: Path) -> list[str]:
    """A phrase key defined twice (in one table or two): one would silently replace the other."""
    first: dict[str, tuple[str, int]] = {}
    out = []
    for key, name, line in phrase_keys(root):
        if key in first:
            out.append(f"{name}:{line}: phrase {key} is defined twice (first at "
                       f"{first[key][0]}:{first[key][1]})")
        else:
            first[key] = (name, line)
    return out


def main(root: Path) -> None:
    """Print the layers (lowest first) with their modules, the longest import chain and the
    number of import circles."""
    names = modules(root)
    for rank, (title, _) in enumerate(LAYERS):
        members = [m or "__init__" for m in names if layer(m) == rank]
        print(f"{rank}. {title} ({len(members)}): {', '.join(members)}")
    edges = imports(root)
    chain = longest_chain(edges)
    print(f"longest import chain ({len(chain)}): {' -> '.join(m or '__init__' for m in chain)}")
    print(f"import circles: {len(circles(edges))}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "symattn")
