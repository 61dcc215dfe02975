"""Exact logits as rational combinations of basis terms, and their exponentials as monomials.

A linear form maps a basis term (1, log(3), sqrt(2), cos(theta), ...) to a Fraction. Logits
stay in this form until the end, so exp of a logit splits into a rational-power factor from
prime logs (exp(2 ln 3) = 9, exp(20/17 ln 2) = 2^(20/17)) times integer powers of a few
generators t_b = exp(b / D_b). SymPy objects are built once per distinct value, for output;
sums of them are built exactly as SymPy's Add would build them, with one sort for many sums.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from collections.abc import Callable, Iterable, Mapping

import sympy as sp

from ..errors import InputError
from ..limits import MAX_EXACT_FACTOR_BITS, MAX_ROOT_BITS
from ..parse.primes import log_reduced
from .exp_eval import exp_eval
from .sympy_fast import ONE, build_sums

LinearForm = dict[sp.Expr, Fraction]
LogPart = tuple[tuple[int, Fraction], ...]  # (prime, rational power) of exp(sum c_p ln p)
Powers = tuple[int, ...]  # the integer power of each generator


def linear_form(expr: sp.Expr) -> LinearForm:
    """Split an exact value into rational coefficients of basis terms (logs over primes)."""
    if expr.is_Rational:
        return {ONE: Fraction(int(expr.p), int(expr.q))} if expr else {}
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


def dot(row: Iterable[LinearForm], column: Iterable[LinearForm],
        product: Callable[[LinearForm, LinearForm], LinearForm] = multiply) -> LinearForm:
    """Sum of products of two equally long sequences of linear forms."""
    out: LinearForm = {}
    for a, b in zip(row, column):
        for basis, coefficient in product(a, b).items():
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
    """Build the SymPy expression of a linear form (as sp.Add of c·b, without Add.flatten)."""
    return build_sums([form])[0]


def is_log_atom(basis: sp.Expr) -> bool:
    """True for log(n) with an integer n > 1 (prime after reduction): exp of it is exact."""
    return isinstance(basis, sp.log) and basis.args[0].is_Integer


def exp_of(argument: sp.Expr) -> sp.Expr:
    """sp.exp(argument), skipping exp.eval where it provably returns None: a rational other
    than 0 and 1, or a rational times sqrt(n), an n-th root, pi or E (no log to collapse)."""
    if argument.is_Rational:
        plain = argument not in (0, 1)
    else:
        plain = argument.is_Mul and len(argument.args) == 2 and argument.args[0].is_Rational \
            and _plain_constant(argument.args[1])
    return sp.exp(argument, evaluate=False) if plain else exp_eval(argument)


def _plain_constant(x: sp.Expr) -> bool:
    return x is sp.pi or x is sp.E or (
        x.is_Pow and x.base.is_Integer and x.base > 1 and x.exp.is_Rational)


class Exponentiator:
    """exp of many logits over shared generators t_b = exp(b / D_b), D_b the lcm of denominators.

    Logits that share a value share one linear form, and every distinct factor, monomial and
    product is built as a SymPy object once (a 32-token causal example has about 500 readable
    logits but only a few dozen distinct exponents).
    """

    def __init__(self, logits: Iterable[LinearForm]) -> None:
        denominators: dict[sp.Expr, int] = {}
        for form in {id(form): form for form in logits}.values():  # each shared form once
            for basis, coefficient in form.items():
                if not is_log_atom(basis):
                    denominators[basis] = math.lcm(denominators.get(basis, 1),
                                                   coefficient.denominator)
        self.denominators = denominators
        self.bases = tuple(denominators)
        self._splits: dict[int, tuple[LinearForm, LogPart, Powers]] = {}
        self._factors: dict[LogPart, sp.Expr] = {}
        self._monomials: dict[Powers, sp.Expr] = {}
        self._values: dict[tuple[LogPart, Powers], sp.Expr] = {}

    def split(self, form: LinearForm) -> tuple[LogPart, Powers]:
        """(the prime-log part, the integer power of each generator) of exp(form)."""
        hit = self._splits.get(id(form))
        if hit is not None and hit[0] is form:  # the cache holds form, so its id is not reused
            return hit[1], hit[2]
        logs = tuple((int(b.args[0]), c) for b, c in form.items() if is_log_atom(b))
        powers = tuple(int(form[b] * self.denominators[b]) if b in form else 0
                       for b in self.bases)
        self._splits[id(form)] = (form, logs, powers)
        return logs, powers

    def _factor(self, logs: LogPart, form: LinearForm | None = None) -> sp.Expr:
        """The exact factor from prime logs: exp(sum c_p ln p) = prod p^c_p.

        Raises:
            InputError: when the factor is too large to write out exactly, or would make SymPy
                factor a product of roots beyond MAX_ROOT_BITS.
        """
        value = self._factors.get(logs)
        if value is not None:
            return value
        size = sum(abs(c) * math.log2(p) for p, c in logs)
        roots = sum(p.bit_length() for p, c in logs if c.denominator != 1)
        if size > MAX_EXACT_FACTOR_BITS or roots > MAX_ROOT_BITS:
            shown = str(to_expr(form if form is not None else {sp.log(p): c for p, c in logs}))
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise InputError(f"exp of the logit {shown} is too large to write exactly "
                             f"(about {int(size) if size < 1e6 else f'{size:.2e}'} bits; limit "
                             f"{MAX_EXACT_FACTOR_BITS}, roots "
                             f"{MAX_ROOT_BITS})")
        value = ONE
        for prime, c in logs:
            value *= sp.Integer(prime) ** sp.Rational(c.numerator, c.denominator)
        self._factors[logs] = value
        return value

    def monomial(self, powers: Powers) -> sp.Expr:
        """exp(sum e_b * b / D_b) as one SymPy exp (1 when every exponent is 0)."""
        value = self._monomials.get(powers)
        if value is None:
            argument = {b: Fraction(e, self.denominators[b])
                        for b, e in zip(self.bases, powers) if e}
            value = exp_of(to_expr(argument)) if argument else ONE
            self._monomials[powers] = value
        return value

    def value(self, logs: LogPart, powers: Powers) -> sp.Expr:
        """factor * monomial, built once per distinct pair."""
        key = (logs, powers)
        value = self._values.get(key)
        if value is None:
            value = self._values[key] = self._factor(logs) * self.monomial(powers)
        return value

    def row(self, forms: list[LinearForm], among: list[bool] | None = None
            ) -> tuple[list[sp.Expr], list[sp.Expr]]:
        """exp of each logit of a row, unshifted and shifted by the row's least powers (of the
        logits `among` marks, when it marks any).

        Shifting multiplies a whole row by the same t^(-m): the weights are unchanged but
        the shared denominator becomes a polynomial with a constant-free smallest term.
        """
        splits = [self.split(form) for form in forms]
        for form, (logs, _) in zip(forms, splits):
            self._factor(logs, form)  # refuses an oversized factor, naming its logit
        chosen = [p for (_, p), ok in zip(splits, among or []) if ok] or [p for _, p in splits]
        least = tuple(map(min, zip(*chosen))) if self.bases else ()
        plain = [self.value(logs, powers) for logs, powers in splits]
        shifted = [self.value(logs, tuple(e - m for e, m in zip(powers, least)))
                   for logs, powers in splits]
        # Clear rational denominators too (2^(-3/17) = 2^(14/17)/2), so that every weight
        # is one fraction over the row's shared denominator.
        common = math.lcm(*(int(x.as_coeff_Mul()[0].q) for x in set(shifted)))
        if common == 1:
            return plain, shifted
        scaled: dict[sp.Expr, sp.Expr] = {}
        return plain, [scaled[x] if x in scaled else scaled.setdefault(x, common * x)
                       for x in shifted]


