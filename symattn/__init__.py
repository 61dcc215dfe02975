"""symattn: transformer attention computed exactly, every stage shown and checked."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import attention, multi_head
    from .pipeline import attend
    from .checks import check
    from .errors import InputError, ProblemError, SymattnError
    from .expressions import parse_expression
    from .model import CheckResult, Problem, Report, Trace
    from .api import render
    from .analysis import gradients, parameter_sweep, render_analysis, weights_with_same_output
    from .layers import attend_heads
    from .spec import load_problem

_HOMES = {
    "attention": "api", "attend": "pipeline", "check": "checks", "InputError": "errors",
    "ProblemError": "errors", "SymattnError": "errors", "parse_expression": "expressions",
    "CheckResult": "model", "Problem": "model", "Report": "model", "Trace": "model",
    "render": "api", "load_problem": "spec", "attend_heads": "layers", "multi_head": "api",
    "parameter_sweep": "analysis", "gradients": "analysis", "weights_with_same_output": "analysis",
    "render_analysis": "analysis",
}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """Import public names on first use, so `symattn --help` does not wait for SymPy."""
    if name not in _HOMES:
        raise AttributeError(f"module 'symattn' has no attribute {name!r}")
    value = getattr(import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value
