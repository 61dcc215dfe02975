"""Self-attention from X with projections, and [[heads]]: reading them into Problems.

Q = X W_Q + 1 b_Qᵀ, K = X W_K + 1 b_Kᵀ (or from Y), V likewise are exact products, formed here
as the problem is read; each head is an ordinary Problem of a MultiHeadProblem. A problem laid
out in columns writes X as D x N and W_Q as d_k x D (Q = W_Q X + b_Q 1ᵀ, Prince's book): each
is transposed here, so that the engine computes in rows whatever the file's layout.
"""

from __future__ import annotations

from dataclasses import replace

from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..errors import ProblemError
from ..model import MultiHeadProblem, Projections
from .claims import read_answers, read_grading

PROJECTION_KEYS = ("X", "Y", "W_Q", "W_K", "W_V")
BIAS_KEYS = ("b_Q", "b_K", "b_V")
HEAD_KEYS = frozenset({"W_Q", "W_K", "W_V", *BIAS_KEYS, "attention"})
OPTION_TABLES = ("sweep", "gradient")  # analyses of one head


def _product(a: sp.ImmutableMatrix, b: sp.ImmutableMatrix, names: tuple[str, str], source: str,
             key: str, columns: bool) -> sp.ImmutableMatrix:
    """a b (rows), named as the file writes it: b a with both transposed (columns)."""
    if a.cols != b.rows:
        first, second = (names[1], names[0]) if columns else names
        (r1, c1), (r2, c2) = ((b.cols, b.rows), (a.cols, a.rows)) if columns else (a.shape, b.shape)
        raise ProblemError(f"{first} is {r1}x{c1} and {second} is {r2}x{c2}: {first} {second} "
                           f"needs {first}'s columns to equal {second}'s rows", source=source, key=key)
    return sp.ImmutableMatrix((a * b).applyfunc(sp.expand))


def biased(product: sp.ImmutableMatrix, bias: sp.ImmutableMatrix | None, names: tuple[str, str],
           source: str, key: str, columns: bool) -> sp.ImmutableMatrix:
    """product + 1 biasᵀ: the bias (one row) added to every row."""
    if bias is None:
        return product
    if bias.cols != product.cols:
        side = "rows" if columns else "columns"
        raise ProblemError(f"{names[0]} has {bias.cols} entries but {names[1]} gives "
                           f"{product.cols} (its {side})", source=source, key=key)
    return sp.ImmutableMatrix(product.rows, product.cols,
                              lambda i, j: sp.expand(product[i, j] + bias[0, j]))


def project(projections: Projections, source: str, where: str = "input", columns: bool = False
            ) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix, sp.ImmutableMatrix]:
    """Q = X W_Q + 1 b_Qᵀ, K and V likewise (keys and values from Y when it is given)."""
    p = projections
    other = "X" if p.Y is None else "Y"
    out = []
    for name, x, w, bias in (("Q", p.X, p.W_Q, p.b_Q), ("K", p.source_of_keys, p.W_K, p.b_K),
                             ("V", p.source_of_keys, p.W_V, p.b_V)):
        product = _product(x, w, ("X" if name == "Q" else other, f"W_{name}"), source,
                           f"{where}.W_{name}", columns)
        out.append(biased(product, bias, (f"b_{name}", f"W_{name}"), source, f"{where}.b_{name}",
                          columns))
    return out[0], out[1], out[2]


def read_projections(reader: Any, inputs: Mapping[str, Any], symbols: Mapping[str, sp.Symbol],
                     where: str = "input", columns: bool = False) -> Projections:
    """X (and Y) from [input], W_Q, W_K, W_V and the biases b_Q, b_K, b_V from `inputs` (the
    [input] table or a head), transposed when the file is laid out in columns; each error names
    the key as the file has it (input.X, heads[2].W_Q)."""
    def key(name: str) -> str:
        return f"input.{name}" if name in ("X", "Y") else f"{where}.{name}"

    for name in ("X", "W_Q", "W_K", "W_V"):
        if name not in inputs:
            raise reader.fail(key(name), "missing (X with W_Q, W_K and W_V, or Q, K and V)")
        if isinstance(inputs[name], dict) and "value" not in inputs[name]:  # {value, index}: a batch
            raise reader.fail(key(name), "a problem given as shapes writes Q, K and V as "
                              "{shape = [rows, columns]} in [input], with heads = h for heads")
    read = {name: reader.matrix(inputs[name], key(name), symbols)
            for name in PROJECTION_KEYS if name in inputs}
    if columns:
        read = {name: m.T for name, m in read.items()}
    read |= {name: reader.vector(inputs[name], key(name), symbols)
             for name in BIAS_KEYS if name in inputs}
    return Projections(**read)


