"""Cost gates: every value is built by one of these, refused before SymPy does anything costly.

Gates on what SymPy computes use exact values; a 30-digit approximation only sizes values that
SymPy keeps symbolic. Zero and sign decisions are exact: a value SymPy cannot tell from zero is
refused, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Mapping

import mpmath
import sympy as sp

from ..errors import InputError
from ..limits import (
    MAX_DECIMAL_EXPONENT,
    MAX_DIGITS,
    MAX_EXP_ARGUMENT,
    MAX_EXP_NESTING,
    MAX_POWER_BITS,
    MAX_ROOT_BITS,
    MAX_ROOT_DENOMINATOR,
    MAX_SYMBOLIC_POWER,
    MAX_TRIG_ARGUMENT,
)
from .primes import log_reduced
from .tokens import NUMBER, Token

APPROX = mpmath.MPContext()
APPROX.dps = 30
_CANCELLED = APPROX.mpf(2) ** -40  # a result this small relative to its inputs lost its digits


@dataclass(frozen=True, slots=True)
class Value:
    """A parsed value with a cheap approximation used by the cost gates (None if symbolic)."""

    expr: sp.Expr
    approx: mpmath.mpf | None
    exp_depth: int = 0



def number(token: Token, max_exponent: int = MAX_DECIMAL_EXPONENT) -> Value:
    """An exact decimal literal: 0.85 -> 17/20, 2e-3 -> 1/500."""
    match = NUMBER.fullmatch(token.text)
    assert match is not None
    mantissa, exponent_text = match.group(1), match.group(2)
    digits = mantissa.replace(".", "")
    if len(digits) > MAX_DIGITS:
        raise InputError(f"number has more than {MAX_DIGITS} digits", column=token.column)
    exponent = int(exponent_text[1:]) if exponent_text else 0
    if abs(exponent) > max_exponent:
        raise InputError(f"decimal exponent beyond ±{max_exponent}", column=token.column)
    fraction_digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
    value = sp.Rational(int(digits)) * sp.Rational(10) ** (exponent - fraction_digits)
    return Value(value, APPROX.mpf(value.p) / value.q)


def combine(op: Token, left: Value, right: Value) -> Value:
    """Apply + - * / with the division-by-zero gate."""
    a, b = left.approx, right.approx
    depth = max(left.exp_depth, right.exp_depth)
    if op.text in ("+", "-"):
        total = left.expr + right.expr if op.text == "+" else left.expr - right.expr
        if a is None or b is None:
            return _checked(total, None, depth, op.column)
        approx = a + b if op.text == "+" else a - b
        scale = max(abs(a), abs(b))
        if abs(approx) <= scale * _CANCELLED:  # cancelled: only SymPy can tell if it is zero
            zero = total.is_zero
            if zero is None:
                raise InputError("cannot tell whether this sum is zero; simplify it",
                                 column=op.column)
            total = sp.S.Zero if zero else total
        return _checked(total, approx, depth, op.column, scale)
    if _root_bits(left.expr) + _root_bits(right.expr) > MAX_ROOT_BITS:
        raise InputError(f"product of roots or logs of numbers beyond {MAX_ROOT_BITS} bits",
                         column=op.column)
    if op.text == "*":
        return _checked(left.expr * right.expr, a * b if a is not None and b is not None else None,
                        depth, op.column)
    _refuse_zero_divisor(right, op.column)
    return _checked(left.expr / right.expr, a / b if a is not None and b is not None else None,
                    depth, op.column)


def _refuse_zero_divisor(divisor: Value, column: int) -> None:
    if divisor.expr.is_zero:
        raise InputError("division by zero", column=column, code="read_division_by_zero")
    if divisor.expr.is_zero is None and not divisor.expr.free_symbols:
        raise InputError("division by a value that is zero or too close to zero to tell",
                         column=column)


def _sign(value: Value, what: str, column: int) -> int:
    """-1, 0 or 1 for a value without symbols, as SymPy proves it; refused if it cannot tell."""
    if value.expr.is_zero:
        return 0
    if value.expr.is_positive:
        return 1
    if value.expr.is_negative:
        return -1
    raise InputError(f"cannot tell whether {what} is zero, positive or negative",
                     column=column)


def _approximate(expr: sp.Expr, column: int) -> mpmath.mpf:
    """A fresh approximation by SymPy's evalf, which tracks precision through cancellation."""
    value = expr.evalf(APPROX.dps)
    if not value.is_Float or value.is_zero or value._prec <= 1:
        raise InputError("cannot tell whether this value is zero; simplify it", column=column)
    return APPROX.mpf(value._mpf_)


