"""Tokens of the expression syntax: Unicode folded to ASCII, numbers, names and operators.

Columns are the user's own (1-based, in the original text), so every refusal can point at them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Mapping

from ..errors import InputError
from ..limits import MAX_TOKENS

FOLD: Mapping[str, str] = {
    "\u2212": "-", "\u2013": "-", "\u00d7": "*", "\u22c5": "*", "\u00b7": "*", "\u2217": "*",
    "\u00f7": "/", "\u03c0": "pi", "\u03b8": "theta", "\u03c4": "tau", "\u221e": "oo",
    "\u3000": " ", "\u00a0": " ", "\u221a": "\u221a",
}
"""Unicode characters accepted and what they mean; full-width ASCII is folded as well."""

FUNCTION_NAMES = frozenset({"exp", "ln", "log", "sqrt", "sin", "cos", "tan"})
NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPERATORS = ("**", "^", "+", "-", "*", "/", "(", ")", "\u221a")


@dataclass(frozen=True, slots=True)
class Token:
    """A token with its 1-based column in the original text."""

    kind: str  # "number" | "name" | "op" | "end"
    text: str
    column: int



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
            raise InputError(f"character {_describe(char)} is not allowed", column=column,
                             code="read_character", values=(_describe(char),))
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
        match = NUMBER.match(folded, i) if folded[i].isdigit() or folded[i] == "." else None
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
            example = f"{left.text}({right.text or 'x'})"
            raise InputError(f"function '{left.text}' needs parentheses, e.g. '{example}'",
                             column=right.column, code="read_parentheses",
                             values=(left.text, example))
        if left_value and right_value and not (left.kind == "name" and right.text == "("):
            raise InputError(f"implicit multiplication: write '{left.text}*{right.text}'",
                             column=right.column, code="read_implicit",
                             values=(f"{left.text}*{right.text}",))


