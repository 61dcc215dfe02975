"""Temperature limits and derivatives as plain text, LaTeX or Markdown."""

from __future__ import annotations

from ..analyses.results import ParameterReport
from ..derivation import Derivation
from ..documents.limits import limit_blocks
from .emit import ARTICLE, Page, render_page, wide_labels


def render_limits(report: ParameterReport, to: str, lang: str = "en", *,
                  page: Page = ARTICLE, problem: Derivation | None = None) -> str:
    """The limits as "text", or "latex" (fragment, document or preamble) or "markdown", laid
    out as the page says; problem: the derivation whose setup, scores and logits state the
    problem first, in solve's words."""
    if to == "text":
        return limits_text(report)
    blocks = limit_blocks(report, lang, page.width, problem)
    return render_page(blocks, to, lang, wide_labels(report.trace.problem), page)


def limits_text(report: ParameterReport) -> str:
    """Plain text: both limits, each row's maximal keys, the derivative and its check."""
    limits, found = report.limits, report.derivative
    lines = ["A as tau -> 0+:"] + [f"  {list(map(str, limits.cold.row(i)))}" for i in range(limits.cold.rows)]
    lines += ["A as tau -> oo:"] + [f"  {list(map(str, limits.hot.row(i)))}" for i in range(limits.hot.rows)]
    lines.append("limits read off the signs of the logit differences" if limits.by_signs
                 else "limits proved with SymPy's limit" if limits.proved else "limits NOT proved")
    lines.append(f"dA/d{found.name}:")
    lines += [f"  {list(map(str, found.matrix.row(i)))}" for i in range(found.matrix.rows)]
    if report.decimals:
        lines += [f"  ~ {row}" for row in report.decimals]
    if found.difference is not None:
        lines.append(f"central differences agree to {found.difference:.1e}")
    return "\n".join(lines) + "\n"