def _bits(value: sp.Rational) -> int:
    return max(int(value.p).bit_length(), int(value.q).bit_length())


def _root_bits(expr: sp.Expr) -> int:
    """Bits of the rationals that SymPy factors when this value meets a root, a product or exp:
    bases of fractional powers, and the rationals inside logs (exp(c*log(m)) becomes m**c)."""
    total = 0
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Pow) and node.base.is_Rational and not node.exp.is_Integer:
            total += _bits(node.base)
        elif isinstance(node, sp.log):
            total += sum(_bits(r) for r in node.args[0].atoms(sp.Rational))
    return total


def _refuse_costly_power(base: sp.Expr, exponent: sp.Expr, column: int,
                         approx: mpmath.mpf | None = None) -> None:
    """Refuse base**exponent when SymPy would compute a huge number, from exact values.

    SymPy evaluates a rational power of the rational part of the base: the bits of that
    result, and the bits it factors for a root, are bounded. An irrational exponent is sized by
    its approximation (SymPy keeps that power symbolic).
    """
    magnitude = abs(exponent) if exponent.is_Rational else None if approx is None else abs(approx)
    if magnitude is None:
        return
    size = 0
    for factor in sp.Mul.make_args(base):
        if factor.is_Rational and abs(factor) not in (0, 1):
            size += _bits(factor)
        elif isinstance(factor, sp.Pow) and factor.base.is_Rational and factor.exp.is_Rational:
            size += abs(factor.exp) * _bits(factor.base)
    bits = magnitude * size
    if bits > MAX_POWER_BITS:
        raise InputError(f"power too large (about {int(bits)} bits; limit {MAX_POWER_BITS})",
                         column=column)
    if exponent.is_Rational and not exponent.is_Integer:
        rational_part = sum(_bits(f) for f in sp.Mul.make_args(base) if f.is_Rational)
        if rational_part + _root_bits(base) > MAX_ROOT_BITS:
            raise InputError(f"root of a number beyond {MAX_ROOT_BITS} bits", column=column)


def gated_power(base: Value, exponent: Value, column: int) -> Value:
    """base ** exponent, refused before evaluation when the result would be huge."""
    if base.expr is sp.E:
        return _exp(exponent, column)
    depth = max(base.exp_depth, exponent.exp_depth)
    b, e = base.approx, exponent.approx
    if b is None or e is None:
        return _symbolic_power(base, exponent, depth, column)
    n = exponent.expr
    if not (n.is_Integer and n > 0):
        sign = _sign(base, "the base", column)
        if sign == 0 and n.is_positive is not True:
            raise InputError("zero raised to a non-positive power", column=column,
                             code="read_not_real")
        if sign < 0 and not n.is_Integer:
            raise InputError("a negative number raised to a non-integer power is not real",
                             column=column, code="read_not_real")
        if sign != APPROX.sign(b):
            b = _approximate(base.expr, column)
    if n.is_Rational and not n.is_Integer and n.q > MAX_ROOT_DENOMINATOR:
        raise InputError(f"root of degree beyond {MAX_ROOT_DENOMINATOR}", column=column)
    if not base.expr.is_Rational and abs(n if n.is_Rational else e) > MAX_SYMBOLIC_POWER:
        raise InputError(f"power of an irrational value beyond {MAX_SYMBOLIC_POWER}",
                         column=column)
    _refuse_costly_power(base.expr, n, column, e)
    return _checked(base.expr ** n, b ** e, depth, column)


def _symbolic_power(base: Value, exponent: Value, depth: int, column: int) -> Value:
    """Powers that involve a declared symbol: small integer exponents, or a positive base."""
    n = exponent.expr
    _refuse_costly_power(base.expr, n, column, exponent.approx)
    if n.is_Integer:
        if abs(int(n)) > MAX_SYMBOLIC_POWER:
            raise InputError(f"power of a symbolic value beyond {MAX_SYMBOLIC_POWER}",
                             column=column)
    elif exponent.approx is None and base.approx is None:
        raise InputError("a symbol raised to a symbolic power is not supported", column=column)
    elif not base.expr.is_positive:
        raise InputError("a non-integer power needs a base known to be positive "
                         "(declare the symbol \"positive\")", column=column)
    if base.expr.is_zero and n.is_nonpositive is not False:
        raise InputError("zero raised to a power that may be non-positive", column=column)
    return _checked(base.expr ** n, None, depth, column)


