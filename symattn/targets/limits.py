"""Temperature limits and derivatives as plain text."""

from __future__ import annotations

from ..analyses.results import ParameterReport


def limits_text(report: ParameterReport) -> str:
    """Plain text: both limits, each row's maximal keys, the derivative and its check."""
    limits, found = report.limits, report.derivative
    lines = ["A as tau -> 0+:"] + [f"  {list(map(str, limits.cold.row(i)))}" for i in range(limits.cold.rows)]
    lines += ["A as tau -> oo:"] + [f"  {list(map(str, limits.hot.row(i)))}" for i in range(limits.hot.rows)]
    lines.append("limits read off the signs of the logit differences (mask_bias)" if limits.by_signs
                 else "limits proved with SymPy's limit" if limits.proved else "limits NOT proved")
    lines.append(f"dA/d{found.name}:")
    lines += [f"  {list(map(str, found.matrix.row(i)))}" for i in range(found.matrix.rows)]
    if report.decimals:
        lines += [f"  ~ {row}" for row in report.decimals]
    if found.difference is not None:
        lines.append(f"central differences agree to {found.difference:.1e}")
    return "\n".join(lines) + "\n"
