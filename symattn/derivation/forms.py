"""Display forms a textbook uses: 1/√2 (not √2/2), 2/√3, and powers of integers (2^{1/t},
3^{20/17}) where SymPy writes e^{ln 2/t} or 3·3^{3/17}. The values stay equal; only the form
changes, and these forms are built unevaluated so SymPy does not undo them."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import sympy as sp

from ..exact.sympy_fast import immutable_matrix


def over_root(r: sp.Expr, d: int) -> sp.Expr:
    """A raw score r divided by √d as the course writes it: 1/√2, 2/√3, 2 ln 3/√2 (√4 = 2
    divides as usual)."""
    root = sp.sqrt(d)
    if r == 0 or root.is_Rational or any(a.is_Pow and a.exp.is_Rational and not a.exp.is_Integer
                                         for a in sp.preorder_traversal(r)):
        return radicals(r / root)  # √3/2 divided by √3 is 1/2; (1/2 + √3)/√2 is (√2 + 2√6)/4
    if r.is_Rational:
        p, q = sp.Integer(r.p), sp.Integer(r.q)
        inverse = sp.Pow(root if q == 1 else sp.Mul(q, root, evaluate=False), -1, evaluate=False)
        return inverse if p == 1 else -inverse if p == -1 else sp.Mul(p, inverse, evaluate=False)
    c, rest = r.as_coeff_Mul()
    if r.is_Mul and c.is_Rational and c < 0:  # −ln 5/√2, not (−1) ln 5/√2: the sign outside
        return -over_root(-r, d)
    if r.is_Mul and c.is_Rational and c.q != 1:  # ln 5/(2√2), not (ln 5/2)/√2
        below = sp.Mul(sp.Integer(c.q), root, evaluate=False)
        return sp.Mul(c.p * rest, sp.Pow(below, -1, evaluate=False), evaluate=False)
    return sp.Mul(r, sp.Pow(root, -1, evaluate=False), evaluate=False)


def integer_powers(expr: sp.Basic) -> sp.Basic:
    """e^{c ln n + b} written n^c e^b, and n^k · n^r written n^{k+r}, everywhere in expr."""
    if isinstance(expr, sp.MatrixBase):
        return immutable_matrix(expr.rows, expr.cols,
                                [_powers(x) for row in expr.tolist() for x in row])
    return _powers(expr)


@lru_cache(maxsize=1 << 15)
def _powers(expr: sp.Basic) -> sp.Basic:
    """integer_powers of one expression, memoized: a row's shared sum recurs in every entry."""
    if expr.is_Atom or not expr.args:
        return expr
    if isinstance(expr, sp.exp):
        powers = _exp_as_powers(expr.args[0])
        return expr if powers is None else powers
    args = [_powers(a) for a in expr.args]
    same = all(a is b for a, b in zip(args, expr.args))
    if expr.is_Mul and not (same and not _mergeable(args)):
        return _merged_powers(args)
    if same:
        return expr
    return expr.func(*args, evaluate=False) if expr.is_Add or expr.is_Pow else expr.func(*args)


def _exp_as_powers(argument: sp.Expr) -> sp.Expr | None:
    """e^{c ln n + b} as n^c e^b; None when the exponent holds no c ln n."""
    if not argument.has(sp.log):
        return None
    powers, rest = [], []
    terms = sp.Add.make_args(argument)
    if not all(_expands_to_itself(t) for t in terms):
        terms = sp.Add.make_args(sp.expand(argument))
    for term in terms:
        logs = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.log) and f.args[0].is_Integer
                and f.args[0] > 1]
        if len(logs) == 1:
            powers.append(sp.Pow(logs[0].args[0], term / logs[0], evaluate=False))
        else:
            rest.append(term)
    if not powers:
        return None
    factors = powers + ([sp.exp(sp.Add(*rest))] if rest else [])
    return _merged_powers(factors)


@lru_cache(maxsize=1 << 14)
def _expands_to_itself(term: sp.Expr) -> bool:
    """Whether sp.expand leaves a term of an exponent as it is (asked once per term: the
    exponents of a row share their terms), so that the exponent need not be expanded."""
    return sp.expand(term) == term


def _mergeable(factors: tuple[sp.Expr, ...] | list[sp.Expr]) -> bool:
    """Whether _merged_powers could change the product: an integer beside a power of an integer."""
    return any(f.is_Integer for f in factors) and any(
        f.is_Pow and f.base.is_Integer and f.exp.is_Rational for f in factors)


