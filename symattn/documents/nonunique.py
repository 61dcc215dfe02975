"""NonUniqueness -> blocks: the set of weights with one output, row by row."""

from __future__ import annotations

from ..analyses.results import NonUniqueness, RowSet
from ..printing.printer import decimal_math, math, matrix
from .analysis_layout import mat, subtitle, vector
from ..words import phrase
from .blocks import Block, Display, Heading, Label, Paragraph, segments

SET = (r"W_i = \left\{ w \ge 0 : \textstyle\sum_j w_j v_j = o_i,\ \sum_j w_j = 1 \right\}")


def _approx(decimals) -> str:
    return rf" \approx \left({', '.join(map(decimal_math, decimals))}\right)"


def build_nonunique(nu: NonUniqueness, lang: str = "en", width: float = 345.0) -> list[Block]:
    """Every block of the non-uniqueness document, row by row."""
    p = nu.trace.problem
    blocks: list[Block] = [Heading(1, segments("nu_title", lang)), *subtitle(p, lang),
                           Paragraph(segments("nu_intro", lang)), Display((SET,))]
    for rs in nu.rows:
        blocks += row_blocks(nu, rs, lang)
    for i in nu.skipped:
        blocks.append(Paragraph(segments("nu_skipped", lang, row=i + 1)))
    blocks.append(Paragraph(segments("decimals_note", lang, places=nu.places)))
    return blocks


def row_blocks(nu: NonUniqueness, rs: RowSet, lang: str) -> list[Block]:
    p, i, d = nu.trace.problem, rs.row, rs.decimals or {}
    label = p.row_labels[i]
    head = segments("nu_row_label", lang, row=i + 1, label=Label(label)) \
        if label != str(i + 1) else segments("nu_row", lang, row=i + 1)
    out: list[Block] = [Heading(2, head), Paragraph(segments("nu_observed", lang)), Display((
        rf"a &= {vector(rs.weights)}{_approx(d['weights'])}",
        rf"o_{{{i + 1}}} &= {vector(rs.output)}{_approx(d['output'])}"))]
    keys = phrase("list_comma", lang).join(str(j + 1) for j in rs.support)
    rhs = matrix([[math(x)] for x in rs.output] + [["1"]])
    unknowns = matrix([[f"w_{{{j + 1}}}"] for j in rs.support])
    out += [Paragraph(segments("nu_system", lang, keys=keys)),
            Display((f"{mat(rs.system)}{unknowns} = {rhs}",)),
            Paragraph(segments("nu_rank", lang, rank=rs.rank, count=len(rs.support),
                               dim=rs.dimension))]
    if rs.unique:
        return out + [Paragraph(segments("nu_unique", lang))]
    out += [Paragraph(segments("nu_not_unique", lang, dim=rs.dimension)),
            Paragraph(segments("nu_null", lang)),
            Display(tuple(rf"n_{{{k + 1}}} &= {vector(n)}" for k, n in enumerate(rs.null_basis)))]
    if rs.segment is not None:
        t0, t1 = rs.segment
        out += [Paragraph(segments("nu_segment", lang)), Display((
            rf"{math(t0)} \le t \le {math(t1)} \qquad ({d['segment'][0]} \le t \le {d['segment'][1]})",))]
    intro = segments("nu_vertices", lang, count=len(rs.vertices)) if rs.complete \
        else segments("nu_ends", lang)
    out += [Paragraph(intro), Display(tuple(
        rf"w^{{({k + 1})}} &= {vector(w)}{_approx(dec)}"
        for k, (w, dec) in enumerate(zip(rs.vertices, d["vertices"]))))]
    out += pair_blocks(nu, rs, lang)
    return out


def pair_blocks(nu: NonUniqueness, rs: RowSet, lang: str) -> list[Block]:
    """The two far-apart distributions, their outputs written out, and the exact verdict."""
    p, d = nu.trace.problem, rs.decimals or {}
    first, second = rs.pair
    out: list[Block] = [
        Paragraph(segments("nu_pair", lang, distance=f"{math(rs.distance)} \\approx {decimal_math(d['distance'])}")),
        Display((rf"w &= {vector(first)}{_approx(d['pair'][0])}",
                 rf"w' &= {vector(second)}{_approx(d['pair'][1])}")),
        Paragraph(segments("nu_pair_check", lang))]
    lines = []
    for name, w in (("w", first), ("w'", second)):
        for c in range(p.d_v):
            terms = " + ".join(rf"{_paren(w[j])} \cdot {_paren(p.V[j, c])}" for j in rs.support)
            lines.append(rf"\textstyle\sum_j {name}_j V_{{j,{c + 1}}} &= {terms} = "
                         rf"{math(rs.output[c])}")
    out.append(Display(tuple(lines)))
    out.append(Paragraph(segments("nu_verified" if rs.verified else "nu_not_verified", lang)))
    if rs.tops and not set(rs.tops[0]) & set(rs.tops[1]):
        names = [phrase("list_comma", lang).join(p.column_labels[j] for j in top)
                 for top in rs.tops]
        out.append(Paragraph(segments("nu_top_differs", lang, first=Label(names[0]),
                                      second=Label(names[1]))))
    return out


def _paren(x) -> str:
    text = math(x)
    return rf"\left({text}\right)" if x.is_Add or x.could_extract_minus_sign() else text
