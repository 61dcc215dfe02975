"""The structure of a claimed value as people paste it: a number, a tuple, nested lists, or a NumPy or
PyTorch printout -> rows of entry texts (each entry is then parsed by the project's parser).

    (1/6, 1/2, 1/3)                 one row
    [[0.1, 0.2], [0.3, 0.4]]        rows
    [[0.1 0.2]\\n [0.3 0.4]]         NumPy's print(): entries apart by spaces, rows by newlines
    array([[0.1, 0.2]], dtype=float32), tensor([[0.1000, 0.2000]], grad_fn=<...>), tf.Tensor(...)
    [0.5, 0.5]\\n[0.2, 0.8]          rows printed one a line; a leading '# ' (a code comment) is dropped
    53%, 9%, 38%                    a list without brackets
    \\begin{bmatrix} 0.5 & 0.5 \\\\ 1 & 0 \\end{bmatrix}   LaTeX (\\frac, \\sqrt, \\cdot become a/b, sqrt, *)

    <tf.Tensor: shape=(3, 4), dtype=float32, numpy=array([[...]], dtype=float32)>   a notebook's repr

Axes of size 1 are dropped (a batch of one, a single query: shape (3, 1, 5) is 3x5); a batch of
several matrices needs an index saying which one (batches.matrix_rows); a stated shape=(...) must
be what the brackets hold. A shortened printout (NumPy's "...") is refused.
"""

from __future__ import annotations

import re
from typing import TypeAlias

from ..errors import InputError
from ..limits import MAX_PRINTOUT_AXES
from .batches import matrix_rows
from .tokens import fold

_WRAPPER = re.compile(r"^(?:np\.|numpy\.|torch\.|tf\.)?(tensor|Tensor|array)\((.*)\)$", re.S)
_LATEX = re.compile(r"^\\(?:begin\{(?P<env>[a-zA-Z]*matrix\*?|array)\}(?:\{[^}]*\})?|b[a-z]*mat\b)"
                    r"(?P<body>.*?)\\(?:end\{(?P=env)\}|e[a-z]*mat\b)$", re.S)
_LATEX_ROWS = re.compile(r"\\\\|\\(?=\s)")  # \\ ends a row (and "\ ", a lost backslash)
_LATEX_WORDS = ((r"\left", ""), (r"\right", ""), (r"\cdot", "*"), (r"\times", "*"),
                (r"\,", ""), (r"\;", ""), (r"\!", ""), (r"\ln", "ln"), (r"\exp", "exp"))
_REPR = re.compile(r"^<tf\.Tensor:(?:\s*id=\d+,)?\s*shape=(?P<shape>\([\d,\s]*\)),\s*dtype=\w+,"
                   r"\s*numpy=(?P<body>.*)>$", re.S)
_KEYWORD = re.compile(r"^\s*[A-Za-z_]\w*\s*=")
_SHAPE = re.compile(r"^\s*shape\s*=\s*\(([\d,\s]*)\)\s*$")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
Tree: TypeAlias = "str | list[Tree]"


def split_structure(text: str, index: tuple[int, ...] | None = None) -> list[list[str]]:
    """Rows of entry texts: '[[a, b], [c, d]]' -> [[a, b], [c, d]]; '(a, b)' -> [[a, b]]; 'a' -> [[a]];
    of a batched printout, the matrix that index names (counted from 0).

    Raises:
        BatchError: several matrices and no index, or an index that does not fit.
        InputError: anything else unreadable (the claim is then invalid).
    """
    tree, stated = printout_tree(text)
    return matrix_rows(tree, index, stated)


def printout_tree(text: str) -> tuple[Tree, tuple[int, ...] | None]:
    """A printout as nested lists of entry texts, and the shape it states (shape=(2, 3))."""
    lines = text.replace("\r", "").split("\n")
    if len(lines) > 1:  # printed in code comments: '# [0.5, 0.5]'
        lines = [re.sub(r"^\s*#\s?", "", line) for line in lines]
    folded = "".join(c for c, _ in fold(" ".join(lines))).strip()
    if (latex := _LATEX.match(folded)):
        return [[_latex_entry(e) for e in row.split("&")]
                for row in _LATEX_ROWS.split(latex["body"]) if row.strip()], None
    folded, stated = _unwrapped(folded)
    if "..." in folded:
        raise InputError("a shortened printout (with '...') lacks entries; print the whole array")
    if folded.startswith("[") and folded.endswith("]"):
        if _closing(folded, 0) != len(folded) - 1:  # rows printed one a line: [a, b] [c, d]
            folded = f"[{folded}]"
        return _tree(folded), stated
    if folded.startswith("(") and _closing(folded, 0) == len(folded) - 1:
        inner = _split_top(folded[1:-1])
        if len(inner) > 1:
            return [part.strip() for part in inner], stated
    parts: list[Tree] = [part.strip() for part in _split_top(folded)]  # one entry, or a list
    return (parts if len(parts) > 1 else parts[0]), stated


def _latex_entry(text: str) -> str:
    """A LaTeX matrix entry in the expression syntax: \\frac{a}{b} -> (a)/(b), braces -> parentheses."""
    for command, plain in _LATEX_WORDS:
        text = text.replace(command, plain)
    while (match := re.search(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", text)):
        text = text[:match.start()] + f"({match[1]})/({match[2]})" + text[match.end():]
    text = re.sub(r"\\sqrt\{([^{}]*)\}", r"sqrt(\1)", text)
    return text.replace("{", "(").replace("}", ")").strip()


def _unwrapped(text: str) -> tuple[str, tuple[int, ...] | None]:
    """The data of array(...), tensor(...) or a notebook's <tf.Tensor: ...> (keyword arguments
    dropped), and the shape it states (TensorFlow's shape=(3, 1, 5)), if it states one."""
    if (shown := _REPR.match(text)):
        body, stated = _unwrapped(shown["body"].strip())
        return body, stated or _shape(shown["shape"])
    match = _WRAPPER.match(text)
    if not match:
        return text, None
    first, *rest = _split_top(match[2], allow_empty=True)
    if any(not _KEYWORD.match(part) for part in rest):
        raise InputError(f"a {match[1]}(...) printout holds one array and keyword arguments")
    stated = next((_shape(part.split("=", 1)[1]) for part in rest if _SHAPE.match(part)), None)
    return first.strip(), stated


def _shape(text: str) -> tuple[int, ...]:
    """'(3, 1, 5)' -> (3, 1, 5); '(5,)' -> (5,); '()' -> ()."""
    return tuple(int(x) for x in text.strip().strip("()").split(",") if x.strip())


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


def _tree(text: str, depth: int = 1) -> Tree:
    """One bracketed list -> its sublists, or its entry texts."""
    if depth > MAX_PRINTOUT_AXES:
        raise InputError(f"a value of more than {MAX_PRINTOUT_AXES} axes", code="read_axes",
                         values=(str(MAX_PRINTOUT_AXES),))
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
        items.append(_tree(inner[k:close + 1], depth + 1))
        gap = re.match(r"\s*,?\s*", inner[close + 1:])
        assert gap is not None  # the pattern matches the empty string
        k = close + 1 + gap.end()
    return items


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
