"""One piece of user text -> an exact SymPy value, by the project's own tokenizer and parser.

User text never reaches ``sympify``, ``parse_expr`` or ``eval``. The grammar::

    expr  := term (('+'|'-') term)*
    term  := unary (('*'|'/') unary)*
    unary := ('+'|'-') unary | power
    power := atom (('^'|'**') unary)?          right-associative: 2^3^2 = 512, -2^2 = -4
    atom  := NUMBER | CONST | SYMBOL | FUNC '(' expr ')' | '(' expr ')' | '√' atom

Every value is built under limits (length, tokens, nesting, digits) and cost gates (powers,
exp and trig arguments) checked before SymPy evaluates anything expensive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping

import mpmath
import sympy as sp

from .errors import InputError

MAX_LENGTH = 1000
MAX_TOKENS = 300
MAX_DEPTH = 30
MAX_DIGITS = 100
MAX_DECIMAL_EXPONENT = 100
MAX_POWER_BITS = 4096
MAX_SYMBOLIC_POWER = 32
MAX_ROOT_DENOMINATOR = 1000
MAX_EXP_ARGUMENT = 10_000
MAX_TRIG_ARGUMENT = 10_000
MAX_EXP_NESTING = 3
MIN_NONZERO = mpmath.mpf("1e-40")

FOLD: Mapping[str, str] = {
    "\u2212": "-", "\u2013": "-", "\u00d7": "*", "\u22c5": "*", "\u00b7": "*", "\u2217": "*",
    "\u00f7": "/", "\u03c0": "pi", "\u03b8": "theta", "\u03c4": "tau", "\u221e": "oo",
    "\u3000": " ", "\u00a0": " ", "\u221a": "\u221a",
}
"""Unicode characters accepted and what they mean; full-width ASCII is folded as well."""

FUNCTION_NAMES = frozenset({"exp", "ln", "log", "sqrt", "sin", "cos", "tan"})
CONSTANTS: Mapping[str, sp.Expr] = {"pi": sp.pi, "e": sp.E, "E": sp.E}
INFINITY_NAMES = frozenset({"oo", "inf", "infinity", "Infinity"})
_NEG_INFINITY = re.compile(r"^\s*-\s*(oo|inf|infinity|Infinity)\s*$")
_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPERATORS = ("**", "^", "+", "-", "*", "/", "(", ")", "\u221a")
_APPROX = mpmath.MPContext()
_APPROX.dps = 30


@dataclass(frozen=True, slots=True)
class Token:
    """A token with its 1-based column in the original text."""

    kind: str  # "number" | "name" | "op" | "end"
    text: str
    column: int


@dataclass(frozen=True, slots=True)
class Value:
    """A parsed value with a cheap approximation used by the cost gates (None if symbolic)."""

    expr: sp.Expr
    approx: mpmath.mpf | None
    exp_depth: int = 0


def fold(text: str) -> list[tuple[str, int]]:
    """Fold accepted Unicode to ASCII, keeping each character's original 1-based column."""
    out: list[tuple[str, int]] = []
    for column, char in enumerate(text, start=1):
        code = ord(char)
        if char in FOLD:
            out.extend((c, column) for c in FOLD[char])
        elif 0xFF01 <= code <= 0xFF5E:
            out.append((chr(code - 0xFEE0), column))
        elif char in " \t" or 0x21 <= code <= 0x7E:
            out.append((char, column))
        else:
            raise InputError(f"character {_describe(char)} is not allowed", column=column)
    return out


def _describe(char: str) -> str:
    if char.isprintable():
        return f"{char!r} (U+{ord(char):04X})"
    return f"U+{ord(char):04X} (a control or formatting character)"


