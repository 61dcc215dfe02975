"""The body of a textbook derivation, written as the lesson writes its Example 2: every stage with
its reason, every row's exponentials and their sum, the weights, each row's check, the output,
one entry worked as an example and the shape argument."""

from __future__ import annotations

import sympy as sp

from ..derivation import Derivation, Name
from ..model import Trace
from ..derivation.orientation import output as output_formula, said, scores as scores_formula
from ..printing.fit import Fit, chain, pack
from ..printing.matrices import (approx_cells, cells, entry, exact_rows, matrix_lines,
                                 row_vector, transposed)
from ..printing.printer import approx, has_denominator, math, matrix, tau_equation
from .blocks import Block, Display, Segment, fill, segments, step
from .setup import listing
from ..words import phrase
from .sums import (INLINE_NAME, keyed_sum, name_lines, name_text, named_cells, named_check,
                   named_sums, over_sums, sum_definitions, wide_sums)


def textbook(d: Derivation, fit: Fit) -> list[Block]:
    """Scores, logits, weights and output, each a paragraph with its display."""
    return [*scores(d, fit), *logits(d, fit), *weights(d, fit), *output(d, fit)]


def same_logits(d: Derivation) -> bool:
    """L is S itself: no mask, no bias, τ = 1."""
    t = d.trace
    return t.problem.temperature == 1 and t.problem.bias is None and not any_hidden(t) and \
        t.problem.start in ("Q", "R", "S")


def any_hidden(t: Trace) -> bool:
    """Whether a mask hides a key: to −∞, or by a large bias (mask_bias)."""
    return not all(all(row) for row in t.readable) or any(any(row) for row in t.masked_by_bias)


def masks_given(d: Derivation) -> bool:
    """Whether M has entries of its own: a mask hides a key (a bias B stands beside M)."""
    if d.trace.problem.bias is None:
        return any_hidden(d.trace)
    return any(x != 0 for x in d.display["M"])


def logit_sum(d: Derivation) -> str:
    """What L adds up before dividing by τ: S, S + M, S + B or S + M + B."""
    return "S" + (" + M" if masks_given(d) else "") + \
        (" + B" if d.trace.problem.bias is not None else "")


def by_bias(t: Trace) -> bool:
    """Whether a mask hides a key by a large finite bias (mask_bias), not by −∞."""
    return any(any(row) for row in t.masked_by_bias)


def names_of(d: Derivation, kind: str) -> list[Name]:
    return [n for n in d.names if n.kind == kind]


def name_segments(d: Derivation, names: list[Name]) -> tuple[Segment, ...]:
    """a = 1/√2 ≈ 0.7071, q = 1 − p = … ≈ 0.3302, as a list of inline formulas."""
    return listing([(("math", name_text(n)),) for n in names], d.options.lang)


def introduce(d: Derivation, names: list[Name], key: str, facts: tuple[str, ...] = ()
               ) -> tuple[tuple[Segment, ...], tuple[Display, ...]]:
    """Names in the running text (short ones) or as a display after the lead (long ones), after
    the facts that relate them to names above, in parentheses: (t^{8} = e)."""
    if not names:
        return (), ()
    lang = d.options.lang
    lead = fill(segments("tb_facts", lang, facts="\x00"), listing(
        [(("math", f),) for f in facts], lang)) if facts else ()
    if all(Fit(INLINE_NAME).fits(name_text(n)) for n in names):
        return lead + fill(segments(key, lang, names="\x00"), name_segments(d, names)), ()
    if key == "tb_with":  # ", with ε as below," (not ", with ,")
        return lead + fill(segments("tb_with_below", lang, names="\x00"), listing(
            [(("math", math(n.symbol)),) for n in names], lang)), (Display(name_lines(names)),)
    return lead + fill(segments(key, lang, names="\x00"), ()), (Display(name_lines(names)),)


