"""One query row step by step: every line formula = substitution = result (≈ decimal), nothing
identical repeated, masked entries shown going to −∞ and to a weight of exactly 0."""

from __future__ import annotations

import sympy as sp

from ..derivation import Derivation, RowSteps
from ..derivation.orientation import said
from ..printing.fit import Fit, chain
from ..printing.matrices import entry, sum_lines
from ..printing.measure import width
from ..printing.printer import approx, grouped, math, power_of_e, tau_equation
from ..words import phrase
from .blocks import Block, Display, Heading, Label, Step, segments, step
from .sums import INLINE_NAME, keyed_sum, named_cells, named_check, named_sums, wide_sums
from .textbook import logit_sum, masks_given, product, same_logits, weight_sum


SUM_J = r"\sum\nolimits_j"  # limits beside the sign: a walk's line stays one line high


def _index(d: Derivation, stage: str, i: int, j: int) -> str:
    """The engine's entry (i, j) of a stage as the reader indexes it (the book: (j, i))."""
    return entry(stage, i, j, d.columns)


def _over_keys(d: Derivation, stage: str, i: int) -> str:
    """Query i's entry of key j, j to be summed over: L_{i,j}, or L_{j,i} in the book."""
    return f"{stage}_{{j,{i + 1}}}" if d.columns else f"{stage}_{{{i + 1},j}}"


def _approx(d: Derivation, stage: str, i: int, j: int) -> list[tuple[str, str]]:
    grid = d.decimals.get(stage)
    a = grid[i][j] if grid else None
    return [(r"\approx", approx(a))] if a is not None and not a.exact else []


def _slashed(top: str, bottom: str, grouped: bool) -> str:
    """A quotient on one line, top/bottom, the top in parentheses when it is a sum (grouped),
    the bottom when it is more than one term or factor (x/(17/20), x/(2 t)): a row walk's line
    is one line high, as tall as the sentence beside it."""
    top = f"({top})" if grouped else top
    return f"{top}/({bottom})" if " " in bottom or "/" in bottom else f"{top}/{bottom}"


def _lines(rows: list[tuple], fit: Fit, more: tuple[str, ...] = ()) -> Display:
    """Aligned chains sharing one alignment point (and more lines after them): each row is
    (lhs, terms) or (lhs, terms, shorter terms for when the whole chain cannot fit)."""
    left = max(width(row[0]) for row in rows) * 1.12
    lines: list[str] = []
    for lhs, terms, *shorter in rows:
        lines += chain(lhs, terms, fit, at=left) or \
            (shorter and chain(lhs, shorter[0], fit, at=left)) or \
            chain(lhs, terms[-2:], fit, at=left) or [f"{lhs} &{terms[-1][0]} {terms[-1][1]}"]
    return Display(tuple(lines) + more)


def row_blocks(d: Derivation, steps: RowSteps, fit: Fit) -> list[Block]:
    """Dot products, scaling, logits, exponentials, weights, the row's check and its outputs."""
    p, lang, i, c = d.trace.problem, d.options.lang, steps.row, d.columns
    label = p.row_labels[i]
    plain = segments(said("row_detail_plain", c), lang, row=i + 1)
    title = segments(said("row_detail", c), lang, row=i + 1, label=Label(label)) \
        if label != str(i + 1) else plain
    out: list[Block] = [Heading(2, title, key=f"row{i + 1}", short=plain)]
    if p.start == "Q":
        out.append(step(segments("wk_dots", lang, row=i + 1), _dots(d, steps, fit)))
    logits = not same_logits(d) and p.start != "L"
    scaled = p.start in ("Q", "R") and p.scale_factor != 1
    if scaled and not (logits and p.scale is None):
        out.append(_scaling(d, i, fit))
    if logits:  # S_{i,j} = R_{i,j}/√d_k written into L's line when the logits follow
        out.append(_logits(d, i, fit, scaled and p.scale is None))
    if d.sums[i] is None:
        how = phrase(f"how_{p.fully_masked}", lang)
        out.append(step(segments(said("tb_fully_masked", c), lang, rows=i + 1, how=how)))
        return out
    out += _softmax(d, steps, fit)
    return out


def _dots(d: Derivation, steps: RowSteps, fit: Fit) -> Display:
    i = steps.row
    rows = []
    for j, pairs in enumerate(steps.dots):
        products = [product(a, b, inline=True) for a, b in pairs]
        terms = [("=", rf"\mathbf q_{{{i + 1}}} \cdot \mathbf k_{{{j + 1}}}"),
                 ("=", " + ".join(products)), ("=", math(d.display["R"][i, j], inline=True))]
        broken = terms[:1] + [("=", products[0])] + [("+", x) for x in products[1:]] + terms[2:]
        rows.append((_index(d, "R", i, j), terms, broken))  # a long sum (d_k = 64) at its + signs
    return _lines(rows, fit)


