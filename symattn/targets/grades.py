"""Grading results as a CSV report (per student, per claim) and a printed summary per claim."""

from __future__ import annotations

import csv
import io

from ..answers.results import STATUSES, Graded, Verdict
from ..parse.labels import shown_escaped
from ..words import phrase
from .verdicts import SEPARATOR, _entry_line, diagnosis_text, hint_all, note_text, remark_texts


def feedback(verdict: Verdict, lang: str) -> str:
    """One line: why a claim is not correct (empty when it is)."""
    if verdict.status == "correct":
        return ""
    if verdict.only_precision:
        return hint_all(verdict, lang)
    if verdict.diagnosis not in (None, "none", "over_budget"):
        return diagnosis_text(verdict, lang)
    if verdict.remarks:
        return remark_texts(verdict, lang)[0]
    if verdict.note:
        return note_text(verdict, lang)
    bad = [e for e in verdict.entries if e.status != "correct"]
    return SEPARATOR[lang].join(_entry_line(verdict, e, lang) for e in bad[:3]) + \
        (" …" if len(bad) > 3 else "")


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (OWASP, CSV injection)."""


def inert(cell: str) -> str:
    """A text cell no spreadsheet runs: controls and bidi characters escaped, and a cell that
    starts like a formula prefixed with a single quote, as OWASP recommends ('=cmd|..., '-0.5)."""
    cell = shown_escaped(cell)
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def render_grades_csv(keys: tuple[str, ...], graded: list[Graded], lang: str = "en") -> str:
    """id, score, total, then for each claim its status and its feedback; every text cell
    inert (ids and feedback quote students' text)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "score", "total"] + [inert(c) for k in keys for c in (k, f"{k} feedback")])
    for student in graded:
        cells = [inert(c) for v in student.verdicts for c in (v.status, feedback(v, lang))]
        writer.writerow([inert(student.student), student.score, len(keys)] + cells)
    return out.getvalue()


def not_graded(graded: list[Graded]) -> int:
    """How many answers could not be graded (the grader's failure: rerun or review them)."""
    return sum(v.status == "not_graded" for g in graded for v in g.verdicts)


def render_grade_summary(keys: tuple[str, ...], graded: list[Graded], lang: str = "en") -> str:
    """How many students got each claim right, how many answers had each status, and a line
    counting the answers that could not be graded (their worker crashed twice)."""
    width = max(len(k) for k in keys)
    lines = []
    for index, key in enumerate(keys):
        statuses = [g.verdicts[index].status for g in graded]
        counts = ", ".join(f"{phrase(f'status_{s}', lang)} {statuses.count(s)}"
                           for s in STATUSES if statuses.count(s))
        lines.append(f"{key.ljust(width)}  {statuses.count('correct')}/{len(graded)}  ({counts})")
    total = sum(g.score for g in graded)
    lines.append(phrase("summary_some", lang, correct=total, total=len(graded) * len(keys)))
    missed = not_graded(graded)
    if missed:
        lines.append(phrase("summary_not_graded_one", lang) if missed == 1
                     else phrase("summary_not_graded", lang, count=missed))
    return "\n".join(lines) + "\n"
