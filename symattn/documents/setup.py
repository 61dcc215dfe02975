"""The opening of a derivation: sizes, temperature, mask and tokens in one sentence, then the
inputs as bracket matrices (or X and its projections, or the given scores)."""

from __future__ import annotations

from collections.abc import Sequence

from ..derivation import Derivation
from ..derivation.orientation import bias_name, bias_term, projection, said
from ..printing.fit import Fit, chain, pack
from ..printing.matrices import cells, matrix_lines, stacked
from ..printing.printer import math, matrix, tau_equation
from ..words import phrase
from .rounding import rounding_note, stage_cells
from .blocks import Block, Display, Label, Paragraph, Segment, fill, joined, segments, step


def listing(items: list[tuple[Segment, ...]], lang: str) -> tuple[Segment, ...]:
    """a, b and c (English) or a、b、c (Chinese)."""
    out: list[Segment] = []
    for k, item in enumerate(items):
        if k:
            key = "tb_and" if k == len(items) - 1 else "tb_comma"
            out.append(("text", phrase(key, lang)))
        out += item
    return tuple(out)


def quoted(labels: tuple[str, ...], lang: str) -> Label:
    """Token labels in quotation marks, so that none reads as a matrix name."""
    separator = "、" if lang == "zh" else ", "
    return Label(separator.join(f"“{label}”" for label in labels))


def setup(d: Derivation, fit: Fit, projections_too: bool = True, stated: bool = False,
          shared: bool = True) -> list[Block]:
    """One sentence with the sizes, τ, the mask and the tokens; the inputs (and, unless told
    otherwise, the projections); the policy. stated (a question, which has no solution to say
    it later): a scale other than 1/√d_k, a bare τ and the declared symbols' kinds too. Not
    shared (heads that differ): n_q and n_k alone, each head says the rest (head_terms)."""
    lang, p, c = d.options.lang, d.trace.problem, d.columns
    sizes = [f"n_q = n_k = {p.n_q}"] if p.n_q == p.n_k else [f"n_q = {p.n_q}", f"n_k = {p.n_k}"]
    items = [(("math", s),) for s in sizes] + (_terms(d, stated) if shared else [])
    lead = segments("tb_take", lang) + listing(items, lang)
    if stated and p.symbols:
        lead += fill(segments("tb_symbols", lang, symbols="\x00"), listing(
            [(("math", math(x) + (r" > 0" if x.is_positive else r" \in \mathbb{R}")),)
             for x in p.symbols], lang))
    lead += _masks(d) if shared else ()
    if p.key_tokens and not p.tokens:  # the queries unlabelled: no "belong to “1”"
        lead += segments("tb_tokens_keys", lang, keys=quoted(p.column_labels, lang))
    elif p.key_tokens:
        lead += segments("tb_tokens_cross", lang, labels=quoted(p.row_labels, lang),
                         keys=quoted(p.column_labels, lang))
    elif p.tokens:
        lead += segments(said("tb_tokens", c), lang, labels=quoted(p.tokens, lang))
    blocks: list[Block] = []
    if p.projections is not None:
        sources = ("X", "Y") if "Y" in d.display else ("X",)
        blocks.append(step(lead + segments("tb_colon", lang), Display(tuple(_inputs(d, fit, sources)))))
        blocks += projections(d, fit) if projections_too else []
    elif p.start != "Q":
        book = segments("tb_given_scale", lang, d_k=p.key_dimension, s=math(d.scalars["book_scale"],
                        slash=True)) if "book_scale" in d.scalars else ()
        given = joined(lead, segments("tb_semicolon", lang) + segments(f"tb_given_{p.start}", lang)
                       + book, separator="") + segments("tb_colon", lang)
        blocks.append(step(given, Display(tuple(_inputs(d, fit, (p.start, "V"))))))
    else:
        blocks.append(step(lead + segments("tb_colon", lang),
                           Display(tuple(_inputs(d, fit, ("Q", "K", "V"))))))
    whole = [str(i + 1) for i, row in enumerate(d.trace.masked_by_bias) if all(row)]
    if whole:
        blocks.append(Paragraph(segments(said("tb_bias_whole_rows", c), lang, rows=", ".join(whole),
                                         bias=math(d.scalars["mask_bias"]))))
    if d.trace.fully_masked_rows:
        rows = ", ".join(str(i + 1) for i in d.trace.fully_masked_rows)
        how = phrase(f"how_{p.fully_masked}", lang)
        blocks.append(Paragraph(segments(said("tb_fully_masked", c), lang, rows=rows, how=how)))
    return blocks


def _terms(d: Derivation, stated: bool) -> list[tuple[Segment, ...]]:
    """d_k, d_v, the scale when stated and not 1/√d_k, and τ (a bare τ only when stated)."""
    lang, p = d.options.lang, d.trace.problem
    items = [(("math", f"d_k = {p.key_dimension}"),)] if p.key_dimension is not None else []
    items.append((("math", f"d_v = {p.d_v}"),))
    if stated and p.scale is not None and p.start == "Q":
        items.append(segments("tb_take_no_scale", lang) if p.scale == 1 else
                     segments("tb_take_scale", lang, s=math(d.scalars["s"], slash=True)))
    tau = tau_equation(d.scalars["tau"])
    if tau != r"\tau" or stated:  # in a solution a bare τ is named where it divides
        items.append(segments("tb_temperature", lang) + (("math", tau),))
    return items


