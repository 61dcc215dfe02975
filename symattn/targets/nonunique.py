"""Non-uniqueness as LaTeX, Markdown (from documents.nonunique's blocks), plain text and JSON."""

from __future__ import annotations

import json

from ..analyses.results import NonUniqueness
from ..derivation import Derivation
from ..documents.nonunique import build_nonunique
from .emit import ARTICLE, Page, render_page, wide_labels
from .text import TextPrinter


_TEXT = TextPrinter()


def render_nonunique(nu: NonUniqueness, to: str, lang: str = "en", *,
                     page: Page = ARTICLE, problem: Derivation | None = None) -> str:
    """The analysis as "text", "json", "latex" (fragment, document or preamble) or "markdown",
    laid out as the page says; problem: the derivation whose setup, scores and logits state
    the problem first, in solve's words."""
    if to == "text":
        return nonunique_text(nu)
    if to == "json":
        return nonunique_json(nu)
    blocks = build_nonunique(nu, lang, page.width, problem)
    return render_page(blocks, to, lang, wide_labels(nu.trace.problem), page)


def _v(values) -> str:
    return "(" + ", ".join(_TEXT.doprint(x) for x in values) + ")"


def nonunique_text(nu: NonUniqueness) -> str:
    """One paragraph per row: weights, output, the verdict, the set and the pair."""
    p = nu.trace.problem
    lines = [p.title] if p.title else []
    for rs in nu.rows:
        d = rs.decimals or {}
        lines += ["", f"row {rs.row + 1}: weights a = {_v(rs.weights)} ~ ({', '.join(d['weights'])})",
                  f"  output o = {_v(rs.output)}",
                  f"  [V^T; 1^T] over keys {', '.join(str(j + 1) for j in rs.support)}: rank "
                  f"{rs.rank}, null space dimension {rs.dimension}"]
        if rs.unique:
            lines.append("  unique: no other weights on the simplex give this output")
            continue
        lines.append(f"  not unique: the weights with this output form a set of dimension "
                     f"{rs.dimension}")
        lines += [f"  null direction n{k + 1} = {_v(n)}" for k, n in enumerate(rs.null_basis)]
        kind = "vertex" if rs.complete else "end"
        lines += [f"  {kind} {k + 1}: {_v(w)}" for k, w in enumerate(rs.vertices)]
        lines += [f"  far apart: w = {_v(rs.pair[0])}", f"            w' = {_v(rs.pair[1])}",
                  f"  total variation distance {_TEXT.doprint(rs.distance)} ~ {d['distance']}; "
                  f"both give o exactly: {'yes' if rs.verified else 'NO'}"]
    lines += [f"row {i + 1}: reads no key, weights all 0 (not a distribution)" for i in nu.skipped]
    return "\n".join(lines) + "\n"


def nonunique_json(nu: NonUniqueness) -> str:
    """Every exact value as a string in SymPy syntax."""
    def s(values) -> list[str]:
        return [str(x) for x in values]
    rows = [{"row": rs.row + 1, "keys": [j + 1 for j in rs.support], "weights": s(rs.weights),
             "output": s(rs.output), "rank": rs.rank, "unique": rs.unique,
             "null_basis": [s(n) for n in rs.null_basis],
             "vertices": [s(w) for w in rs.vertices], "vertices_complete": rs.complete,
             "segment": s(rs.segment) if rs.segment else None,
             "pair": [s(w) for w in rs.pair] if rs.pair else None,
             "distance": str(rs.distance) if rs.distance is not None else None,
             "verified": rs.verified} for rs in nu.rows]
    document = {"title": nu.trace.problem.title, "rows": rows,
                "rows_reading_no_key": [i + 1 for i in nu.skipped]}
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
