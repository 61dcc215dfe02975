"""Gradients as LaTeX, Markdown (from documents.gradient's blocks), plain text and JSON."""

from __future__ import annotations

import json

from ..analyses.results import GradientCheck, Gradients
from ..derivation import Derivation
from ..documents.gradient import build_gradient
from ..printing.plain import TextPrinter
from .emit import ARTICLE, Page, render_page, wide_labels
from .text import grid


_TEXT = TextPrinter()


FORMULAS = {"dV": "A^T dO", "dA": "dO V^T", "dL": "a_ij (dA_ij - sum_r a_ir dA_ir), row by row",
            "dS": "dL / tau", "dR": "s dS", "dQ": "dR K", "dK": "dR^T Q", "dW_Q": "X^T dQ",
            "dW_K": "X^T dK (Y^T dK with Y)", "dW_V": "X^T dV (Y^T dV with Y)",
            "dX": "dQ W_Q^T (+ dK W_K^T + dV W_V^T in self-attention)",
            "dY": "dK W_K^T + dV W_V^T", "dO": "the upstream gradient"}


def render_gradient(g: Gradients, check: GradientCheck, to: str, lang: str = "en", *,
                    page: Page = ARTICLE, problem: Derivation | None = None) -> str:
    """Gradients as "text", "json", "latex" (fragment, document or preamble) or "markdown",
    laid out as the page says; problem: the derivation whose setup, scores and logits state
    the problem first, in solve's words."""
    if to == "text":
        return gradient_text(g, check)
    if to == "json":
        return gradient_json(g, check)
    blocks = build_gradient(g, check, lang, page.width, problem)
    return render_page(blocks, to, lang, wide_labels(g.trace.problem), page)


def gradient_text(g: Gradients, check: GradientCheck) -> str:
    """Each gradient: formula, exact grid, decimals; then dτ, the loss and the cross-check."""
    p = g.trace.problem
    lines = [p.title] if p.title else []
    lines.append("loss: sum of the entries of O (dO = ones)" if g.upstream.loss == "sum"
                 else "loss: sum of dO * O for the given dO")
    for name, m in g.matrices.items():
        lines += ["", f"{name} = {FORMULAS[name]}   [{m.rows}x{m.cols}]"]
        rows = tuple(str(i + 1) for i in range(m.rows))
        columns = tuple(str(j + 1) for j in range(m.cols))
        lines += grid(rows, columns, [[_TEXT.doprint(x) for x in m.row(i)] for i in range(m.rows)])
        if name in g.decimals:
            lines += ["  ~ decimals:"] + grid(rows, columns, g.decimals[name])
    for name, value in (("dtau", g.dtau), ("loss", g.loss_value)):
        approx = f"  ~ {g.decimals[name][0][0]}" if name in g.decimals else ""
        lines += ["", f"{name} = {_TEXT.doprint(value)}{approx}"]
    verdict = "ok" if check.passed else "FAIL"
    lines.append(f"[{verdict}] mpmath central differences ({check.digits} digits, h = 1e-20) for "
                 f"{check.compared} entries: largest difference {check.difference}"
                 + (f" at {check.where}" if not check.passed else ""))
    return "\n".join(lines) + "\n"


def gradient_json(g: Gradients, check: GradientCheck) -> str:
    """Every exact gradient as strings in SymPy syntax, decimals, dτ, the loss and the check."""
    document = {
        "title": g.trace.problem.title, "loss": g.upstream.loss or "given",
        "loss_value": str(g.loss_value), "dtau": str(g.dtau),
        "gradients": {name: [[str(x) for x in m.row(i)] for i in range(m.rows)]
                      for name, m in g.matrices.items()},
        "decimals": g.decimals,
        "check": {"digits": check.digits, "entries": check.compared,
                  "max_difference": check.difference, "passed": check.passed},
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