def output_projection(reader: Any, inputs: Mapping[str, Any], symbols: Mapping[str, sp.Symbol],
                      width: int, columns: bool) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix | None]:
    """W_O (h·d_v x d_out; d_out x h·d_v in columns) and the optional bias b_O (d_out entries)."""
    if "W_O" not in inputs:
        raise reader.fail("input.W_O", "missing (the output projection of the heads)")
    W_O = reader.matrix(inputs["W_O"], "input.W_O", symbols)
    W_O = W_O.T if columns else W_O
    if W_O.rows != width:
        side, other = ("columns", "rows") if columns else ("rows", "columns")
        raise ProblemError(f"W_O has {W_O.rows} {side} but the heads' outputs together have "
                           f"{width} {other}", source=reader.source, key="input.W_O")
    if "b_O" not in inputs:
        return W_O, None
    b_O = reader.vector(inputs["b_O"], "input.b_O", symbols)
    if b_O.cols != W_O.cols:
        side = "rows" if columns else "columns"
        raise reader.fail("input.b_O", f"b_O has {b_O.cols} entries but W_O gives {W_O.cols} "
                          f"(its {side})")
    return W_O, b_O


def read_multi_head(reader: Any, data: Mapping[str, Any], inputs: Mapping[str, Any],
                    symbols: Mapping[str, sp.Symbol], columns: bool) -> MultiHeadProblem:
    """[[heads]] entries, each with its projections and optional attention options, and W_O."""
    heads = data["heads"]
    if not isinstance(heads, list) or not heads or not all(isinstance(h, dict) for h in heads):
        raise reader.fail("heads", "must be one or more [[heads]] tables")
    if "W_O" not in inputs:
        raise reader.fail("input.W_O", "missing (the output projection of the heads)")
    if "num_heads" in inputs:
        raise reader.fail("input.num_heads", "give [[heads]] or num_heads with whole "
                          "projections, not both")
    refuse_analyses(reader, data)
    title, title_zh = reader.titles(data)
    problems = []
    for k, head in enumerate(heads, start=1):
        reader.only(head, HEAD_KEYS, f"heads[{k}]")
        single = single_head(data, inputs, {n: head[n] for n in HEAD_KEYS - {"attention"}
                                            if n in head})
        single["attention"] = {**data.get("attention", {}),
                               **reader.table(head, "attention", required=False)}
        single["title"], head_zh = head_title(title, title_zh, k)
        if head_zh:
            single["title_zh"] = head_zh
        problems.append(reader.problem(single, where=f"heads[{k}]"))
    W_O, b_O = output_projection(reader, inputs, symbols, sum(h.d_v for h in problems), columns)
    written = tuple(reader.written.items())  # W_O's too: the heads' forms show it
    return MultiHeadProblem(tuple(replace(h, written=written) for h in problems), W_O, title,
                            reader.source, problems[0].presentation,
                            read_answers(data, symbols, reader.source),
                            read_grading(data, reader.source), title_zh, b_O=b_O)


def refuse_analyses(reader: Any, data: Mapping[str, Any]) -> None:
    """[sweep] and [gradient] take one head."""
    for table in OPTION_TABLES:
        if table in data:
            raise reader.fail(table, f"[{table}] works on single-head problems, not with [[heads]]")


def single_head(data: Mapping[str, Any], inputs: Mapping[str, Any], own: Mapping[str, Any]
                ) -> dict[str, Any]:
    """One head's problem document: the file without its heads and answers, [input] with X
    (and Y), the layout and the head's own projections."""
    single = {key: value for key, value in data.items()
              if key not in ("heads", "answers", "title", "title_zh")}
    single["input"] = {**{n: inputs[n] for n in ("X", "Y", "layout") if n in inputs}, **own}
    return single


def head_title(title: str | None, title_zh: str | None, k: int) -> tuple[str, str | None]:
    """Head k's titles: "title — head k" (or "Head k"), and the Chinese one if there is one."""
    return (f"{title} — head {k}" if title else f"Head {k}",
            f"{title_zh}——第 {k} 个头" if title_zh else None)
