"""What judging returns: verdicts on claims and entries, a verification, graded students, mistakes."""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

STATUSES = ("correct", "wrong", "undecided", "time_limit", "not_graded", "invalid")
"""Every status of a claim. "time_limit" and "not_graded" (its worker crashed twice) come only
from grade: for the instructor to review, neither correct nor wrong."""


def overall(statuses) -> str:
    """invalid > wrong > not_graded > time_limit > undecided > correct."""
    found = set(statuses)
    return next((s for s in ("invalid", "wrong", "not_graded", "time_limit", "undecided")
                 if s in found),
                "correct")


@dataclass(frozen=True)
class EntryVerdict:
    """One entry: where (0-based row, column; None for a whole value), status, rule, values."""

    position: tuple[int, int] | None
    status: str
    rule: tuple  # ("exact",), ("places", k), ("tie", k), ("tolerance", t), ("relative", t),
    # ("sigfigs", n), ("float", kind[, off]), ("allclose", rtol, atol), ("shape",),
    # ("numeric", digits), ("parse", reason...): words/ phrases with their values
    expected: object  # an exact value, or a shape (rows, columns)
    given: str
    note: str = ""
    expected_decimal: str | None = None  # the expected value written like the answer
    expected_shown: object = None  # the expected value as the problem's style shows it (None:
    # by its decimal alone, beside a decimal answer to a problem written in decimals)
    hint: tuple = ()  # a wrong decimal that agrees to float precision: ("hint_float", kind, off)


@dataclass(frozen=True)
class Verdict:
    """One claim: its key, overall status, the entries judged and a note on the whole claim."""

    key: str
    status: str
    entries: tuple[EntryVerdict, ...]
    note: str = ""
    note_values: tuple = ()
    diagnosis: str | None = None  # a classic mistake the claim matches; "none" (no mistake
    # gives it) or "over_budget" (one ran out of its budget); None: not diagnosed
    remarks: tuple[tuple[str, tuple], ...] = ()  # why the claim cannot be right: (key, values)

    @property
    def only_precision(self) -> bool:
        """Whether every entry not correct agrees with its exact value to float precision (a
        rule would accept the claim: no classic mistake or impossibility is looked for)."""
        bad = [e for e in self.entries if e.status != "correct"]
        return bool(bad) and all(e.hint for e in bad)


@dataclass(frozen=True)
class Verification:
    """The verdict on each claim, in the order given."""

    verdicts: tuple[Verdict, ...]
    title: str | None = None

    @property
    def status(self) -> str:
        return overall(v.status for v in self.verdicts)

    @property
    def passed(self) -> bool:
        return all(v.status == "correct" for v in self.verdicts)


@dataclass(frozen=True)
class Graded:
    """One student's verdicts (one per key) and score (the number of correct claims)."""

    student: str
    verdicts: tuple[Verdict, ...]

    @property
    def score(self) -> int:
        return sum(v.status == "correct" for v in self.verdicts)


@dataclass(frozen=True)
class Mistake:
    """What one mistake gives: its name, the mistaken A and O, or why it does not apply."""

    name: str
    A: sp.ImmutableMatrix | None
    O: sp.ImmutableMatrix | None
    reason: str = ""  # "not_applicable", "same_result" or "over_budget" when A and O are None
    logits: sp.ImmutableMatrix | None = None  # what its softmax took (None: no softmax of its own)

    @property
    def applies(self) -> bool:
        return self.A is not None
