"""The classic mistakes of one problem as blocks: each mistake, its formula, its A' and O'."""

from __future__ import annotations

from collections.abc import Sequence

from ..answers.results import Mistake
from ..derivation import Derivation
from ..derivation.orientation import said
from ..printing.entries import equation_lines
from ..printing.fit import Fit
from ..printing.shared import definitions, shared_sums
from .analysis_layout import statement
from .blocks import Block, Display, Heading, Paragraph, fill, joined, segments, titled
from .setup import listing
from ..words import phrase


def mistake_blocks(groups: Sequence[tuple[str | None, Sequence[Mistake]]], lang: str,
                   width: float = 345.0, columns: bool = False,
                   problem: Derivation | None = None) -> list[Block]:
    """The title, the problem as solve states it and its correct A and O (from the derivation
    given), then per group (one head, or the output of every head mistaken alike) its title
    when there are several, and per mistake its name, formula and result; the matrices as
    shown (a columns book's already turned)."""
    fit, depth = Fit(width), 2 if len(groups) > 1 else 1
    space = "" if lang == "zh" else " "  # no space after a full-width stop
    first = groups[0][0] if depth == 1 and groups else None  # one group: its title leads
    blocks: list[Block] = [Heading(1, segments("mistakes_title", lang)),
                           *([Paragraph(titled(first))] if first else []),
                           *statement(problem, fit), *correct(problem, fit)]
    for title, found in groups:
        if title and depth == 2:
            blocks.append(Heading(2, titled(title)))
        for m in found:
            formula = segments(said(f"tex_formula_{m.name}", columns), lang)
            blocks.append(Heading(depth + 1, segments(said(f"tex_mistake_{m.name}", columns), lang)))
            if m.A is not None and m.O is not None:
                names = shared_sums([m.A, m.O])  # Z = 6 + e^{10}, then 2/Z: not 16 times
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


def correct(d: Derivation | None, fit: Fit) -> list[Block]:
    """The correct A and O, in the reader's layout, a shared row sum named once (Z)."""
    if d is None:
        return []
    lang, a, o = d.options.lang, d.book(d.trace.A), d.book(d.trace.O)
    names = shared_sums([a, o])
    words = fill(segments("tex_mistakes_correct_named", lang), listing(
        [(("math", z),) for z in definitions(names)], lang)) if names else \
        segments("tex_mistakes_correct", lang)
    return [Paragraph(words), Display(tuple(equation_lines("A", [], a, None, fit, "A", names)
                                            + equation_lines("O", [], o, None, fit, "O", names)))]
