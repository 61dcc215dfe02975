"""The temperature limits and a derivative of the weights as blocks (for LaTeX and Markdown)."""

from __future__ import annotations

from ..analyses.results import ParameterReport
from ..derivation import Derivation
from ..derivation.bias import bias_shown
from ..derivation.names import free_letter
from ..model import Problem
from ..printing.entries import equation_lines, side_by_side
from ..printing.fit import Fit, chain
from ..printing.matrices import row_lines
from ..printing.printer import decimal_math, math, matrix, tau_equation
from .analysis_layout import statement, title as title_of
from .blocks import Block, Display, Heading, Items, Paragraph, Segment, segments, titled
from .checks import scientific
from .setup import quoted


def limit_blocks(report: ParameterReport, lang: str, width: float = 345.0,
                 problem: Derivation | None = None) -> list[Block]:
    """Headings, the problem as solve states it (its setup, scores and logits, from the
    derivation given), the two limit matrices, a line per row, then the derivative and its
    check."""
    p, limits, found = report.trace.problem, report.limits, report.derivative
    fit, text = Fit(width), title_of(p, lang)
    title = titled(text) if text else segments("parameters", lang)
    blocks: list[Block] = [Heading(1, title), *statement(problem, fit),
                           Heading(2, segments("limits", lang)),
                           Paragraph(segments("limits_rule", lang) if p.mask_bias is None else
                                     segments("limits_mask_bias", lang,
                                              bias=math(bias_shown(p.mask_bias)))),
                           Display(tuple(side_by_side([(r"\lim_{\tau \to 0^+} A", limits.cold),
                                                       (r"\lim_{\tau \to \infty} A", limits.hot)],
                                                      fit)))]
    labels = p.column_labels
    items = [segments("limit_cold_one" if len(r.top) == 1 else "limit_cold_tie", lang,
                      row=r.row + 1, count=len(r.top),  # “A”, a token, never the matrix A
                      keys=quoted(tuple(labels[j] for j in r.top), lang))
             + segments("limit_hot_one" if len(r.readable) == 1 else "limit_hot_many", lang,
                        total=len(r.readable)) for r in limits.rows]
    blocks.append(Items(tuple(items)))
    blocks.append(Paragraph(segments("limits_signs" if limits.by_signs else "limits_proved"
                                     if limits.proved else "limits_unproved", lang,
                                     c=free_letter(("c", "g", "b"), p))))
    symbol = r"\tau" if found.name == "tau" else math(next(s for s in p.symbols if s.name == found.name))
    decimals = [[decimal_math(x) for x in row] for row in report.decimals] \
        if report.decimals else None
    lhs, name = rf"\frac{{\partial A}}{{\partial {symbol}}}", rf"\partial_{{{symbol}}} A"
    if report.rounded and decimals:  # 68-digit numerators: the decimals alone, marked ≈
        lines = chain(lhs, [(r"\approx", matrix(decimals))], fit) or \
            row_lines(name, decimals, None, fit, relation=r"\approx")
    else:
        lines = equation_lines(lhs, [], found.matrix, decimals, fit, name)
    blocks += [Heading(2, segments("derivative", lang, name=symbol)),
               Paragraph(segments("derivative_rule", lang, name=symbol) + _at(p, problem, found.name, lang) + (
                   segments("derivative_rounded", lang) if report.rounded else ())),
               Display(tuple(lines))]
    if found.difference is not None:
        blocks.append(Paragraph(segments("derivative_checked", lang,
                                         difference=scientific(f"{found.difference:.1e}"))))
    return blocks


def _at(p: Problem, stated: Derivation | None, name: str, lang: str) -> tuple[Segment, ...]:
    """" Its entries below are at τ = 0.85." when τ is a number (as the statement writes it):
    ∂A/∂τ is a function of τ."""
    if name != "tau" or p.temperature.free_symbols:
        return ()
    tau = stated.scalars["tau"] if stated is not None else p.temperature
    return segments("derivative_at", lang, tau=tau_equation(tau))
