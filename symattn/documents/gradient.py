"""Gradients -> the blocks of a backpropagation derivation; nothing computed here."""

from __future__ import annotations

import sympy as sp

from ..analyses.results import GradientCheck, Gradients
from ..printing.printer import decimal_math, decimal_matrix, math
from .analysis_layout import mat, subtitle
from .blocks import Block, Display, Heading, Label, Paragraph, segments

WIDE = 6  # a Jacobian wider than this is not written out


def _result(g: Gradients, name: str) -> str:
    out = mat(g[name])
    if name in g.decimals:
        out += rf" \approx {decimal_matrix(g.decimals[name])}"
    return out


def build_gradient(g: Gradients, check: GradientCheck, lang: str = "en",
                   width: float = 345.0) -> list[Block]:
    """Every block of the backward pass, in reading order."""
    t, p = g.trace, g.trace.problem
    words = segments("grad_notation", lang) + (("text", " "),) + segments(
        "grad_loss_sum" if g.upstream.loss == "sum" else "grad_loss_given", lang)
    blocks: list[Block] = [Heading(1, segments("grad_title", lang)), *subtitle(p), Paragraph(words),
                           Display((rf"A = {mat(t.A)},\qquad V = {mat(p.V)},\qquad "
                                    rf"dO = {mat(g['dO'])}",))]
    loss = rf"\ell = \sum_{{i,c}} dO_{{ic}} O_{{ic}} = {math(g.loss_value)}"
    if "loss" in g.decimals:
        loss += rf" \approx {decimal_math(g.decimals['loss'][0][0])}"
    blocks += [Paragraph(segments("grad_loss_value", lang)), Display((loss,))]
    blocks += [Heading(2, segments("grad_values", lang)),
               Display((rf"dV = A^{{\mathsf T}} dO = {mat(t.A.T)}{mat(g['dO'])} = {_result(g, 'dV')}",)),
               Heading(2, segments("grad_weights", lang)),
               Display((rf"dA = dO\, V^{{\mathsf T}} = {mat(g['dO'])}{mat(p.V.T)} = {_result(g, 'dA')}",)),
               Heading(2, segments("grad_softmax", lang)),
               Paragraph(segments("grad_softmax_text", lang))]
    blocks += _row_blocks(g, lang)
    blocks.append(Display((rf"dL = {_result(g, 'dL')}",)))
    for i in t.fully_masked_rows:
        blocks.append(Paragraph(segments("grad_fully_masked", lang, row=i + 1)))
    blocks += [Heading(2, segments("grad_temperature", lang)),
               Paragraph(segments("grad_temperature_text", lang)),
               Display((rf"dS &= \frac{{dL}}{{\tau}} = {_result(g, 'dS')}",
                        rf"dR &= s\, dS = {_result(g, 'dR')}")),
               Heading(2, segments("grad_inputs", lang)),
               Display((rf"dQ &= dR\, K = {mat(g['dR'])}{mat(p.K)} = {_result(g, 'dQ')}",
                        rf"dK &= dR^{{\mathsf T}} Q = {mat(g['dR'].T)}{mat(p.Q)} = {_result(g, 'dK')}")),
               Heading(2, segments("grad_tau", lang)), Paragraph(segments("grad_tau_text", lang))]
    dtau = rf"d\tau = -\frac{{1}}{{\tau}} \sum_{{i,j}} dL_{{ij}} L_{{ij}} = {math(g.dtau)}"
    if "dtau" in g.decimals:
        dtau += rf" \approx {decimal_math(g.decimals['dtau'][0][0])}"
    blocks.append(Display((dtau,)))
    if g.projections is not None:
        blocks += _projection_blocks(g, lang)
    blocks.append(Paragraph(_check_words(check, lang)))
    if g.decimals:
        blocks.append(Paragraph(segments("decimals_note", lang, places=g.places)))
    return blocks


def _row_blocks(g: Gradients, lang: str) -> list[Block]:
    t, i = g.trace, g.row
    if i in t.fully_masked_rows:
        return []
    label = t.problem.row_labels[i]
    head = segments("grad_row_label", lang, row=i + 1, label=Label(label)) \
        if label != str(i + 1) else segments("grad_row", lang, row=i + 1)
    out: list[Block] = [Heading(3, head)]
    if t.problem.n_k <= WIDE:
        out += [Paragraph(segments("grad_jacobian", lang)), Display((
            rf"J_{{{i + 1}}} = \operatorname{{diag}}(a_{{{i + 1}}}) - a_{{{i + 1}}} "
            rf"a_{{{i + 1}}}^{{\mathsf T}} = {mat(g.jacobian)}",))]
    readable = [j for j, ok in enumerate(t.readable[i]) if ok]
    terms = " + ".join(rf"{_paren(t.A[i, j])} \cdot {_paren(g['dA'][i, j])}" for j in readable)
    lines = [rf"\bar a_{{{i + 1}}} &= \sum_r a_{{{i + 1},r}}\, dA_{{{i + 1},r}} = {terms} = "
             rf"{math(g.means[i])}"]
    for j in range(t.problem.n_k):
        index = f"{i + 1},{j + 1}"
        if j not in readable:
            lines.append(rf"dL_{{{index}}} &= 0")
            continue
        lines.append(rf"dL_{{{index}}} &= a_{{{index}}}\left(dA_{{{index}}} - \bar a_{{{i + 1}}}\right)"
                     rf" = {_paren(t.A[i, j])}\left({math(g['dA'][i, j])} - {_paren(g.means[i])}\right)"
                     rf" = {math(g['dL'][i, j])}")
    out.append(Display(tuple(lines)))
    return out


def _paren(x: sp.Expr) -> str:
    text = math(x)
    return rf"\left({text}\right)" if x.is_Add or x.could_extract_minus_sign() else text


def _projection_blocks(g: Gradients, lang: str) -> list[Block]:
    cross = g.trace.problem.projections.Y is not None
    source = "Y" if cross else "X"
    lines = [rf"dW_Q &= X^{{\mathsf T}} dQ = {_result(g, 'dW_Q')}",
             rf"dW_K &= {source}^{{\mathsf T}} dK = {_result(g, 'dW_K')}",
             rf"dW_V &= {source}^{{\mathsf T}} dV = {_result(g, 'dW_V')}"]
    if cross:
        lines += [rf"dX &= dQ\, W_Q^{{\mathsf T}} = {_result(g, 'dX')}",
                  rf"dY &= dK\, W_K^{{\mathsf T}} + dV\, W_V^{{\mathsf T}} = {_result(g, 'dY')}"]
    else:
        lines.append(rf"dX &= dQ\, W_Q^{{\mathsf T}} + dK\, W_K^{{\mathsf T}} + dV\, W_V^{{\mathsf T}}"
                     rf" = {_result(g, 'dX')}")
    return [Heading(2, segments("grad_projections", lang)),
            Paragraph(segments("grad_projections_cross" if cross else "grad_projections_text", lang)),
            Display(tuple(lines))]


def _check_words(check: GradientCheck, lang: str):
    if not check.passed:
        return segments("grad_check_failed", lang, where=check.where, difference=check.difference)
    at = ", ".join(f"{s.name} = {v}" for s, v in check.values)
    at = segments("grad_symbols_at", lang, values=at)[0][1] if at else ""
    return segments("grad_checked", lang, digits=check.digits, count=check.compared,
                    difference=check.difference, at=at)