def scores(d: Derivation, fit: Fit) -> list[Block]:
    """R = QKᵀ and S = R/√d_k with the reason ("because √d_k = 1 ...")."""
    lang, p, shown, c = d.options.lang, d.trace.problem, d.display, d.columns
    if p.start in ("S", "L"):
        return []
    same = same_logits(d)
    root = d.scalars["root"]
    factors = (cells(shown["K"]), cells(shown["Q"].T)) if c else \
        (cells(shown["Q"]), cells(shown["K"].T))
    product = [("=", scores_formula(c)), ("=", matrix(factors[0]) + matrix(factors[1]))] \
        if p.start == "Q" else []
    exact = cells(shown["R"])
    if p.scale is None and root == 1 or p.scale == 1:
        key = "tb_scale_one" if p.scale is None else "tb_scale_none"
        lhs = "R = S" + (" = L" if same else "")
        lines = matrix_lines(lhs, product, exact, None, fit, "R", columns=c)
        lead = segments(key, lang) + (segments("tb_same_logits", lang) if same else ())
    else:
        key, words = ("tb_scale_root", {"root": math(root)}) if p.scale is None else \
            ("tb_scale_given", {"s": math(d.scalars["s"], slash=True)})
        factor = rf"\frac{{R}}{{{math(root)}}}" if p.scale is None else \
            f"{math(d.scalars['s'], slash=True)}R"
        lines = matrix_lines("R", product, exact, None, fit, "R", columns=c) \
            if p.start == "Q" else []
        lhs = "S" + (" = L" if same else "")
        lines += _over_root(d, lhs, factor, fit) or \
            matrix_lines(lhs, [("=", factor)], cells(shown["S"]),
                         approx_cells(d.decimals.get("S")), fit, "S", columns=c)
        lead = segments(key, lang, **words) + (segments("tb_same_logits", lang) if same else ())
    named, shown_names = introduce(d, names_of(d, "logit"), "tb_write")
    return [step(lead + named + segments("tb_colon", lang), shown_names, Display(tuple(lines)))]


def _over_root(d: Derivation, lhs: str, factor: str, fit: Fit) -> list[str] | None:
    """S = R/√d_k ≈ [decimals] when every exact entry of S would only be R's entry over √d_k
    (1.4/√3): the matrix of those fractions says nothing R/√d_k does not; None otherwise."""
    root, decimals = math(d.scalars["root"]), approx_cells(d.decimals.get("S"))
    if d.trace.problem.scale is not None or decimals is None:
        return None
    def over(r: str) -> str:  # how R's entry r over the root prints: -0.6 as - 0.6/√3
        return "0" if r == "0" else "- " + over(r[1:]) if r.startswith("-") else \
            rf"\frac{{{r}}}{{{root}}}"
    if any(s != over(r) for row_s, row_r in zip(cells(d.display["S"]), cells(d.display["R"]))
           for s, r in zip(row_s, row_r)):
        return None
    numbers = transposed(decimals) if d.columns else decimals
    return chain(lhs, [("=", factor), (r"\approx", matrix(numbers))], fit)


