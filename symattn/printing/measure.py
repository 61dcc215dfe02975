"""How wide our LaTeX math sets, in points at 10 pt (Computer Modern metrics), to lay out displays.

A small reader of the LaTeX the printer writes: fractions, roots, scripts, arrays, \\left/\\right,
\\text and the operators it uses. Widths are estimates within a few per cent for that subset
(tests compare them with TeX's own measurements); unknown commands count as a wide glyph.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Computer Modern math italic (cmmi10) letters and upright digits, in points at 10 pt.
_LOWER = dict(zip("abcdefghijklmnopqrstuvwxyz", (
    5.29, 4.29, 4.33, 5.20, 4.66, 5.97, 5.13, 5.76, 3.45, 4.69, 5.52, 3.18, 8.78, 6.00, 4.85,
    5.03, 4.82, 4.79, 4.69, 3.61, 5.72, 5.21, 7.43, 5.72, 5.26, 5.09)))
_UPPER = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (
    7.50, 8.09, 7.86, 8.56, 7.96, 7.82, 7.86, 9.12, 5.18, 6.51, 9.21, 6.81, 10.79, 9.12, 7.91,
    7.81, 7.91, 7.67, 6.71, 7.23, 7.92, 8.06, 10.83, 9.07, 8.03, 7.54)))
_ORD = {**_LOWER, **_UPPER, **dict.fromkeys("0123456789", 5.0), "(": 3.89, ")": 3.89, "[": 2.83,
        "]": 2.78, "/": 5.0, "|": 2.78, ".": 2.78, "!": 2.78, "'": 2.81, "*": 5.0, "?": 4.72}
_BIN = {"+": 7.78, "-": 7.78, r"\cdot": 2.78, r"\times": 7.78, r"\pm": 7.78}
_REL = {"=": 7.78, "<": 7.78, ">": 7.78, r"\approx": 7.78, r"\le": 7.78, r"\ge": 7.78,
        r"\ne": 7.78, r"\to": 10.0, r"\in": 6.67, r"\equiv": 7.78, r"\mapsto": 10.0}
_PUNCT = {",": 2.78, ";": 2.78, ":": 2.78}
_WORDS = {r"\infty": 10.0, r"\tau": 5.50, r"\alpha": 6.43, r"\beta": 5.66, r"\gamma": 5.18,
          r"\delta": 4.44, r"\theta": 4.97, r"\lambda": 5.83, r"\mu": 6.02, r"\pi": 6.06,
          r"\sigma": 6.07, r"\Sigma": 7.22, r"\ell": 4.17, r"\dots": 13.33, r"\cdots": 13.33,
          r"\ldots": 11.67, r"\vdots": 2.78, r"\ddots": 13.33, r"\emptyset": 5.0, r"\{": 5.0,
          r"\}": 5.0, r"\%": 8.33, r"\#": 8.33, r"\&": 7.78, r"\_": 5.0, r"\mathbf": 0.0}
_SPACES = {r"\quad": 10.0, r"\qquad": 20.0, r"\,": 1.67, r"\;": 2.78, r"\:": 2.22, r"\ ": 3.33,
           r"\!": -1.67, "~": 3.33}
_OPERATORS = {r"\ln": 8.41, r"\log": 12.78, r"\exp": 15.0, r"\sin": 10.56, r"\cos": 13.33,
              r"\tan": 14.45, r"\max": 17.78, r"\min": 16.39, r"\det": 14.4}
_FONT_COMMANDS = (r"\mathsf", r"\mathrm", r"\mathit", r"\mathbf", r"\boldsymbol",
                  r"\mathcal", r"\mathbb", r"\textstyle", r"\displaystyle", r"\hat", r"\bar",
                  r"\tilde", r"\vec", r"\overline")
_IGNORED = (r"\left", r"\right", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr", r"\limits",
            r"\nolimits", r"\color", r"\mathstrut", r"\strut")
_STYLES = {"D": 1.0, "T": 1.0, "S": 0.8, "SS": 0.68}
_SMALLER = {"D": "T", "T": "S", "S": "SS", "SS": "SS"}
_SCRIPT = {"D": "S", "T": "S", "S": "SS", "SS": "SS"}
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\S", re.DOTALL)  # whitespace is skipped
_UNKNOWN = 8.0
ARRAY_COLUMN_SEP = 10.0  # \arraycolsep on both sides of a cell
DELIMITER = 6.5  # a \\left[ or \\right] around an array or a fraction
TEXT_CHAR = 4.7  # an average roman letter in \\text
CJK_CHAR = 10.0


class _Reader:
    """Tokens of one math string, read once from the left."""

    def __init__(self, tex: str) -> None:
        self.tokens = _TOKEN.findall(tex)
        self.at = 0
        self.delimiters: list[float] = []  # widths of the open \\left delimiters

    def next(self) -> str | None:
        token = self.tokens[self.at] if self.at < len(self.tokens) else None
        self.at += 1
        return token

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def group(self) -> list[str]:
        """The tokens of the next {…} group (or the one next token)."""
        first = self.next()
        if first != "{":
            return [first] if first is not None else []
        tokens, start, depth = self.tokens, self.at, 1
        for k in range(start, len(tokens)):
            token = tokens[k]
            if token == "{":
                depth += 1
            elif token == "}":
                depth -= 1
                if depth == 0:
                    self.at = k + 1
                    return tokens[start:k]
        self.at = len(tokens) + 1  # unclosed: the rest, read to its end
        return tokens[start:]

    def until_end(self, environment: str) -> list[str]:
        """The tokens up to the matching \\end{environment}."""
        out, depth, tokens = [], 1, self.tokens
        while True:
            start = k = self.at
            while k < len(tokens) and tokens[k] != r"\begin" and tokens[k] != r"\end":
                k += 1
            out += tokens[start:k]  # the plain tokens before the next \\begin or \\end
            self.at = k + 1
            if k >= len(tokens):
                break
            token = tokens[k]
            name = "".join(self.group())
            depth += 1 if token == r"\begin" else -1 if name == environment else 0
            if depth == 0:
                break
            out += [token, "{", *name, "}"]
        return out


@lru_cache(maxsize=1 << 16)
def width(tex: str, style: str = "D") -> float:
    """The width of a math string in points (10 pt), in display style unless told (memoized:
    fitting a matrix measures the same cells inside every candidate line)."""
    return _state(tex, style)[0]


def joined_width(prefix: str, suffix: str, style: str = "D") -> float:
    """width(prefix + suffix), the same number, measured on from where prefix's measurement
    stopped when prefix was measured lately (a line grown piece by piece is read once)."""
    return _state(prefix + suffix, style, prefix)[0]


_Mark = tuple  # (token index, total, previous class, open delimiters) before a string's last atom
_STATES: dict[tuple[str, str], tuple[float, list[str], _Mark | None]] = {}
_STATES_KEPT = 1 << 21  # tokens held by the kept states (the lines lately measured), at most
_kept = [0]


def _state(tex: str, style: str, prefix: str | None = None
           ) -> tuple[float, list[str], _Mark | None]:
    """tex's width, tokens and where to resume, resumed from prefix's state if it is kept and
    the tokens of tex are prefix's followed by the rest's."""
    got = _STATES.get((tex, style))
    if got is not None:
        return got
    base = _STATES.get((prefix, style)) if prefix is not None else None
    rest = tex[len(prefix):] if base is not None else ""
    if base is not None and base[2] is not None and _joins(prefix, rest):
        tokens = base[1] + _TOKEN.findall(rest)
        at, total, previous, delimiters = base[2]
        got = _run(tokens, style, at, total, previous, list(delimiters))
    else:
        tokens = _TOKEN.findall(tex)
        got = _run(tokens, style)
    got = (got[0], tokens, got[1])
    _kept[0] += len(tokens)
    while _kept[0] > _STATES_KEPT and _STATES:  # the oldest go first
        _kept[0] -= len(_STATES.pop(next(iter(_STATES)))[1])
    _STATES[tex, style] = got
    return got


def _joins(prefix: str, rest: str) -> bool:
    """Whether prefix + rest reads as prefix's tokens followed by rest's (no command name or
    escaped character runs across the join)."""
    if not prefix or not rest:
        return True
    return not prefix.endswith("\\") and not (rest[0].isascii() and rest[0].isalpha()
                                              and re.search(r"\\[A-Za-z]+$", prefix))


def _width(tokens: list[str], style: str) -> float:
    return _measured(tuple(tokens), style)


@lru_cache(maxsize=1 << 16)
def _measured(tokens: tuple[str, ...], style: str) -> float:
    """_width of a token sequence, memoized: a cell's groups recur in every line holding it."""
    return _run(list(tokens), style)[0]


