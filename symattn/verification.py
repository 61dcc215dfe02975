"""Problem (+ claims) -> the verdict on every claim: the exact result computed once, then judged."""

from __future__ import annotations

from dataclasses import dataclass

from .claims import Claim
from .errors import InputError
from .judge import Verdict, judge, overall
from .model import Facts, Grading, Problem, ShapeProblem


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


def facts_of(problem: Problem | ShapeProblem) -> Facts:
    """The exact facts claims are judged against (computing the trace for a full problem)."""
    if isinstance(problem, ShapeProblem):
        return problem.facts()
    from .pipeline import attend
    return attend(problem).facts()


def verify(problem: Problem | ShapeProblem, claims: tuple[Claim, ...] | None = None,
           grading: Grading | None = None) -> Verification:
    """Judge the claims (default: the problem's own [answers]) against the exact result.

    Raises:
        InputError: when there is no claim to judge.
    """
    claims = problem.answers if claims is None else claims
    if not claims:
        raise InputError("no claims to verify: add an [answers] table or give --answers FILE",
                         source=problem.source)
    facts = facts_of(problem)
    rules = problem.grading if grading is None else grading
    return Verification(tuple(judge(claim, facts, rules) for claim in claims), problem.title)