def _exp(argument: Value, column: int) -> Value:
    if argument.exp_depth >= MAX_EXP_NESTING:
        raise InputError(f"exp nested more than {MAX_EXP_NESTING} deep", column=column)
    if argument.approx is not None and abs(argument.approx) > MAX_EXP_ARGUMENT:
        raise InputError(f"exp argument too large (limit {MAX_EXP_ARGUMENT})", column=column)
    if _root_bits(argument.expr) > MAX_ROOT_BITS:
        raise InputError(f"exp of logs of numbers beyond {MAX_ROOT_BITS} bits", column=column)
    for term in sp.Add.make_args(argument.expr):  # SymPy turns exp(c*log(m)) into m**c
        coefficient, rest = term.as_coeff_Mul()
        if isinstance(rest, sp.log):
            _refuse_costly_power(rest.args[0], coefficient, column)
    approx = None if argument.approx is None else APPROX.exp(argument.approx)
    return _checked(sp.exp(argument.expr), approx, argument.exp_depth + 1, column)


def _log(argument: Value, column: int) -> Value:
    if argument.expr.free_symbols:
        sign = 0 if argument.expr.is_zero else -1 if argument.expr.is_negative else 1
    else:
        sign = _sign(argument, "the argument of ln", column)
    if sign == 0:
        raise InputError("ln(0) is minus infinity; write '-oo' in a mask entry instead",
                         column=column, code="read_not_real")
    if sign < 0:
        raise InputError("ln of a negative number is not real", column=column,
                         code="read_not_real")
    if argument.expr.is_positive is not True:
        raise InputError('ln needs an argument known to be positive (declare the symbol '
                         '"positive")', column=column)
    value = log_reduced(argument.expr)
    if _root_bits(value) > MAX_ROOT_BITS:
        raise InputError(f"ln of a number with a part beyond {MAX_ROOT_BITS} bits that cannot "
                         "be split into primes", column=column)
    if argument.approx is None:
        return _checked(value, None, argument.exp_depth, column)
    x = argument.approx if argument.approx > 0 else _approximate(argument.expr, column)
    return _checked(value, APPROX.log(x), argument.exp_depth, column, APPROX.mpf(1))


def _trig(name: str) -> Callable[[Value, int], Value]:
    function = {"sin": sp.sin, "cos": sp.cos, "tan": sp.tan}[name]
    numeric = {"sin": APPROX.sin, "cos": APPROX.cos, "tan": APPROX.tan}[name]

    def apply(argument: Value, column: int) -> Value:
        x = argument.approx
        if x is None:
            return _checked(function(argument.expr), None, argument.exp_depth, column)
        if abs(x) > MAX_TRIG_ARGUMENT:
            raise InputError(f"{name} argument too large (limit {MAX_TRIG_ARGUMENT})",
                             column=column)
        # SymPy peels multiples of pi/2 off the argument (sin(pi + z) = -sin(z)); the rest must
        # be provably zero or not, as SymPy's own approximation of sin(z) is wrong near zero.
        rest = sp.Add(*(t for t in sp.Add.make_args(argument.expr) if not (t / sp.pi).is_Rational))
        if rest.is_zero is None:
            raise InputError(f"cannot tell whether the argument of {name} is a multiple of pi/2",
                             column=column)
        if name == "tan" and _sign(Value(sp.cos(argument.expr), None), "cos of the argument",
                                   column) == 0:
            raise InputError("tan is undefined here (cos is zero)", column=column,
                             code="read_not_real")
        scale = max(APPROX.mpf(1), abs(x))
        if name == "tan" and abs(APPROX.cos(x)) <= scale * _CANCELLED:
            scale = APPROX.inf  # near a pole: approximate tan afresh
        return _checked(function(argument.expr), numeric(x), argument.exp_depth, column, scale)

    return apply


def _sqrt(argument: Value, column: int) -> Value:
    half = Value(sp.Rational(1, 2), APPROX.mpf(0.5))
    if argument.expr.is_negative or argument.approx is not None \
            and _sign(argument, "the argument of sqrt", column) < 0:
        raise InputError("square root of a negative number is not real", column=column,
                         code="read_not_real")
    return gated_power(argument, half, column)


