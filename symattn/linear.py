"""Exact logits as rational combinations of basis terms, and their exponentials as monomials.

A linear form maps a basis term (1, log(3), sqrt(2), cos(theta), ...) to a Fraction. Logits
stay in this form until the end, so exp of a logit splits into a rational-power factor from
prime logs (exp(2 ln 3) = 9, exp(20/17 ln 2) = 2^(20/17)) times integer powers of a few
generators t_b = exp(b / D_b). SymPy expressions are built once, for output.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Mapping

import sympy as sp

from .errors import InputError
from .gates import MAX_ROOT_BITS
from .primes import log_reduced

LinearForm = dict[sp.Expr, Fraction]
ONE = sp.S.One
MAX_FACTOR_BITS = 8192  # an exact factor past this is thousands of digits: refused, not printed


def linear_form(expr: sp.Expr) -> LinearForm:
    """Split an exact value into rational coefficients of basis terms (logs over primes)."""
    form: LinearForm = {}
    for term in sp.Add.make_args(sp.expand_mul(expr)):
        coefficient, basis = term.as_coeff_Mul()
        factor = Fraction(int(coefficient.p), int(coefficient.q))
        reduced = _prime_logs(basis)
        if reduced is None:
            _accumulate(form, basis, factor)
            continue
        for prime_log, count in reduced.items():
            _accumulate(form, prime_log, factor * count)
    return form


def _prime_logs(basis: sp.Expr) -> LinearForm | None:
    """log(4) -> {log(2): 2}, log(3/2) -> {log(3): 1, log(2): -1}; None if already reduced.

    The parser reduces logs itself; SymPy values given to the Python API may not be reduced.
    """
    if not isinstance(basis, sp.log) or not basis.args[0].is_Rational:
        return None
    reduced = log_reduced(basis.args[0])
    if reduced == basis:
        return None
    form: LinearForm = {}
    for term in sp.Add.make_args(reduced):
        coefficient, prime_log = term.as_coeff_Mul()
        _accumulate(form, prime_log, Fraction(int(coefficient.p), int(coefficient.q)))
    return form


def _accumulate(form: LinearForm, basis: sp.Expr, coefficient: Fraction) -> None:
    total = form.get(basis, 0) + coefficient
    if total:
        form[basis] = total
    else:
        form.pop(basis, None)


@lru_cache(maxsize=4096)
def _basis_product(a: sp.Expr, b: sp.Expr) -> tuple[Fraction, sp.Expr]:
    coefficient, basis = (a * b).as_coeff_Mul()
    return Fraction(int(coefficient.p), int(coefficient.q)), basis


def multiply(a: LinearForm, b: LinearForm) -> LinearForm:
    """The product of two linear forms, with basis products re-split (sqrt(2)^2 = 2)."""
    out: LinearForm = {}
    for basis_a, ca in a.items():
        for basis_b, cb in b.items():
            if basis_a is ONE:
                factor, basis = Fraction(1), basis_b
            elif basis_b is ONE:
                factor, basis = Fraction(1), basis_a
            else:
                factor, basis = _basis_product(basis_a, basis_b)
            _accumulate(out, basis, ca * cb * factor)
    return out


def add(a: LinearForm, b: LinearForm) -> LinearForm:
    """The sum of two linear forms."""
    out = dict(a)
    for basis, coefficient in b.items():
        _accumulate(out, basis, coefficient)
    return out


def dot(row: Iterable[LinearForm], column: Iterable[LinearForm]) -> LinearForm:
    """Sum of products of two equally long sequences of linear forms."""
    out: LinearForm = {}
    for a, b in zip(row, column):
        for basis, coefficient in multiply(a, b).items():
            _accumulate(out, basis, coefficient)
    return out


def rational_matmul_t(a: list[list[Fraction]], b: list[list[Fraction]]) -> list[list[Fraction]]:
    """A Bᵀ for rational matrices, in integers over one common denominator (fast path)."""
    da = math.lcm(*(x.denominator for row in a for x in row)) if a and a[0] else 1
    db = math.lcm(*(x.denominator for row in b for x in row)) if b and b[0] else 1
    ia = [[int(x * da) for x in row] for row in a]
    ib = [[int(x * db) for x in row] for row in b]
    denominator = da * db
    return [[Fraction(sum(x * y for x, y in zip(ra, rb)), denominator) for rb in ib] for ra in ia]


def to_expr(form: Mapping[sp.Expr, Fraction]) -> sp.Expr:
    """Build the SymPy expression of a linear form."""
    return sp.Add(*(sp.Rational(c.numerator, c.denominator) * b for b, c in form.items()))


def is_log_atom(basis: sp.Expr) -> bool:
    """True for log(n) with an integer n > 1 (prime after reduction): exp of it is exact."""
    return isinstance(basis, sp.log) and basis.args[0].is_Integer


class Exponentiator:
    """exp of many logits over shared generators t_b = exp(b / D_b), D_b the lcm of denominators."""

    def __init__(self, logits: Iterable[LinearForm]) -> None:
        denominators: dict[sp.Expr, int] = {}
        for form in logits:
            for basis, coefficient in form.items():
                if not is_log_atom(basis):
                    denominators[basis] = math.lcm(denominators.get(basis, 1),
                                                   coefficient.denominator)
        self.denominators = denominators

    def exponents(self, form: LinearForm) -> dict[sp.Expr, int]:
        """Integer powers of each generator in exp(form)."""
        return {b: int(c * self.denominators[b]) for b, c in form.items() if not is_log_atom(b)}

    def factor(self, form: LinearForm) -> sp.Expr:
        """The exact factor from prime logs: exp(sum c_p ln p) = prod p^c_p.

        Raises:
            InputError: when the factor is too large to write out exactly, or would make SymPy
                factor a product of roots beyond MAX_ROOT_BITS.
        """
        logs = {int(b.args[0]): c for b, c in form.items() if is_log_atom(b)}
        size = sum(abs(c) * math.log2(p) for p, c in logs.items())
        roots = sum(p.bit_length() for p, c in logs.items() if c.denominator != 1)
        if size > MAX_FACTOR_BITS or roots > MAX_ROOT_BITS:
            shown = str(to_expr(form))
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise InputError(f"exp of the logit {shown} is too large to write exactly "
                             f"(about {int(size)} bits; limit {MAX_FACTOR_BITS}, roots "
                             f"{MAX_ROOT_BITS})")
        value = ONE
        for prime, c in logs.items():
            value *= sp.Integer(prime) ** sp.Rational(c.numerator, c.denominator)
        return value

    def monomial(self, exponents: Mapping[sp.Expr, int]) -> sp.Expr:
        """exp(sum e_b * b / D_b) as one SymPy exp (1 when every exponent is 0)."""
        argument = {b: Fraction(e, self.denominators[b]) for b, e in exponents.items() if e}
        return sp.exp(to_expr(argument)) if argument else ONE

    def row(self, forms: list[LinearForm]) -> tuple[list[sp.Expr], list[sp.Expr]]:
        """exp of each logit of a row, unshifted and shifted by the row's least powers.

        Shifting multiplies a whole row by the same t^(-m): the weights are unchanged but
        the shared denominator becomes a polynomial with a constant-free smallest term.
        """
        powers = [self.exponents(form) for form in forms]
        least = {b: min(p.get(b, 0) for p in powers) for b in self.denominators}
        plain, shifted = [], []
        for form, power in zip(forms, powers):
            factor = self.factor(form)
            plain.append(factor * self.monomial(power))
            moved = {b: power.get(b, 0) - least[b] for b in self.denominators}
            shifted.append(factor * self.monomial(moved))
        # Clear rational denominators too (2^(-3/17) = 2^(14/17)/2), so that every weight
        # is one fraction over the row's shared denominator.
        common = math.lcm(*(int(x.as_coeff_Mul()[0].q) for x in shifted))
        return plain, [common * x for x in shifted] if common != 1 else shifted
