"""A problem set: numbered questions, then each worked solution, then a compact answer key."""

from __future__ import annotations

from dataclasses import dataclass

from ..derivation import Derivation
from ..printing.fit import Fit
from ..printing.printer import matrix_of, needs_cjk
from .blocks import Block, Display, Heading, Paragraph, segments
from .derivation import build, setup

SOLUTION_DEPTH = 2  # a derivation's headings go this many levels down


@dataclass(frozen=True)
class Exercise:
    """One problem's parts, built in a worker: question, solution and answer-key line."""

    question: tuple[Block, ...]
    solution: tuple[Block, ...]
    key: str  # display math: A = ..., O = ...
    wide_labels: bool


def exercise(d: Derivation) -> Exercise:
    """The blocks of one problem from its derivation (headings demoted for the solution)."""
    lang, t = d.options.lang, d.trace
    question = (*setup(d, Fit(d.options.width)), Paragraph(segments("set_task", lang)))
    solution = tuple(Heading(b.level + SOLUTION_DEPTH, b.segments) if isinstance(b, Heading) else b
                     for b in build(d)[1:])
    p = t.problem
    user_text = "".join((p.title or "",) + p.row_labels + p.column_labels)
    return Exercise(question, solution, rf"A = {matrix_of(t.A)},\quad O = {matrix_of(t.O)}",
                    needs_cjk(user_text))


def problemset_blocks(exercises: list[Exercise], lang: str) -> list[Block]:
    """Questions, solutions, answer key."""
    blocks: list[Block] = [Heading(1, segments("set_title", lang)),
                           Heading(2, segments("set_questions", lang))]
    for k, e in enumerate(exercises, start=1):
        blocks += [Heading(3, segments("set_question", lang, k=k)), *e.question]
    blocks.append(Heading(2, segments("set_solutions", lang)))
    for k, e in enumerate(exercises, start=1):
        blocks += [Heading(3, segments("set_solution", lang, k=k)), *e.solution]
    blocks.append(Heading(2, segments("set_key", lang)))
    blocks += [Display((rf"\text{{{k}.}}\quad {e.key}",)) for k, e in enumerate(exercises, start=1)]
    return blocks
