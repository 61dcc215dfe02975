"""A problem set: numbered questions, then each worked solution, then a compact answer key."""

from __future__ import annotations

from dataclasses import dataclass

from ..derivation import Derivation, HeadsDerivation
from ..printing.fit import Fit, pack
from ..printing.matrices import cells, matrix_lines, stacked
from ..printing.printer import needs_cjk
from .blocks import Block, Display, Heading, Items, Paragraph, segments, step
from .derivation import build, setup
from .setup import head_terms, heads_differ
from .heads import build_heads
from .rounding import stage_cells
from .sums import keyed_sum, name_lines, named_cells, named_sums, over_sums, sum_definitions, wide_sums

SOLUTION_DEPTH = 2  # a derivation's headings go this many levels down


@dataclass(frozen=True)
class Exercise:
    """One problem's parts, built in a worker: question, solution and answer-key line."""

    question: tuple[Block, ...]
    solution: tuple[Block, ...]
    key: tuple[tuple[str, ...], ...]  # displays: the names used, Z_i, A = ..., O = ...
    wide_labels: bool


def exercise(d: Derivation) -> Exercise:
    """The blocks of one problem from its derivation (headings demoted for the solution)."""
    lang, t = d.options.lang, d.trace
    fit = Fit(d.options.width)
    question = (*setup(d, fit, stated=True), Paragraph(segments("set_task", lang)))
    solution = tuple(Heading(b.level + SOLUTION_DEPTH, b.segments) if isinstance(b, Heading) else b
                     for b in build(d)[1:])
    p = t.problem
    user_text = "".join((p.title or "",) + p.row_labels + p.column_labels)
    return Exercise(question, solution, key_lines(d, fit), needs_cjk(user_text))


def key_lines(d: Derivation, fit: Fit) -> tuple[tuple[str, ...], ...]:
    """A and O as the solution writes them (named values a, p, named sums Z_i, 3^{2/t}), laid
    out as its displays are (whole, row by row, entry by entry), after the names they use:
    each a display, short ones side by side."""
    shown, c, named = d.display, d.columns, sorted(named_sums(d))
    used = [n for n in d.names if shown["A"].has(n.symbol) or shown["O"].has(n.symbol)]
    for n in d.names:  # a name another one is written with (q = 1 − p) comes first
        if n not in used and any((u.formula if u.formula is not None else u.value).has(n.symbol)
                                 for u in used):
            used.insert(0, n)
    names = name_lines([n for n in d.names if n in used])
    definitions = [line.replace(" &= ", " = ", 1) for line in names] + \
        [f"Z_{{{i + 1}}} = {keyed_sum(d, i)}" for i in named]
    defined = pack(definitions, fit, r",\quad ") or [*names, *sum_definitions(d, named, fit)]
    answers = []
    for stage, sums in (("A", "E"), ("O", "N")):
        if stage in d.rounded:
            answers.append(matrix_lines(stage, [], stage_cells(d, stage), None, fit, stage,
                                        columns=c, relation=r"\approx"))
            continue
        answers.append(matrix_lines(stage, [], named_cells(d, stage), None, fit, stage,
                                    over_sums(d, sums), prefer_over=bool(wide_sums(d)),
                                    columns=c, factored=frozenset(named)))
    whole = [lines[0].replace(" &", " ", 1) for lines in answers if len(lines) == 1]
    side = pack(whole, fit) if len(whole) == len(answers) else None
    out = [tuple(side if side and len(side) == 1 else [x for lines in answers for x in lines])]
    return tuple([tuple(defined)] if defined else []) + tuple(out)


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
    differ = heads_differ(d.heads)  # each head's d_v, scale, τ and mask, said in the question
    question = (*setup(first, fit, projections_too=False, shared=not differ),
                Display(tuple(line for lines in per_head for line in lines)
                        + tuple(line for name, m in output
                                for line in stacked(name, cells(first.book(m))))),
                *([Items(tuple(head_terms(h, stated=True, k=k) for k, h in enumerate(d.heads, 1)))]
                  if differ else []),
                Paragraph(segments("set_task_heads", lang)))
    solution = tuple(Heading(b.level + SOLUTION_DEPTH, b.segments) if isinstance(b, Heading) else b
                     for b in build_heads(d)[1:])
    labels = "".join((t.problem.title or "",) + t.heads[0].problem.row_labels)
    mha = r"\operatorname{MHA}(X)"
    return Exercise(question, solution, (tuple(matrix_lines(mha, [], cells(first.book(t.output)),
                                                            None, fit, mha)),), needs_cjk(labels))


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
    blocks += [step(segments("set_key_item", lang, k=k), tuple(Display(lines) for lines in e.key))
               for k, e in enumerate(exercises, start=1)]
    return blocks
