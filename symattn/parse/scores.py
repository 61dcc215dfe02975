"""Problems that start from printed scores: [input] R (raw scores, with d_k for the scale), S
(scaled scores) or L (logits), with V.

Many sources print only the score matrix. The problem then starts at that stage: the scores are
carried as Q = scores and K = I (so R = Q Kᵀ is the scores themselves), which nothing shows; the
scale is 1/√d_k for R (d_k given), 1 for S and L; for L the temperature is 1 and a -oo entry is
a masked one. A book that gives S or L may state its d_k too: it is shown as the book's, and
changes no value (the given scores already hold its 1/√d_k).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..errors import InputError

SCORE_KEYS = ("R", "S", "L")
WHAT = {"R": "raw scores R", "S": "scaled scores S", "L": "logits L"}


def given_scores(reader: Any, inputs: Mapping[str, Any], options: Mapping[str, Any],
                 symbols: Mapping[str, sp.Symbol]) -> dict[str, Any] | None:
    """Q, K, V and the fields of a Problem that starts from given scores, or None (no scores).

    Raises:
        InputError: scores together with Q, K or X, more than one of R, S, L, or an option
            the given stage already holds (a temperature for L, a scale for S).
    """
    given = [name for name in SCORE_KEYS if name in inputs]
    if not given:
        if "d_k" in inputs:
            raise reader.fail("input.d_k", "d_k goes with given scores R, S or L (Q and K show it)")
        return None
    start = given[0]
    if len(given) > 1 or any(name in inputs for name in ("Q", "K", "X")):
        raise reader.fail(f"input.{start}", f"give the {WHAT[start]} alone with V, not with "
                          f"{', '.join(n for n in ('Q', 'K', 'X', *given[1:]) if n in inputs)}")
    if "V" not in inputs:
        raise reader.fail("input.V", f"missing (V is needed with the {WHAT[start]})")
    scores = reader.matrix(inputs[start], f"input.{start}", symbols, allow_neg_infinity=start == "L")
    fields: dict[str, Any] = {"start": start, "V": reader.matrix(inputs["V"], "input.V", symbols)}
    if start == "R":
        fields.update(_key_dimension(reader, inputs, options))
    else:
        for option in ("scale",) + (("temperature",) if start == "L" else ()):
            if option in options:
                raise reader.fail(f"attention.{option}", f"the {WHAT[start]} already hold the "
                                  f"{option}; give R (or Q and K) to set it")
        fields["scale"] = sp.S.One
        if "d_k" in inputs:  # the book's, shown as such: S and L already hold its 1/√d_k
            fields["given_d_k"] = _d_k(reader, inputs["d_k"])
    masked = [[x is sp.S.NegativeInfinity for x in scores.row(i)] for i in range(scores.rows)]
    if any(any(row) for row in masked):  # only logits may hold -oo: a masked entry
        fields["masked"] = tuple(tuple(not m for m in row) for row in masked)
        scores = scores.applyfunc(lambda x: sp.S.Zero if x is sp.S.NegativeInfinity else x)
    fields.update(Q=scores, K=sp.ImmutableMatrix.eye(scores.cols))
    return fields


def _key_dimension(reader: Any, inputs: Mapping[str, Any], options: Mapping[str, Any]
                   ) -> dict[str, Any]:
    """d_k for R: its 1/√d_k is the scale unless [attention] scale says otherwise."""
    d_k = inputs.get("d_k")
    if d_k is None:
        if "scale" not in options:
            raise reader.fail("input.d_k", "missing: with R give d_k (the key dimension; the "
                              "scale is 1/sqrt(d_k)), or [attention] scale")
        return {}
    return {"given_d_k": _d_k(reader, d_k)}


def _d_k(reader: Any, d_k: Any) -> int:
    """The key dimension a problem states: an integer from 1 to 1000000."""
    if isinstance(d_k, bool) or not isinstance(d_k, int) or not 1 <= d_k <= 1_000_000:
        raise InputError("must be an integer from 1 to 1000000 (the key dimension)",
                         source=reader.source, key="input.d_k")
    return d_k