def tokenize(text: str) -> list[Token]:
    """Split text into tokens; refuse implicit multiplication with a hint."""
    chars = fold(text)
    folded = "".join(c for c, _ in chars)
    tokens: list[Token] = []
    i = 0
    while i < len(folded):
        if folded[i] in " \t":
            i += 1
            continue
        column = chars[i][1]
        match = _NUMBER.match(folded, i) if folded[i].isdigit() or folded[i] == "." else None
        if match:
            tokens.append(Token("number", match.group(), column))
        elif (match := _NAME.match(folded, i)):
            tokens.append(Token("name", match.group(), column))
        else:
            op = next((o for o in _OPERATORS if folded.startswith(o, i)), None)
            if op is None:
                raise InputError(f"unexpected character {folded[i]!r}", column=column)
            tokens.append(Token("op", op, column))
            i += len(op)
            continue
        i = match.end()
        if len(tokens) > MAX_TOKENS:
            raise InputError(f"too many tokens (limit {MAX_TOKENS})", column=column)
    _refuse_juxtaposition(tokens)
    end_column = chars[-1][1] + 1 if chars else 1
    tokens.append(Token("end", "", end_column))
    return tokens


def _refuse_juxtaposition(tokens: list[Token]) -> None:
    for left, right in zip(tokens, tokens[1:]):
        left_value = left.kind in ("number", "name") or left.text == ")"
        right_value = right.kind in ("number", "name") or right.text in ("(", "\u221a")
        if left.kind == "name" and left.text in FUNCTION_NAMES and right.text != "(":
            raise InputError(f"function '{left.text}' needs parentheses, e.g. "
                             f"'{left.text}({right.text or 'x'})'", column=right.column)
        if left_value and right_value and not (left.kind == "name" and right.text == "("):
            raise InputError(f"implicit multiplication: write '{left.text}*{right.text}'",
                             column=right.column)


