"""The identities a dot product of sinusoids meets, applied exactly: sin²x + cos²x = 1,
cos a cos b + sin a sin b = cos(a − b), sin a cos b ± cos a sin b = sin(a ± b)."""

from __future__ import annotations

import sympy as sp

from .linear import LinearForm, add, linear_form

_TRIG = (sp.sin, sp.cos)


def trig_reduced(form: LinearForm) -> LinearForm:
    """The form with every pair of terms an identity joins replaced by the one term (a score
    of two positional encodings, Σ sin pω sin qω + cos pω cos qω, is Σ cos (p − q)ω); the
    value is unchanged, and a form with no sine or cosine is returned as it is."""
    if not any(basis.has(*_TRIG) for basis in form):
        return form
    out = dict(form)
    for basis in list(form):
        if basis not in out:
            continue  # already joined with its partner
        joined = _partner(basis)
        if joined is None or joined[0] == basis:  # sin x cos x is its own partner
            continue
        partner, same, opposite = joined
        c = out[basis]
        if out.get(partner) not in (c, -c):
            continue
        result = same if out[partner] == c else opposite
        del out[basis], out[partner]
        out = add(out, {k: v * c for k, v in linear_form(result).items()})
    return out


def _partner(basis: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """(the term an identity joins basis with, the joined value when their coefficients are
    equal, when they are opposite); None when basis is not sin²x, cos a cos b or sin a cos b."""
    if basis.is_Pow and basis.exp == 2 and isinstance(basis.base, sp.sin):
        x = basis.base.args[0]
        return sp.cos(x) ** 2, sp.S.One, -sp.cos(2 * x)  # sin²x − cos²x = −cos 2x
    factors = basis.args if basis.is_Mul else ()
    if len(factors) != 2 or not all(isinstance(f, _TRIG) for f in factors):
        return None
    (f, a), (g, b) = ((type(x), x.args[0]) for x in factors)
    if f is sp.cos and g is sp.cos:
        return sp.sin(a) * sp.sin(b), sp.cos(a - b), sp.cos(a + b)
    if f is sp.sin and g is sp.cos:
        return sp.cos(a) * sp.sin(b), sp.sin(a + b), sp.sin(a - b)
    if f is sp.cos and g is sp.sin:  # cos a sin b: its partner sin a cos b, read the other way
        return sp.sin(a) * sp.cos(b), sp.sin(a + b), sp.sin(b - a)
    return None


__all__ = ["trig_reduced"]