def logits(d: Derivation, fit: Fit) -> list[Block]:
    """The mask (and a hidden large score, −∞ wins), then L row by row or as a matrix."""
    lang, p, t, shown, c = d.options.lang, d.trace.problem, d.trace, d.display, d.columns
    if same_logits(d):
        return []
    tau = d.scalars["tau"]
    biased = by_bias(t)
    sets = {"bias": math(d.scalars["mask_bias"])} if biased else {}
    lead: tuple[Segment, ...] = ()
    blocks: list[Block] = []
    if p.mask in ("causal", "causal-bottom-right") and p.keep is None and p.key_lengths is None \
            and p.bias is None and p.mask == "causal":
        lead = segments(said("tb_bias_sets_causal" if biased else "tb_mask_sets_causal", c), lang,
                        **sets) + _hidden(d)
    elif masks_given(d):
        blocks.append(step(segments("tb_mask_matrix", lang) + segments("tb_colon", lang),
                           Display(tuple(matrix_lines("M", [], cells(shown["M"]), None, fit,
                                                      "M", columns=c)))))
        lead = segments(said("tb_bias_sets" if biased else "tb_mask_sets", c), lang, **sets) + \
            _hidden(d)
    if p.start == "L":
        return blocks
    if lead:
        lead += segments("tb_semicolon", lang)
        total = logit_sum(d)
        words = segments(said("tb_logits_one", c), lang, sum=total) if tau == 1 else \
            segments(said("tb_logits_symbolic", c), lang, sum=total) \
            if tau_equation(tau) == r"\tau" else \
            segments(said("tb_logits_rows", c), lang, tau=tau_equation(tau), sum=total)
    else:
        words = segments("tb_logits_plain", lang, tau=tau_equation(tau))
    exact = cells(shown["L"])
    rows = pack([row_vector(row, c) for row in exact], fit) \
        if tau == 1 and lead else None
    if rows is not None:
        rows[-1] += "."
        display = Display(tuple(rows))
    else:
        total = logit_sum(d)  # one line high beside its matrix: (S + M)/τ, or S/τ
        formula = [("=", f"({total})/\\tau" if " + " in total else f"{total}/\\tau")]
        display = Display(tuple(matrix_lines("L", formula, exact, approx_cells(d.decimals.get("L")),
                                             fit, "L", columns=c)))
    return blocks + [step(lead + words + (segments("tb_colon", lang) if not lead else ()), display)]


def _hidden(d: Derivation) -> tuple[Segment, ...]:
    """Where the mask matters: a hidden score larger than every score its row may read,
    shown going to −∞ (10 + (−∞) = −∞); nothing when no hidden score would have won (the
    derivation found it: Derivation.hidden)."""
    if d.hidden is None:
        return ()
    i, j = d.hidden
    score = math(d.display['S'][i, j], inline=True)  # a sentence: 4.34/\sqrt{3}
    if by_bias(d.trace):
        bias = d.scalars["mask_bias"]
        result = sp.Add(d.display["S"][i, j], bias, evaluate=False) if d.display["S"][i, j] \
            else bias
        hides = rf"{score} + ({math(bias, inline=True)}) = {math(result, inline=True)}"
    else:
        hides = rf"{score} + (-\infty) = -\infty"
    chain_tex = rf"{entry('S', i, j, d.columns)} + {entry('M', i, j, d.columns)} = {hides}"
    key = "tb_hidden_bias" if by_bias(d.trace) else "tb_hidden"
    return segments(said(key, d.columns), d.options.lang, chain=chain_tex)


