"""Claims on a problem laid out in columns, judged as its book writes the matrices.

The engine computes in rows; a problem laid out in columns (Prince's book: X is D x N, A the
N x N matrix whose columns sum to 1, O = V A) is judged against every matrix transposed, so
"A[:,2]" is the second query's weights and "shape(O)" is d_v x n_q. Its classic mistakes are
transposed with it, and the wrong axis is mirrored: softmax over the columns of the engine's
logits is, in the book, softmax over rows ("rows").
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from ..model import Facts
from .head_mistakes import HeadMistakes
from .mistakes import MISTAKES, Mistakes
from .results import Mistake

MIRRORED = {"columns": "rows"}
"""Machine names of the mistakes a columns book names by the other axis."""
BOOK_MISTAKES = tuple(MIRRORED.get(name, name) for name in MISTAKES)


def book_facts(facts: Facts) -> Facts:
    """The facts with every matrix (and shape) transposed: the book's orientation."""
    matrices = None if facts.matrices is None else {
        name: sp.ImmutableMatrix(m.T) for name, m in facts.matrices.items()}
    shapes = {name: shape[::-1] for name, shape in facts.shapes.items()}
    return replace(facts, shapes=shapes, matrices=matrices, columns=True)


def engine_facts(facts: Facts) -> Facts:
    """The engine's own orientation of book facts (book_facts undone)."""
    if not facts.columns:
        return facts
    return replace(book_facts(facts), columns=False)


class BookMistakes:
    """A problem's classic mistakes as its columns book writes them: A' and O' transposed,
    softmax over columns named softmax over rows."""

    names = BOOK_MISTAKES

    def __init__(self, mistakes: Mistakes | HeadMistakes) -> None:
        self.mistakes = mistakes

    def __getitem__(self, name: str) -> Mistake:
        found = self.mistakes[_engine(name)]
        return Mistake(name, _turned(found.A), _turned(found.O), found.reason)

    def stages(self, name: str) -> dict[str, sp.ImmutableMatrix] | None:
        """The mistake's matrices (A, O, or every head's, C and O), transposed."""
        found = self.mistakes.stages(_engine(name))
        return None if found is None else {k: sp.ImmutableMatrix(m.T) for k, m in found.items()}

    def all(self) -> tuple[Mistake, ...]:
        """Every mistake, in the book's names."""
        return tuple(self[name] for name in self.names)


def _engine(name: str) -> str:
    """The engine's name of a mistake the book names by the other axis."""
    return next((engine for engine, book in MIRRORED.items() if book == name), name)


def _turned(m: sp.ImmutableMatrix | None) -> sp.ImmutableMatrix | None:
    """m transposed (None stays None)."""
    return None if m is None else sp.ImmutableMatrix(m.T)