def heads_differ(heads: Sequence[Derivation]) -> bool:
    """Whether the heads differ in what the opening sentence states: d_k, d_v, τ, the scale or
    the mask (example 12's head 2 reads every key, unscaled, with d_v = 2)."""
    def said_(d: Derivation) -> tuple:
        p = d.trace.problem
        return (p.key_dimension, p.d_v, p.temperature, p.scale, p.mask, p.keep, p.key_lengths,
                p.bias, p.mask_bias)
    return len({said_(d) for d in heads}) > 1


def head_terms(d: Derivation, stated: bool = False, k: int | None = None) -> tuple[Segment, ...]:
    """"This head has d_k = 1, d_v = 2 and the temperature τ = 1, without a mask." (or "Head 2
    has …", k given), for heads that differ."""
    lang = d.options.lang
    lead = segments("tb_head_k_take", lang, k=k) if k else segments("tb_head_take", lang)
    return lead + listing(_terms(d, stated), lang) + _masks(d) + segments("tb_period", lang)


def _masks(d: Derivation) -> tuple[Segment, ...]:
    lang, p = d.options.lang, d.trace.problem
    out = segments(said(f"tb_mask_{p.mask}", d.columns), lang) if p.mask != "none" or not (
        p.keep is not None or p.key_lengths is not None or p.bias is not None) else ()
    if p.keep is not None:
        out += segments("tb_mask_keep", lang)
    if p.key_lengths is not None:
        out += segments("tb_mask_lengths", lang, lengths=", ".join(map(str, p.key_lengths)))
    if p.bias is not None:
        out += segments("tb_mask_bias", lang)
    if p.mask_bias is not None:
        out += segments("tb_mask_bias_added", lang, bias=math(d.scalars["mask_bias"]))
    return out


def _inputs(d: Derivation, fit: Fit, names: tuple[str, ...]) -> list[str]:
    """name = [matrix] for each input (and the bias B, its own matrix), side by side as they
    fit, the last with a full stop."""
    names += ("B",) if "B" in d.display else ()
    items = [item for name in names for item in stacked(name, cells(d.shown(name)), fit)]
    items[-1] += "."
    return pack(items, fit) or items


def projections(d: Derivation, fit: Fit) -> list[Block]:
    """The projection matrices (and biases) and Q = X W_Q + 1 b_Qᵀ = [X][W_Q] + 1[b_Qᵀ] = [Q],
    likewise K and V; in the book's layout Q = W_Q X + b_Q 1ᵀ = [W_Q][X] + [b_Q]1ᵀ."""
    lang, shown, c = d.options.lang, d.display, d.columns
    source = "Y" if "Y" in shown else "X"
    key = "tb_projections_cross" if source == "Y" else said("tb_projections", c)
    weights = [item for w in ("W_Q", "W_K", "W_V") for item in stacked(w, cells(d.shown(w)), fit)]
    biases = [item for b in ("b_Q", "b_K", "b_V") if b in shown
              for item in stacked(bias_name(b[-1], c), cells(d.shown(b)), fit)]
    lines: list[str] = []
    for name, x in (("Q", "X"), ("K", source), ("V", source)):
        w, b = f"W_{name}", f"b_{name}" if f"b_{name}" in shown else None
        formula = projection(name, x, b is not None, c)
        if name in d.rounded:  # long products: the decimals alone, row by row if need be
            lines += matrix_lines(name, [("=", formula)], stage_cells(d, name), None, fit,
                                  name, columns=c, relation=r"\approx")
            continue
        factors = (w, x) if c else (x, w)
        product = "".join(matrix(cells(d.shown(f))) for f in factors)
        if b is not None:
            product += " + " + bias_term(matrix(cells(d.shown(b))), c)
        terms = [("=", formula), ("=", product), ("=", matrix(cells(d.shown(name))))]
        blocks = stacked(name, cells(d.shown(name)), fit)  # a wide Q (d_k = 64) by columns
        lines += chain(name, terms, fit) or chain(name, [terms[0], terms[2]], fit) or (
            [f"{name} &= {terms[2][1]}"] if len(blocks) == 1 else
            [f"{name} &= {formula}"] + [line.replace(" = ", " &= ", 1)
                                        for line in pack(blocks, fit) or blocks])
    note = (rounding_note(d),) if d.rounded & {"Q", "K", "V"} else ()
    shown_weights = [Display(tuple(pack(items, fit) or items)) for items in (weights, biases)
                     if items]  # two displays: together they may be taller than a page
    return [step(segments(key, lang), *shown_weights, Display(tuple(lines))), *note]
