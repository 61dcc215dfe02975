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
    return Exercise(question, solution, rf"A = {matrix_of(t.A)},\quad O = {matrix_of(t.O)}",
                    needs_cjk(user_text))


def heads_exercise(d: HeadsDerivation) -> Exercise:
    """The blocks of one multi-head problem: X, every head's projections and W_O as the question;
    the derivation of every head and the output as the solution; MHA(X) in the key."""
    lang, t = d.heads[0].options.lang, d.trace
    fit = Fit(d.heads[0].options.width)
    given = [item for k, h in enumerate(t.heads, start=1) for w in ("Q", "K", "V")
             for item in stacked(rf"W_{{{w}}}^{{({k})}}",
                                 cells(getattr(h.problem.projections, "W_" + w)))]
    per_head = [pack(given[i:i + 3], fit) or given[i:i + 3] for i in range(0, len(given), 3)]
    question = (*setup(d.heads[0], fit, projections_too=False),
                Display(tuple(line for lines in per_head for line in lines)
                        + tuple(stacked("W_O", cells(t.problem.W_O)))),
                Paragraph(segments("set_task_heads", lang)))
    solution = tuple(Heading(b.level + SOLUTION_DEPTH, b.segments) if isinstance(b, Heading) else b
                     for b in build_heads(d)[1:])
    labels = "".join((t.problem.title or "",) + t.heads[0].problem.row_labels)
    return Exercise(question, solution, rf"\operatorname{{MHA}}(X) = {matrix_of(t.output)}",
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
