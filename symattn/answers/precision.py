"""Agreement to float32 or float64 precision, and numpy's allclose: how far from the exact value
a decimal printed by a correct float computation may be.

A decimal d written to k places (h: half a unit of its last digit) agrees with the exact value
x to the precision of a float format of unit roundoff u (2^-24, 2^-53) when

    |d - x| <= h + ROUNDINGS·u·size(x) + tiny          (tiny: the smallest normal float)

where size(x) is the size of what x is computed from, since rounding errors scale with it:
a weight A_ij: λ_ij·A_ij, with λ_ij = 1 + |L_ij| + 2|m_i| (m_i the row's largest logit: each
logit is rounded relative to its size, and exp turns a logit's absolute error into the weight's
relative error); an output O_ic: Σ_j λ_ij·A_ij·|V_jc| (a sum that cancels keeps its terms'
errors); concat: its head's output; MHA(X)_ic: Σ_k size(C_ik)·|W_O,kc|; anything else |x|.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import mpmath
import sympy as sp

from ..model import Facts, Grading
from .book import engine_facts
from ..numeric import PrecisionError, context, to_mpf


@dataclass(frozen=True)
class Float:
    """A float format: its unit roundoff and its smallest normal number."""

    unit: sp.Rational
    tiny: sp.Rational


FLOATS = {"float32": Float(sp.Rational(1, 2 ** 24), sp.Rational(1, 2 ** 126)),
          "float64": Float(sp.Rational(1, 2 ** 53), sp.Rational(1, 2 ** 1022))}
ROUNDINGS = 32
"""Units of rounding allowed: about five times the largest error measured (6.8 u·size) in
float32 and float64 attention by PyTorch (softmax, scaled_dot_product_attention) and NumPy,
over 150 000 entries of random problems (docs/answers.md)."""
CTX = context(40)
Size = Callable[[], mpmath.mpf]


def number(x: sp.Expr) -> mpmath.mpf:
    """The value at 40 digits."""
    return to_mpf(CTX, x, {})


class Sizes:
    """The size of what each entry of the facts' stages is computed from, each row once."""

    def __init__(self, facts: Facts) -> None:
        self.columns = facts.columns  # a columns book's facts: its (row, column) is (j, i)
        self.matrices = engine_facts(facts).matrices or {}
        self._memo: dict[tuple[str, int], list[mpmath.mpf]] = {}

    def of(self, name: str, position: tuple[int, int] | None, expected: sp.Expr) -> mpmath.mpf:
        """size(x) of the entry at position (0-based) of the stage `name`, else |x|."""
        try:
            if position is not None:
                found = self._structured(name, *(position[::-1] if self.columns else position))
                if found is not None:
                    return found
        except (KeyError, IndexError, ValueError, PrecisionError):
            pass
        return abs(number(expected))

    def _structured(self, name: str, i: int, j: int) -> mpmath.mpf | None:
        head, _, stage = name.rpartition(".")
        prefix = f"{head}." if head else ""
        if name == "concat":
            h = 1
            while f"heads[{h}].O" in self.matrices:
                cols = self.matrices[f"heads[{h}].O"].cols
                if j < cols:
                    return self._output(f"heads[{h}].", i, j)
                j, h = j - cols, h + 1
            return None
        if name == "O" and "W_O" in self.matrices:
            W_O = self.matrices["W_O"]
            parts = [self._structured("concat", i, k) for k in range(W_O.rows)]
            if any(part is None for part in parts):
                return None
            return CTX.fsum(part * abs(number(W_O[k, j])) for k, part in enumerate(parts))
        if stage == "A" and prefix + "L" in self.matrices:
            return self._weights(prefix, i)[j]
        if stage == "O" and prefix + "L" in self.matrices:
            return self._output(prefix, i, j)
        return None

    def _weights(self, prefix: str, i: int) -> list[mpmath.mpf]:
        """λ_ij·A_ij along row i (a masked logit counts as 0: its weight is 0, or a policy's
        for a row that reads no key)."""
        if (prefix, i) not in self._memo:
            L, A = self.matrices[prefix + "L"], self.matrices[prefix + "A"]
            logits = [number(L[i, j]) for j in range(L.cols)]
            top = abs(max((x for x in logits if CTX.isfinite(x)), default=CTX.zero))
            logits = [x if CTX.isfinite(x) else CTX.zero for x in logits]
            self._memo[prefix, i] = [(1 + abs(x) + 2 * top) * abs(number(A[i, j]))
                                     for j, x in enumerate(logits)]
        return self._memo[prefix, i]

    def _output(self, prefix: str, i: int, c: int) -> mpmath.mpf:
        V = self.matrices[prefix + "V"]
        return CTX.fsum(w * abs(number(V[j, c])) for j, w in enumerate(self._weights(prefix, i)))


