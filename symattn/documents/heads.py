"""Multi-head derivations: each head's derivation one level down, then Concat and W_O."""

from __future__ import annotations

from ..derivation import HeadsDerivation
from ..printing.fit import Fit
from ..printing.matrices import approx_cells, cells, matrix_lines
from ..printing.printer import matrix_of
from .blocks import Block, Display, Heading, Paragraph, segments, step, title_segments
from .checks import check_blocks, scientific
from .derivation import heatmap, summary
from .rounded import rounded
from .rounding import stage_cells
from .setup import projections, setup
from .textbook import textbook
from .walk import row_blocks


COUNTS = {"zh": dict(enumerate("一两三四五六七八九十", start=1)),
          "en": dict(enumerate("One Two Three Four Five Six Seven Eight Nine Ten".split(), start=1))}
"""Small counts in words at the start of a sentence: Two heads, 两个头."""


def build_heads(d: HeadsDerivation) -> list[Block]:
    """Title, what multi-head attention does, X once, each head (its projections, stages and
    checks), the concatenation and the output."""
    t, lang = d.trace, d.heads[0].options.lang
    fit = Fit(d.heads[0].options.width)
    count = COUNTS[lang].get(len(t.heads), len(t.heads))
    blocks: list[Block] = [Heading(1, title_segments(t.problem.title, t.problem.title_zh, lang,
                                                     "heads")),
                           step(segments("heads_text", lang, count=count, n=len(t.heads)),
                                Display((r"\operatorname{MHA}(X) = \operatorname{Concat}("
                                         r"\text{head}_1, \dots, \text{head}_h)\,W_O",)))]
    blocks += setup(d.heads[0], fit, projections_too=False)
    for k, head in enumerate(d.heads, start=1):
        blocks.append(Heading(2, segments("head", lang, k=k)))
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
                              cells(t.concat), None, fit, "C")
        output = matrix_lines(r"\operatorname{MHA}(X)", [
            ("=", r"C\,W_O"), ("=", matrix_of(t.concat) + matrix_of(d.W_O))],
            cells(t.output), approx_cells(d.decimals), fit, "O")
        shortened = bool(d.decimals) and not all(fit.fits(line) for line in concat + output)
    if shortened:  # exact entries wider than any line: decimals, each head's O stands above
        concat, output = _decimals_only(d, names, fit)
    blocks += [Heading(2, segments("concat", lang)), Display(tuple(concat)),
               step(segments("heads_output_weights", lang) + segments("tb_colon", lang),
                    Display(tuple(matrix_lines("W_O", [], cells(d.W_O), None, fit, "W_O")))),
               Display(tuple(output)),
               *([Paragraph(segments("heads_too_wide", lang))] if shortened else []),
               Paragraph(segments("shape", lang, rows=t.output.rows, cols=t.output.cols)),
               Paragraph(segments("heads_checked" if d.report.passed else "heads_failed", lang,
                                  digits=d.report.digits, difference=scientific(d.difference)))]
    return blocks


def _decimals_only(d: HeadsDerivation, names: str, fit: Fit) -> tuple[list[str], list[str]]:
    """C and MHA(X) by their decimals alone, for exact entries no line can hold: each head's
    exact output stands in its own section, and the sentence after MHA(X) says so."""
    concat = [[cell for head in d.heads for cell in (
        stage_cells(head, "O") if "O" in head.rounded else approx_cells(head.decimals["O"]))[i]]
              for i in range(d.trace.concat.rows)]
    return (_approx("C", "C", rf"\operatorname{{Concat}}({names})", concat, fit),
            _approx(r"\operatorname{MHA}(X)", "O", r"C\,W_O", approx_cells(d.decimals), fit))


def _approx(lhs: str, name: str, formula: str, rows: list[list[str]], fit: Fit) -> list[str]:
    """lhs = formula ≈ [rows] on one line if it fits, else one row to a line (name_{i,·}),
    each broken after a comma when it is too wide."""
    return matrix_lines(lhs, [("=", formula)], rows, None, fit, name, relation=r"\approx")
