"""Self-attention from X with projections, and [[heads]]: reading them into Problems.

Q = X W_Q, K = X W_K (or Y W_K), V = X W_V (or Y W_V) are exact products, formed here as the
problem is read; each head is an ordinary Problem of a MultiHeadProblem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..errors import ProblemError
from ..model import MultiHeadProblem, Projections
from .claims import read_answers, read_grading

PROJECTION_KEYS = ("X", "Y", "W_Q", "W_K", "W_V")
HEAD_KEYS = frozenset({"W_Q", "W_K", "W_V", "attention"})
OPTION_TABLES = ("sweep", "gradient")  # analyses of one head


def _product(a: sp.ImmutableMatrix, b: sp.ImmutableMatrix, names: tuple[str, str], source: str,
             key: str) -> sp.ImmutableMatrix:
    if a.cols != b.rows:
        raise ProblemError(f"{names[0]} is {a.rows}x{a.cols} and {names[1]} is {b.rows}x{b.cols}: "
                           f"{names[0]} {names[1]} needs {names[0]}'s columns to equal "
                           f"{names[1]}'s rows", source=source, key=key)
    return sp.ImmutableMatrix((a * b).applyfunc(sp.expand))


def project(projections: Projections, source: str, where: str = "input"
            ) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix, sp.ImmutableMatrix]:
    """Q = X W_Q, K = X W_K, V = X W_V (keys and values from Y when it is given)."""
    p = projections
    other = "X" if p.Y is None else "Y"
    return (_product(p.X, p.W_Q, ("X", "W_Q"), source, f"{where}.W_Q"),
            _product(p.source_of_keys, p.W_K, (other, "W_K"), source, f"{where}.W_K"),
            _product(p.source_of_keys, p.W_V, (other, "W_V"), source, f"{where}.W_V"))


def read_projections(reader: Any, inputs: Mapping[str, Any], symbols: Mapping[str, sp.Symbol],
                     where: str = "input") -> Projections:
    """X (and Y) from [input], W_Q, W_K, W_V from `inputs` (the [input] table or a head); each
    error names the key as the file has it (input.X, heads[2].W_Q)."""
    def key(name: str) -> str:
        return f"input.{name}" if name in ("X", "Y") else f"{where}.{name}"

    for name in ("X", "W_Q", "W_K", "W_V"):
        if name not in inputs:
            raise reader.fail(key(name), "missing (X with W_Q, W_K and W_V, or Q, K and V)")
        if isinstance(inputs[name], dict):
            raise reader.fail(key(name), "a problem given as shapes writes Q, K and V as "
                              "{shape = [rows, columns]} in [input], with heads = h for heads")
    read = {name: reader.matrix(inputs[name], key(name), symbols)
            for name in PROJECTION_KEYS if name in inputs}
    return Projections(**read)


def read_multi_head(reader: Any, data: Mapping[str, Any], inputs: Mapping[str, Any],
                    symbols: Mapping[str, sp.Symbol]) -> MultiHeadProblem:
    """[[heads]] entries, each with its projections and optional attention options, and W_O."""
    heads = data["heads"]
    if not isinstance(heads, list) or not heads or not all(isinstance(h, dict) for h in heads):
        raise reader.fail("heads", "must be one or more [[heads]] tables")
    if "W_O" not in inputs:
        raise reader.fail("input.W_O", "missing (the output projection of the heads)")
    for table in OPTION_TABLES:
        if table in data:
            raise reader.fail(table, f"[{table}] works on single-head problems, not with [[heads]]")
    title, title_zh = reader.titles(data)
    problems = []
    for k, head in enumerate(heads, start=1):
        reader.only(head, HEAD_KEYS, f"heads[{k}]")
        options = {**data.get("attention", {}), **reader.table(head, "attention", required=False)}
        single = {key: value for key, value in data.items()
                  if key not in ("heads", "answers", "title", "title_zh")}
        single["input"] = {**{n: inputs[n] for n in ("X", "Y") if n in inputs},
                           **{n: head[n] for n in ("W_Q", "W_K", "W_V") if n in head}}
        single["attention"] = options
        single["title"] = f"{title} — head {k}" if title else f"Head {k}"
        if title_zh:
            single["title_zh"] = f"{title_zh}——第 {k} 个头"
        problems.append(reader.problem(single, where=f"heads[{k}]"))
    W_O = reader.matrix(inputs["W_O"], "input.W_O", symbols)
    width = sum(h.d_v for h in problems)
    if W_O.rows != width:
        raise ProblemError(f"W_O has {W_O.rows} rows but the heads' outputs together have {width} "
                           "columns", source=reader.source, key="input.W_O")
    return MultiHeadProblem(tuple(problems), W_O, title, reader.source, problems[0].presentation,
                            read_answers(data, symbols, reader.source),
                            read_grading(data, reader.source), title_zh)
