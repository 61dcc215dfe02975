"""The checks closing a derivation, as sentences with their values: how many pass, and what
each one established (for a symbolic τ, at which value the numbers were compared)."""

from __future__ import annotations

import re

import sympy as sp

from ..derivation import Approx, Derivation
from ..derivation.orientation import said
from ..printing.printer import approx, math
from ..reports import CheckResult
from ..words import PHRASES, phrase
from .blocks import Block, Heading, Paragraph, Segment, fill, segments

DETAILS_WITH_COUNTS = ("nonnegative_numeric", "bounds_numeric")


def check_blocks(d: Derivation) -> list[Block]:
    """How the derivation closes, as its options say: full, a heading, the count that pass, one
    sentence per check and the note on decimals; short, the count in one sentence; none,
    nothing. A check that does not pass is never hidden: short and none name it in a sentence
    under the heading, with its own sentence saying why."""
    lang, report, mode = d.options.lang, d.report, d.options.checks
    failed = [r for r in report.results if r.passed is False]
    undecided = [r for r in report.results if r.passed is None]
    count = len(report.results)
    space: list[Segment] = [] if lang == "zh" else [("text", " ")]  # zh: no space between
    note = _decimals_note(d)
    if mode == "full":
        opening = segments("tb_checks_some", lang, failed=len(failed), count=count) if failed \
            else segments("tb_checks_undecided", lang, undecided=len(undecided), count=count) \
            if undecided else segments("tb_checks_all", lang, count=count)
        words = list(opening)
        for result in report.results:
            words += space + list(sentence(d, result))
        words += (space + list(note)) if note else []
        return [_heading(lang), Paragraph(tuple(words))]
    if failed or undecided:
        words = list(_named(d, "tb_checks_some_named", failed, count)) if failed else []
        if undecided:
            words += (space if words else []) + list(_named(d, "tb_checks_undecided_named",
                                                             undecided, count))
        for result in failed + undecided:  # why each one, as the full paragraph says it
            words += space + list(sentence(d, result))
        return [_heading(lang), Paragraph(tuple(words + ((space + list(note)) if note else [])))]
    if mode == "short":
        return [Paragraph(segments("tb_checks_all", lang, count=count) +
                          ((*space, *note) if note else ()))]
    return [Paragraph(note)] if note else []


def _heading(lang: str) -> Heading:
    return Heading(2, segments("checks", lang), key="checks")


def _named(d: Derivation, key: str, results: list[CheckResult], count: int
           ) -> tuple[Segment, ...]:
    """How many of the checks do not pass (or could not be decided), naming them: one sentence."""
    lang = d.options.lang
    names = phrase("list_separator", lang).join(
        PHRASES[said(f"check_name_{r.check}", d.columns)][lang] for r in results)
    return segments(key, lang, n=len(results), count=count, names=names)


def _decimals_note(d: Derivation) -> tuple[Segment, ...]:
    """How the decimals shown are rounded (nothing when none is shown)."""
    if not d.decimals:
        return ()
    tiny = any(a is not None and a.exponent for grid in d.decimals.values()
               for row in grid for a in row)
    return segments("tb_scientific" if tiny else "tb_decimals", d.options.lang,
                    places=d.options.places)


def sentence(d: Derivation, result: CheckResult) -> tuple[Segment, ...]:
    """One check as a sentence; a failed or undecided one names what it found."""
    lang, p, values, c = d.options.lang, d.trace.problem, dict(result.values), d.columns
    if result.passed is not True:
        name = PHRASES[said(f"check_name_{result.check}", c)][lang]
        detail = check_detail(result, lang, c)
        key = "tb_check_failed" if result.passed is False else "tb_check_undecided"
        return segments(key, lang, name=name, detail=detail)
    at = segments("tb_at", lang, values=_at(values["at"])) if values.get("at") else ()
    if result.check == "shapes":
        return segments(said("tb_check_shapes", c), lang, n_q=p.n_q, n_k=p.n_k, d_v=p.d_v)
    if result.check == "masked_zero":
        count = values.get("count", 0)
        return segments("tb_check_masked_zero" if count else "tb_check_masked_none", lang,
                        count=count)
    if result.check == "masked_small":
        if "below" not in values:
            return segments(said("tb_check_masked_small_none", c), lang)
        return segments("tb_check_masked_small", lang, count=values["count"],
                        below=values["below"], bias=math(d.scalars["mask_bias"]))
    if result.check == "numeric":
        return fill(segments("tb_check_numeric", lang, digits=values["digits"], at="\x00",
                              difference=scientific(d.difference)), at)
    words = segments(said(f"tb_check_{result.check}", c), lang)
    if result.detail in DETAILS_WITH_COUNTS:
        extra = segments("tb_numerically", lang, count=values["count"], digits=values["digits"],
                         at="\x00")
        words = words[:-1] + ((words[-1][0], words[-1][1].rstrip(".。")),) + fill(extra, at) + \
            ((words[-1][0], "." if lang == "en" else "。"),)
    return words


def _at(pairs) -> str:
    """t = 3/7, u = 5/7 as math (names as the printer writes the symbols)."""
    return ",\\ ".join(f"{math(sp.Symbol(name))} = {value}" for name, value in pairs)


def scientific(text: str) -> str:
    """mpmath's 1.2e-61 as 1.2 \\times 10^{-61}; 0.0 as 0."""
    mantissa, _, exponent = text.partition("e")
    if float(mantissa) == 0:
        return "0"
    return approx(Approx(mantissa, False, int(exponent))) if exponent else mantissa


def _book(text: str) -> str:
    """A[2,3] as the book indexes it, A[3,2]; a shape 2x3 as 3x2."""
    return re.sub(r"(\d+)([,x])(\d+)", r"\3\2\1", str(text))


def _same(text: str) -> str:
    """The text as the row layout writes it (unchanged)."""
    return str(text)


def check_detail(result: CheckResult, lang: str, columns: bool = False) -> str:
    """What a check found, in words, with its values (of columns, where it counts rows, in a
    problem laid out in columns)."""
    separator = phrase("list_separator", lang)
    shown: dict[str, object] = {}
    turn = _book if columns else _same  # the checks name the engine's entries and shapes
    for key, value in result.values:
        if key == "at":
            pairs = separator.join(f"{name} = {number}" for name, number in value)
            shown[key] = phrase("detail_at", lang, values=pairs) if value else ""
        elif key == "where":
            shown[key] = phrase("detail_where", lang, entry=turn(value)) if value else ""
        elif key == "items":
            shown[key] = phrase("item_separator", lang).join(
                phrase("detail_shape_item", lang, name=n, got=turn(got), want=turn(want))
                for n, got, want in value)
        elif key == "entries":
            shown[key] = separator.join(turn(entry) for entry in value)
        elif key == "orders":
            shown[key] = separator.join(phrase(f"order_{order}", lang) for order in value)
        else:
            shown[key] = separator.join(value) if isinstance(value, tuple) else value
    return phrase(said(f"detail_{result.detail}", columns), lang, **shown)