def weights(d: Derivation, fit: Fit) -> list[Block]:
    """Each row's exponentials and their sum, then A = softmax(L), the names and the row sums."""
    lang, t, shown, c = d.options.lang, d.trace, d.display, d.columns
    masked = not all(all(row) for row in t.readable)
    live = [i for i in range(t.A.rows) if d.sums[i] is not None]
    one = "_one" if len(live) == 1 else ""  # a single row is "the row", its sum "its sum"
    named, shown_names = introduce(d, names_of(d, "small") + early_generators(d), "tb_with")
    start = segments(said("tb_exponentiate" + one, c), lang) + (
        segments("tb_minus_infinity", lang) if masked else ()) + named
    lead = start + segments("tb_gives", lang)
    vectors = [row_vector([math(shown["E"][i, j], slash=True) for j in range(t.A.cols)], c)
               for i in live]
    rows = pack(vectors, fit) or matrix_lines("E", [], [cells(shown["E"])[i] for i in live],
                                               None, fit, "E", columns=c)
    z_named = named_sums(d)  # "with sums 1 + √2/2 and Z_4 = 6 + e^{10}"
    sums = [f"Z_{{{i + 1}}} = {keyed_sum(d, i)}" if i in z_named else math(d.sums[i], inline=True)
            for i in live]
    inline = not wide_sums(d)
    lines = matrix_lines("A", [], named_cells(d, "A"), approx_cells(d.decimals.get("A")), fit,
                         "A", over_sums(d, "E"), prefer_over=not inline, columns=c,
                         factored=frozenset(z_named), plain=exact_rows(d.decimals.get("A")))
    weight_names = names_of(d, "weight")
    named_weights, weight_display = introduce(d, weight_names, "tb_with",
                                              generator_powers(d, weight_names))
    gives = named_weights + segments("tb_gives_weights", lang) + segments("tb_colon", lang)
    if inline:  # a named sum as "Z_4 = 6 + e^{10}" (zh 记 Z_4 = …, every one named: 分别记为)
        every = set(live) <= z_named
        listed = fill(segments(said("tb_sums" + one + ("_named" if every else ""), c), lang,
                               sums="\x00"), listing(
            [fill(segments("tb_named_sum", lang), (("math", z),)) if i in z_named and not every
             else (("math", z),) for i, z in zip(live, sums)], lang))
        return [step(lead, shown_names, Display(tuple(rows)), listed + gives, weight_display,
                     Display(tuple(lines)), _row_sums(d, fit))]
    z_lines = pack([f"Z_{{{i + 1}}} = {keyed_sum(d, i)}" for i in live], fit, r",\quad ") or \
        sum_definitions(d, live, fit)
    if _exponentials_in_rows(d, live, lines):  # the vectors would be written twice: once here
        sums_lead = start + segments("tb_gives_sums" + one, lang) + segments("tb_colon", lang)
        return [step(sums_lead, shown_names, Display(tuple(z_lines)),
                     segments(said("tb_normalise" + one, c), lang) + gives, weight_display,
                     Display(tuple(lines)), _row_sums(d, fit))]
    rows[-1] += "."
    return [step(lead, shown_names, Display(tuple(rows))),
            step(segments(said("tb_sums_display" + one, c), lang) + segments("tb_colon", lang),
                 Display(tuple(z_lines)), segments(said("tb_normalise" + one, c), lang) + gives,
                 weight_display,
                 Display(tuple(lines)), _row_sums(d, fit))]


def _exponentials_in_rows(d: Derivation, live: list[int], lines: list[str]) -> bool:
    """Whether A, written row by row, holds every row's exponentials: each row that reads two
    keys or more over its Z_i (1/Z_3 (e^{…}, …)), a row reading one key in its Z_i = e^{…}."""
    by_rows = not any(line.startswith("A &") for line in lines)
    several = [i for i in live if sum(d.trace.readable[i]) > 1]
    return by_rows and set(several) <= named_sums(d)


def weight_sum(entries: list[sp.Expr]) -> str:
    """A row's weights added up as a sentence writes them: 1/6 + 1/2 + 1/3, and named weights
    collected when one repeats, 2p + q (not p + p + q); q + p stays in the keys' order."""
    if len(set(entries)) < len(entries) and all(x.is_Symbol for x in entries):
        return math(sp.Add(*entries), inline=True)
    return " + ".join(math(x, inline=True) for x in entries)


def generator_powers(d: Derivation, names: list[Name]) -> tuple[str, ...]:
    """t^{8} = e for a generator t = e^{1/8} the exponentials are written in, when the names
    (the weights p, q = e/(1 + 2e)) are written in e: a reader sees t^{-2}, t^{6} and then e."""
    if not any(n.value.has(sp.E) for n in names):
        return ()
    return tuple(f"{math(g.symbol)}^{{{g.value.exp.q}}} = e" for g in early_generators(d)
                 if isinstance(g.value, sp.exp) and g.value.exp.is_Rational and g.value.exp.p == 1
                 and g.value.exp.q > 1)


def early_generators(d: Derivation) -> list[Name]:
    """The generators the exponentials or the weights use (introduced with them); one only the
    outputs use (e^-100 in V) is introduced with the outputs."""
    return [n for n in names_of(d, "generator")
            if any(d.display[stage].has(n.symbol) for stage in ("E", "A"))]


