"""sp.exp(argument) for the pipeline's logits, without exp.eval's assumption queries.

exp.eval pulls a single log factor out of each term (exp(sqrt(2) ln 7 / 4) = 7^(sqrt(2)/4)),
and decides which factors are "comparable" by evaluating them numerically and asks logcombine,
which consults SymPy's assumptions: most of the exact computation on logarithm and root inputs.
For terms made of rationals, integer roots, pi, E, logs of integers and their integer powers,
the answer is read off the term's form here, following exp.eval step by step; any other
argument goes to sp.exp itself. tests/test_family_results.py compares the two on every input family.
"""

from __future__ import annotations

import sympy as sp

from .sympy_fast import irrational_power, ordered_product

STAY = object()  # exp(term) stays an exp
UNKNOWN = object()  # not a form read here: let sp.exp decide


def exp_eval(argument: sp.Expr) -> sp.Expr:
    """Exactly what sp.exp(argument) returns."""
    if argument.is_Add:
        out, add = [], []
        for term in argument.args:
            if term is sp.S.One:
                add.append(term)
                continue
            value = _term(term)
            if value is UNKNOWN:
                return sp.exp(argument)
            if value is STAY:
                add.append(term)
            else:
                out.append(value)
        if out:
            rest = sp.Add(*add)
            return _product(out, None if not add else sp.E if rest is sp.S.One else
                            sp.exp(rest, evaluate=False))
        return sp.exp(argument, evaluate=False)
    value = _term(argument)
    if value is UNKNOWN:
        return sp.exp(argument)
    return sp.exp(argument, evaluate=False) if value is STAY else value


def _product(powers: list[sp.Expr], exponential: sp.Expr | None) -> sp.Expr:
    """Mul(*powers) * exponential as Mul.flatten builds it, without flatten's assumption queries
    and its re-evaluation of exp: powers n^c of integers n > 1 with irrational exponents c are
    merged by exponent (2^c 3^c = 6^c) and put in Mul's canonical order; other powers go to Mul."""
    if not all(irrational_power(x) for x in powers):
        return sp.Mul(*powers) * (exponential if exponential is not None else 1)
    bases: dict[sp.Expr, int] = {}
    for power in powers:
        bases[power.exp] = bases.get(power.exp, 1) * int(power.base)
    factors = [sp.Pow(sp.Integer(base), exponent) for exponent, base in bases.items()]
    return ordered_product(factors + ([exponential] if exponential is not None else []))


def stays(term: sp.Expr) -> bool:
    """Whether sp.exp(term) is exp(term) itself, for a term that is not an Add (read, not asked:
    False where the form is not one read here)."""
    return term is not sp.S.One and _term(term) is STAY


def _term(term: sp.Expr) -> object:
    """SymPy's exp evaluation of a term that is not an Add: STAY, its value, or UNKNOWN."""
    if term.is_Rational:
        return STAY if term not in (0, 1) else UNKNOWN
    if term.is_Mul:
        coeff, rest = term.as_coeff_Mul()
        if not coeff.is_Rational:
            return UNKNOWN
        coeffs, log_term = [coeff], None
        for factor in sp.Mul.make_args(rest):
            if _integer_log(factor):
                if log_term is not None:
                    return STAY  # two log factors: exp.eval returns None
                log_term = factor.args[0]
            elif _real_constant(factor):
                coeffs.append(factor)
            elif _symbol_power(factor):
                return STAY  # not comparable: exp.eval returns None
            else:
                return UNKNOWN
        return log_term ** sp.Mul(*coeffs) if log_term is not None else STAY
    if _real_constant(term) or _symbol_power(term):
        return STAY  # exp.eval has nothing to do for a power, pi, E or a symbol
    return UNKNOWN


def _symbol_power(x: sp.Expr) -> bool:
    """A symbol, or a symbol to a rational power (1/tau)."""
    return x.is_Symbol or (x.is_Pow and x.base.is_Symbol and x.exp.is_Rational)


def _integer_log(x: sp.Expr) -> bool:
    return isinstance(x, sp.log) and x.args[0].is_Integer and x.args[0] > 1


def _real_constant(x: sp.Expr) -> bool:
    """A real number whose logcombine is itself and that is comparable: pi, E, n^(p/q) with
    n > 0, ln(n)^k with an integer k > 1."""
    if x is sp.pi or x is sp.E:
        return True
    if not x.is_Pow:
        return False
    if x.base.is_Integer:
        return x.base > 0 and x.exp.is_Rational
    return _integer_log(x.base) and x.exp.is_Integer and x.exp > 1