_FUNCTION_GATES: dict[str, Callable[[Value, int], Value]] = {
    "exp": _exp, "ln": _log, "log": _log, "sqrt": _sqrt,
    "sin": _trig("sin"), "cos": _trig("cos"), "tan": _trig("tan"),
}


def apply_function(name: str, argument: Value, column: int) -> Value:
    """Apply a named function through its gate."""
    return _FUNCTION_GATES[name](argument, column)


def _checked(expr: sp.Expr, approx: mpmath.mpf | None, exp_depth: int, column: int,
             scale: mpmath.mpf | None = None) -> Value:
    """Refuse non-finite or non-real results (zoo, nan, complex) as soon as they appear.

    A Rational gets its exact approximation; an approximation no larger than ``scale`` times
    2**-40 (its digits cancelled) is made afresh by SymPy, or the value refused if it may be 0.
    """
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or expr.is_finite is False:
        raise InputError("the value is not finite", column=column)
    if expr.has(sp.I) or expr.is_real is False:
        raise InputError("the value is not a real number", column=column)
    if expr.is_Rational:
        approx = APPROX.mpf(int(expr.p)) / int(expr.q)
    elif approx is not None and scale is not None and abs(approx) <= scale * _CANCELLED:
        approx = _approximate(expr, column)
    return Value(expr, approx, exp_depth)


_FUNCTION_NAMES = {sp.exp: "exp", sp.log: "ln", sp.sin: "sin", sp.cos: "cos", sp.tan: "tan"}


def regated(expr: sp.Expr, values: Mapping[sp.Symbol, Value]) -> Value:
    """A parsed value rebuilt node by node through these gates, with declared symbols replaced
    by values: a value substituted into an entry (--subs, a sweep point) meets the same gates,
    with the same errors, as one written there, each checked before SymPy builds the node
    (2^theta at theta = 1e100 is refused, not computed). Errors carry no column.
    """
    if expr in values:
        return values[expr]
    if expr.is_Rational:
        return Value(expr, APPROX.mpf(int(expr.p)) / int(expr.q))
    if expr is sp.pi or expr is sp.E:
        return Value(expr, APPROX.pi if expr is sp.pi else APPROX.e)
    if expr.is_Symbol or not expr.free_symbols & set(values):  # gated when it was parsed
        approx = None if expr.free_symbols else APPROX.mpf(expr.evalf(APPROX.dps))
        return Value(expr, approx, _exp_depth(expr))
    if isinstance(expr, (sp.Add, sp.Mul)) or expr.is_Pow and expr.exp.is_Rational and expr.exp < 0:
        return _regated_operation(expr, values)
    if isinstance(expr, sp.Pow):
        return gated_power(regated(expr.base, values), regated(expr.exp, values), 0)
    if type(expr) in _FUNCTION_NAMES:
        return apply_function(_FUNCTION_NAMES[type(expr)], regated(expr.args[0], values), 0)
    raise InputError(f"cannot substitute into {type(expr).__name__}")


def _regated_operation(expr: sp.Expr, values: Mapping[sp.Symbol, Value]) -> Value:
    """A sum, or a product with its reciprocal factors divided out (1/theta at 0 is a division
    by zero, as it is in a file)."""
    if isinstance(expr, sp.Add):
        parts, op = [regated(term, values) for term in expr.args], Token("op", "+", 0)
        return _fold(op, parts)
    factors = sp.Mul.make_args(expr)
    above = [f for f in factors if not (f.is_Pow and f.exp.is_Rational and f.exp < 0)]
    below = [f.base ** -f.exp for f in factors if f not in above]
    times = Token("op", "*", 0)
    value = _fold(times, [regated(f, values) for f in above] or [Value(sp.S.One, APPROX.one)])
    if below:
        value = combine(Token("op", "/", 0), value, _fold(times, [regated(f, values) for f in below]))
    return value


def _exp_depth(expr: sp.Expr) -> int:
    """How deep exp nests in a value (the parser's MAX_EXP_NESTING counts the same)."""
    inner = max((_exp_depth(a) for a in expr.args), default=0)
    return inner + 1 if isinstance(expr, sp.exp) else inner


def _fold(op: Token, parts: list[Value]) -> Value:
    value = parts[0]
    for part in parts[1:]:
        value = combine(op, value, part)
    return value
