"""NonUniqueness -> blocks: the set of weights with one output, row by row."""

from __future__ import annotations

from ..analyses.results import NonUniqueness, RowSet
from ..derivation import Derivation
from ..derivation.names import free_letter
from ..printing.entries import adds_nothing, entry_lines, fits, vector_lines
from ..printing.measure import width
from ..printing.fit import Fit, chain
from ..printing.printer import decimal_math, math, matrix
from ..printing.shared import definitions, over_name, shared_sums
from .analysis_layout import mat, statement, subtitle
from ..words import phrase
from .blocks import Block, Display, Heading, Label, Paragraph, fill, segments

SHORT = 80.0  # points: a distance wider than this goes in a display of its own, not in prose
ARTICLE = Fit(345.0)  # the text block of an article or a book at 10 pt
SET = (r"W_i = \left\{ w \ge 0 : \textstyle\sum_j w_j v_j = o_i,\ \sum_j w_j = 1 \right\}")


def _numbers(decimals) -> list[str]:
    return [decimal_math(x) for x in decimals]


def build_nonunique(nu: NonUniqueness, lang: str = "en", width: float = 345.0,
                    problem: Derivation | None = None) -> list[Block]:
    """Every block of the non-uniqueness document: the problem as solve states it (from the
    derivation given: Q, K, V, the scores and logits), then row by row."""
    p, fit = nu.trace.problem, Fit(width)
    blocks: list[Block] = [Heading(1, segments("nu_title", lang)), *subtitle(p, lang),
                           *statement(problem, fit), Paragraph(segments("nu_intro", lang)),
                           Display((SET,))]
    for rs in nu.rows:
        blocks += row_blocks(nu, rs, lang, fit)
    for i in nu.skipped:
        blocks.append(Paragraph(segments("nu_skipped", lang, row=i + 1)))
    blocks.append(Paragraph(segments("decimals_note", lang, places=nu.places)))
    return blocks


def row_blocks(nu: NonUniqueness, rs: RowSet, lang: str, fit: Fit = ARTICLE) -> list[Block]:
    """One row: its weights and output, the system, the null space, the set's vertices, and
    two far-apart weights with the same output; every display fitted to the width."""
    p, i, d = nu.trace.problem, rs.row, rs.decimals or {}
    label = p.row_labels[i]
    head = segments("nu_row_label", lang, row=i + 1, label=Label(label)) \
        if label != str(i + 1) else segments("nu_row", lang, row=i + 1)
    names = shared_sums([rs.weights, rs.output])
    names = dict.fromkeys(names, "Z") if len(names) == 1 else {}  # Z as in a_j = e^{L_j}/Z
    observed = fill(segments("nu_observed_named", lang), (("math", definitions(names)[0]),)) \
        if names else segments("nu_observed", lang)
    out: list[Block] = [Heading(2, head), Paragraph(observed), Display(tuple(
        vector_lines("a", list(rs.weights), fit, _numbers(d["weights"]), names)
        + vector_lines(f"o_{{{i + 1}}}", list(rs.output), fit, _numbers(d["output"]), names)))]
    keys = phrase("list_comma", lang).join(str(j + 1) for j in rs.support)
    rhs = matrix([[over_name(x, names, slash=False)] for x in rs.output] + [["1"]])
    unknowns = matrix([[f"w_{{{j + 1}}}"] for j in rs.support])
    system = [f"{mat(rs.system)}{unknowns} = {rhs}"]
    if not fits(system, fit):
        system = _equations(rs, fit)
    out += [Paragraph(segments("nu_system", lang, keys=keys)), Display(tuple(system)),
            Paragraph(segments("nu_rank", lang, rank=rs.rank, count=len(rs.support),
                               dim=rs.dimension))]
    if rs.unique:
        return out + [Paragraph(segments("nu_unique", lang))]
    out += [Paragraph(segments("nu_not_unique", lang, dim=rs.dimension)),
            Paragraph(segments("nu_null", lang)),
            Display(tuple(line for k, n in enumerate(rs.null_basis)
                          for line in vector_lines(f"n_{{{k + 1}}}", list(n), fit)))]
    if rs.segment is not None:
        t0, t1 = rs.segment
        t = free_letter(("t", "u", "z"), nu.trace.problem)  # the step, no token's label
        a, b = (decimal_math(x) for x in d["segment"])
        plain = adds_nothing(t0, d["segment"][0]) and adds_nothing(t1, d["segment"][1])
        about = "" if plain else rf" \qquad ({a} \le {t} \le {b})"  # −99/100 ≤ t ≤ 1/100: no ≈
        lines = [rf"{math(t0)} \le {t} \le {math(t1)}{about}"]
        if not fits(lines, fit):
            lines = [rf"{t} &\ge {math(t0)}", rf"{t} &\le {math(t1)}"] + (
                [] if plain else [rf"&\bigl({a} \le {t} \le {b}\bigr)"])
        out += [Paragraph(segments("nu_segment", lang, t=t)), Display(tuple(lines))]
    intro = segments("nu_vertices", lang, count=len(rs.vertices)) if rs.complete \
        else segments("nu_ends", lang)
    out += [Paragraph(intro), Display(tuple(
        line for k, (w, dec) in enumerate(zip(rs.vertices, d["vertices"]))
        for line in vector_lines(f"w^{{({k + 1})}}", list(w), fit, _numbers(dec))))]
    out += pair_blocks(nu, rs, lang, fit)
    return out


