"""Registry of benchmarked methods: symattn, naive SymPy (+/- simplify), mpmath."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

from .cases import Case
from .naive import mpmath_attention, naive_plain, naive_simplify


@dataclass(frozen=True)
class Method:
    """A named attention implementation returning (A, O) for a Case."""

    name: str
    compute: Callable[[Case], tuple[Any, Any]]
    symbolic: bool  # True: results are SymPy matrices (count_ops, evalf apply)
    capped: bool  # True: subject to the time cap (reported as "> cap s")


def symattn_status() -> str | None:
    """Return None if symattn.attention is importable, else a short reason."""
    try:
        module = importlib.import_module("symattn")
        getattr(module, "attention")
    except Exception as exc:  # the package may be mid-construction
        return f"{type(exc).__name__}: {exc}"
    return None


def symattn_attention(case: Case) -> tuple[Any, Any]:
    """Return (trace.A, trace.O) from symattn.attention (imported lazily)."""
    from symattn import attention

    trace = attention(case.Q, case.K, case.V, mask=case.mask, temperature=case.temperature)
    return trace.A, trace.O


SYMATTN = Method("symattn", symattn_attention, symbolic=True, capped=True)
NAIVE_SIMPLIFY = Method("naive sympy + simplify", naive_simplify, symbolic=True, capped=True)
NAIVE_PLAIN = Method("naive sympy (no simplify)", naive_plain, symbolic=True, capped=True)
MPMATH = Method("mpmath 50 digits", mpmath_attention, symbolic=False, capped=True)

METHODS = [SYMATTN, NAIVE_SIMPLIFY, NAIVE_PLAIN, MPMATH]
