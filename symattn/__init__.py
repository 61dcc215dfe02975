"""symattn: transformer attention computed exactly, every stage shown and checked."""

from __future__ import annotations

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import (
        attention,
        gradients,
        multi_head,
        parameter_sweep,
        render,
        render_analysis,
        render_verification,
        verify,
        weights_with_same_output,
    )
    from .checks.invariants import check
    from .errors import InputError, ProblemError, SymattnError
    from .exact.attention import attend
    from .exact.heads import attend_heads
    from .model import Problem, Trace
    from .reports import CheckResult, Report
    from .parse.expressions import parse_expression
    from .parse.spec import load_problem, parse_problem

_HOMES = {
    "attention": "api", "multi_head": "api", "render": "api", "parameter_sweep": "api",
    "gradients": "api", "weights_with_same_output": "api", "render_analysis": "api", "verify": "api",
    "render_verification": "api",
    "attend": "exact.attention", "attend_heads": "exact.heads", "check": "checks.invariants",
    "InputError": "errors", "ProblemError": "errors", "SymattnError": "errors",
    "parse_expression": "parse.expressions", "load_problem": "parse.spec",
    "parse_problem": "parse.spec", "CheckResult": "reports", "Problem": "model", "Report": "reports",
    "Trace": "model",
}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """Import public names on first use, so `symattn --help` does not wait for SymPy."""
    if name == "__version__":
        return version()
    if name not in _HOMES:
        raise AttributeError(f"module 'symattn' has no attribute {name!r}")
    value = getattr(import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value


def version() -> str:
    """The installed distribution's version (symattn.__version__); "0+unknown" from a bare tree."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed  # lazy: 30 ms that only --version needs

    try:
        return installed("symattn")
    except PackageNotFoundError:
        return "0+unknown"


if "IPython" in sys.modules:  # in a notebook a trace displays as its derivation
    from .notebook import register

    register()
