"""The structure of a claimed value as people paste it: a number, a tuple, nested lists, or a NumPy or
PyTorch printout -> rows of entry texts (each entry is then parsed by the project's parser).

    (1/6, 1/2, 1/3)                 one row
    [[0.1, 0.2], [0.3, 0.4]]        rows
    [[0.1 0.2]\\n [0.3 0.4]]         NumPy's print(): entries apart by spaces, rows by newlines
    array([[0.1, 0.2]], dtype=float32), tensor([[0.1000, 0.2000]], grad_fn=<...>), tf.Tensor(...)
    [0.5, 0.5]\\n[0.2, 0.8]          rows printed one a line; a leading '# ' (a code comment) is dropped
    53%, 9%, 38%                    a list without brackets
    \\begin{bmatrix} 0.5 & 0.5 \\\\ 1 & 0 \\end{bmatrix}   LaTeX (\\frac, \\sqrt, \\cdot become a/b, sqrt, *)

Leading dimensions of size 1 are dropped (a batch of one); more than two dimensions are refused,
and so is a shortened printout (NumPy's "...").
"""

from __future__ import annotations

import re
from typing import TypeAlias, cast

from ..errors import InputError
from .tokens import fold

_WRAPPER = re.compile(r"^(?:np\.|numpy\.|torch\.|tf\.)?(tensor|Tensor|array)\((.*)\)$", re.S)
_LATEX = re.compile(r"^\\(?:begin\{(?P<env>[a-zA-Z]*matrix\*?|array)\}(?:\{[^}]*\})?|b[a-z]*mat\b)"
                    r"(?P<body>.*?)\\(?:end\{(?P=env)\}|e[a-z]*mat\b)$", re.S)
_LATEX_ROWS = re.compile(r"\\\\|\\(?=\s)")  # \\ ends a row (and "\ ", a lost backslash)
_LATEX_WORDS = ((r"\left", ""), (r"\right", ""), (r"\cdot", "*"), (r"\times", "*"),
                (r"\,", ""), (r"\;", ""), (r"\!", ""), (r"\ln", "ln"), (r"\exp", "exp"))
_KEYWORD = re.compile(r"^\s*[A-Za-z_]\w*\s*=")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
Tree: TypeAlias = "str | list[Tree]"


def split_structure(text: str) -> list[list[str]]:
    """Rows of entry texts: '[[a, b], [c, d]]' -> [[a, b], [c, d]]; '(a, b)' -> [[a, b]]; 'a' -> [[a]]."""
    lines = text.replace("\r", "").split("\n")
    if len(lines) > 1:  # printed in code comments: '# [0.5, 0.5]'
        lines = [re.sub(r"^\s*#\s?", "", line) for line in lines]
    folded = "".join(c for c, _ in fold(" ".join(lines))).strip()
    if (latex := _LATEX.match(folded)):
        return [[_latex_entry(e) for e in row.split("&")]
                for row in _LATEX_ROWS.split(latex["body"]) if row.strip()]
    folded = _unwrapped(folded)
    if "..." in folded:
        raise InputError("a shortened printout (with '...') lacks entries; print the whole array")
    if folded.startswith("[") and folded.endswith("]"):
        if _closing(folded, 0) != len(folded) - 1:  # rows printed one a line: [a, b] [c, d]
            folded = f"[{folded}]"
        return _rows(_tree(folded))
    if folded.startswith("(") and _closing(folded, 0) == len(folded) - 1:
        inner = _split_top(folded[1:-1])
        if len(inner) > 1:
            return [[part.strip() for part in inner]]
    parts = _split_top(folded)
    return [[part.strip() for part in parts]]  # one entry, or a list without brackets


def _latex_entry(text: str) -> str:
    """A LaTeX matrix entry in the expression syntax: \\frac{a}{b} -> (a)/(b), braces -> parentheses."""
    for command, plain in _LATEX_WORDS:
        text = text.replace(command, plain)
    while (match := re.search(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", text)):
        text = text[:match.start()] + f"({match[1]})/({match[2]})" + text[match.end():]
    text = re.sub(r"\\sqrt\{([^{}]*)\}", r"sqrt(\1)", text)
    return text.replace("{", "(").replace("}", ")").strip()


def _unwrapped(text: str) -> str:
    """The data of array(...) or tensor(...): the first argument, keyword arguments dropped."""
    match = _WRAPPER.match(text)
    if not match:
        return text
    first, *rest = _split_top(match[2], allow_empty=True)
    if any(not _KEYWORD.match(part) for part in rest):
        raise InputError(f"a {match[1]}(...) printout holds one array and keyword arguments")
    return first.strip()


def _closing(text: str, start: int) -> int:
    """The index of the bracket that closes the one at start."""
    depth = 0
    for k in range(start, len(text)):
        if text[k] in "([":
            depth += 1
        elif text[k] in ")]":
            depth -= 1
            if depth == 0:
                return k
    raise InputError("unbalanced brackets")


def _tree(text: str) -> Tree:
    """One bracketed list -> its sublists, or its entry texts."""
    end = _closing(text, 0)
    if end != len(text) - 1:
        raise InputError(f"unexpected text after a closing bracket in {text[:40]!r}")
    inner = text[1:end].strip()
    if not inner:
        raise InputError("an empty list")
    if not inner.startswith("["):
        parts = [p.strip() for p in _split_top(inner)]
        if len(parts) == 1:
            words = parts[0].split()  # NumPy's print(): entries apart by spaces
            parts = words if all(_NUMBER.match(w) for w in words) else parts
        if any(p.startswith("[") for p in parts):
            raise InputError("a row mixes numbers and lists")
        return list(parts)  # a list[Tree] for mypy (lists are invariant)
    items, k = [], 0
    while k < len(inner):  # sublists apart by commas, or by spaces and newlines (NumPy)
        if inner[k] != "[":
            raise InputError("a row mixes numbers and lists")
        close = _closing(inner, k)
        items.append(_tree(inner[k:close + 1]))
        gap = re.match(r"\s*,?\s*", inner[close + 1:])
        assert gap is not None  # the pattern matches the empty string
        k = close + 1 + gap.end()
    return items


def _rows(tree: Tree) -> list[list[str]]:
    """Nested lists -> rows, leading singleton dimensions dropped."""
    while isinstance(tree, list) and len(tree) == 1 and isinstance(tree[0], list) \
            and tree[0] and isinstance(tree[0][0], list):
        tree = tree[0]
    if all(isinstance(x, str) for x in tree):
        return [list(cast("list[str]", tree))]
    if all(isinstance(x, list) and all(isinstance(y, str) for y in x) for x in tree):
        return [list(cast("list[str]", row)) for row in tree]
    raise InputError("a value with more than two dimensions; claim one matrix at a time")


def _split_top(text: str, allow_empty: bool = False) -> list[str]:
    """Split at the commas outside brackets."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth < 0:
                raise InputError("unbalanced brackets")
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    if depth != 0:
        raise InputError("unbalanced brackets")
    parts.append("".join(current))
    if not allow_empty and any(not p.strip() for p in parts):
        raise InputError("an empty entry between commas")
    return parts
