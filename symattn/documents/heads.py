"""Multi-head derivations: each head's derivation one level down, then Concat and W_O."""

from __future__ import annotations

from ..derivation import HeadsDerivation
from ..derivation.orientation import T, bias_term, heads_output, said
from ..printing.fit import Fit
from ..printing.matrices import approx_cells, cells, matrix_lines
from ..printing.printer import matrix_of
from .blocks import Block, Display, Heading, Paragraph, segments, step, title_segments
from .checks import check_blocks, scientific
from .derivation import heatmap, summary
from .notation import explain_blocks
from .rounded import rounded
from .rounding import stage_cells
from .setup import head_terms, heads_differ, projections, setup
from .textbook import textbook
from .walk import row_blocks


COUNTS = {"zh": dict(enumerate("一两三四五六七八九十", start=1)),
          "en": dict(enumerate("One Two Three Four Five Six Seven Eight Nine Ten".split(), start=1))}
"""Small counts in words at the start of a sentence: Two heads, 两个头."""


MHA = r"\operatorname{MHA}(X)"  # its rows MHA(X)_{1,·}: O_{1,·} is one head's output


def build_heads(d: HeadsDerivation) -> list[Block]:
    """Title, what multi-head attention does, X once, each head (its projections, stages and
    checks), the concatenation and the output."""
    t, lang = d.trace, d.heads[0].options.lang
    fit = Fit(d.heads[0].options.width)
    c, p = d.heads[0].columns, t.problem
    count = COUNTS[lang].get(len(t.heads), len(t.heads))
    formula = heads_output(p.b_O is not None, c,
                           r"\operatorname{Concat}(\text{head}_1, \dots, \text{head}_h)")
    blocks: list[Block] = [Heading(1, title_segments(p.title, p.title_zh, lang, "heads")),
                           step(segments(said("heads_text", c), lang, count=count, n=len(t.heads)),
                                Display((rf"\operatorname{{MHA}}(X) = {formula}",)))]
    if p.num_heads:
        blocks.append(Paragraph(segments(said("heads_split", c), lang, h=p.num_heads,
                                         d_k=t.heads[0].problem.d_k, d_v=t.heads[0].problem.d_v)))
    differ = heads_differ(d.heads)  # then each head says its own d_v, τ and mask
    blocks += setup(d.heads[0], fit, projections_too=False, shared=not differ)
    for k, head in enumerate(d.heads, start=1):
        blocks.append(Heading(2, segments("head", lang, k=k)))
        if differ:
            blocks.append(Paragraph(head_terms(head)))
        inner = projections(head, fit) + (
            rounded(head, fit) if head.rounded else
            summary(head, fit) if head.options.detail == "summary" else textbook(head, fit))
        for steps in head.rows:
            inner += row_blocks(head, steps, fit)
        inner += heatmap(head)
        inner += check_blocks(head)
        blocks += [Heading(b.level + 1, b.segments) if isinstance(b, Heading) else b
                   for b in inner]
    names = ", ".join(rf"\text{{head}}_{{{k}}}" for k in range(1, len(t.heads) + 1))
    if any("O" in head.rounded for head in d.heads):
        concat, output = _decimals_only(d, names, fit)
        shortened = False  # each head's rounding is said where it begins
    else:
        concat = matrix_lines("C", [("=", rf"\operatorname{{Concat}}({names})")],
                              cells(t.concat), None, fit, "C", columns=c)
        book = [d.heads[0].book(m) for m in (d.W_O, t.concat)]
        product = matrix_of(book[0]) + matrix_of(book[1]) if c else \
            matrix_of(t.concat) + matrix_of(d.W_O)
        if d.b_O is not None:
            product += " + " + bias_term(matrix_of(d.heads[0].book(d.b_O)), c)
        output = matrix_lines(MHA, [
            ("=", heads_output(p.b_O is not None, c)), ("=", product)],
            cells(t.output), approx_cells(d.decimals), fit, MHA, columns=c)
        shortened = bool(d.decimals) and not all(fit.fits(line) for line in concat + output)
    if shortened:  # exact entries wider than any line: decimals, each head's O stands above
        concat, output = _decimals_only(d, names, fit)
    weights = matrix_lines("W_O", [], cells(d.W_O), None, fit, "W_O", columns=c)
    if d.b_O is not None:
        weights += matrix_lines("b_O" if c else f"b_O{T}", [], cells(d.b_O), None, fit, "b_O",
                                columns=c)
    blocks += [Heading(2, segments("concat", lang)), Display(tuple(concat)),
               step(segments("heads_output_weights", lang) + segments("tb_colon", lang),
                    Display(tuple(weights))),
               Display(tuple(output)),
               *([Paragraph(segments("heads_too_wide", lang))] if shortened else []),
               Paragraph(segments("shape", lang, rows=d.heads[0].book(t.output).rows,
                                  cols=d.heads[0].book(t.output).cols)),
               *_checked(d, lang)]
    return explain_blocks(blocks, lang)


def _decimals_only(d: HeadsDerivation, names: str, fit: Fit) -> tuple[list[str], list[str]]:
    """C and MHA(X) by their decimals alone, for exact entries no line can hold: each head's
    exact output stands in its own section, and the sentence after MHA(X) says so."""
    concat = [[cell for head in d.heads for cell in (
        stage_cells(head, "O") if "O" in head.rounded else approx_cells(head.decimals["O"]))[i]]
              for i in range(d.trace.concat.rows)]
    c, biased = d.heads[0].columns, d.trace.problem.b_O is not None
    return (_approx("C", "C", rf"\operatorname{{Concat}}({names})", concat, fit, c),
            _approx(MHA, MHA, heads_output(biased, c),
                    approx_cells(d.decimals), fit, c))


def _approx(lhs: str, name: str, formula: str, rows: list[list[str]], fit: Fit,
            columns: bool = False) -> list[str]:
    """lhs = formula ≈ [rows] on one line if it fits, else one row to a line (name_{i,·}; one
    query's column, name_{·,i}, in a problem laid out in columns), each broken after a comma
    when it is too wide; rows: one per query."""
    return matrix_lines(lhs, [("=", formula)], rows, None, fit, name, columns=columns,
                        relation=r"\approx")


def _checked(d: HeadsDerivation, lang: str) -> list[Block]:
    """The output's check as --checks asks: one sentence (short), with its digits and largest
    difference (full), or nothing (none); a check that does not pass is always said."""
    checks = d.heads[0].options.checks
    if not d.report.passed:
        return [Paragraph(segments("heads_failed", lang))]
    if checks == "none":
        return []
    key = "heads_checked" if checks == "full" else "heads_checked_short"
    return [Paragraph(segments(key, lang, digits=d.report.digits,
                               difference=scientific(d.difference)))]
