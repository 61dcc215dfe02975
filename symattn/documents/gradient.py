"""Gradients -> the blocks of a backpropagation derivation; nothing computed here."""

from __future__ import annotations

import sympy as sp

from ..analyses.results import GradientCheck, Gradients
from ..derivation import Derivation
from ..printing.entries import entry_lines, equation_lines, fits, side_by_side
from ..printing.fit import Fit, chain
from ..printing.matrices import cells
from ..printing.printer import decimal_math, math, matrix
from .analysis_layout import statement, subtitle
from .blocks import Block, Display, Heading, Label, Paragraph, fill, segments
from .checks import scientific
from .setup import listing

WIDE = 6  # a Jacobian wider than this is not written out


T = r"^{\mathsf T}"


def _lines(g: Gradients, name: str, lhs: str, fit: Fit, *formulas: str) -> list[str]:
    """lhs = formula = … = [exact] ≈ [decimals], broken to fit (rows, then entries)."""
    decimals = g.decimals.get(name)
    shown = [[decimal_math(x) for x in row] for row in decimals] if decimals else None
    return equation_lines(lhs, [("=", f) for f in formulas], g[name], shown, fit, name)


def _m(m: sp.MatrixBase) -> str:
    return matrix(cells(m))


def build_gradient(g: Gradients, check: GradientCheck, lang: str = "en",
                   width: float = 345.0, problem: Derivation | None = None) -> list[Block]:
    """Every block of the backward pass, in reading order: the problem as solve states it
    (from the derivation given: τ, d_k, the scale, Q, K, V), then A and dO, the gradients."""
    t, p, fit = g.trace, g.trace.problem, Fit(width)
    words = segments("grad_notation", lang) + (("text", " "),) + segments(
        "grad_loss_sum" if g.upstream.loss == "sum" else "grad_loss_given", lang)
    given = [("A", t.A)] + ([("V", p.V)] if problem is None else []) + [("dO", g["dO"])]
    blocks: list[Block] = [Heading(1, segments("grad_title", lang)), *subtitle(p, lang),
                           *statement(problem, fit), Paragraph(words),
                           Display(tuple(side_by_side(given, fit)))]
    loss = decimal_math(g.decimals["loss"][0][0]) if "loss" in g.decimals else None
    blocks += [Paragraph(segments("grad_loss_value", lang)), Display(tuple(entry_lines(
        r"\ell", g.loss_value, fit, loss, formula=r"\sum_{i,c} dO_{ic} O_{ic}")))]
    blocks += [Heading(2, segments("grad_values", lang)),
               Display(tuple(_lines(g, "dV", "dV", fit, f"A{T} dO", _m(t.A.T) + _m(g["dO"])))),
               Heading(2, segments("grad_weights", lang)),
               Display(tuple(_lines(g, "dA", "dA", fit, rf"dO\, V{T}", _m(g["dO"]) + _m(p.V.T)))),
               Heading(2, segments("grad_softmax", lang)),
               Paragraph(segments("grad_softmax_text", lang))]
    blocks += _row_blocks(g, lang, fit)
    blocks.append(Display(tuple(_lines(g, "dL", "dL", fit))))
    for i in t.fully_masked_rows:
        blocks.append(Paragraph(segments("grad_fully_masked", lang, row=i + 1)))
    blocks += [Heading(2, segments("grad_temperature", lang)),
               Paragraph(_scale_words(g, lang)),
               Display(tuple(_lines(g, "dS", "dS", fit, r"\frac{dL}{\tau}")
                             + _lines(g, "dR", "dR", fit, r"s\, dS"))),
               Heading(2, segments("grad_inputs", lang)),
               Display(tuple(_lines(g, "dQ", "dQ", fit, r"dR\, K", _m(g["dR"]) + _m(p.K))
                             + _lines(g, "dK", "dK", fit, rf"dR{T} Q", _m(g["dR"].T) + _m(p.Q)))),
               Heading(2, segments("grad_tau", lang)), Paragraph(segments("grad_tau_text", lang))]
    dtau = decimal_math(g.decimals["dtau"][0][0]) if "dtau" in g.decimals else None
    blocks.append(Display(tuple(entry_lines(r"d\tau", g.dtau, fit, dtau,
                                            formula=r"-\frac{1}{\tau} \sum_{i,j} dL_{ij} L_{ij}"))))
    if g.projections is not None:
        blocks += _projection_blocks(g, lang, fit)
    blocks.append(Paragraph(_check_words(check, lang)))
    if g.decimals:
        blocks.append(Paragraph(segments("decimals_note", lang, places=g.places)))
    return blocks


def _scale_words(g: Gradients, lang: str):
    """dS = dL/τ and dR = s dS, with what s is: 1/√d_k, no scaling (s = 1), or the given s."""
    p = g.trace.problem
    key = "root" if p.scale is None else "none" if p.scale == 1 else "given"
    return segments(f"grad_temperature_{key}", lang, s=math(p.scale_factor, slash=True))


