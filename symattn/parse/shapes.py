"""Problems that give only shapes, and the two shape constraints every problem must meet."""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import ProblemError
from ..limits import MAX_SHAPE
from ..model import Grading, ShapeProblem


def shape_problem(reader: Any, data: Mapping[str, Any], inputs: Mapping[str, Any],
                  answers: tuple, grading: Grading) -> ShapeProblem:
    """Q, K, V given as {shape = [rows, columns]}: only shapes can be derived and judged."""
    if "attention" in data:
        raise reader.fail("attention", "a problem that gives only shapes takes no [attention] options")
    shapes = {n: read_shape(reader, inputs[n], f"input.{n}") for n in ("Q", "K", "V")}
    check_shapes(shapes["Q"], shapes["K"], shapes["V"], reader.source)
    (n_q, d_k), (n_k, _), (_, d_v) = shapes["Q"], shapes["K"], shapes["V"]
    title = reader.label(data["title"], "title") if "title" in data else None
    return ShapeProblem(n_q=n_q, n_k=n_k, d_k=d_k, d_v=d_v, title=title, source=reader.source,
                        answers=answers, grading=grading)


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


def check_shapes(Q: Any, K: Any, V: Any, source: str) -> None:
    """The two constraints: Q and K share d_k; K and V share n_k (matrices or (rows, columns))."""
    (q_rows, q_cols), (k_rows, k_cols), (v_rows, v_cols) = (
        m.shape if hasattr(m, "shape") else m for m in (Q, K, V))
    if q_cols != k_cols:
        raise ProblemError(f"Q is {q_rows}x{q_cols} and K is {k_rows}x{k_cols}: Q and K must "
                           "have the same number of columns (d_k)", source=source, key="input.K")
    if k_rows != v_rows:
        raise ProblemError(f"K is {k_rows}x{k_cols} and V is {v_rows}x{v_cols}: K and V must "
                           "have the same number of rows (n_k)", source=source, key="input.V")
