"""The classic mistakes of one problem as blocks: each mistake, its formula, its A' and O'."""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from ..answers.results import Mistake
from ..derivation import Derivation
from ..derivation.orientation import heads_output, said
from ..printing.entries import equation_lines
from ..printing.fit import Fit
from ..printing.matrices import matrix_lines
from ..printing.shared import definitions, shared_sums
from .analysis_layout import problem_title, statement
from .blocks import Block, Display, Heading, Paragraph, fill, joined, segments, step, titled
from .setup import listing
from .sums import keyed_sum, named_cells, named_sums, over_sums, wide_sums
from ..words import phrase


def mistake_blocks(groups: Sequence[tuple[str | None, Sequence[Mistake]]], lang: str,
                   width: float = 345.0, columns: bool = False,
                   stated: Sequence[Derivation | None] = (),
                   output: Sequence[tuple[str, sp.MatrixBase]] = ()) -> list[Block]:
    """The title, then per group (one head, or the output of every head mistaken alike) its
    title when there are several, the problem as solve states it and its correct A and O (from
    the group's derivation in stated, if any; for the group after the heads, the output's
    inputs and its correct value: output, (W_O, …), (b_O, …), (MHA(X), …)), and per mistake its
    name, formula and result; the matrices as shown (a columns book's already turned)."""
    fit, depth = Fit(width), 2 if len(groups) > 1 else 1
    space = "" if lang == "zh" else " "  # no space after a full-width stop
    first = groups[0][0] if depth == 1 and groups else None  # one group: its title leads
    blocks: list[Block] = [Heading(1, segments("mistakes_title", lang)),
                           *([Paragraph(problem_title(first, lang))] if first else [])]
    for k, (title, found) in enumerate(groups):
        if title and depth == 2:
            blocks.append(Heading(2, titled(title)))
        if k < len(stated):  # a head's Q, K, V and its correct result before its mistakes
            blocks += [*statement(stated[k], fit), *correct(stated[k], fit)]
        elif k == len(stated):  # the group after the heads: W_O and MHA(X) done correctly
            blocks += _correct_output(output, len(stated), lang, fit, columns)
        for m in found:
            formula = segments(said(f"tex_formula_{m.name}", columns), lang)
            blocks.append(Heading(depth + 1, segments(said(f"tex_mistake_{m.name}", columns), lang)))
            if m.A is not None and m.O is not None:
                names = shared_sums([m.A, m.O], "Z'")  # Z' = 6 + e^{10}, then 2/Z': not 16 times
                gives = fill(segments("tex_mistake_gives_named", lang), listing(
                    [(("math", z),) for z in definitions(names)], lang)) if names else \
                    segments("tex_mistake_gives", lang)
                blocks += [Paragraph(joined(formula, gives, separator=space)),
                           Display(tuple(equation_lines("A'", [], m.A, None, fit, "A'", names)
                                         + equation_lines("O'", [], m.O, None, fit, "O'", names)))]
            elif m.O is not None:
                blocks += [Paragraph(joined(formula, segments("tex_mistake_output", lang), separator=space)),
                           Display(tuple(equation_lines(r"\operatorname{MHA}'(X)", [], m.O, None,
                                                        fit, "O'")))]
            else:
                blocks.append(Paragraph(joined(formula, segments(
                    "tex_mistake_skipped", lang, reason=phrase(f"mistake_{m.reason}", lang)),
                    separator=space)))
    return blocks


def _correct_output(output: Sequence[tuple[str, sp.MatrixBase]], heads: int, lang: str,
                    fit: Fit, columns: bool) -> list[Block]:
    """W_O (and b_O) the heads' mistaken outputs go through, then MHA(X) done correctly, as
    the concatenation of the heads above times W_O."""
    if not output:
        return []
    *inputs, (lhs, value) = output
    lines = [line for name, m in inputs for line in equation_lines(name, [], m, None, fit, name)]
    concat = r"\operatorname{Concat}(" + ", ".join(
        rf"\text{{head}}_{{{k}}}" for k in range(1, heads + 1)) + ")"
    formula = heads_output(len(inputs) > 1, columns, concat)
    return [step(segments("heads_output_weights", lang) + segments("tb_colon", lang),
                 Display(tuple(lines))),
            Paragraph(segments("tex_mistakes_correct_output", lang)),
            Display(tuple(equation_lines(lhs, [("=", formula)], value, None, fit, "O")))]


def correct(d: Derivation | None, fit: Fit) -> list[Block]:
    """The correct A and O as solve writes them, in the reader's layout: a row over its Z_i,
    named and numbered as there (Z_2 = e^{40√3/51} + 1 for row 2); with rounded stages (long
    decimals) the exact values, a shared denominator named once."""
    if d is None:
        return []
    lang, named = d.options.lang, sorted(named_sums(d))
    if d.rounded:  # its shown stages are decimals: the exact values, as before the Z_i
        a, o = d.book(d.trace.A), d.book(d.trace.O)
        names = shared_sums([a, o])
        lines = equation_lines("A", [], a, None, fit, "A", names) + \
            equation_lines("O", [], o, None, fit, "O", names)
        sums = definitions(names)
    else:
        lines = [line for stage, numerators in (("A", "E"), ("O", "N"))
                 for line in matrix_lines(stage, [], named_cells(d, stage), None, fit, stage,
                                          over_sums(d, numerators), prefer_over=bool(wide_sums(d)),
                                          columns=d.columns, factored=frozenset(named))]
        sums = [f"Z_{{{i + 1}}} = {keyed_sum(d, i)}" for i in named]
    words = fill(segments("tex_mistakes_correct_named", lang), listing(
        [(("math", z),) for z in sums], lang)) if sums else segments("tex_mistakes_correct", lang)
    return [Paragraph(words), Display(tuple(lines))]
