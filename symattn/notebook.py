"""Jupyter display: a trace shows as its derivation (Markdown) or as its weights and output (LaTeX).

`symattn` registers these with IPython's display formatters when it is imported inside IPython
(by the class's module and name, so nothing heavy is imported until a trace is displayed).
"""

from __future__ import annotations

import sys
from typing import Any

FORMATTED = (("symattn.model", "Trace"),)


def markdown(trace: Any) -> str:
    """The derivation at summary detail, as Markdown."""
    # lazy: `import symattn` in a notebook stays light until a trace is displayed
    from .api import render
    return render(trace, "markdown", detail="summary")


def latex(trace: Any) -> str:
    """$$A = [...],\\quad O = [...]$$ for front ends that prefer LaTeX."""
    # lazy, as in markdown()
    from .targets.latex import weights_and_output
    return weights_and_output(trace)


def register() -> bool:
    """Register the display functions with the running IPython shell; False when there is none."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    formatters = shell.display_formatter.formatters
    for module, name in FORMATTED:
        formatters["text/markdown"].for_type_by_name(module, name, markdown)
        formatters["text/latex"].for_type_by_name(module, name, latex)
    return True