def _scaling(d: Derivation, i: int, fit: Fit) -> Step:
    p, lang = d.trace.problem, d.options.lang
    rows = []
    for j in range(p.n_k):
        r = math(d.display["R"][i, j], inline=True)
        if p.scale is None:
            formula = rf"{_index(d, 'R', i, j)}/\sqrt{{d_k}}"
            substitution = _slashed(r, math(d.scalars['root']), grouped(d.display["R"][i, j]))
        else:
            s = math(d.scalars["s"], slash=True)
            formula, substitution = rf"s\,{_index(d, 'R', i, j)}", rf"{s} \cdot {r}"
        rows.append((_index(d, "S", i, j), [("=", formula), ("=", substitution),
                                         ("=", math(d.display["S"][i, j], inline=True))]
                     + _approx(d, "S", i, j)))
    words = segments("wk_scale", lang, root=math(d.scalars["root"])) if p.scale is None else \
        segments("wk_scale_given", lang, s=math(d.scalars["s"], slash=True))
    return step(words, _lines(rows, fit))


def _logits(d: Derivation, i: int, fit: Fit, scaled: bool = False) -> Step:
    """Masked (and divided by tau); scaled: S_{i,j} is R_{i,j}/√d_k in the substitution, the
    division said in the lead-in rather than in a step of its own that L's line repeats."""
    p, lang, shown = d.trace.problem, d.options.lang, d.display
    tau = d.scalars["tau"]
    rows = []
    names = logit_sum(d).split(" + ")  # S, S + M, S + B or S + M + B: M only where masked
    masked = [j for j in range(p.n_k) if shown["L"][i, j] == -sp.oo]
    for j in range(p.n_k):
        if j in masked and len(masked) > 1:
            continue  # all of them on one line below: the sentence above shows one going to −∞
        terms = [("=", t) for t in _logit_terms(d, i, j, names, scaled)]
        terms.append(("=", math(shown["L"][i, j], inline=True)))
        rows.append((_index(d, "L", i, j), terms + _approx(d, "L", i, j)))
    if len(masked) > 1:  # L_{3,j} = (S_{3,j} + (−∞))/τ = −∞ (j = 4, 5): a short left side
        hidden = rf"{_over_keys(d, 'S', i)} + (-\infty)"
        rows.append((_over_keys(d, "L", i),
                     [("=", hidden if tau == 1 else _slashed(hidden, math(tau, slash=True), True)),
                      ("=", rf"-\infty \quad ({_keys(masked)})")]))
    added = "" if masks_given(d) else "_bias" if p.bias is not None else "_plain"  # "masked"
    key = ("wk_scaled_logits" if scaled else "wk_logits") + added + ("_one" if tau == 1 else "")
    words = segments(key, lang, root=math(d.scalars["root"]), tau=tau_equation(tau))
    return step(words, _lines(rows, fit))


def _logit_terms(d: Derivation, i: int, j: int, names: list[str], scaled: bool) -> list[str]:
    """L_{i,j}'s formula and its substitution, one fraction deep: (S + M)/τ = (3/√3 + 0)/0.85,
    S_{i,j} written R_{i,j}/√d_k on the line when scaled (a fraction inside a fraction is not)."""
    shown, tau = d.display, d.scalars["tau"]
    parts = [_term(shown[name][i, j], k > 0) for k, name in enumerate(names)]
    r = shown["R"][i, j]
    if scaled and tau != 1 and r != 0:
        top = math(r, inline=True)
        parts[0] = f"{f'({top})' if grouped(r) else top}/{math(d.scalars['root'])}"
    inner = " + ".join(_index(d, name, i, j) for name in names)
    if tau == 1:
        return [inner, " + ".join(parts)]
    top, several = " + ".join(parts), len(names) > 1
    return [f"({inner})/\\tau" if several else f"{inner}/\\tau",  # S_{3,1}/τ = (2/√3)/0.85
            _slashed(top, math(tau, slash=True), several or "/" in top or " " in top)]


def _keys(js: list[int]) -> str:
    """The keys a line stands for: j = 4, 5, or j = 3, \\dots, 8 when more than three in a run."""
    run = js == list(range(js[0], js[-1] + 1)) and len(js) > 3
    listed = rf"{js[0] + 1}, \dots, {js[-1] + 1}" if run else ", ".join(str(j + 1) for j in js)
    return f"j = {listed}"


def _term(x, after: bool) -> str:
    """An entry of a sum, in parentheses after a plus sign when it is negative: 2 + (−∞)."""
    text = math(x, inline=True)
    return f"({text})" if after and x.could_extract_minus_sign() else text


