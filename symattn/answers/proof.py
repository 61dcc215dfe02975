"""Zero proved over a sparse polynomial ring: exponentials as powers of one generator per exponent.

exp(3/2 + sqrt(2)/4) is t^(3L/2) u^(M/4) with t = e^(1/L), u = e^(sqrt(2)/M) (L, M the least
common multiples of the denominators each exponent's part carries), and every other atom (a
symbol, sqrt(2), ln 3) is a generator of its own. Arithmetic there is exact and about thirty
times faster than SymPy's expand(), whose exponentials combine term by term. Zero in the ring
proves the value zero (substituting the generators' values is a ring homomorphism); anything
else proves nothing, and the caller tries another way.
"""

from __future__ import annotations

from math import lcm

import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.rings import PolyElement, PolyRing

Generator = tuple[str, sp.Basic]  # ("exp", core): e^(core/scale); ("atom", a): a itself


def ring_zero(expr: sp.Expr) -> bool:
    """Whether expr, a sum of products of integer powers, is zero in the ring (False: not shown)."""
    if expr.has(sp.oo, sp.zoo, sp.nan):  # never a generator: oo - oo is not 0
        return False
    scales: dict[sp.Basic, int] = {}
    atoms: dict[Generator, None] = {}  # in order of discovery; a dict, for its fast `in`
    if not _collect(expr, scales, atoms):
        return False
    index = {g: k for k, g in enumerate(atoms)}
    ring = PolyRing([f"g{k}" for k in range(max(1, len(atoms)))], QQ)
    try:
        value = _element(expr, ring, index, scales)
    except _NotPolynomial:
        return False
    return value is not None and not value


class _NotPolynomial(Exception):
    """A part the ring cannot hold (a negative power of a sum, of a symbol)."""


def _parts(argument: sp.Expr) -> list[tuple[sp.Rational, sp.Basic]]:
    """An exponent as rational multiples of cores: 3/2 + sqrt(2)/4 -> [(3/2, 1), (1/4, sqrt(2))]."""
    parts = []
    for term in sp.Add.make_args(argument):
        coefficient, core = term.as_coeff_Mul()
        if not coefficient.is_Rational:
            coefficient, core = sp.S.One, term
        parts.append((coefficient, core))
    return parts


def _exponent(expr: sp.Basic) -> sp.Expr | None:
    """The exponent of e^x (E itself included), else None."""
    if expr is sp.E:
        return sp.S.One
    return expr.args[0] if isinstance(expr, sp.exp) else None


def _collect(expr: sp.Basic, scales: dict[sp.Basic, int], atoms: dict[Generator, None]) -> bool:
    """Gather the generators and each exponent core's scale; False on a part never polynomial."""
    stack = [expr]
    seen: set[sp.Basic] = set()
    while stack:
        e = stack.pop()
        if e.is_Rational or e in seen:
            continue
        seen.add(e)
        if e.is_Add or e.is_Mul:
            stack.extend(e.args)
        elif e.is_Pow and e.exp.is_Integer:
            stack.append(e.base)
        elif (argument := _exponent(e)) is not None:
            for coefficient, core in _parts(argument):
                atoms.setdefault(("exp", core))
                scales[core] = lcm(scales.get(core, 1), int(coefficient.q))
        elif e.is_Float:
            return False
        else:
            atoms.setdefault(("atom", e))
    return True


def _element(expr: sp.Basic, ring: PolyRing, index: dict[Generator, int],
             scales: dict[sp.Basic, int]) -> PolyElement:
    """expr in the ring (exponent tuples may be negative for exponentials only)."""
    if expr.is_Rational:
        return ring(QQ(int(expr.p), int(expr.q)))
    if expr.is_Add:
        total = ring.zero
        for a in expr.args:
            total += _element(a, ring, index, scales)
        return total
    if expr.is_Mul:
        product = ring.one
        for a in expr.args:
            product *= _element(a, ring, index, scales)
        return product
    if expr.is_Pow and expr.exp.is_Integer:
        base, k = _element(expr.base, ring, index, scales), int(expr.exp)
        return base ** k if k >= 0 else _inverse(base, index) ** -k
    monomial = [0] * ring.ngens
    argument = _exponent(expr)
    if argument is None:
        monomial[index[("atom", expr)]] = 1
    else:
        for coefficient, core in _parts(argument):
            monomial[index[("exp", core)]] += int(coefficient * scales[core])
    return ring({tuple(monomial): QQ(1)})


def _inverse(element: PolyElement, index: dict[Generator, int]) -> PolyElement:
    """1/m of a monomial m in exponential generators alone (never zero); else not polynomial."""
    exponentials = {k for (kind, _), k in index.items() if kind == "exp"}
    if len(element) != 1:
        raise _NotPolynomial()
    ((monomial, coefficient),) = element.items()
    if any(power and k not in exponentials for k, power in enumerate(monomial)):
        raise _NotPolynomial()
    return element.ring({tuple(-power for power in monomial): QQ(1) / coefficient})
