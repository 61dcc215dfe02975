"""Symbolic parameters: the temperature limits τ → 0⁺ and τ → ∞ proved with
SymPy, and derivatives of the weights (∂A/∂τ, ∂A/∂θ) with a numeric cross-check."""

from __future__ import annotations

import dataclasses
import sympy as sp

from ..answers.budget import OverBudget, cpu_budget
from ..errors import InputError
from ..limits import LIMITS_CPU_SECONDS
from ..exact.substitute import substitute
from ..model import Trace, sample_values
from ..numeric import context, recompute
from ..numeric_decimals import decimal_grid
from .results import Derivative, ParameterReport, RowLimit, TemperatureLimits

TAU = sp.Symbol("tau", positive=True)


def temperature_limits(trace: Trace) -> TemperatureLimits:
    """Both limits of every weight, each entry computed by SymPy's limit of its closed form
    1/Σ_r exp((G_ir − G_ij)/τ), G = S + M, and compared with the rule."""
    p = trace.problem
    cold, hot, rows, proved = [], [], [], True
    for i, readable_row in enumerate(trace.readable):
        readable = tuple(j for j, ok in enumerate(readable_row) if ok)
        logits = {j: trace.S[i, j] + (trace.M[i, j] if readable_row[j] else 0) for j in readable}
        if not readable or any(v.free_symbols for v in logits.values()):
            raise InputError(f"row {i + 1}: limits need every readable logit to be a number "
                             "(substitute the symbols with --subs)", source=p.source)
        top = max(logits.values(), key=lambda v: sp.N(v, 50))
        ties = tuple(j for j in readable if sp.expand(logits[j] - top) == 0)
        row_cold, row_hot = [sp.S.Zero] * p.n_k, [sp.S.Zero] * p.n_k
        for j in readable:
            rule_cold = sp.Rational(1, len(ties)) if j in ties else sp.S.Zero
            if p.mask_bias is not None:  # e^(c/τ) -> 0, 1, ∞ (c < 0, = 0, > 0) as τ -> 0⁺; 1 as τ -> ∞
                row_cold[j], row_hot[j] = rule_cold, sp.Rational(1, len(readable))
                continue
            weight = 1 / sp.Add(*(sp.exp((logits[r] - logits[j]) / TAU) for r in readable))
            row_cold[j] = sp.limit(weight, TAU, 0, "+")
            row_hot[j] = sp.limit(weight, TAU, sp.oo)
            proved &= row_cold[j] == rule_cold and row_hot[j] == sp.Rational(1, len(readable))
        cold.append(row_cold)
        hot.append(row_hot)
        rows.append(RowLimit(i, ties, readable))
    return TemperatureLimits(sp.ImmutableMatrix(cold), sp.ImmutableMatrix(hot), tuple(rows), proved,
                             by_signs=p.mask_bias is not None)


def _logit_derivatives(trace: Trace, symbol: sp.Symbol | None) -> list[list[sp.Expr | None]]:
    """∂L_ij/∂x for readable entries: −G_ij/τ² for x = τ (G = S + M), else d L_ij/dx."""
    p = trace.problem
    return [[(-(trace.S[i, j] + trace.M[i, j]) / p.temperature ** 2 if symbol is None
              else sp.diff(trace.L[i, j], symbol)) if ok else None
             for j, ok in enumerate(row)] for i, row in enumerate(trace.readable)]


def weight_derivative(trace: Trace, symbol: sp.Symbol | None = None) -> sp.ImmutableMatrix:
    """∂A_ij/∂x = A_ij (∂L_ij/∂x − Σ_r A_ir ∂L_ir/∂x): the softmax Jacobian applied to ∂L/∂x;
    x = τ when symbol is None. Masked weights stay 0."""
    rows = []
    for i, dL in enumerate(_logit_derivatives(trace, symbol)):
        mean = sp.Add(*(trace.A[i, j] * d for j, d in enumerate(dL) if d is not None))
        rows.append([_one_fraction(trace.A[i, j] * (d - mean)) if d is not None else sp.S.Zero
                     for j, d in enumerate(dL)])
    return sp.ImmutableMatrix(rows)


def _one_fraction(value: sp.Expr) -> sp.Expr:
    """One fraction with an expanded numerator (the j-th term of the mean cancels there)."""
    numerator, denominator = sp.fraction(sp.together(value))
    return sp.expand(numerator) / denominator


def derivative(trace: Trace, name: str = "tau") -> Derivative:
    """∂A/∂τ, or ∂A/∂θ for a declared symbol θ, with a central-difference cross-check where
    the problem has no other symbols."""
    p = trace.problem
    symbol = None
    if name != "tau":
        symbol = next((s for s in p.symbols if s.name == name), None)
        if symbol is None:
            raise InputError(f"cannot differentiate by {name!r}: use tau or a declared symbol",
                             source=p.source)
    matrix = weight_derivative(trace, symbol)
    others = [s for s in p.symbols if s is not symbol]
    return Derivative(name, matrix, None if others else _finite_difference(trace, matrix, symbol))


def _finite_difference(trace: Trace, exact: sp.ImmutableMatrix, symbol: sp.Symbol | None,
                       digits: int = 40) -> float:
    """Largest |exact − central difference| over the entries (a symbol is taken at 3/7)."""
    ctx = context(digits)
    h = sp.Rational(1, 10 ** (digits // 3))
    p = trace.problem
    if symbol is None:
        up, down = (dataclasses.replace(p, temperature=p.temperature + d) for d in (h, -h))
        point = {}
    else:
        point = sample_values((symbol,))
        up, down = (substitute(p, {symbol: point[symbol] + d}) for d in (h, -h))
    upper, lower = recompute(up, digits)["A"], recompute(down, digits)["A"]
    step = ctx.mpf(2) * ctx.mpf(h.p) / h.q
    worst = ctx.zero
    for i in range(exact.rows):
        for j in range(exact.cols):
            value = ctx.mpf(str(sp.N(exact[i, j].xreplace(point), digits)))
            worst = max(worst, abs(value - (upper[i][j] - lower[i][j]) / step))
    return float(worst)


def parameter_report(trace: Trace, name: str = "tau", places: int = 4) -> ParameterReport:
    """Limits and ∂A/∂name for a trace, decimals decided here (documents and targets never compute)."""
    found = derivative(trace, name)
    decimals = None if found.matrix.free_symbols else decimal_grid(found.matrix, places)
    try:
        with cpu_budget(LIMITS_CPU_SECONDS):
            limits = temperature_limits(trace)
    except OverBudget:  # SymPy's limit of long decimal logits (n-place exponents) can run away
        raise InputError(f"the temperature limits took more than {LIMITS_CPU_SECONDS:g} s of CPU "
                         "time (SymPy's limits of these logits); give shorter entries or fewer "
                         "places", source=trace.problem.source) from None
    return ParameterReport(trace, limits, found, decimals)