def _run(tokens: list[str], style: str, at: int = 0, total: float = 0.0,
         previous: str = "open", delimiters: list[float] | None = None
         ) -> tuple[float, _Mark | None]:
    """The width of tokens[at:] added to total, after an atom of class previous (for TeX's
    spacing), and the mark before the last atom (None while a \\left is open: its
    delimiter's size was judged on the tokens seen)."""
    reader = _Reader("")
    reader.tokens, reader.at, reader.delimiters = tokens, at, delimiters or []
    scale = _STYLES[style]
    mark = (at, total, previous, tuple(reader.delimiters))
    while (token := reader.next()) is not None:
        mark = (reader.at - 1, total, previous, tuple(reader.delimiters))
        kind, w = _atom(token, reader, style)
        if kind == "bin" and previous in ("open", "bin", "rel", "punct"):
            kind = "ord"  # a leading minus is a sign, not an operation
        if style in ("D", "T"):
            if kind == "bin":
                w += 2 * 2.22
            elif kind == "rel":
                w += 0 if previous == "rel" else 2 * 2.78
            elif kind == "punct" or kind == "op" and reader.peek() not in (None, "(", r"\left"):
                w += 1.67
        total += w if kind == "box" else w * scale
        if kind != "space":
            previous = kind
    return total, (mark if not reader.delimiters else None)