def parse_expression(text: str, *, symbols: Mapping[str, sp.Symbol] | None = None,
                     allow_neg_infinity: bool = False) -> sp.Expr:
    """Parse one entry of user text into an exact, finite, real SymPy value.

    Args:
        text: the user's text (hostile until parsed).
        symbols: the declared symbols, by name; any other name is refused.
        allow_neg_infinity: accept the whole entry ``-oo`` / ``-inf`` (mask entries only).

    Raises:
        InputError: with the column and the reason; the caller adds file and key.
    """
    if not isinstance(text, str):
        raise InputError(f"expected text, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise InputError(f"entry is {len(text)} characters long (limit {MAX_LENGTH})")
    if allow_neg_infinity and _NEG_INFINITY.match("".join(c for c, _ in fold(text))):
        return sp.S.NegativeInfinity
    parser = _Parser(tokenize(text), dict(symbols or {}))
    return parser.parse().expr


class _Parser:
    """Recursive descent over the token list; every node passes the cost gates."""

    def __init__(self, tokens: list[Token], symbols: dict[str, sp.Symbol]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0
        self.symbols = symbols

    @property
    def token(self) -> Token:
        return self.tokens[self.pos]

    def advance(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def expect(self, text: str) -> None:
        if self.token.text != text:
            found = repr(self.token.text) if self.token.kind != "end" else "the end"
            raise InputError(f"expected '{text}' but found {found}", column=self.token.column)
        self.advance()

    def parse(self) -> Value:
        if self.token.kind == "end":
            raise InputError("empty expression", column=self.token.column)
        value = self.expr()
        if self.token.kind != "end":
            raise InputError(f"unexpected {self.token.text!r}", column=self.token.column)
        return value

    def nested(self, parse: Callable[[], Value]) -> Value:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise InputError(f"nested too deeply (limit {MAX_DEPTH})", column=self.token.column)
        try:
            return parse()
        finally:
            self.depth -= 1

    def expr(self) -> Value:
        value = self.term()
        while self.token.text in ("+", "-"):
            op = self.advance()
            right = self.term()
            value = combine(op, value, right)
        return value

    def term(self) -> Value:
        value = self.unary()
        while self.token.text in ("*", "/"):
            op = self.advance()
            right = self.unary()
            value = combine(op, value, right)
        return value

    def unary(self) -> Value:
        if self.token.text in ("+", "-"):
            op = self.advance()
            operand = self.nested(self.unary)
            if op.text == "+":
                return operand
            return Value(-operand.expr, None if operand.approx is None else -operand.approx,
                         operand.exp_depth)
        return self.power()

    def power(self) -> Value:
        base = self.atom()
        if self.token.text in ("^", "**"):
            op = self.advance()
            exponent = self.nested(self.unary)
            return gated_power(base, exponent, op.column)
        return base

    def atom(self) -> Value:
        token = self.advance()
        if token.kind == "number":
            return number(token)
        if token.text == "(":
            value = self.nested(self.expr)
            self.expect(")")
            return value
        if token.text == "\u221a":
            operand = self.nested(self.atom)
            return apply_function("sqrt", operand, token.column)
        if token.kind == "name":
            return self.name(token)
        found = "the end of the entry" if token.kind == "end" else repr(token.text)
        raise InputError(f"expected a number, name or '(' but found {found}",
                         column=token.column)

    def name(self, token: Token) -> Value:
        if token.text in FUNCTION_NAMES:
            self.expect("(")
            argument = self.nested(self.expr)
            self.expect(")")
            return apply_function(token.text, argument, token.column)
        if token.text in CONSTANTS:
            constant = CONSTANTS[token.text]
            return Value(constant, _APPROX.pi if constant is sp.pi else _APPROX.e)
        if token.text in self.symbols:
            return Value(self.symbols[token.text], None)
        if token.text in INFINITY_NAMES:
            raise InputError("infinity is allowed only as a whole mask entry '-oo'",
                             column=token.column)
        raise InputError(f"unknown name '{token.text}'", column=token.column)


def number(token: Token) -> Value:
    """An exact decimal literal: 0.85 -> 17/20, 2e-3 -> 1/500."""
    match = _NUMBER.fullmatch(token.text)
    assert match is not None
    mantissa, exponent_text = match.group(1), match.group(2)
    digits = mantissa.replace(".", "")
    if len(digits) > MAX_DIGITS:
        raise InputError(f"number has more than {MAX_DIGITS} digits", column=token.column)
    exponent = int(exponent_text[1:]) if exponent_text else 0
    if abs(exponent) > MAX_DECIMAL_EXPONENT:
        raise InputError(f"decimal exponent beyond ±{MAX_DECIMAL_EXPONENT}", column=token.column)
    fraction_digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
    value = sp.Rational(int(digits)) * sp.Rational(10) ** (exponent - fraction_digits)
    return Value(value, _APPROX.mpf(value.p) / value.q)


def combine(op: Token, left: Value, right: Value) -> Value:
    """Apply + - * / with the division-by-zero gate."""
    a, b = left.approx, right.approx
    both = a is not None and b is not None
    depth = max(left.exp_depth, right.exp_depth)
    if op.text == "+":
        return _checked(left.expr + right.expr, a + b if both else None, depth, op.column)
    if op.text == "-":
        return _checked(left.expr - right.expr, a - b if both else None, depth, op.column)
    if op.text == "*":
        return _checked(left.expr * right.expr, a * b if both else None, depth, op.column)
    _refuse_zero_divisor(right, op.column)
    return _checked(left.expr / right.expr, a / b if both else None, depth, op.column)


def _refuse_zero_divisor(divisor: Value, column: int) -> None:
    if divisor.expr.is_zero:
        raise InputError("division by zero", column=column)
    if divisor.expr.is_zero is None and divisor.approx is not None \
            and abs(divisor.approx) < MIN_NONZERO:
        raise InputError("division by a value that is zero or too close to zero to tell",
                         column=column)


def gated_power(base: Value, exponent: Value, column: int) -> Value:
    """base ** exponent, refused before evaluation when the result would be huge."""
    if base.expr is sp.E:
        return _exp(exponent, column)
    depth = max(base.exp_depth, exponent.exp_depth)
    b, e = base.approx, exponent.approx
    if b is None or e is None:
        return _symbolic_power(base, exponent, depth, column)
    if b == 0 and e <= 0:
        raise InputError("zero raised to a non-positive power", column=column)
    if b < 0 and not exponent.expr.is_Integer:
        raise InputError("a negative number raised to a non-integer power is not real",
                         column=column)
    if exponent.expr.is_Rational and not exponent.expr.is_Integer \
            and exponent.expr.q > MAX_ROOT_DENOMINATOR:
        raise InputError(f"root of degree beyond {MAX_ROOT_DENOMINATOR}", column=column)
    if not base.expr.is_Rational and abs(e) > MAX_SYMBOLIC_POWER:
        raise InputError(f"power of an irrational value beyond {MAX_SYMBOLIC_POWER}",
                         column=column)
    if base.expr.is_Rational and abs(b) not in (0, 1):
        size = max(int(base.expr.p).bit_length(), int(base.expr.q).bit_length())
        bits = abs(e) * size
        if bits > MAX_POWER_BITS:
            raise InputError(f"power too large (about {int(bits)} bits; limit {MAX_POWER_BITS})",
                             column=column)
    return _checked(base.expr ** exponent.expr, b ** e, depth, column)


def _symbolic_power(base: Value, exponent: Value, depth: int, column: int) -> Value:
    """Powers that involve a declared symbol: small integer exponents, or a positive base."""
    n = exponent.expr
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
    approx = None if argument.approx is None else _APPROX.exp(argument.approx)
    return _checked(sp.exp(argument.expr), approx, argument.exp_depth + 1, column)


def _log(argument: Value, column: int) -> Value:
    if argument.expr.is_zero or (argument.approx is not None and argument.approx == 0):
        raise InputError("ln(0) is minus infinity; write '-oo' in a mask entry instead",
                         column=column)
    if argument.approx is not None and argument.approx < 0 or argument.expr.is_negative:
        raise InputError("ln of a negative number is not real", column=column)
    approx = None if argument.approx is None else _APPROX.log(argument.approx)
    return _checked(log_reduced(argument.expr), approx, argument.exp_depth, column)


def log_reduced(value: sp.Expr) -> sp.Expr:
    """ln of a product of rational powers of rationals, as a sum over prime logs."""
    powers = sp.Mul.make_args(value)
    if not all(_rational_power(p) for p in powers):
        return sp.log(value)
    total = sp.S.Zero
    for factor in powers:
        base, exponent = factor.as_base_exp()
        base = sp.Rational(base)
        for prime, count in _factor(base.p).items():
            total += exponent * count * sp.log(prime)
        for prime, count in _factor(base.q).items():
            total -= exponent * count * sp.log(prime)
    return total


def _rational_power(factor: sp.Expr) -> bool:
    base, exponent = factor.as_base_exp()
    return bool(base.is_Rational and base.is_positive and exponent.is_Rational)


def _factor(n: int) -> dict[int, int]:
    """Prime factors found by trial division; an unfactored cofactor is kept whole."""
    return {int(p): int(c) for p, c in sp.factorint(n, limit=10**5).items()} if n > 1 else {}


def _trig(name: str) -> Callable[[Value, int], Value]:
    function = {"sin": sp.sin, "cos": sp.cos, "tan": sp.tan}[name]
    numeric = {"sin": _APPROX.sin, "cos": _APPROX.cos, "tan": _APPROX.tan}[name]

    def apply(argument: Value, column: int) -> Value:
        if argument.approx is not None and abs(argument.approx) > MAX_TRIG_ARGUMENT:
            raise InputError(f"{name} argument too large (limit {MAX_TRIG_ARGUMENT})",
                             column=column)
        if name == "tan" and argument.approx is not None \
                and abs(_APPROX.cos(argument.approx)) < MIN_NONZERO:
            raise InputError("tan is undefined here (cos is zero)", column=column)
        approx = None if argument.approx is None else numeric(argument.approx)
        return _checked(function(argument.expr), approx, argument.exp_depth, column)

    return apply


def _sqrt(argument: Value, column: int) -> Value:
    half = Value(sp.Rational(1, 2), _APPROX.mpf(0.5))
    if argument.approx is not None and argument.approx < 0 or argument.expr.is_negative:
        raise InputError("square root of a negative number is not real", column=column)
    return gated_power(argument, half, column)


_FUNCTION_GATES: dict[str, Callable[[Value, int], Value]] = {
    "exp": _exp, "ln": _log, "log": _log, "sqrt": _sqrt,
    "sin": _trig("sin"), "cos": _trig("cos"), "tan": _trig("tan"),
}


def apply_function(name: str, argument: Value, column: int) -> Value:
    """Apply a named function through its gate."""
    return _FUNCTION_GATES[name](argument, column)


def _checked(expr: sp.Expr, approx: mpmath.mpf | None, exp_depth: int, column: int) -> Value:
    """Refuse non-finite or non-real results (zoo, nan, complex) as soon as they appear."""
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or expr.is_finite is False:
        raise InputError("the value is not finite", column=column)
    if expr.has(sp.I) or expr.is_real is False:
        raise InputError("the value is not a real number", column=column)
    return Value(expr, approx, exp_depth)