def _merged_powers(factors: list[sp.Expr]) -> sp.Expr:
    """A product with an integer power of a base it is a multiple of merged: 3 · 3^{3/17} =
    3^{20/17} (a root stays a root: 3√3, not 3^{3/2}); any other product as SymPy writes it."""
    coefficient = sp.Integer(1)
    bases: dict[sp.Integer, sp.Expr] = {}
    others = []
    for f in factors:
        if f.is_Integer:
            coefficient *= f
        elif f.is_Pow and f.base.is_Integer and f.base > 1 and f.exp.is_Rational and f.exp.q > 2:
            bases[f.base] = bases.get(f.base, 0) + f.exp
        else:
            others.append(f)
    merged = False
    for base in bases:
        while coefficient != 0 and coefficient % base == 0:
            coefficient, bases[base] = coefficient / base, bases[base] + 1
            merged = True
    if not merged:
        return sp.Mul(*factors)
    powers = [sp.Pow(b, e, evaluate=False) for b, e in bases.items()]
    head = [] if coefficient == 1 else [coefficient]
    factors = head + powers + others
    return factors[0] if len(factors) == 1 else sp.Mul(*factors, evaluate=False)


def joined_logs(expr: sp.Basic) -> sp.Basic:
    """Logarithms of primes joined as a book writes them: 2 ln 3 + ln 11 as ln 99, −ln 11 −
    2 ln 3 as −ln 99, ln 3 − ln 2 − ln 5 as ln(3/10), everywhere in expr (the parser reduces
    logarithms to primes so that exponentials collapse; the value is the same)."""
    return _everywhere(expr, _joined)


def _everywhere(expr: sp.Basic, one: Callable[[sp.Basic], sp.Basic]) -> sp.Basic:
    """one applied to an expression, or to every entry of a matrix."""
    if isinstance(expr, sp.MatrixBase):
        return immutable_matrix(expr.rows, expr.cols, [one(x) for row in expr.tolist() for x in row])
    return one(expr)


@lru_cache(maxsize=1 << 15)
def _joined(expr: sp.Basic) -> sp.Basic:
    """joined_logs of one expression, memoized (a row's sum recurs in every entry)."""
    if expr.is_Atom or not expr.args:
        return expr
    args = [_joined(a) for a in expr.args]
    if expr.is_Add:
        logs = [_log_term(a) for a in args]
        if sum(t is not None for t in logs) > 1:
            rest = [a for a, t in zip(args, logs) if t is None]
            return sp.Add(*rest, _one_log([t for t in logs if t is not None]))
    if all(a is b for a, b in zip(args, expr.args)):
        return expr
    return expr.func(*args)


def _log_term(term: sp.Expr) -> tuple[sp.Rational, sp.Integer] | None:
    """(c, n) for a term c·ln n (c rational, n a positive integer); None for any other."""
    c, rest = term.as_coeff_Mul()
    if isinstance(rest, sp.log) and rest.args[0].is_Integer and rest.args[0] > 1 and c.is_Rational:
        return sp.Rational(c), rest.args[0]
    return None


def _one_log(terms: list[tuple[sp.Rational, sp.Integer]]) -> sp.Expr:
    """Σ c_i ln n_i as g · ln N: g the common rational factor of the c_i (negative when all
    are), N = Π n_i^(c_i/g)."""
    g = sp.Rational(sp.igcd(*[c.p for c, _ in terms]), sp.ilcm(*[c.q for c, _ in terms]))
    if all(c < 0 for c, _ in terms):
        g = -g
    argument = sp.Integer(1)
    for c, n in terms:
        argument *= n ** (c / g)
    return sp.S.Zero if argument == 1 else g * sp.log(argument)


def radicals(expr: sp.Basic) -> sp.Basic:
    """A radical times a sum of radicals as a book writes it, expanded over one denominator when
    that is no longer: √2(1/2 + √3/2)/2 as (√2 + √6)/4, √2(−ln 5 + √2 ln 5/2 + √6 ln 5/2)/2 as
    (1 − √2 + √3) ln 5/2, everywhere in expr (SymPy keeps the product; the value is the same)."""
    return _everywhere(expr, _radicals)


@lru_cache(maxsize=1 << 15)
def _radicals(expr: sp.Basic) -> sp.Basic:
    """radicals of one expression, memoized (a row's sum recurs in every entry)."""
    if expr.is_Atom or not expr.args:
        return expr
    args = [_radicals(a) for a in expr.args]
    if not all(a is b for a, b in zip(args, expr.args)):
        expr = expr.func(*args)
    if not (expr.is_Mul and expr.is_number and not expr.has(sp.exp) and
            any(f.is_Add and _has_root(f) for f in expr.args) and
            any(not f.is_Add and (f.is_Rational or _has_root(f)) for f in expr.args)):
        return expr
    expanded = sp.together(sp.expand(expr))
    return expanded if len(sp.sstr(expanded)) <= len(sp.sstr(expr)) else expr


def _has_root(x: sp.Expr) -> bool:
    """Whether x holds a root of a rational number (√3, 2^{1/3})."""
    return any(a.is_Pow and a.base.is_Rational and a.exp.is_Rational and not a.exp.is_Integer
               for a in sp.preorder_traversal(x))
