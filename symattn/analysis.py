"""The Python API of the analyses: parameter sweeps, exact gradients, weights with the same output.

    problem = symattn.load_problem("worked_examples/09_parameter_sweep/problem.toml")
    result = parameter_sweep(problem)                    # the file's [sweep]
    render_analysis(result, "markdown", lang="zh")

    trace = symattn.attend(symattn.load_problem("worked_examples/10_gradient/problem.toml"))
    grads = gradients(trace)                             # the file's [gradient], or dO=/loss=
    grads["dK"]                                          # Matrix([[-43/50], [-7/50], [1]])
    weights_with_same_output(trace, row=3)               # the set of weights giving O[3]
"""

from __future__ import annotations

from typing import Any, Sequence

from .gradient import Gradients, gradients as _gradients, read_upstream
from .model import Problem, Trace
from .nonunique import NonUniqueness, nonunique
from .sweep import Sweep, sweep

FORMATS = {Sweep: ("text", "json", "latex", "markdown", "svg"),
           Gradients: ("text", "json", "latex", "markdown"),
           NonUniqueness: ("text", "json", "latex", "markdown")}


def parameter_sweep(problem: Problem, sweep_table: dict[str, Any] | None = None, *,
                    row: int | None = None, places: int = 4) -> Sweep:
    """Attention at every point of the problem's [sweep] (or of sweep_table, same keys).

    Raises:
        InputError: a bad table, naming the key (sweep.theta.steps, ...).
        ProblemError: a point where the problem cannot be computed, naming it.
    """
    from .sweep_spec import read_sweep

    spec = read_sweep(problem, sweep_table) if sweep_table is not None else None
    return sweep(problem, spec, row=row, places=places)


def gradients(trace: Trace, *, dO: Sequence[Sequence[Any]] | None = None, loss: str | None = None,
              row: int | None = None, places: int = 4) -> Gradients:
    """Exact gradients of ℓ = Σ dO ⊙ O: from dO (rows of entries, strings in the safe syntax),
    loss="sum" (dO all ones), or else the problem's [gradient] table."""
    table = None
    if dO is not None or loss is not None:
        table = {k: v for k, v in (("dO", _rows(dO)), ("loss", loss)) if v is not None}
    return _gradients(trace, read_upstream(trace, table), places=places, row=row)


def weights_with_same_output(trace: Trace, row: int | None = None, *,
                             places: int = 4) -> NonUniqueness:
    """For one row (1-based) or every row: all weights on the simplex that give the same output."""
    return nonunique(trace, row, places=places)


def render_analysis(result: Sweep | Gradients | NonUniqueness, to: str = "markdown", *,
                    lang: str = "en", standalone: bool = False, image: str | None = None,
                    digits: int = 60) -> str:
    """Render a result; for gradients the mpmath finite-difference check runs first (at digits)."""
    formats = FORMATS.get(type(result))
    if formats is None:
        raise TypeError(f"cannot render a {type(result).__name__}")
    if to not in formats:
        raise ValueError(f"unknown format {to!r}; formats are {', '.join(formats)}")
    if lang not in ("en", "zh"):
        raise ValueError(f"unknown language {lang!r}; languages are en, zh")
    if isinstance(result, Sweep):
        from .renderers.sweep_doc import render_sweep
        return render_sweep(result, to, lang, standalone=standalone, image=image)
    if isinstance(result, Gradients):
        from .gradient_check import check_gradients
        from .renderers.gradient_doc import render_gradient
        return render_gradient(result, check_gradients(result, digits), to, lang,
                               standalone=standalone)
    from .renderers.nonunique_doc import render_nonunique
    return render_nonunique(result, to, lang, standalone=standalone)


def _rows(matrix: Any) -> list[list[Any]] | None:
    if matrix is None:
        return None
    if hasattr(matrix, "tolist"):
        return matrix.tolist()
    return [list(row) if isinstance(row, (list, tuple)) else row for row in matrix]
