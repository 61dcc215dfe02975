"""Every use of SymPy internals, behind one small API: builders that give exactly what SymPy's own
constructors give (Add(*terms), Mul(*factors), ImmutableMatrix(rows, cols, entries)), faster.

Add.flatten and Mul.flatten sort and collect their arguments on every call; the pipeline builds
hundreds of sums and products whose terms are already collected and only need SymPy's canonical
order. The builders here skip the flattening and nothing else, through `_addsort`, `_mulsort`,
`_from_args`, `_new_rawargs`, `_dod_to_DomainMatrix` and `_fromrep`. tests/test_sympy_fast.py
compares each one with SymPy's public constructor on random inputs (structurally equal: the
same args in the same order), and .ci/run runs it on the oldest and newest SymPy declared in
pyproject.toml.
"""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Iterable, Mapping

import sympy as sp
from sympy.core.add import _addsort
from sympy.core.mul import _mulsort

ONE = sp.S.One


Polynomial = dict[sp.Expr, Fraction | int]  # unit -> rational coefficient; ONE holds the constant


def add_term(x: sp.Expr) -> tuple[Fraction | int, sp.Expr] | None:
    """Split x as Add.flatten does: (rational coefficient, unit), unit ONE for a rational;
    None where Add.flatten would do more than collect (an Add, an unevaluated power, a float)."""
    if x.is_Rational:
        return python_rational(x), ONE
    if x.is_Add or x.is_Number:
        return None
    if x.is_Mul:
        c, unit = x.as_coeff_Mul()
        return (python_rational(c), unit) if c.is_Rational else None
    if x.is_Pow and x.base.is_Number and x.exp.is_Rational and (
            x.exp.is_Integer or x.exp.is_negative):
        return None
    return 1, x


def python_rational(x: sp.Rational) -> Fraction | int:
    """A SymPy rational as an int when it is one, else a Fraction."""
    return int(x.p) if x.q == 1 else Fraction(int(x.p), int(x.q))


def rational(c: Fraction | int) -> sp.Rational:
    return sp.Integer(c) if isinstance(c, int) else sp.Rational(c.numerator, c.denominator)


def scaled(c: Fraction | int, unit: sp.Expr) -> sp.Expr:
    """sp.Mul(c, unit) as Add.flatten rebuilds a collected term (c is not 0), without flatten."""
    if c == 1:
        return unit
    coefficient = rational(c)
    if unit.is_Mul:
        return unit._new_rawargs(coefficient, *unit.args)
    if isinstance(unit, sp.exp):  # what Mul(coefficient, unit) returns, without flatten
        return sp.Mul._from_args((coefficient, unit), True)
    return sp.Mul(coefficient, unit)


def build_sums(polynomials: Iterable[Mapping[sp.Expr, Fraction | int]]) -> list[sp.Expr]:
    """sp.Add of each polynomial's terms, identical to what sp.Add(*terms) returns.

    Add.flatten sorts the terms of every sum by Basic.compare, which costs most of the time
    for a few hundred sums of tens of terms. The order is a total order, so sorting all
    distinct terms once and each sum by rank gives the same canonical order.
    """
    prepared = []
    built: dict[tuple[sp.Expr, Fraction | int], sp.Expr] = {}
    for poly in polynomials:
        constant = poly.get(ONE, 0)
        terms = []
        for unit, c in poly.items():
            if c and unit is not ONE:
                term = built.get((unit, c))
                terms.append(term if term is not None else
                             built.setdefault((unit, c), scaled(c, unit)))
        prepared.append((constant, terms))
    distinct = list({t for _, terms in prepared for t in terms})
    _addsort(distinct)
    rank = {t: k for k, t in enumerate(distinct)}
    sums = []
    for constant, terms in prepared:
        terms.sort(key=rank.__getitem__)
        if constant:
            terms.insert(0, rational(constant))
        sums.append(sp.Add._from_args(terms, True) if terms else sp.S.Zero)
    return sums


