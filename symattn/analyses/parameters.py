"""Symbolic parameters: the temperature limits τ → 0⁺ and τ → ∞ proved from the signs of the
logit differences (SymPy's limit where a sign is undecided), and derivatives of the weights
(∂A/∂τ, ∂A/∂θ) with a numeric cross-check."""

from __future__ import annotations

import dataclasses

import mpmath
import sympy as sp

from ..answers.budget import OverBudget, cpu_budget
from ..answers.judge import proved_zero
from ..errors import InputError
from ..limits import LIMITS_CPU_SECONDS
from ..exact.shown import long_values
from ..exact.substitute import substitute
from ..model import Trace, sample_values
from ..numeric import context, recompute, to_mpf
from ..numeric_decimals import decimal_grid
from .results import Derivative, ParameterReport, RowLimit, TemperatureLimits

TAU = sp.Symbol("tau", positive=True)


def temperature_limits(trace: Trace) -> TemperatureLimits:
    """Both limits of every weight, from the signs of the logit differences: with G = S + M,
    A_ij = 1/Σ_r e^((G_ir − G_ij)/τ), and e^(c/τ) tends to 0, 1 or ∞ as τ → 0⁺ for c < 0, = 0,
    > 0 and to 1 as τ → ∞, so the cold limit shares the weight among the largest logits and the
    hot one among the readable keys. A tie is proved exactly, any other sign from mpmath with
    a margin; a row with a difference neither decides is computed by SymPy's limit instead."""
    p = trace.problem
    cold, hot, rows, proved, by_signs = [], [], [], True, True
    for i, readable_row in enumerate(trace.readable):
        readable = tuple(j for j, ok in enumerate(readable_row) if ok)
        logits = {j: trace.S[i, j] + (trace.M[i, j] if readable_row[j] else 0) for j in readable}
        if not readable or any(v.free_symbols for v in logits.values()):
            raise InputError(f"row {i + 1}: limits need every readable logit to be a number "
                             "(substitute the symbols with --subs)", source=p.source)
        top = max(logits.values(), key=lambda v: sp.N(v, 50))
        signs = [_sign(logits[j] - top) for j in readable]
        ties = tuple(j for j, sign in zip(readable, signs) if sign == 0)
        row_cold, row_hot = [sp.S.Zero] * p.n_k, [sp.S.Zero] * p.n_k
        for j in readable:
            row_cold[j] = sp.Rational(1, len(ties)) if j in ties else sp.S.Zero
            row_hot[j] = sp.Rational(1, len(readable))
        if None in signs or any(sign > 0 for sign in signs if sign is not None):
            by_signs = False  # undecided (or a larger logit than the top): SymPy's limit
            for j in readable:
                weight = 1 / sp.Add(*(sp.exp((logits[r] - logits[j]) / TAU) for r in readable))
                cold_j, hot_j = sp.limit(weight, TAU, 0, "+"), sp.limit(weight, TAU, sp.oo)
                proved &= cold_j == row_cold[j] and hot_j == row_hot[j]
                row_cold[j], row_hot[j] = cold_j, hot_j
            ties = tuple(j for j in readable if row_cold[j] != 0)
        cold.append(row_cold)
        hot.append(row_hot)
        rows.append(RowLimit(i, ties, readable))
    return TemperatureLimits(sp.ImmutableMatrix(cold), sp.ImmutableMatrix(hot), tuple(rows), proved,
                             by_signs=by_signs)


SIGN_DIGITS = (60, 600)  # mpmath digits a nonzero difference of logits is decided at, in turn


def _sign(difference: sp.Expr) -> int | None:
    """-1, 0 or 1: zero proved exactly, any other sign read from mpmath where the value lies
    far outside its error; None when neither decides."""
    if proved_zero(difference):
        return 0
    for digits in SIGN_DIGITS:
        value = to_mpf(context(digits), difference, {})
        if value and abs(value) > mpmath.mpf(10) ** (-digits // 2):
            return 1 if value > 0 else -1
    return None


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
    return ParameterReport(trace, limits, found, decimals,
                           decimals is not None and long_values(found.matrix))