def _row_sums(d: Derivation, fit: Fit) -> tuple[Segment, ...]:
    """1, 1/10 + 9/10 = 1, 1/6 + 1/2 + 1/3 = 1, irrational rows too (e/(1 + e) + 1/(1 + e) = 1,
    (2 + 1 + 3 + e^{10})/Z_4 = 1 over a named sum), every row whose check is short; the other
    rows, if any, in words."""
    lang, t = d.options.lang, d.trace
    masked = not all(all(row) for row in t.readable)
    named, written, live = named_sums(d), [], 0
    for i in range(t.A.rows):
        entries = [d.display["A"][i, j] for j in range(t.A.cols) if t.readable[i][j]]
        if not entries:
            continue
        live += 1
        text = named_check(d, i) if i in named and len(entries) > 1 else \
            weight_sum(entries)  # set in a sentence
        plain = all(x.is_Rational for x in entries)
        if not Fit(fit.points * (0.8 if plain else 0.4)).fits(text):  # in running text: short
            continue
        written.append((i, text if len(entries) == 1 or i in named else f"{text} = 1"))
    one = "_one" if sum(z is not None for z in d.sums) == 1 else ""  # as in weights()
    sums = listing([(("math", s),) for _, s in written], lang)
    if written and len(written) == live:
        words = fill(segments(said("tb_row_sums" + one, d.columns), lang, sums="\x00"), sums)
    elif written:
        rows = [str(i + 1) for i, _ in written]
        joined = "".join(("" if k == 0 else phrase("tb_and" if k == len(rows) - 1 else "tb_comma",
                                                     lang)) + r for k, r in enumerate(rows))
        key = "tb_row_sums_some" + ("_one" if len(rows) == 1 else "")
        words = fill(segments(said(key, d.columns), lang, rows=joined, sums="\x00"), sums)
    else:
        words = segments(said("tb_rows_exact" + one, d.columns), lang)
    small = next((dict(r.values) for r in d.report.results if r.check == "masked_small"
                  and "below" in dict(r.values)), None)
    if small is not None:
        return words + segments("tb_masked_small", lang, below=small["below"])
    return words + (segments("tb_masked_zero", lang) if masked else segments("tb_period", lang))


def output(d: Derivation, fit: Fit) -> list[Block]:
    """O = AV with its decimals, one entry worked as an example, and the shape argument."""
    lang, p, c = d.options.lang, d.trace.problem, d.columns
    factors = ("V", "A") if c else ("A", "V")
    weights = named_cells(d, "A")  # A as the text above wrote it (2/Z_4)
    grids = {"A": transposed(weights) if c else weights, "V": cells(d.shown("V"))}
    product_ = [("=", output_formula(c)), ("=", "".join(matrix(grids[f]) for f in factors))]
    lines = matrix_lines("O", product_, named_cells(d, "O"), approx_cells(d.decimals.get("O")),
                         fit, "O", over_sums(d, "N"), prefer_over=bool(wide_sums(d)), columns=c,
                         factored=frozenset(named_sums(d)), plain=exact_rows(d.decimals.get("O")))
    shape = segments(said("tb_shape", c), lang, n_q=p.n_q, n_k=p.n_k, d_v=p.d_v)
    example = None if any(steps.row == d.example for steps in d.rows) else _example(d)
    late = [n for n in names_of(d, "generator") if n not in early_generators(d)]
    named, shown_names = introduce(d, late, "tb_with")
    lead = segments("tb_output", lang) + named
    if example is None:  # no sum, or the row walked step by step below writes every O_{i,c}
        return [step(lead, shown_names, Display(tuple(lines)), shape)]
    lhs, pieces = example
    _, said_pieces = _example(d, inline=True) or example  # the same chain, slashed for a sentence
    inline = f"{lhs} = " + " ".join(f"{r} {t}" for r, t in said_pieces).removeprefix("= ")
    if fit.fits(inline):  # one line of running text at most
        words = segments("tb_example", lang) + (("math", inline),) + \
            segments("tb_period", lang) + (("text", " " if lang == "en" else ""),)
        return [step(lead, shown_names, Display(tuple(lines)), words + shape)]
    worked = chain(lhs, pieces, fit) or chain(lhs, _by_decimals(d), fit)
    if worked is None:  # not even one weight's decimal times a value fits a line
        return [step(lead, shown_names, Display(tuple(lines)), shape)]
    worked[-1] += "."
    return [step(lead, shown_names, Display(tuple(lines)),
                 segments("tb_example", lang), Display(tuple(worked)), shape)]