def collect(terms: Iterable[tuple[Fraction | int, sp.Expr]]) -> Polynomial:
    """Sum (coefficient, unit) pairs by unit."""
    poly: Polynomial = {}
    for c, unit in terms:
        poly[unit] = poly.get(unit, 0) + c
    return poly


def times_inverse(x: sp.Expr, inverse: sp.Expr) -> sp.Expr:
    """sp.Mul(x, inverse) for x = c·e (c an optional rational, e a product of exps and of
    integers to irrational powers such as 6^(√2/2)) or a rational c, without Mul.flatten: the
    factors only need Mul's canonical order (nothing in them combines with 1/(sum))."""
    coefficient, factors = (x.args[0], list(x.args[1:])) if x.is_Mul and x.args[0].is_Rational \
        else (sp.S.One, list(sp.Mul.make_args(x)))
    if not all(isinstance(f, sp.exp) or irrational_power(f) for f in factors):
        return sp.Mul(x, inverse)
    return ordered_product([*factors, inverse], coefficient)


def ordered_product(factors: list[sp.Expr], coefficient: sp.Expr = sp.S.One) -> sp.Expr:
    """sp.Mul(coefficient, *factors) for factors that Mul would only put in order (no two
    combine, none with the rational coefficient): sorted as Mul sorts them, without flatten."""
    factors = list(factors)
    _mulsort(factors)
    if coefficient is not sp.S.One:
        factors.insert(0, coefficient)
    return factors[0] if len(factors) == 1 else sp.Mul._from_args(factors, True)


def ordered_sum(terms: list[sp.Expr], number: sp.Expr | None = None) -> sp.Expr:
    """sp.Add(number, *terms) for terms that Add would only put in order (no two alike, no
    number among them): sorted as Add sorts them, the number first, without flatten."""
    terms = list(terms)
    _addsort(terms)
    if number is not None and number != 0:
        terms.insert(0, number)
    return terms[0] if len(terms) == 1 else sp.Add._from_args(terms, True)


def tail_product(factors: tuple[sp.Expr, ...]) -> sp.Expr:
    """The product of a Mul's trailing args (already in Mul's order) as Mul holds it, without
    flatten: the key to look the product up by (2 e^{x} -> e^{x})."""
    return sp.Mul._from_args(factors)


def irrational_power(x: sp.Expr) -> bool:
    """n^c for an integer n > 1 and an irrational c (Mul leaves it as it is beside others)."""
    return x.is_Pow and x.base.is_Integer and x.base > 1 and not x.exp.is_Rational


def plain_unit(term: tuple[Fraction | int, sp.Expr] | None) -> bool:
    """True when a rational times this term's unit is collected exactly as Add and Mul do:
    no rational power of a number inside, which Mul would merge with the rational coefficient
    (2^(1/3)·3/2 is 3·2^(1/3)/2, but 6^(√2/2)·3/2 stays as it is)."""
    return term is not None and not any(
        f.is_Pow and f.base.is_Number and f.exp.is_Rational for f in sp.Mul.make_args(term[1]))


def immutable_matrix(rows: int, cols: int, flat: list[sp.Expr]) -> sp.ImmutableMatrix:
    """ImmutableMatrix(rows, cols, flat) for SymPy entries, without re-sympifying them or
    comparing each with 0 through sympify (what the constructor does, at 1-2 µs an entry)."""
    build = getattr(sp.ImmutableMatrix, "_dod_to_DomainMatrix", None)
    if build is None:  # another SymPy version: the public constructor
        return sp.ImmutableMatrix._new(rows, cols, flat, copy=False)
    nonzero: dict[int, dict[int, sp.Expr]] = {}
    for k, x in enumerate(flat):
        if not is_zero_number(x):
            i, j = divmod(k, cols)
            nonzero.setdefault(i, {})[j] = x
    return sp.ImmutableMatrix._fromrep(build(rows, cols, nonzero, set(map(type, flat))))


def is_zero_number(x: sp.Expr) -> bool:
    """Exactly the number 0 (no assumption is asked)."""
    return x is sp.S.Zero or (x.is_Number and x == 0)
