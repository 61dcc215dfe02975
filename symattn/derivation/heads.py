"""Multi-head derivations: each head derived with names no other head uses, and the output."""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from ..exact.shown import shown_form
from ..model import MultiHeadTrace
from ..reports import HeadsReport
from .approx import Approx, approximate
from .build import Derivation, derive
from .options import Options


@dataclass(frozen=True)
class HeadsDerivation:
    """Each head's derivation, the output's decimals and the checks, for the documents."""

    trace: MultiHeadTrace
    heads: tuple[Derivation, ...]
    report: HeadsReport
    decimals: list[list[Approx | None]]
    difference: str
    W_O: sp.ImmutableMatrix  # as written (a long decimal as its digits)
    b_O: sp.ImmutableMatrix | None = None  # the output bias (one row), as written


def derive_heads(trace: MultiHeadTrace, report: HeadsReport,
                 options: Options = Options()) -> HeadsDerivation:
    """Derive every head with its own checks' report, one set of names for the document."""
    taken: set[str] = set()
    heads = tuple(derive(t, r, options, taken) for t, r in zip(trace.heads, report.reports))
    output = trace.output
    decimals = [[approximate(output[i, j], None, options.places) for j in range(output.cols)]
                for i in range(output.rows)] if not trace.problem.symbols else []
    given = shown_form(trace.heads[0].problem, None)
    b_O = None if trace.problem.b_O is None else given(trace.problem.b_O)
    return HeadsDerivation(trace, heads, report, decimals, mpmath.nstr(report.difference, 2),
                           given(trace.problem.W_O), b_O)