def _softmax(d: Derivation, steps: RowSteps, fit: Fit) -> list[Block]:
    """Exponentials and their sum, weights, the row's check, outputs."""
    p, lang, shown, i = d.trace.problem, d.options.lang, d.display, steps.row
    E = shown["E"]
    exps = [(rf"e^{{{_index(d, 'L', i, j)}}}", [("=", power_of_e(shown["L"][i, j])),
                                            ("=", math(E[i, j], inline=True))]
             + _approx(d, "E", i, j)) for j in steps.readable]
    z = d.decimals.get("Z")
    about = [(r"\approx", approx(z[i][0]))] if z and z[i][0] is not None and not z[i][0].exact else []
    total = [("=", rf"{SUM_J} e^{{{_over_keys(d, 'L', i)}}}"),
             ("=", " + ".join(math(E[i, j], inline=True) for j in steps.readable)),
             ("=", keyed_sum(d, i))] + about  # as the terms before it (dropped) unless they combine
    lhs = f"Z_{{{i + 1}}}"
    left = max(width(x) for x, _ in exps) * 1.12
    more = () if chain(lhs, total, fit, at=left) else tuple(  # a long sum over several lines
        [f"{lhs} &= {total[0][1]}"] + sum_lines("", d.sums[i], fit, at=left) + [f"&{r} {t}" for r, t in about])
    if not more:
        exps.append((lhs, total))
    weights = []
    hidden = [j for j in range(p.n_k) if j not in steps.readable]
    over_row = i in named_sums(d)  # the row above is 1/Z_i times its exponentials
    z_i = f"Z_{{{i + 1}}}" if not d.sums[i].is_Rational else math(d.sums[i], inline=True)
    for j in steps.readable:
        top = math(E[i, j], inline=True)
        grouped = isinstance(E[i, j], sp.Add)
        terms = [("=", rf"e^{{{_index(d, 'L', i, j)}}}/Z_{{{i + 1}}}"),
                 ("=", _slashed(top, z_i, grouped))]  # Z_i or the sum above when it is a number
        if not over_row:  # over a named Z_i it ends there, as the row above does (not renormalised)
            terms += [("=", math(shown["W"][i, j], inline=True)), ("=", math(shown["A"][i, j], inline=True))]
        over_z = [terms[0], ("=", _slashed(top, f"Z_{{{i + 1}}}", grouped))]
        weights.append((_index(d, "A", i, j), terms + _approx(d, "A", i, j),
                        over_z + _approx(d, "A", i, j)))
    if hidden:
        lhs, keys = (_over_keys(d, "A", i), rf" \quad ({_keys(hidden)})") if len(hidden) > 1 \
            else (_index(d, "A", i, hidden[0]), "")  # A_{3,j} = 0 (masked) (j = 4, 5), as L's line
        weights.append((lhs, [("=", rf"0 \quad \text{{{phrase('wk_masked_note', lang)}}}{keys}")]))
    every = all(all(row) for row in d.trace.readable)  # no key hidden: not "the readable logits"
    blocks: list[Block] = [step(segments("wk_exponentials_all" if every else "wk_exponentials", lang),
                                _lines(exps, fit, more)),
                           step(segments("wk_weights", lang), _lines(weights, fit))]
    # the text above writes this row over its short Z_i: (2 + 1 + …)/Z_4 (a long one as Z_i/Z_i)
    named = i in named_sums(d) - wide_sums(d)
    if len(steps.readable) > 1:
        total = named_check(d, i).removesuffix(" = 1") if named else \
            weight_sum([shown["A"][i, j] for j in steps.readable])
        if not Fit(INLINE_NAME).fits(total):  # too wide in full: the same sum over Z_i
            total = f"{SUM_J} {_over_keys(d, 'A', i)} = Z_{{{i + 1}}}/Z_{{{i + 1}}}"
        blocks.append(step(segments("wk_check", lang, total=f"{total} = 1")))
    outputs = []
    for c in range(p.d_v):
        weighted = rf"V_{{{c + 1},j}} {_over_keys(d, 'A', i)}" if d.columns else \
            rf"{_over_keys(d, 'A', i)} V_{{j,{c + 1}}}"
        factors = shown["E" if named else "A"]  # over a named Z_i: its exponentials
        products = " + ".join(product(shown["V"][j, c], factors[i, j], True) if d.columns else
                              product(factors[i, j], shown["V"][j, c], True) for j in steps.readable)
        terms = [("=", rf"{SUM_J} {weighted}"),
                 ("=", f"({products})/Z_{{{i + 1}}}" if named else products),
                 ("=", named_cells(d, "O")[i][c] if over_row else math(shown["O"][i, c], inline=True))]
        over_z = [terms[0], ("=", _slashed(math(shown['N'][i, c], inline=True), f"Z_{{{i + 1}}}",
                                           isinstance(shown['N'][i, c], sp.Add)))] + (
            [terms[-1]] if shown["O"][i, c].is_Rational else [])  # Z_1/Z_1 = 1 said, not left
        outputs.append((_index(d, "O", i, c), terms + _approx(d, "O", i, c),
                        over_z + _approx(d, "O", i, c)))
    blocks.append(step(segments("wk_output", lang), _lines(outputs, fit)))
    return blocks
