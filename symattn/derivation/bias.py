"""How a derivation shows a large finite mask (mask_bias, the courses' -1e9): the bias as -10^9,
M and L with it where a mask hides a key, and e^(-10^9/τ) named ε, so that a masked key's term
is the small one (3ε/(1 + 5ε)), never the others' e^(10^9) over it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import sympy as sp

from ..exact.attention import mask_rule, pushed_down
from ..parse.conventions import SMALLEST_MASK_BIAS
from ..model import Trace

EPSILON_LETTERS = ("epsilon", "delta")


def bias_shown(value: sp.Expr) -> sp.Expr:
    """-1000000000 as -10^9 and -2000000000 as -2·10^9 (unevaluated, from 10^3 on, a mantissa
    of at most three digits); other values as they are."""
    if value.is_Integer and abs(value) >= 1000:
        digits = str(abs(value))
        mantissa, zeros = digits.rstrip("0"), len(digits) - len(digits.rstrip("0"))
        if len(mantissa) <= 3 and zeros >= 3:
            power = sp.Pow(10, zeros, evaluate=False)
            m = int(mantissa) * (1 if value > 0 else -1)
            return power if m == 1 else sp.Mul(m, power, evaluate=False)
    return value


def small_factor(trace: Trace) -> sp.Expr | None:
    """The exponent of ε = e^(mask_bias/τ), when a mask hides a key, or of e^(b/τ) for a bias's
    most negative large entry b (−10^9), when τ is a number (None otherwise)."""
    p = trace.problem
    if p.mask_bias is None:
        if p.bias is None or not pushed_down(p):
            return None
        large = [x for x in p.bias if x != sp.S.NegativeInfinity and x.is_number
                 and bool(x <= -SMALLEST_MASK_BIAS)]
        g = min(large) / p.temperature  # a bias of -1e9 as the masks' -1e9
    elif not any(any(row) for row in trace.masked_by_bias):
        return None
    else:
        g = p.mask_bias / p.temperature
    return None if g.free_symbols else g


def small_parts(trace: Trace, symbol: sp.Symbol, g: sp.Expr
                ) -> tuple[dict[sp.Expr, sp.Expr], set[sp.Expr]]:
    """Each exp(c + rest) of A, O and E whose constant c is about k·g (k ≥ 1) as ε^k e^rest
    (the replacements), and the exp arguments so replaced (no other name is given for them)."""
    replaced: dict[sp.Expr, sp.Expr] = {}
    arguments: set[sp.Expr] = set()
    seen: set[sp.Basic] = set()
    stack = [x for m in (trace.A, trace.O, trace.E) for row in m.tolist() for x in row]
    while stack:
        x = stack.pop()
        if x in seen or x.is_Atom:
            continue
        seen.add(x)
        if isinstance(x, sp.exp):
            c, rest = x.args[0].as_coeff_Add()
            k = sp.floor(c / g + sp.Rational(1, 2)) if c.is_Rational else 0
            if k >= 1:
                replaced[x] = symbol ** int(k) * sp.exp(rest + (c - k * g))
                arguments.add(x.args[0])
                continue
        stack.extend(x.args)
    return replaced, arguments


def hidden_entries(trace: Trace, M: sp.ImmutableMatrix, L: sp.ImmutableMatrix,
                   S: sp.ImmutableMatrix, form: Callable[[sp.Expr], sp.Expr]
                   ) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
    """M and L as shown: -10^9 (plus any bias) where a mask hides a key, and there S - 10^9
    (τ = 1), or the rest of L and -10^9/τ (1 - 2·10^9 for τ = 1/2); other entries as given."""
    p, hidden = trace.problem, trace.masked_by_bias
    if p.mask_bias is None:
        return M, L
    shown = bias_shown(p.mask_bias)
    bias = p.bias
    g = p.mask_bias / p.temperature

    def m(i: int, j: int) -> sp.Expr:
        if not hidden[i][j]:
            return M[i, j]
        extra = bias[i, j] if bias is not None else 0
        return sp.Add(extra, shown, evaluate=False) if extra else shown

    def logit(i: int, j: int) -> sp.Expr:
        if not hidden[i][j]:
            return L[i, j]
        if p.temperature == 1:
            terms = [x for x in (S[i, j], bias[i, j] if bias is not None else 0) if x != 0]
        elif not g.free_symbols:
            terms, shown_g = [form(x) for x in (trace.L[i, j] - g,) if x != 0], bias_shown(g)
            return sp.Add(*terms, shown_g, evaluate=False) if terms else shown_g
        else:
            return L[i, j]
        return sp.Add(*terms, shown, evaluate=False) if terms else shown
    return (sp.ImmutableMatrix(M.rows, M.cols, lambda i, j: m(i, j)),
            sp.ImmutableMatrix(L.rows, L.cols, lambda i, j: logit(i, j)))


def separated(trace: Trace, M: sp.ImmutableMatrix, L: sp.ImmutableMatrix, given: Callable
              ) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix, sp.ImmutableMatrix]:
    """With a bias B: M as the masks alone (0, and −∞, or mask_bias, where a mask hides a key),
    B as the file gives it, and L with a large integer of B written as a power of ten
    (−10^9 + ln 2), so that L = (S + M + B)/τ reads entry by entry."""
    p = trace.problem
    hides = mask_rule(replace(p, bias=None))
    hidden = sp.S.NegativeInfinity if p.mask_bias is None else bias_shown(p.mask_bias)
    masks = sp.ImmutableMatrix(M.rows, M.cols, lambda i, j: 0 if hides[i][j] else hidden)
    B = given(p.bias).applyfunc(bias_shown)
    return masks, B, L.applyfunc(_powers_of_ten)


def _powers_of_ten(x: sp.Expr) -> sp.Expr:
    """−1000000000 + ln 2 as −10^9 + ln 2 (a sum's large integer term by bias_shown)."""
    if x.is_Integer:
        return bias_shown(x)
    if not x.is_Add or not any(a.is_Integer and abs(a) >= 1000 for a in x.args):
        return x
    return sp.Add(*(bias_shown(a) if a.is_Integer else a for a in x.args), evaluate=False)
