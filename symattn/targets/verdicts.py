"""Verdicts on claimed answers as text (English or Chinese) or JSON; every value comes from the verdicts."""

from __future__ import annotations

import json

import sympy as sp

from ..answers.results import EntryVerdict, Verdict, Verification
from ..printing.plain import TextPrinter
from ..words import phrase

_PRINTER = TextPrinter()
SEPARATOR = {"en": "; ", "zh": "；"}


def value_text(value: object) -> str:
    """An exact value (ln for log), a shape as RxC (or BxRxC)."""
    if isinstance(value, tuple):
        return "x".join(map(str, value))
    return _PRINTER.doprint(value) if isinstance(value, sp.Basic) else str(value)


def rule_text(rule: tuple, lang: str, note: str = "") -> str:
    """The rule used for an entry, in words."""
    kind = rule[0]
    if kind == "parse":
        return phrase("rule_parse", lang, error=note)
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


def _entry_line(verdict: Verdict, entry: EntryVerdict, lang: str) -> str:
    if entry.rule == ("parse",):
        return f"{entry.given}: {rule_text(entry.rule, lang, entry.note)}"
    expected = value_text(entry.expected if entry.expected_shown is None else entry.expected_shown)
    if entry.expected_decimal:
        expected += f" (≈ {entry.expected_decimal})"
    words = phrase("expected_given", lang, expected=expected, given=entry.given or "—")
    return f"{_position(verdict, entry)}: {words}{SEPARATOR[lang]}{rule_text(entry.rule, lang, entry.note)}"


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
            detail = phrase(f"note_{verdict.note}", lang, *verdict.note_values)
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
                "status": e.status, "rule": [str(x) for x in e.rule],
                "rule_text": rule_text(e.rule, lang, e.note), "expected": value_text(e.expected),
                "expected_decimal": e.expected_decimal, "given": e.given}
    claims = [{"key": v.key, "status": v.status,
               "note": phrase(f"note_{v.note}", lang, *v.note_values) if v.note else None,
               "diagnosis": v.diagnosis,
               "diagnosis_text": diagnosis_text(v, lang) if v.diagnosis else None,
               "remarks": remark_texts(v, lang),
               "entries": [entry(v, e) for e in v.entries]} for v in report.verdicts]
    document = {"title": report.title, "status": report.status, "claims": claims}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
