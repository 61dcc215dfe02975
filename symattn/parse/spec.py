"""Problem files (TOML) -> Problem, ShapeProblem or MultiHeadProblem; every error names file and key."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..limits import MAX_PLACES
from ..model import (FULLY_MASKED_POLICIES, MASK_KINDS, MultiHeadProblem, Problem,
                     ShapeProblem)
from .claims import read_answers, read_grading
from .conventions import read_mask_bias
from .files import decode_toml, read_text
from .heads import BIAS_KEYS, project, read_multi_head, read_projections
from .lesson import read_lesson
from .options import read_gradient, read_sweep
from .reader import Reader
from .scores import given_scores
from .shapes import check_shapes, shape_problem
from .split import split_heads
from ..vocabulary import CHECKS, DETAIL_CHOICES, LANGUAGES, LAYOUTS

OPTION_TABLES = ("sweep", "gradient")  # single-head analyses, read here with the problem
TOP_KEYS = frozenset({"heads", "title", "title_zh", "tokens", "key_tokens", "symbols", "input", "attention",
                      "answers", "grading", "derivation", "page", *OPTION_TABLES})
DERIVATION_KEYS = {"lang": LANGUAGES, "detail": DETAIL_CHOICES,
                   "row": None, "places": None, "figure": None, "checks": CHECKS}
INPUT_KEYS = frozenset({"Q", "K", "V", "X", "Y", "W_Q", "W_K", "W_V", "W_O", "R", "S", "L", "d_k",
                        "layout", "batch", "heads", "num_heads", *BIAS_KEYS, "b_O"})
ATTENTION_KEYS = frozenset({"mask", "keep", "masked", "key_lengths", "bias", "temperature", "scale",
                            "fully_masked", "mask_bias"})
AnyProblem = Problem | ShapeProblem | MultiHeadProblem
Keep = tuple[tuple[bool, ...], ...]


def load_problem(path: str | Path, *, source: str | None = None) -> AnyProblem:
    """Read a problem file (TOML); the path is a path, whatever characters it holds.

    TOML text goes to parse_problem instead.

    Raises:
        InputError: one line naming the file, the key path and (for entries) the column.
    """
    path = Path(path)
    return parse_problem(read_text(path), source=source or str(path))


def parse_problem(text: str, *, source: str = "<text>") -> AnyProblem:
    """Parse TOML text into a Problem, a ShapeProblem (Q, K, V given as shapes) or a
    MultiHeadProblem ([[heads]])."""
    return ProblemReader(source).problem(decode_toml(text, source))


class ProblemReader(Reader):
    """Reads a whole problem document: inputs, [attention], labels, answers and options."""

    def problem(self, data: Mapping[str, Any], where: str = "input"
                ) -> Problem | ShapeProblem | MultiHeadProblem:
        self.only(data, TOP_KEYS, "")
        lesson = read_lesson(self, data)
        found = self.stated(data, where)
        return replace(found, page=lesson) if lesson is not None else found

    def stated(self, data: Mapping[str, Any], where: str
               ) -> Problem | ShapeProblem | MultiHeadProblem:
        """The problem the file states (inputs, options, labels, answers), without [page]."""
        first = len(self.decimal_keys)
        symbols = self.symbols(data.get("symbols", {}))
        inputs = self.table(data, "input", required=True)
        self.only(inputs, INPUT_KEYS, "input")
        columns = self.choice(inputs, "layout", LAYOUTS, "rows", "input") == "columns"
        if "heads" in data:
            return read_multi_head(self, data, inputs, symbols, columns)
        if "num_heads" in inputs:
            return split_heads(self, data, inputs, symbols, columns)
        if any(isinstance(inputs.get(n), dict) and "value" not in inputs[n] for n in ("Q", "K", "V")):
            return shape_problem(self, data, inputs, read_answers(data, symbols, self.source),
                                 read_grading(data, self.source))
        for name in ("W_O", "b_O", "batch", "heads"):
            if name in inputs:
                raise self.fail(f"input.{name}", f"{name} goes with [[heads]] or num_heads "
                                "(multi-head attention)" if name in ("W_O", "b_O")
                                else f"{name} goes with a problem given as shapes")
        for name in BIAS_KEYS:
            if name in inputs and "X" not in inputs:
                raise self.fail(f"input.{name}", f"{name} goes with X and W_{name[-1]} (a bias "
                                "of the projection)")
        options = self.table(data, "attention", required=False)
        self.only(options, ATTENTION_KEYS, "attention")
        scores = given_scores(self, inputs, options, symbols) or {}
        projections = None
        if "X" in inputs and not scores:
            if any(n in inputs for n in ("Q", "K", "V")):
                raise self.fail("input", "give either Q, K and V or X with W_Q, W_K and W_V, not both")
            projections = read_projections(self, inputs, symbols, where, columns)
        elif not scores:
            for name in ("Q", "K", "V"):
                if name not in inputs:
                    raise self.fail(f"input.{name}", "missing (Q, K and V, X with W_Q, W_K and "
                                    "W_V, or scores R, S or L with V)")
        answers = read_answers(data, symbols, self.source)
        grading = read_grading(data, self.source)
        if columns and scores:
            raise self.fail("input.layout", 'layout = "columns" applies to Q, K and V, or X and '
                            "its projections, written one column per token; give the scores in rows")
        if columns and "gradient" in data:
            raise self.fail("gradient", '[gradient] works on problems laid out in rows; '
                            'layout = "columns" is one')
        if scores:
            Q, K, V = scores.pop("Q"), scores.pop("K"), scores.pop("V")
        elif projections is None:
            Q, K, V = (self.matrix(inputs[n], f"input.{n}", symbols) for n in ("Q", "K", "V"))
            Q, K, V = (m.T for m in (Q, K, V)) if columns else (Q, K, V)
        else:
            Q, K, V = project(projections, self.source, where, columns)
        check_shapes(Q, K, V, self.source, columns)
        n_q, n_k = Q.rows, K.rows
        titles = self.titles(data)
        bias = self.bias(options.get("bias"), n_q, n_k, symbols, columns)
        mask_bias = read_mask_bias(self, options, bias, scores)
        keep = both(both(self.keep(options.get("keep"), n_q, n_k, columns=columns),
                         scores.pop("masked", None)),
                    self.keep(options.get("masked"), n_q, n_k, "attention.masked", columns))
        return Problem(
            Q=Q, K=K, V=V,
            mask=self.choice(options, "mask", MASK_KINDS, "none"),
            keep=keep,
            key_lengths=self.key_lengths(options.get("key_lengths"), n_q, n_k),
            bias=bias, mask_bias=mask_bias,
            temperature=self.temperature(options.get("temperature", 1), symbols),
            scale=scores.pop("scale", None) or self.scale(options.get("scale", "auto"), symbols),
            fully_masked=self.choice(options, "fully_masked", FULLY_MASKED_POLICIES, "error"),
            title=titles[0], title_zh=titles[1],
            tokens=self.labels(data.get("tokens"), "tokens", n_q),
            key_tokens=self.labels(data.get("key_tokens"), "key_tokens", n_k),
            symbols=tuple(symbols.values()),
            source=self.source,
            answers=answers,
            grading=grading,
            presentation=self.presentation(data, n_q),
            sweep=read_sweep(self, data["sweep"], symbols, n_q) if "sweep" in data else None,
            gradient=read_gradient(self, data["gradient"], symbols, n_q, V.cols)
            if "gradient" in data else None,
            projections=projections,
            decimals=any(not key.startswith(OPTION_TABLES) for key in self.decimal_keys[first:]),
            written=tuple(self.written.items()),
            batch=self.batches.get("input.X") or self.batches.get("input.Q") or (),
            layout="columns" if columns else "rows",
            **scores,
        )

    def presentation(self, data: Mapping[str, Any], n_q: int) -> tuple[tuple[str, object], ...]:
        """The [derivation] table: default lang, detail, row, places and figure for this file."""
        table = self.table(data, "derivation", required=False)
        self.only(table, frozenset(DERIVATION_KEYS), "derivation")
        for key, value in table.items():
            where = f"derivation.{key}"
            allowed = DERIVATION_KEYS[key]
            if allowed is not None and value not in allowed:
                raise self.fail(where, f"must be one of {', '.join(map(repr, allowed))}")
            limits = {"row": (1, n_q), "places": (0, MAX_PLACES)}.get(key)
            if key == "figure" and not isinstance(value, bool):
                raise self.fail(where, "must be true or false")
            if limits and (isinstance(value, bool) or not isinstance(value, int)
                           or not limits[0] <= value <= limits[1]):
                raise self.fail(where, f"must be an integer from {limits[0]} to {limits[1]}")
        return tuple(sorted(table.items()))

    def keep(self, value: Any, n_q: int, n_k: int, key: str = "attention.keep",
             columns: bool = False) -> tuple[tuple[bool, ...], ...] | None:
        """A boolean matrix: keep (true = may read) or, for key attention.masked, its opposite
        (true = hidden, as PyTorch's masked_fill and nn.MultiheadAttention write it); n_k x n_q
        (one column per query) in a problem laid out in columns."""
        if value is None:
            return None
        rows = self.rows(value, key)
        for i, row in enumerate(rows, start=1):
            for j, x in enumerate(row, start=1):
                if not isinstance(x, bool):
                    raise self.fail(f"{key}[{i}][{j}]", "must be true or false")
        self.expect_shape(key, (len(rows), len(rows[0])), n_q, n_k, columns)
        hidden = key.endswith("masked")
        rows = [list(column) for column in zip(*rows)] if columns else rows
        return tuple(tuple(x is not hidden for x in row) for row in rows)

    def key_lengths(self, value: Any, n_q: int, n_k: int) -> tuple[int, ...] | None:
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != n_q:
            raise self.fail("attention.key_lengths", f"must be a list of {n_q} integers, one per query")
        for i, x in enumerate(value, start=1):
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= n_k:
                raise self.fail(f"attention.key_lengths[{i}]", f"must be an integer from 0 to {n_k}")
        return tuple(value)

    def bias(self, value: Any, n_q: int, n_k: int, symbols: Mapping[str, sp.Symbol],
             columns: bool = False) -> sp.ImmutableMatrix | None:
        """The additive bias, n_q x n_k (n_k x n_q in a problem laid out in columns)."""
        if value is None:
            return None
        matrix = self.matrix(value, "attention.bias", symbols, allow_neg_infinity=True)
        self.expect_shape("attention.bias", matrix.shape, n_q, n_k, columns)
        return matrix.T if columns else matrix

    def temperature(self, value: Any, symbols: Mapping[str, sp.Symbol]) -> sp.Expr:
        return self.positive(value, "attention.temperature", symbols)

    def scale(self, value: Any, symbols: Mapping[str, sp.Symbol]) -> sp.Expr | None:
        if value == "auto":
            return None
        if value == "none":
            return sp.S.One
        return self.positive(value, "attention.scale", symbols)


def both(keep: Keep | None, other: Keep | None) -> Keep | None:
    """Two keep matrices combined by AND (None: no mask of that kind)."""
    if keep is None or other is None:
        return keep if other is None else other
    return tuple(tuple(a and b for a, b in zip(r, s)) for r, s in zip(keep, other))