def _example(d: Derivation, inline: bool = False) -> tuple[str, list[tuple[str, str]]] | None:
    """O_{i,1} = A_{i,1} V_{1,1} + … = value ≈ decimal, as a chain: (1/6)·2 + (1/2)·0 + …;
    inline: every quotient with a slash, for the chain set in a sentence."""
    t, i, shown = d.trace, d.example, d.display
    if d.sums[i] is None:
        return None
    weights = shown["E" if i in named_sums(d) else "A"]  # over Z_i: (2 · 0 + 1 · 2 + …)/Z_4
    products = [product(shown["V"][j, 0], weights[i, j], inline) if d.columns else
                product(weights[i, j], shown["V"][j, 0], inline)
                for j in range(t.A.cols) if t.readable[i][j]]
    if i in named_sums(d):
        products = [f"({' + '.join(products)})/Z_{{{i + 1}}}"]
    pieces = [("=", products[0])] + [("+", x) for x in products[1:]]
    pieces.append(("=", named_cells(d, "O")[i][0] if i in named_sums(d) else
                   math(shown["O"][i, 0], slash=True, inline=inline)))
    decimal = (d.decimals.get("O") or [[None]] * (i + 1))[i][0]
    if decimal is not None and not decimal.exact:
        pieces.append((r"\approx", approx(decimal)))
    return entry("O", i, 0, d.columns), pieces


def _by_decimals(d: Derivation) -> list[tuple[str, str]]:
    """O_{i,1} = A_{i,1} V_{1,1} + … ≈ 0.1234 · 0.05 + … ≈ 0.4421: the example when the exact
    weights are too long to multiply out on a line (each A_{i,j} is in the matrix above)."""
    t, i, shown, c = d.trace, d.example, d.display, d.columns
    keys = [j for j in range(t.A.cols) if t.readable[i][j]]
    pieces = [("=" if k == 0 else "+", f"{entry('V', j, 0, c)} {entry('A', i, j, c)}" if c else
               f"{entry('A', i, j)} {entry('V', j, 0)}") for k, j in enumerate(keys)]
    weights, output_ = d.decimals.get("A"), d.decimals.get("O")
    if weights is not None:
        pieces += [(r"\approx" if k == 0 else "+",
                    rf"{_factor(shown['V'][j, 0])} \cdot {approx(weights[i][j])}" if c else
                    rf"{approx(weights[i][j])} \cdot {_factor(shown['V'][j, 0])}")
                   for k, j in enumerate(keys)]
    if output_ is not None:  # after rounded weights the value is approximate even if exact
        exact = output_[i][0].exact and weights is None
        pieces.append(("=" if exact else r"\approx", approx(output_[i][0])))
    return pieces


def _factor(x: sp.Expr, inline: bool = False) -> str:
    """x as a factor of a product: a fraction, a sum or a negative number in parentheses
    (inline: any quotient, which is then written with a slash, t/(t + u))."""
    text = math(x, slash=True, inline=inline)
    loose = x.is_Add or x.could_extract_minus_sign() or x.is_Rational and x.q != 1 or \
        inline and has_denominator(x)
    return rf"\left({text}\right)" if loose else text


def product(a: sp.Expr, b: sp.Expr, inline: bool = False) -> str:
    """a · b with a fraction or a sum in parentheses: (1/6) · 2, p · 2."""
    return rf"{_factor(a, inline)} \cdot {_factor(b, inline)}"