def pair_blocks(nu: NonUniqueness, rs: RowSet, lang: str, fit: Fit = ARTICLE) -> list[Block]:
    """The two far-apart distributions, their outputs written out, and the exact verdict."""
    p, d = nu.trace.problem, rs.decimals or {}
    first, second = rs.pair
    distance = math(rs.distance, inline=True) if adds_nothing(rs.distance, d["distance"]) else \
        f"{math(rs.distance, inline=True)} \\approx {decimal_math(d['distance'])}"
    out: list[Block] = [
        Paragraph(segments("nu_pair", lang, distance=distance)) if fit.fits(distance)
        and width(distance) < SHORT else Paragraph(segments("nu_pair_long", lang)),
        *([] if fit.fits(distance) and width(distance) < SHORT else [Display(tuple(entry_lines(
            r"d_{\mathrm{TV}}(w, w')", rs.distance, fit, decimal_math(d["distance"]))))]),
        Display(tuple(vector_lines("w", list(first), fit, _numbers(d["pair"][0]))
                      + vector_lines("w'", list(second), fit, _numbers(d["pair"][1])))),
        Paragraph(segments("nu_pair_check", lang))]
    lines = []
    for name, w in (("w", first), ("w'", second)):
        for c in range(p.d_v):
            terms = [rf"{_paren(w[j])} \cdot {_paren(p.V[j, c])}" for j in rs.support]
            lhs = rf"\textstyle\sum_j {name}_j V_{{j,{c + 1}}}"
            pieces = [("=", terms[0])] + [("+", t) for t in terms[1:]] + [("=", math(rs.output[c]))]
            lines += chain(lhs, pieces, fit, at=60.0) or \
                [f"{lhs} &= {' + '.join(terms)} = {math(rs.output[c])}"]
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


def _equations(rs: RowSet, fit: Fit) -> list[str]:
    """The system one equation to a line, broken at its plus signs: Σ_j V_{j,c} w_j = o_c,
    then Σ_j w_j = 1."""
    lines = []
    for c in range(rs.system.rows):
        terms = [rf"{_paren(rs.system[c, k])}\, w_{{{j + 1}}}" for k, j in enumerate(rs.support)
                 if rs.system[c, k] != 0]
        rhs = math(rs.output[c]) if c < len(rs.output) else "1"
        first, rest = (terms[0], terms[1:]) if terms else ("0", [])
        lines += chain(first, [("+", t) for t in rest] + [("=", rhs)], fit) or \
            [f"{first} " + " ".join(f"+ {t}" for t in rest) + f" &= {rhs}"]
    return lines
