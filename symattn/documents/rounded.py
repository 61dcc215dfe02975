"""The body of a derivation whose stages are too long to write exactly (long decimals such as
NumPy's float64): each stage with its reason and its decimals, marked ≈, as a book shows a
worked example on random weights; the exact values stay underneath and the checks use them.
A problem laid out in columns has them in its book's orientation (Kᵀ Q, V A, a query per column)."""

from __future__ import annotations

from ..derivation import Derivation
from ..derivation.orientation import output, said, scores
from ..printing.fit import Fit
from ..printing.matrices import matrix_lines
from ..printing.printer import approx, math, tau_equation
from .blocks import Block, Display, Segment, segments, step
from .rounding import rounding_note, stage_cells
from .textbook import logit_sum, masks_given, same_logits

APPROX = r"\approx"


def rounded(d: Derivation, fit: Fit) -> list[Block]:
    """Why the values are decimals, then R, S, M, L, E with Z, A and O, each ≈ its decimals."""
    note = [] if d.rounded & {"Q", "K", "V"} else [rounding_note(d)]
    return note + _scores(d, fit) + _logits(d, fit) + _weights(d, fit) + _output(d, fit)


def _lines(d: Derivation, lhs: str, formulas: list[tuple[str, str]], stage: str, fit: Fit,
           name: str | None = None) -> list[str]:
    relation = APPROX if stage in d.rounded else "="
    return matrix_lines(lhs, formulas, stage_cells(d, stage), None, fit, name or stage,
                        columns=d.columns, relation=relation)


def _scores(d: Derivation, fit: Fit) -> list[Block]:
    lang, p = d.options.lang, d.trace.problem
    if p.start in ("S", "L"):
        return []
    same = " = L" if same_logits(d) else ""
    tail = segments("tb_same_logits", lang) if same else ()
    lines = _lines(d, "R", [("=", scores(d.columns))], "R", fit) if p.start == "Q" else []
    if p.scale is None and d.scalars["root"] == 1 or p.scale == 1:
        key = "tb_scale_one" if p.scale is None else "tb_scale_none"
        lines = _lines(d, "R = S" + same, [("=", scores(d.columns))], "R", fit, "R")
        return [step(segments(key, lang) + tail + segments("tb_colon", lang), Display(tuple(lines)))]
    if p.scale is None:
        lead = segments("tb_scale_root", lang, root=math(d.scalars["root"]))
        factor = rf"\frac{{R}}{{{math(d.scalars['root'])}}}"
    else:
        lead = segments("tb_scale_given", lang, s=math(d.scalars["s"], slash=True))
        factor = f"{math(d.scalars['s'], slash=True)}R"
    lines += _lines(d, "S" + same, [("=", factor)], "S", fit)
    return [step(lead + tail + segments("tb_colon", lang), Display(tuple(lines)))]


def _logits(d: Derivation, fit: Fit) -> list[Block]:
    lang, p = d.options.lang, d.trace.problem
    if same_logits(d):
        return []
    blocks: list[Block] = []
    if masks_given(d):
        blocks.append(step(segments("tb_mask_matrix", lang) + segments("tb_colon", lang),
                           Display(tuple(_lines(d, "M", [], "M", fit)))))
    if p.start == "L":
        return blocks
    formula = rf"\frac{{{logit_sum(d)}}}{{\tau}}"
    words = segments("tb_logits_plain", lang, tau=tau_equation(d.scalars["tau"]))
    return blocks + [step(words + segments("tb_colon", lang),
                          Display(tuple(_lines(d, "L", [("=", formula)], "L", fit))))]


def _weights(d: Derivation, fit: Fit) -> list[Block]:
    lang, t, c = d.options.lang, d.trace, d.columns
    masked = not all(all(row) for row in t.readable)
    live = [i for i in range(t.A.rows) if d.sums[i] is not None]
    one = "_one" if len(live) == 1 else ""
    lead = segments(said("tb_exponentiate" + one, c), lang) + (
        segments("tb_minus_infinity", lang) if masked else ()) + segments("tb_gives", lang)
    exps = _lines(d, "E", [], "E", fit)
    sums = [rf"Z_{{{i + 1}}} &{APPROX} {approx(d.decimals['Z'][i][0])}" if "E" in d.rounded
            else rf"Z_{{{i + 1}}} &= {math(d.sums[i])}" for i in live]
    weights = _lines(d, "A", [("=", r"\operatorname{softmax}(L)")], "A", fit)
    return [step(lead + segments("tb_colon", lang), Display(tuple(exps))),
            step(segments(said("tb_sums_display" + one, c), lang) + segments("tb_colon", lang),
                 Display(tuple(sums)),
                 segments(said("tb_normalise" + one, c), lang) + segments("tb_gives_weights", lang) +
                 segments("tb_colon", lang), Display(tuple(weights)),
                 segments(said("tb_rows_exact" + one, c), lang) +
                 (segments("tb_masked_zero", lang) if masked else segments("tb_period", lang)))]


def _output(d: Derivation, fit: Fit) -> list[Block]:
    lang, p = d.options.lang, d.trace.problem
    shape: tuple[Segment, ...] = segments(said("tb_shape", d.columns), lang, n_q=p.n_q, n_k=p.n_k,
                                          d_v=p.d_v)
    formula = [("=", output(d.columns))]
    return [step(segments("tb_output", lang), Display(tuple(_lines(d, "O", formula, "O", fit))),
                 shape)]
