"""Signs read off an expression's form: a weight is positive when it is built from positive
numbers, exp of real arguments, and sums, products and powers of positive parts. No SymPy
assumption is asked except a declared symbol's own (a cheap lookup)."""

from __future__ import annotations

import sympy as sp


class Signs:
    """Memoizing proofs of `positive` and `real` by form; False means "not proved", never
    "negative". One per check: the weights of a row share their denominator."""

    def __init__(self) -> None:
        self._positive: dict[sp.Basic, bool] = {}
        self._real: dict[sp.Basic, bool] = {}

    def nonnegative(self, x: sp.Expr) -> bool:
        """x >= 0 proved from its form (exactly 0, or positive)."""
        return x is sp.S.Zero or self.positive(x)

    def positive(self, x: sp.Expr) -> bool:
        known = self._positive.get(x)
        if known is None:
            known = self._positive[x] = self._prove_positive(x)
        return known

    def real(self, x: sp.Expr) -> bool:
        known = self._real.get(x)
        if known is None:
            known = self._real[x] = self._prove_real(x)
        return known

    def _prove_positive(self, x: sp.Expr) -> bool:
        if x.is_Rational:
            return x > 0
        if x.is_Symbol:
            return x.is_positive is True  # declared "positive"
        if x is sp.E or x is sp.pi:
            return True
        if isinstance(x, sp.exp):
            return self.real(x.args[0])
        if isinstance(x, sp.log):
            return x.args[0].is_Rational and x.args[0] > 1
        if x.is_Add or x.is_Mul:
            return all(self.positive(a) for a in x.args)
        if x.is_Pow:
            return self.positive(x.base) and self.real(x.exp)
        return False

    def _prove_real(self, x: sp.Expr) -> bool:
        if x.is_Rational:
            return True
        if x.is_Symbol:
            return x.is_real is True  # declared "real" or "positive"
        if x is sp.E or x is sp.pi:
            return True
        if isinstance(x, sp.exp):
            return self.real(x.args[0])
        if isinstance(x, sp.log):
            return self.positive(x.args[0])
        if x.is_Add or x.is_Mul:
            return all(self.real(a) for a in x.args)
        if x.is_Pow:
            if x.exp.is_Integer and x.exp > 0:
                return self.real(x.base)
            return self.positive(x.base) and self.real(x.exp)
        return False
