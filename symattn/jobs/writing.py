"""A trace written under settled options: text and JSON directly; LaTeX and Markdown from one
derivation, its checks run once however many formats are written from it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..exact.shown import decimals_shown, long_stages, long_values, shown_stages
from ..model import MultiHeadTrace, Problem, Trace
from ..numeric_decimals import decimal_grid
from ..targets import render_trace
from ..targets.text import projection_inputs
from .options import Settings

if TYPE_CHECKING:  # the derivations load when used: text and JSON start without them
    from ..derivation import Derivation, HeadsDerivation  # lazy: not at start


def write_trace(trace: Trace | MultiHeadTrace, s: Settings) -> str:
    """The trace in the settled format: text, JSON, or its derivation."""
    if s.to in ("text", "json"):
        return _plain(trace, s)
    return write_derivation(derivation(trace, s), s.to, s)


def _plain(trace: Trace | MultiHeadTrace, s: Settings) -> str:
    """Text (exact values with decimals where there are no symbols; a stage too long to
    print exactly by its decimals alone) or JSON."""
    exact = not trace.problem.symbols  # no decimals of expressions in symbols
    if isinstance(trace, MultiHeadTrace):
        from ..targets.heads import heads_json, heads_text  # lazy: multi-head only
        if s.to == "json":
            return heads_json(trace.complete())
        longs = [long_stages(h) for h in trace.heads]
        output = {n: decimal_grid(m, s.places) for n, m in (("C", trace.concat), ("O", trace.output))
                  if exact and long_values(m)}
        written = [_written(h) for h in trace.heads]
        if written[0]:
            written[0].update({name: decimals_shown(m, None, None) for name, m in
                               (("W_O", trace.problem.W_O), ("b_O", trace.problem.b_O))
                               if m is not None})
        return heads_text(trace.complete(), [_decimals(h, long, s) if exact else {}
                                             for h, long in zip(trace.heads, longs)],
                          longs, output, written)
    long = long_stages(trace)
    decimals = _decimals(trace, long, s) if exact and (s.to == "text" or long) else None
    return render_trace(trace.complete(), s.to, decimals, _shown(trace, long), long)


def _decimals(trace: Trace, long: frozenset[str], s: Settings) -> dict[str, list[list[str]]]:
    """The decimals a text shows: of A and O beside their exact values, and of every long stage
    instead of its exact values."""
    return {n: decimal_grid(trace.stage(n), s.places) for n in ("A", "O", *sorted(long - {"E"}))}


def _shown(trace: Trace, long: frozenset[str]) -> dict:
    """The display forms of a problem written in decimals: its stages (but the long ones), and
    X and its projections, as written, when it gives them ({} for an exact problem)."""
    shown = shown_stages(trace, long)
    if shown:
        shown.update(_written(trace))
    return shown


def _written(trace: Trace) -> dict:
    """X, its projections and their biases as a problem written in decimals writes them (a
    float64 as its 17 digits, not a fraction); {} for an exact problem."""
    if not trace.problem.decimals:
        return {}
    memo: dict = {}
    return {name: decimals_shown(m, memo, None) for name, m in projection_inputs(trace.problem)}


def derivation(trace: Trace | MultiHeadTrace, s: Settings) -> Derivation | HeadsDerivation:
    """The derivation of a trace under the settings, its checks run once (at s.digits)."""
    from ..derivation import Options  # lazy: text and JSON start without the derivations
    options = Options(lang=s.lang, detail=s.detail, row=s.row, places=s.places, figure=s.figure,
                      checks=s.checks, **s.layout())
    if isinstance(trace, MultiHeadTrace):
        from ..checks.heads import check_heads  # lazy: derivations only
        from ..derivation import derive_heads  # lazy: derivations only
        return derive_heads(trace, check_heads(trace, s.digits), options)
    from ..checks.invariants import check  # lazy: text and JSON start without the checks
    from ..derivation import derive  # lazy: text and JSON start without them
    return derive(trace, check(trace, digits=s.digits), options)


def write_derivation(d: Derivation | HeadsDerivation, to: str, s: Settings, *,
                     preamble: bool | None = None) -> str:
    """A derivation as LaTeX (a fragment, a document, or the preamble lines it needs) or
    Markdown, headed as the settings say; `preamble` overrides the settings' (the Sphinx
    directive writes the preamble, the fragment and the Markdown of one derivation)."""
    from ..derivation import HeadsDerivation  # lazy: derivations only
    from ..targets import render_blocks  # lazy: the LaTeX and Markdown emitters
    from ..printing.printer import needs_cjk  # lazy: derivations only
    if isinstance(d, HeadsDerivation):
        from ..documents.heads import build_heads  # lazy: multi-head only
        p = d.trace.problem
        blocks, labels = build_heads(d), (p.title or "",) + d.trace.heads[0].problem.row_labels
    else:
        from ..documents.derivation import build  # lazy: the document builders
        q = d.trace.problem
        blocks, labels = build(d), (q.title or "",) + q.row_labels + q.column_labels
    return render_blocks(blocks, to, s.lang, needs_cjk("".join(labels)), heading=s.heading,
                         numbered=s.numbered, label=s.label, standalone=s.standalone,
                         preamble=s.preamble if preamble is None else preamble)


def statement(problem: Problem, s: Settings) -> Derivation:
    """The derivation whose setup, scores and logits state a problem at the head of an analysis
    document (gradient, sweep, nonunique, limits, mistakes), in solve's own words."""
    from ..exact.attention import attend  # lazy: analyses only
    from ..derivation import Derivation as Single  # lazy: derivations only
    stated = derivation(attend(problem), s)
    assert isinstance(stated, Single)  # a single-head problem
    return stated