def _atom(token: str, reader: _Reader, style: str) -> tuple[str, float]:
    """The class and width (at this style's scale 1) of the atom starting with token."""
    if token in ("^", "_"):
        script = _width(reader.group(), _SCRIPT[style]) + 0.5
        if reader.peek() in ("^", "_"):
            reader.next()
            script = max(script, _width(reader.group(), _SCRIPT[style]) + 0.5)
        return "box", script
    if token == "{":
        reader.at -= 1
        return "box", _width(reader.group(), style)
    if token in _ORD:
        return ("open" if token in "([" else "close" if token in ")]" else "ord"), _ORD[token]
    if token in _BIN:
        return "bin", _BIN[token]
    if token in _REL:
        return "rel", _REL[token]
    if token in _PUNCT:
        return "punct", _PUNCT[token]
    if token in _SPACES:
        return "space", _SPACES[token]
    if token in _OPERATORS:
        return "op", _OPERATORS[token]
    if token == r"\sum":
        return "op", 14.44 if style == "D" else 10.56
    if token in _WORDS:
        return "ord", _WORDS[token]
    if token in (r"\frac", r"\dfrac", r"\tfrac"):
        inner = {"\\dfrac": "T", "\\tfrac": "S"}.get(token, _SMALLER[style])
        parts = _width(reader.group(), inner), _width(reader.group(), inner)
        return "box", max(parts) + 2.4
    if token == r"\sqrt":
        return "box", 8.33 * _STYLES[style] + _width(reader.group(), style)
    if token in (r"\text", r"\textrm", r"\mbox", r"\operatorname", r"\textbf", r"\textit"):
        text = "".join(reader.group())
        w = sum(CJK_CHAR if ord(c) > 0x2E7F else TEXT_CHAR for c in _text(text))
        return ("op" if token == r"\operatorname" else "ord"), w
    if token in _FONT_COMMANDS:
        return "box", _width(reader.group(), style)
    if token in _IGNORED:
        delimiter = reader.next()
        if token in (r"\left", r"\right") and delimiter in ("[", "]", "(", ")", r"\{", r"\}", "|"):
            if token == r"\left":
                reader.delimiters.append(_delimiter(reader))
                return "open", reader.delimiters[-1]
            return "close", reader.delimiters.pop() if reader.delimiters else DELIMITER
        return "box", 0.0 if delimiter == "." else 4.6
    if token == r"\begin":
        name = "".join(reader.group())
        return "box", _environment(name, reader, style)
    if token == r"\def":
        reader.next()
        reader.group()
        return "space", 0.0
    if token.startswith("\\") and len(token) == 2:
        return "ord", 5.0
    return "ord", _UNKNOWN if token.startswith("\\") else CJK_CHAR if ord(token[0]) > 0x2E7F \
        else 5.0


