"""One piece of user text -> an exact SymPy value, by the project's own tokenizer and parser.

User text never reaches ``sympify``, ``parse_expr`` or ``eval``. The grammar::

    expr  := term (('+'|'-') term)*
    term  := unary (('*'|'/') unary)*
    unary := ('+'|'-') unary | power
    power := atom (('^'|'**') unary)?          right-associative: 2^3^2 = 512, -2^2 = -4
    atom  := NUMBER | CONST | SYMBOL | FUNC '(' expr ')' | '(' expr ')' | '√' atom

Tokens come from tokens.py and every value is built through a cost gate in gates.py, so limits
(length, tokens, nesting, digits) and costs (powers, exp and trig arguments, factoring) are
checked before SymPy evaluates anything expensive.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import sympy as sp

from ..errors import InputError
from ..limits import MAX_DECIMAL_EXPONENT, MAX_DEPTH, MAX_LENGTH
from .gates import APPROX, Value, apply_function, combine, gated_power, number
from .tokens import FUNCTION_NAMES, Token, fold, tokenize

CONSTANTS: Mapping[str, sp.Expr] = {"pi": sp.pi, "e": sp.E, "E": sp.E}
INFINITY_NAMES = frozenset({"oo", "inf", "infinity", "Infinity"})
_NEG_INFINITY = re.compile(r"^\s*-\s*(oo|inf|infinity|Infinity)\s*$")


def parse_expression(text: str, *, symbols: Mapping[str, sp.Symbol] | None = None,
                     allow_neg_infinity: bool = False,
                     max_exponent: int = MAX_DECIMAL_EXPONENT) -> sp.Expr:
    """Parse one entry of user text into an exact, finite, real SymPy value.

    Args:
        text: the user's text (hostile until parsed).
        symbols: the declared symbols, by name; any other name is refused.
        allow_neg_infinity: accept the whole entry ``-oo`` / ``-inf`` (mask entries only).
        max_exponent: the largest decimal exponent (1e100); claimed answers may go further.

    Raises:
        InputError: with the column and the reason; the caller adds file and key.
    """
    if not isinstance(text, str):
        raise InputError(f"expected text, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise InputError(f"entry is {len(text)} characters long (limit {MAX_LENGTH})")
    if allow_neg_infinity and _NEG_INFINITY.match("".join(c for c, _ in fold(text))):
        return sp.S.NegativeInfinity
    parser = _Parser(tokenize(text), dict(symbols or {}), max_exponent)
    return parser.parse().expr


class _Parser:
    """Recursive descent over the token list; every node passes the cost gates."""

    def __init__(self, tokens: list[Token], symbols: dict[str, sp.Symbol],
                 max_exponent: int) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0
        self.symbols = symbols
        self.max_exponent = max_exponent

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
            return number(token, self.max_exponent)
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
            return Value(constant, APPROX.pi if constant is sp.pi else APPROX.e)
        if token.text in self.symbols:
            return Value(self.symbols[token.text], None)
        if token.text in INFINITY_NAMES:
            raise InputError("infinity is allowed only as a whole mask entry '-oo'",
                             column=token.column)
        raise InputError(f"unknown name '{token.text}'", column=token.column,
                         code="read_unknown_name", values=(token.text,))

