"""Problems that give only shapes, and the two shape constraints every problem must meet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ProblemError
from ..limits import MAX_SHAPE
from ..model import Grading, ShapeProblem


SHAPE_KEYS = frozenset({"Q", "K", "V", "W_O", "batch", "heads"})


def shape_problem(reader: Any, data: Mapping[str, Any], inputs: Mapping[str, Any],
                  answers: tuple[Any, ...], grading: Grading) -> ShapeProblem:
    """Q, K, V given as {shape = [rows, columns]}, optionally batch = b, heads = h and W_O:
    only shapes can be derived and judged."""
    if "attention" in data:
        raise reader.fail("attention", "a problem that gives only shapes takes no [attention] options")
    reader.only(inputs, SHAPE_KEYS, "input")
    shapes = {n: read_shape(reader, inputs[n], f"input.{n}") for n in ("Q", "K", "V")}
    check_shapes(shapes["Q"], shapes["K"], shapes["V"], reader.source)
    (n_q, d_k), (n_k, _), (_, d_v) = shapes["Q"], shapes["K"], shapes["V"]
    batch, heads = (_size(reader, inputs, name) for name in ("batch", "heads"))
    d_out = None
    if "W_O" in inputs:
        if not heads:
            raise reader.fail("input.W_O", "W_O goes with heads = h (the heads' outputs, joined)")
        rows, d_out = read_shape(reader, inputs["W_O"], "input.W_O")
        if rows != d_v:
            raise ProblemError(f"W_O has {rows} rows but the heads' outputs together have {d_v} "
                               "columns (d_v)", source=reader.source, key="input.W_O")
    if heads and (d_k % heads or d_v % heads):
        raise reader.fail("input.heads", f"{heads} heads must split d_k = {d_k} and d_v = {d_v} "
                          "evenly")
    title, title_zh = reader.titles(data)
    return ShapeProblem(n_q=n_q, n_k=n_k, d_k=d_k, d_v=d_v, title=title, title_zh=title_zh,
                        source=reader.source,
                        answers=answers, grading=grading, batch=batch, heads=heads, d_out=d_out)


def _size(reader: Any, inputs: Mapping[str, Any], name: str) -> int | None:
    value = inputs.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SHAPE:
        raise reader.fail(f"input.{name}", f"must be an integer from 1 to {MAX_SHAPE}")
    return value


def read_shape(reader: Any, value: Any, key: str) -> tuple[int, int]:
    """{shape = [rows, columns]} with both sizes from 1 to MAX_SHAPE."""
    if not isinstance(value, dict):
        raise reader.fail(key, "give every one of Q, K, V as {shape = [rows, columns]} "
                               "when one of them is")
    reader.only(value, frozenset({"shape"}), key)
    shape = value.get("shape")
    if not (isinstance(shape, list) and len(shape) == 2 and all(
            isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= MAX_SHAPE for x in shape)):
        raise reader.fail(f"{key}.shape", f"must be [rows, columns], two integers from 1 to {MAX_SHAPE}")
    return (shape[0], shape[1])


def check_shapes(Q: Any, K: Any, V: Any, source: str, columns: bool = False) -> None:
    """The two constraints: Q and K share d_k; K and V share n_k (matrices or (rows, columns));
    a problem laid out in columns is told of them as its file writes them (d_k x n_q, ...)."""
    (q_rows, q_cols), (k_rows, k_cols), (v_rows, v_cols) = (
        m.shape if hasattr(m, "shape") else m for m in (Q, K, V))
    if columns:
        if q_cols != k_cols:
            raise ProblemError(f"Q is {q_cols}x{q_rows} and K is {k_cols}x{k_rows}: Q and K must "
                               "have the same number of rows (d_k)", source=source, key="input.K")
        if k_rows != v_rows:
            raise ProblemError(f"K is {k_cols}x{k_rows} and V is {v_cols}x{v_rows}: K and V must "
                               "have the same number of columns (n_k)", source=source, key="input.V")
        return
    transposed = q_rows == k_rows and k_cols == v_cols  # the transposed shapes would fit
    hint = ' (written one column per token? set layout = "columns" in [input])' if transposed else ""
    if q_cols != k_cols:
        raise ProblemError(f"Q is {q_rows}x{q_cols} and K is {k_rows}x{k_cols}: Q and K must "
                           f"have the same number of columns (d_k){hint}", source=source,
                           key="input.K")
    if k_rows != v_rows:
        raise ProblemError(f"K is {k_rows}x{k_cols} and V is {v_rows}x{v_cols}: K and V must "
                           f"have the same number of rows (n_k){hint}", source=source,
                           key="input.V")
