"""Registry of benchmarked methods: symattn, naive SymPy (+/- simplify), mpmath."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

from .cases import Case
from .naive import mpmath_attention, naive_plain, naive_simplify


@dataclass(frozen=True)
class Method:
    """A named attention implementation returning (A, O) for a Case."""

    key: str
    name: str
    compute: Callable[[Case], tuple[Any, Any]]
    symbolic: bool  # True: results are SymPy matrices (count_ops, evalf apply)
    capped: bool  # True: subject to the time cap (reported as "> cap s")


def symattn_status() -> str | None:
    """Return None if symattn.attention is importable, else a short reason."""
    try:
        module = importlib.import_module("symattn")
        getattr(module, "attention")  # noqa: B009 (reading it is the check)
    except Exception as exc:  # the package may be mid-construction
        return f"{type(exc).__name__}: {exc}"
    return None


def symattn_attention(case: Case) -> tuple[Any, Any]:
    """Return (trace.A, trace.O) from symattn.attention (imported lazily)."""
    from symattn import attention

    trace = attention(case.Q, case.K, case.V, mask=case.mask, temperature=case.temperature)
    return trace.A, trace.O


def symattn_every_stage(case: Case) -> tuple[Any, Any]:
    """Like symattn_attention, but also builds the lazy stages R, S, M, L, E and Z."""
    from symattn import attention

    trace = attention(case.Q, case.K, case.V, mask=case.mask, temperature=case.temperature)
    for name in ("R", "S", "M", "L", "E", "Z"):
        getattr(trace, name)
    return trace.A, trace.O


SYMATTN = Method("symattn", "symattn (A, O)", symattn_attention, symbolic=True, capped=True)
SYMATTN_ALL = Method("symattn_all", "symattn, every stage", symattn_every_stage, symbolic=True,
                     capped=True)
NAIVE_SIMPLIFY = Method("naive_simplify", "naive SymPy + simplify", naive_simplify, symbolic=True,
                        capped=True)
NAIVE_PLAIN = Method("naive_plain", "naive SymPy, no simplify", naive_plain, symbolic=True,
                     capped=True)
MPMATH = Method("mpmath", "mpmath, 50 digits", mpmath_attention, symbolic=False, capped=True)

METHODS = [SYMATTN, SYMATTN_ALL, NAIVE_SIMPLIFY, NAIVE_PLAIN, MPMATH]
BY_KEY = {m.key: m for m in METHODS}


def warm_up() -> None:
    """Import everything each method uses and run each once on a tiny case, in this process.

    Timed runs happen in forked children with a fresh SymPy cache; warming up here keeps
    module imports and SymPy's one-off lazy imports out of every method's timings alike.
    """
    from .cases import log_case, random_case

    for case in (random_case(3, 2), log_case(3)):
        for method in METHODS:
            if method.key != "symattn" or symattn_status() is None:
                method.compute(case)
    if symattn_status() is None:
        import symattn
        from symattn.numeric import exact_values, forget
        from symattn.targets.latex import weights_and_output

        trace = symattn.attention([[1], [2]], [[0], ["ln(3)"]], [[1], [2]], mask="causal")
        exact_values(trace)
        weights_and_output(trace)
        symattn.render(trace, "latex", detail="summary")
        forget()