def _row_blocks(g: Gradients, lang: str, fit: Fit) -> list[Block]:
    t, i = g.trace, g.row
    if i in t.fully_masked_rows:
        return []
    label = t.problem.row_labels[i]
    head = segments("grad_row_label", lang, row=i + 1, label=Label(label)) \
        if label != str(i + 1) else segments("grad_row", lang, row=i + 1)
    out: list[Block] = [Heading(3, head)]
    if t.problem.n_k <= WIDE:
        lhs = rf"J_{{{i + 1}}}"
        out += [Paragraph(segments("grad_jacobian", lang)), Display(tuple(equation_lines(
            lhs, [("=", rf"\operatorname{{diag}}(a_{{{i + 1}}}) - a_{{{i + 1}}} "
                        rf"a_{{{i + 1}}}^{{\mathsf T}}")], g.jacobian, None, fit, "J")))]
    readable = [j for j, ok in enumerate(t.readable[i]) if ok]
    products = [rf"{_paren(t.A[i, j])} \cdot {_paren(g['dA'][i, j])}" for j in readable]
    mean = rf"\bar a_{{{i + 1}}}"
    pieces = [("=", rf"\sum_r a_{{{i + 1},r}}\, dA_{{{i + 1},r}}"), ("=", products[0])] + \
        [("+", x) for x in products[1:]]
    lines = _steps(mean, pieces, g.means[i], fit)
    for j in range(t.problem.n_k):
        index = f"{i + 1},{j + 1}"
        if j not in readable:
            lines.append(rf"dL_{{{index}}} &= 0")
            continue
        lines += _steps(rf"dL_{{{index}}}", [
            ("=", rf"a_{{{index}}}\left(dA_{{{index}}} - \bar a_{{{i + 1}}}\right)"),
            ("=", rf"{_paren(t.A[i, j])}\left({math(g['dA'][i, j])} - {_paren(g.means[i])}\right)")],
            g["dL"][i, j], fit)
    out.append(Display(tuple(lines)))
    return out


def _steps(lhs: str, pieces: list[tuple[str, str]], value: sp.Expr, fit: Fit) -> list[str]:
    """lhs = step = … = value broken before a relation to fit; a value too wide for a line of
    its own broken as entry_lines breaks it, and the steps then one to a line (a sum of many
    products chained to fit, measured with room to spare: the estimate runs short on tall
    fractions in growing parentheses)."""
    lines = chain(lhs, pieces + [("=", math(value))], fit, at=60.0)
    if lines and fits(lines, fit):
        return lines
    head = chain(lhs, pieces, Fit(fit.points - 40.0), at=60.0) if len(pieces) > 2 else None
    head = head or [f"{lhs} &= {pieces[0][1]}"] + [f"&{r} {t}" for r, t in pieces[1:]]
    return head + entry_lines("", value, fit)


def _paren(x: sp.Expr) -> str:
    text = math(x)
    return rf"\left({text}\right)" if x.is_Add or x.could_extract_minus_sign() else text


def _projection_blocks(g: Gradients, lang: str, fit: Fit) -> list[Block]:
    cross = g.trace.problem.projections.Y is not None
    source = "Y" if cross else "X"
    lines = _lines(g, "dW_Q", "dW_Q", fit, f"X{T} dQ") + \
        _lines(g, "dW_K", "dW_K", fit, f"{source}{T} dK") + \
        _lines(g, "dW_V", "dW_V", fit, f"{source}{T} dV")
    if cross:
        lines += _lines(g, "dX", "dX", fit, rf"dQ\, W_Q{T}") + \
            _lines(g, "dY", "dY", fit, rf"dK\, W_K{T} + dV\, W_V{T}")
    else:
        lines += _lines(g, "dX", "dX", fit, rf"dQ\, W_Q{T} + dK\, W_K{T} + dV\, W_V{T}")
    return [Heading(2, segments("grad_projections", lang)),
            Paragraph(segments("grad_projections_cross" if cross else "grad_projections_text", lang)),
            Display(tuple(lines))]


def _check_words(check: GradientCheck, lang: str):
    if not check.passed:
        return segments("grad_check_failed", lang, where=check.where,
                        difference=scientific(check.difference))
    words = segments("grad_checked", lang, digits=check.digits, count=check.compared,
                     difference=scientific(check.difference), at="\x00")
    points = listing([(("math", f"{math(s)} = {math(v, slash=True)}"),) for s, v in check.values],
                     lang)  # θ = 3/7 and τ = 5/7, 、 between them in Chinese
    return fill(words, fill(segments("grad_symbols_at", lang, values="\x00"), points)
                if points else ())
