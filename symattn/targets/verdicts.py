"""Verdicts on claimed answers as text (English or Chinese) or JSON; every value comes from the verdicts."""

from __future__ import annotations

import json

import sympy as sp

from ..answers.results import EntryVerdict, Verdict, Verification
from ..printing.plain import TextPrinter
from ..words import phrase, reason_text

_PRINTER = TextPrinter()
SEPARATOR = {"en": "; ", "zh": "；"}


MAX_SHOWN = 40
"""An exact value longer than this is shown by its decimal alone, and an answer's text is cut to
it: feedback stays one short line."""


def value_text(value: object) -> str:
    """An exact value (ln for log), a shape as RxC (or BxRxC)."""
    if isinstance(value, tuple):
        return "x".join(map(str, value))
    return _PRINTER.doprint(value) if isinstance(value, sp.Basic) else str(value)


def note_text(verdict: Verdict, lang: str) -> str:
    """The note on a whole claim (why it could not be read, or was not judged) in words."""
    if verdict.note == "unreadable":  # its values are the reason (parse.reasons)
        return reason_text(verdict.note_values, lang)
    return phrase(f"note_{verdict.note}", lang, *verdict.note_values)


def rule_text(rule: tuple, lang: str, note: str = "") -> str:
    """The rule used for an entry, in words (a parse failure: why it could not be read)."""
    kind = rule[0]
    if kind == "parse":
        return reason_text(rule[1:], lang) if len(rule) > 1 else phrase("rule_parse", lang, error=note)
    if kind == "float":
        return phrase("rule_float_off", lang, rule[1], reason_text(rule[2], lang)) \
            if len(rule) > 2 else phrase("rule_float", lang, rule[1])
    if kind == "allclose":
        return phrase("rule_allclose", lang, rtol=rule[1], atol=rule[2])
    if kind in ("tolerance", "relative"):
        return phrase(f"rule_{kind}", lang, t=value_text(rule[1]))
    if kind in ("places", "tie"):
        return phrase(f"rule_{kind}", lang, n=rule[1], places="place" if rule[1] == 1 else "places")
    if kind in ("sigfigs", "numeric", "masked"):
        return phrase(f"rule_{kind}", lang, n=rule[1])
    return phrase(f"rule_{kind}", lang)


def _position(verdict: Verdict, entry: EntryVerdict) -> str:
    stage = "".join(verdict.key.split())
    if stage.endswith("]") and not stage.endswith("]."):  # A[2] -> A, head[2].O[3] -> head[2].O
        stage = stage[:stage.rindex("[")]
    if entry.position is None or stage.startswith("shape") or len(verdict.entries) == 1:
        return verdict.key
    return f"{stage}[{entry.position[0] + 1},{entry.position[1] + 1}]"


