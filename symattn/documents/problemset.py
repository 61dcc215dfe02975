"""A problem set: numbered questions, then each worked solution, then a compact answer key."""

from __future__ import annotations

from dataclasses import dataclass

from ..derivation import Derivation, HeadsDerivation
from ..printing.fit import Fit, pack
from ..printing.matrices import cells, stacked
from ..printing.printer import matrix_of, needs_cjk
from .blocks import Block, Display, Heading, Paragraph, segments
from .derivation import build, setup
from .heads import build_heads

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
    return Exercise(question, solution,
                    rf"A = {matrix_of(d.book(t.A))},\quad O = {matrix_of(d.book(t.O))}",
                    needs_cjk(user_text))


def heads_exercise(d: HeadsDerivation) -> Exercise:
    """The blocks of one multi-head problem: X, every head's projections and W_O as the question;
    the derivation of every head and the output as the solution; MHA(X) in the key."""
    lang, t, first = d.heads[0].options.lang, d.trace, d.heads[0]
    fit = Fit(first.options.width)
    row = "" if first.columns else r"\mathsf T"  # a bias is a row (b^T) in the row layout
    per_head = []
    for k, h in enumerate(d.heads, start=1):
        names = {w: rf"{w[0]}_{{{w[-1]}}}^{{({k})" + (row if w[0] == "b" else "") + "}"
                 for w in ("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V") if w in h.display}
        items = [item for w, name in names.items() for item in stacked(name, cells(h.shown(w)))]
        per_head += [pack(items[i:i + 3], fit) or items[i:i + 3] for i in range(0, len(items), 3)]
    output = [("W_O", t.problem.W_O)] + ([(f"b_O^{{{row}}}" if row else "b_O", t.problem.b_O)]
                                         if t.problem.b_O is not None else [])
    question = (*setup(first, fit, projections_too=False),
                Display(tuple(line for lines in per_head for line in lines)
                        + tuple(line for name, m in output
                                for line in stacked(name, cells(first.book(m))))),
                Paragraph(segments("set_task_heads", lang)))
    solution = tuple(Heading(b.level + SOLUTION_DEPTH, b.segments) if isinstance(b, Heading) else b
                     for b in build_heads(d)[1:])
    labels = "".join((t.problem.title or "",) + t.heads[0].problem.row_labels)
    return Exercise(question, solution, rf"\operatorname{{MHA}}(X) = {matrix_of(first.book(t.output))}",
                    needs_cjk(labels))


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
