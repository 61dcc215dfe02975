"""The temperature limits and a derivative of the weights as blocks (for LaTeX and Markdown)."""

from __future__ import annotations

from ..analyses.results import ParameterReport
from ..derivation.bias import bias_shown
from ..printing.printer import decimal_matrix, math, matrix_of
from .blocks import Block, Display, Heading, Items, Label, Paragraph, segments


def limit_blocks(report: ParameterReport, lang: str, width: float = 345.0) -> list[Block]:
    """Headings, the two limit matrices, a line per row, then the derivative and its check."""
    p, limits, found = report.trace.problem, report.limits, report.derivative
    title = (("label", p.title),) if p.title else segments("parameters", lang)
    blocks: list[Block] = [Heading(1, title), Heading(2, segments("limits", lang)),
                           Paragraph(segments("limits_rule", lang) if p.mask_bias is None else
                                     segments("limits_mask_bias", lang,
                                              bias=math(bias_shown(p.mask_bias)))),
                           Display((rf"\lim_{{\tau \to 0^+}} A = {matrix_of(limits.cold)},\qquad "
                                    rf"\lim_{{\tau \to \infty}} A = {matrix_of(limits.hot)}",))]
    labels = p.column_labels
    items = [segments("limit_row", lang, row=r.row + 1, count=len(r.top), total=len(r.readable),
                      keys=Label(", ".join(labels[j] for j in r.top))) for r in limits.rows]
    blocks.append(Items(tuple(items)))
    blocks.append(Paragraph(segments("limits_signs" if limits.by_signs else "limits_proved"
                                     if limits.proved else "limits_unproved", lang)))
    symbol = r"\tau" if found.name == "tau" else math(next(s for s in p.symbols if s.name == found.name))
    equation = rf"\frac{{\partial A}}{{\partial {symbol}}} = {matrix_of(found.matrix)}"
    if report.decimals:
        equation += rf" \approx {decimal_matrix(report.decimals)}"
    blocks += [Heading(2, segments("derivative", lang, name=symbol)),
               Paragraph(segments("derivative_rule", lang, name=symbol)), Display((equation,))]
    if found.difference is not None:
        blocks.append(Paragraph(segments("derivative_checked", lang,
                                         difference=f"{found.difference:.1e}")))
    return blocks
