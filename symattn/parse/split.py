"""num_heads = h with whole projections, split into heads as torch.nn.MultiheadAttention does.

Head k takes columns k·d_head to (k + 1)·d_head - 1 of the projected Q, K and V (with the same
entries of the biases), so its scale is 1/√d_head; the heads' outputs are joined and W_O (and
b_O) applied, as with [[heads]].
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import sympy as sp

from ..limits import MAX_SHAPE
from ..model import MultiHeadProblem, Problem, Projections
from .claims import read_answers, read_grading
from .heads import BIAS_KEYS, head_title, output_projection, refuse_analyses, single_head

WHOLE_KEYS = ("W_Q", "W_K", "W_V", *BIAS_KEYS)


def split_heads(reader: Any, data: Mapping[str, Any], inputs: Mapping[str, Any],
                symbols: Mapping[str, sp.Symbol], columns: bool) -> MultiHeadProblem:
    """The problem of [input] num_heads = h: the whole projections read (and checked) as one
    problem, then each head's columns of Q, K, V, the weights and the biases."""
    h = inputs["num_heads"]
    if isinstance(h, bool) or not isinstance(h, int) or not 1 <= h <= MAX_SHAPE:
        raise reader.fail("input.num_heads", f"must be an integer from 1 to {MAX_SHAPE}")
    if "X" not in inputs:
        raise reader.fail("input.X", "num_heads splits the projections of X: give X with "
                          "W_Q, W_K and W_V (d_model x d_model), and W_O")
    if "W_O" not in inputs:
        raise reader.fail("input.W_O", "missing (the output projection of the heads)")
    refuse_analyses(reader, data)
    whole = reader.problem(single_head(data, inputs, {n: inputs[n] for n in WHOLE_KEYS
                                                      if n in inputs}))
    if whole.d_k % h or whole.d_v % h:
        raise reader.fail("input.num_heads", f"{h} heads must split d_k = {whole.d_k} and "
                          f"d_v = {whole.d_v} evenly")
    title, title_zh = reader.titles(data)
    heads = tuple(_head(whole, k, h, title, title_zh) for k in range(h))
    W_O, b_O = output_projection(reader, inputs, symbols, whole.d_v, columns)
    written = tuple(reader.written.items())  # W_O's too: the heads' forms show it
    return MultiHeadProblem(tuple(replace(h, written=written) for h in heads), W_O, title,
                            reader.source, whole.presentation,
                            read_answers(data, symbols, reader.source),
                            read_grading(data, reader.source), title_zh, b_O=b_O, num_heads=h)


def _head(whole: Problem, k: int, h: int, title: str | None, title_zh: str | None) -> Problem:
    """Head k (0-based) of h: its block of columns of Q, K, V and of everything they come from."""
    p = whole.projections
    assert p is not None  # split_heads read X with the projections
    d_k, d_v = whole.d_k // h, whole.d_v // h

    def block(m: sp.ImmutableMatrix | None, size: int) -> sp.ImmutableMatrix | None:
        return None if m is None else sp.ImmutableMatrix(m[:, k * size:(k + 1) * size])
    projections = Projections(X=p.X, Y=p.Y, W_Q=block(p.W_Q, d_k), W_K=block(p.W_K, d_k),
                              W_V=block(p.W_V, d_v), b_Q=block(p.b_Q, d_k),
                              b_K=block(p.b_K, d_k), b_V=block(p.b_V, d_v))
    head_en, head_zh = head_title(title, title_zh, k + 1)
    return replace(whole, Q=block(whole.Q, d_k), K=block(whole.K, d_k), V=block(whole.V, d_v),
                   projections=projections, title=head_en, title_zh=head_zh)