def _cut(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"


def hint_all(verdict: Verdict, lang: str) -> str:
    """One sentence for a claim whose every entry not correct agrees to float precision."""
    bad = [e for e in verdict.entries if e.status != "correct"]
    if len(bad) == 1:
        return reason_text(bad[0].hint, lang)
    kind = "float32" if any(e.hint[1] == "float32" for e in bad) else "float64"
    return phrase("hint_float_all", lang, len(bad), kind)


def _entry_line(verdict: Verdict, entry: EntryVerdict, lang: str) -> str:
    if entry.rule[0] == "parse":
        return f"{_cut(entry.given)}: {rule_text(entry.rule, lang, entry.note)}"
    decimal = entry.expected_decimal
    exact = value_text(entry.expected if entry.expected_shown is None else entry.expected_shown)
    expected = f"≈ {decimal}" if decimal and (entry.expected_shown is None or len(exact) > MAX_SHOWN) \
        else f"{exact} (≈ {decimal})" if decimal else exact
    words = phrase("expected_given", lang, expected=expected, given=_cut(entry.given) or "—")
    if entry.hint and verdict.only_precision and len(verdict.entries) > 1:
        why = f"({reason_text(entry.hint[2], lang)})"  # the claim's line says the rest
        return f"{_position(verdict, entry)}: {words} {why}"
    why = reason_text(entry.hint, lang) if entry.hint else rule_text(entry.rule, lang, entry.note)
    return f"{_position(verdict, entry)}: {words}{SEPARATOR[lang]}{why}"


def diagnosis_text(verdict: Verdict, lang: str) -> str:
    """"matches softmax over columns" for a wrong claim that fits a known mistake."""
    if verdict.diagnosis in ("none", "over_budget"):
        return phrase(f"diagnosis_{verdict.diagnosis}", lang)
    return phrase("diagnosis", lang, mistake=phrase(f"mistake_{verdict.diagnosis}", lang))


def remark_texts(verdict: Verdict, lang: str) -> list[str]:
    """Why the claim cannot be right for any weights, one sentence each."""
    return [phrase(f"remark_{key}", lang, *values) for key, values in verdict.remarks]


def render_verification_text(report: Verification, lang: str = "en") -> str:
    """One line per claim; the entries that are not correct below it; a summary."""
    lines = [f"{report.title} — {phrase('verification', lang)}" if report.title
             else phrase("verification", lang)]
    for verdict in report.verdicts:
        status = phrase(f"status_{verdict.status}", lang)
        bad = [e for e in verdict.entries if e.status != "correct"]
        if verdict.note:
            detail = note_text(verdict, lang)
        elif len(verdict.entries) > 1 and bad:
            detail = phrase("entries_wrong", lang, count=len(bad), total=len(verdict.entries))
        elif verdict.entries and verdict.status == "correct":
            rules = dict.fromkeys(rule_text(e.rule, lang) for e in verdict.entries)
            detail = SEPARATOR[lang].join(rules)
        else:
            detail = ""
        lines.append(f"[{status}] {verdict.key}" + (f": {detail}" if detail else ""))
        if verdict.diagnosis:
            lines.append(f"    {diagnosis_text(verdict, lang)}")
        if verdict.only_precision and len(verdict.entries) > 1:
            lines.append(f"    {hint_all(verdict, lang)}")
        lines += [f"    {remark}" for remark in remark_texts(verdict, lang)]
        if len(verdict.entries) > 1 or verdict.status != "correct":
            lines += [f"    {_entry_line(verdict, e, lang)}" for e in bad]
    correct = sum(v.status == "correct" for v in report.verdicts)
    total = len(report.verdicts)
    lines.append(phrase("summary_all", lang, total=total) if correct == total
                 else phrase("summary_some", lang, correct=correct, total=total))
    return "\n".join(lines) + "\n"


def render_verification_json(report: Verification, lang: str = "en") -> str:
    """Every claim and entry with status, rule (machine name and words), expected and given."""
    def entry(verdict: Verdict, e: EntryVerdict) -> dict:
        return {"position": [e.position[0] + 1, e.position[1] + 1] if e.position else None,
                "status": e.status, "rule": [str(x) for x in _flat(e.rule)],
                "rule_text": rule_text(e.rule, lang, e.note), "expected": value_text(e.expected),
                "expected_decimal": e.expected_decimal, "given": e.given,
                "hint": reason_text(e.hint, lang) if e.hint else None}
    claims = [{"key": v.key, "status": v.status,
               "note": note_text(v, lang) if v.note else None,
               "diagnosis": v.diagnosis,
               "diagnosis_text": diagnosis_text(v, lang) if v.diagnosis else None,
               "remarks": remark_texts(v, lang),
               "entries": [entry(v, e) for e in v.entries]} for v in report.verdicts]
    document = {"title": report.title, "status": report.status, "claims": claims}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _flat(rule: tuple) -> list[object]:
    """A rule's machine name and values, a nested reason spread out: float, float32,
    off_relative, 3e-8."""
    return [y for x in rule for y in (_flat(x) if isinstance(x, tuple) else [x])]