def _delimiter(reader: _Reader) -> float:
    """A \\left delimiter's width: one line of text, or taller around an array or fraction."""
    depth = 1
    for token in reader.tokens[reader.at:]:
        depth += (token == r"\left") - (token == r"\right")
        if depth == 0:
            return 3.9
        if token in (r"\begin", r"\frac"):
            return DELIMITER
    return 3.9


def _text(text: str) -> str:
    """The characters \\text{…} prints (escapes counted once)."""
    return re.sub(r"\\[A-Za-z]+\{\}|\\.", "x", text)


def _environment(name: str, reader: _Reader, style: str) -> float:
    if name == "array":
        reader.group()  # the column specification
    return _body_width(name, tuple(reader.until_end(name)), style)


@lru_cache(maxsize=64)
def _body_width(name: str, body: tuple[str, ...], style: str) -> float:
    """The width of an environment's body (memoized: a matrix recurs in the lines tried)."""
    rows = _split(list(body), r"\\")
    if name in ("aligned", "gathered", "split"):
        widths = [[_width(cell, style) for cell in _split(row, "&")] for row in rows]
        columns = max(len(r) for r in widths)
        return sum(max((r[c] for r in widths if c < len(r)), default=0.0) for c in range(columns))
    cell_style = _SMALLER[style] if style == "D" else style
    cells = [[_width(cell, cell_style) for cell in _split(row, "&")] for row in rows]
    columns = max(len(r) for r in cells)
    return sum(max((r[c] for r in cells if c < len(r)), default=0.0)
               for c in range(columns)) + ARRAY_COLUMN_SEP * columns * _STYLES[style]


_NESTING = frozenset(("{", "}", r"\begin", r"\end"))


def _index(tokens: list[str], token: str, start: int) -> int:
    """Where token next occurs from start on (the last index if it does not)."""
    try:
        return tokens.index(token, start)
    except ValueError:
        return len(tokens) - 1


def _split(tokens: list[str], separator: str) -> list[list[str]]:
    """Tokens split at a separator outside braces and nested environments (a row's spacing
    argument, as in \\\\[0.5ex], dropped)."""
    parts: list[list[str]] = []
    start, depth, skip_to = 0, 0, -1
    for k in [k for k, token in enumerate(tokens) if token in _NESTING or token == separator]:
        if k <= skip_to:  # inside a row's [spacing]
            continue
        token = tokens[k]
        if token == separator and depth == 0:
            parts.append(tokens[start:k])
            start = k + 1
            if separator == r"\\" and tokens[k + 1:k + 2] == ["["]:
                skip_to = _index(tokens, "]", k + 2)
                start = skip_to + 1
            continue
        depth += (token in ("{", r"\begin")) - (token in ("}", r"\end"))
    parts.append(tokens[start:])
    return [p for p in parts if p]


_ARRAY_PARTS = re.compile(r"\\begin\{array\}|\\end\{array\}|\\\\(?:\[[^\]]*\])?|\\frac")


@lru_cache(maxsize=1 << 14)
def height(tex: str) -> float:
    """How tall a math string sets, in rows of text: its tallest array's rows, a row holding a
    stacked fraction counting two (what a page must hold, since a display line cannot break)."""
    stack: list[list[float]] = []  # per open array: its finished rows' heights, then the current
    tallest = 1.0
    for match in _ARRAY_PARTS.finditer(tex):
        part = match.group()
        if part == r"\begin{array}":
            stack.append([1.0])
        elif not stack:
            continue
        elif part == r"\frac":
            stack[-1][-1] = 2.0
        elif part.startswith(r"\\"):
            stack[-1].append(1.0)
        else:  # \end{array}: the array is one row of its enclosing array, as tall as itself
            rows = sum(stack.pop())
            tallest = max(tallest, rows)
            if stack:
                stack[-1][-1] = max(stack[-1][-1], rows)
    return tallest