def within_float(kind: str, expected: sp.Expr, value: sp.Expr, slack: sp.Rational,
                 size: Size) -> bool | None:
    """Whether |value - expected| <= slack + ROUNDINGS·u·size + tiny in the format `kind`
    (None: the values cannot be evaluated to tell)."""
    form = FLOATS[kind]
    try:
        difference = abs(number(value - expected))
        return difference <= number(slack + form.tiny) + ROUNDINGS * number(form.unit) * size()
    except (ValueError, PrecisionError):
        return None


def within_allclose(expected: sp.Expr, value: sp.Expr, rtol: sp.Expr, atol: sp.Expr
                    ) -> bool | None:
    """numpy.allclose's test against the exact value: |value - expected| <= atol + rtol·|expected|
    (None: the values cannot be evaluated to tell)."""
    try:
        return abs(number(value - expected)) <= number(atol) + number(rtol) * abs(number(expected))
    except (ValueError, PrecisionError):
        return None


def allowance(kind: str, size: Size) -> sp.Rational:
    """How far a float computation of `kind` may stray from the exact value (bounded above)."""
    form = FLOATS[kind]
    return upper(ROUNDINGS * number(form.unit) * size() + number(form.tiny))


def rule_bound(grading: Grading, expected: sp.Expr, size: Size) -> sp.Rational:
    """How far beyond its own rounding a decimal may be from the exact value under the rule
    (an upper bound; 0 without one, or when the values cannot be evaluated): what
    impossible.py counts a decimal as."""
    try:
        return _bound(grading, expected, size)
    except (ValueError, PrecisionError):
        return sp.S.Zero


def _bound(grading: Grading, expected: sp.Expr, size: Size) -> sp.Rational:
    if grading.rule in FLOATS:
        return allowance(grading.rule, size)
    if grading.tolerance is not None:
        return upper(number(grading.tolerance))
    scale = abs(number(expected))
    if grading.relative is not None:
        return upper(number(grading.relative) * scale)
    if grading.rtol is not None and grading.atol is not None:
        return upper(number(grading.atol) + number(grading.rtol) * scale)
    return sp.S.Zero


def upper(bound: mpmath.mpf) -> sp.Rational:
    """A short rational at least `bound` (two significant figures, rounded up), so that the
    exact tests in impossible.py stay cheap."""
    if not bound:
        return sp.S.Zero
    power = int(CTX.floor(CTX.log10(bound))) - 1
    return sp.Rational(int(CTX.ceil(bound / CTX.mpf(10) ** power))) * sp.Rational(10) ** power


def written_number(x: sp.Expr) -> str:
    """A rule's number as NumPy writes it: 1e-05, 1e-08, 0.001."""
    return repr(float(number(x)))


def off(expected: sp.Expr, value: sp.Expr) -> tuple[str, str]:
    """How far value is from expected, one significant figure: ("off_relative", "3e-8"), or
    ("off_absolute", "2e-9") from an exact 0."""
    difference = abs(number(value - expected))
    size = abs(number(expected))
    if not size:
        return ("off_absolute", short(difference))
    return ("off_relative", short(difference / size))


def short(x: mpmath.mpf) -> str:
    """A positive number to one significant figure: 3e-8, 0.002, 0.4, 7, 2e3 (0 as 0)."""
    if not x:
        return "0"
    power = int(CTX.floor(CTX.log10(x)))
    digit = int(CTX.nint(x / CTX.mpf(10) ** power))
    if digit == 10:  # 9.6 rounds up to 10
        digit, power = 1, power + 1
    if -3 <= power < 0:
        return "0." + "0" * (-power - 1) + str(digit)
    return str(digit) if power == 0 else f"{digit}e{power}"


def agreement(expected: sp.Expr, value: sp.Expr, slack: sp.Rational, size: Size,
              kinds: tuple[str, ...] = ("float64", "float32")) -> tuple[object, ...] | None:
    """("hint_float", "float64" or "float32", off) for a decimal that agrees with the exact
    value to that precision (the finer first), else None."""
    for kind in kinds:
        if within_float(kind, expected, value, slack, size):
            return ("hint_float", kind, off(expected, value))
    return None
