"""symattn: transformer attention computed exactly, every stage shown and checked."""

from __future__ import annotations

from .api import attention
from .attention import attend
from .checks import check
from .errors import InputError, ProblemError, SymattnError
from .expressions import parse_expression
from .model import CheckResult, Problem, Report, Trace
from .render import render
from .spec import load_problem

__all__ = [
    "CheckResult", "InputError", "Problem", "ProblemError", "Report", "SymattnError", "Trace",
    "attend", "attention", "check", "load_problem", "parse_expression", "render",
]
