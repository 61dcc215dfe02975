"""The lesson's seven-step hand check for one query row of one state of the page, computed from
that state's exact trace: the steps to do first (as segments of text and math) and their answers.

The steps follow the course: the column counts of Q, K, V and the row; two cells of QKᵀ; the
division by √d_k (not by τ); the row of M; L = (S + M)/τ; the row's weights and the sum of their
rounded values; two components of the output and O's shape.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import sympy as sp

from ..exact.shown import decimal
from ..model import ShownDecimal, Trace
from ..numeric_decimals import decimal_string
from ..printing.printer import math
from ..words.page import page_phrases

Segments = list[str | int]
MAX_EXACT_TEX = 48  # a longer exact value is shown by its decimal alone
_FIELD = re.compile(r"\{(\w+)\}")


def hand_checks(trace: Trace, readable: Any, zeros: list[list[str | None]], weights: Any,
                places: int, lang: str, store: Any) -> list[list[dict[str, Segments]]]:
    """For each query row, the seven steps: {"do": what to do, "ans": its answer}."""
    return [HandCheck(trace, i, readable, zeros, weights, places, lang, store).steps()
            for i in range(trace.problem.n_q)]


class HandCheck:
    """The seven steps for row i (0-based) of one state."""

    def __init__(self, trace: Trace, i: int, readable: Any, zeros: list[list[str | None]],
                 weights: Any, places: int, lang: str, store: Any) -> None:
        self.t, self.i, self.p = trace, i, trace.problem
        self.readable = readable[i]
        self.zeros = zeros[i]
        self.weights = weights[i] if weights else None
        self.places, self.store = places, store
        self.words = page_phrases(lang)
        read = [j for j in range(self.p.n_k) if self.readable[j]]
        self.cells = (read + [j for j in range(self.p.n_k) if j not in read])[:2]
        self.cells.sort()

    def steps(self) -> list[dict[str, Segments]]:
        return [self.columns(), self.scores(), self.scaled(), self.mask(), self.logits(),
                self.softmax(), self.outputs()]

    # ---- text and math ---------------------------------------------------------------------
    def say(self, key: str, **fields: Any) -> Segments:
        """A phrase as segments: text stays text; a field given as ("m", tex) becomes math, as a
        list of TeX several formulas."""
        out: Segments = []
        text = self.words[key]
        last = 0
        for match in _FIELD.finditer(text):
            out.append(text[last:match.start()])
            value = fields[match.group(1)]
            if isinstance(value, list):  # several formulas, one after another: each its own math
                for k, tex in enumerate(value):
                    out += ([self.words["hand_separator"]] if k else []) + [self.store.add(tex)]
            else:
                out.append(self.store.add(value[1]) if isinstance(value, tuple) else str(value))
            last = match.end()
        out.append(text[last:])
        merged: Segments = []
        for part in out:  # neighbouring texts as one
            if isinstance(part, str) and merged and isinstance(merged[-1], str):
                merged[-1] += part
            elif part != "":
                merged.append(part)
        return merged

    def step(self, key: str, do: dict[str, Any], answer: dict[str, Any]) -> dict[str, Segments]:
        return {"do": self.say(f"hand_{key}", **do), "ans": self.say(f"hand_{key}_answer", **answer)}

    def value(self, x: sp.Expr) -> str:
        """TeX of a value as a hand check writes it: in a problem written in decimals 3.258
        exactly, else 1/2 = 0.5; 1/6 ≈ 0.167, √3 ≈ 1.732."""
        if x is sp.S.NegativeInfinity:
            return r"-\infty"
        if x.free_symbols or not x.is_number:
            return math(x)
        if x.is_Integer:
            return math(x)
        if x.is_Rational and decimal(x).has(ShownDecimal):
            return math(decimal(x)) if self.p.decimals else rf"{math(x)} = {math(decimal(x))}"
        exact = math(x)
        near = decimal_string(x, self.places)
        return rf"{exact} \approx {near}" if len(exact) <= MAX_EXACT_TEX else rf"\approx {near}"

    def entry(self, x: sp.Expr) -> str:
        """An entry inside a product as the problem writes it (1.34 or 1/2), negative ones in
        parentheses."""
        tex = math(decimal(x)) if x.is_Rational and self.p.decimals else math(x)
        return f"({tex})" if tex.startswith("-") else tex

    def cell(self, name: str, j: int, c: int | None = None) -> str:
        return f"{name}_{{{self.i + 1},{j + 1 if c is None else c + 1}}}"

    # ---- the seven steps -------------------------------------------------------------------
    def columns(self) -> dict[str, Segments]:
        p = self.p
        fields = {"row": self.i + 1, "label": p.row_labels[self.i]}
        key = "columns_plain" if fields["label"] == str(fields["row"]) else "columns"  # no tokens
        return self.step(key, fields, {**fields, "d_k": p.d_k, "d_v": p.d_v})

    def scores(self) -> dict[str, Segments]:
        Q, K, R = self.t.problem.Q, self.t.problem.K, self.t.R
        parts = []
        for j in self.cells:
            terms = " + ".join(rf"{self.entry(Q[self.i, k])} \cdot {self.entry(K[j, k])}"
                               for k in range(self.p.d_k))
            parts.append(rf"{self.cell('R', j)} = \mathbf{{q}}_{{{self.i + 1}}} \cdot "
                         rf"\mathbf{{k}}_{{{j + 1}}} = {terms} = {self.value(R[self.i, j])}")
        return self.step("scores", {"row": self.i + 1, "cells": self.columns_text()},
                         {"cells": parts})

    def columns_text(self) -> str:
        return self.words["list_separator"].join(str(j + 1) for j in self.cells)

    def scaled(self) -> dict[str, Segments]:
        R, S, scale = self.t.R, self.t.S, self.p.scale
        if scale is None:
            by, key = ("m", rf"\sqrt{{{self.p.d_k}}}"), "scaled"
            formula = lambda j: rf"\frac{{{self.cell('R', j)}}}{{\sqrt{{{self.p.d_k}}}}}"  # noqa: E731
        else:
            by, key = ("m", f"s = {self.value(scale)}"), "scaled_by"
            formula = lambda j: rf"s\,{self.cell('R', j)}"  # noqa: E731
        parts = [rf"{self.cell('S', j)} = {formula(j)} = {self.value(S[self.i, j])}"
                 for j in self.cells if R[self.i, j] is not sp.S.NegativeInfinity]
        return self.step(key, {"by": by}, {"cells": parts})

    def mask(self) -> dict[str, Segments]:
        row = self.t.M.row(self.i)
        shown = ("m", r"\left(" + ", ".join(self.value(x) for x in row) + r"\right)")
        blocked = [j for j in range(self.p.n_k) if not self.readable[j]]
        fields = {"row": self.i + 1, "M": shown}
        if not blocked:
            key = "mask_none_answer" if all(x == 0 for x in self.t.M) else "mask_open_answer"
            return {"do": self.say("hand_mask", row=self.i + 1),
                    "ans": self.say("hand_" + key, **fields)}
        reasons = self.words["list_separator"].join(
            f"{self.p.column_labels[j]} ({self.words['zero_' + str(self.zeros[j])]})" for j in blocked)
        return self.step("mask", {"row": self.i + 1}, {**fields, "keys": reasons})

    def logits(self) -> dict[str, Segments]:
        M, L, tau = self.t.M, self.t.L, self.p.temperature
        parts = []
        for j in self.cells:
            if not self.readable[j]:
                parts.append(rf"{self.cell('L', j)} = -\infty")
                continue
            top = self.cell("S", j) if M[self.i, j] == 0 else \
                rf"({self.cell('S', j)} + {self.cell('M', j)})"
            parts.append(rf"{self.cell('L', j)} = \frac{{{top}}}{{\tau}} = {self.value(L[self.i, j])}")
        blocked = next((j for j in range(self.p.n_k) if not self.readable[j]), None)
        if blocked is not None and blocked not in self.cells:
            parts.append(rf"{self.cell('L', blocked)} = -\infty")
        return self.step("logits", {"tau": ("m", rf"\tau = {self.value(tau)}")},
                         {"cells": parts})

    def softmax(self) -> dict[str, Segments]:
        fields: dict[str, Any] = {"row": self.i + 1, "places": self.places}
        if self.weights is None:  # a symbolic problem: the exact weights, no rounding
            shown = ", ".join(math(x) for x in self.t.A.row(self.i))
            return {"do": self.say("hand_softmax", **fields),
                    "ans": self.say("hand_softmax_exact_answer",
                                    weights=("m", rf"\left({shown}\right)"))}
        A = self.t.A
        texts = [w if self.readable[j] else "0" for j, w in enumerate(self.weights)]
        units = sum(int(decimal_string(A[self.i, j], self.places).replace(".", ""))
                    for j in range(self.p.n_k) if self.readable[j])  # each rounded on its own
        total = Decimal(units).scaleb(-self.places)
        shown = [self.value(A[self.i, j]) if A[self.i, j].is_Rational else w
                 for j, w in enumerate(texts)]
        key = "softmax_answer" if total == 1 else "softmax_rounding_answer"
        return {"do": self.say("hand_softmax", **fields),
                "ans": self.say("hand_" + key, weights=("m", rf"\left({', '.join(shown)}\right)"),
                                sum=f"{total:.{self.places}f}")}

    def outputs(self) -> dict[str, Segments]:
        A, V, O = self.t.A, self.p.V, self.t.O
        read = [j for j in range(self.p.n_k) if self.readable[j]]
        exact = self.weights is None or all(A[self.i, j].is_Rational for j in read)
        parts = []
        for c in range(min(2, self.p.d_v)):
            weight = (lambda j: self.entry(A[self.i, j])) if exact else (lambda j: self.weights[j])
            terms = " + ".join(rf"{weight(j)} \cdot {self.entry(V[j, c])}" for j in read) or "0"
            end = f"= {self.value(O[self.i, c])}" if exact else \
                rf"\approx {decimal_string(O[self.i, c], self.places)}"
            relation = "=" if exact else r"\approx"
            parts.append(f"{self.cell('O', 0, c)} {relation} {terms} {end}")
        fields = {"row": self.i + 1, "n_q": self.p.n_q, "d_v": self.p.d_v}
        return self.step("outputs", fields, {**fields, "cells": parts})
