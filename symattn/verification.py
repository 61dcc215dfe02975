"""Problem (+ claims) -> the verdict on every claim: the exact result computed once, then judged."""

from __future__ import annotations

from dataclasses import dataclass

from .claims import Claim
from .errors import InputError
from .judge import Verdict, judge, overall
from .model import Facts, Grading, MultiHeadProblem, Problem, ShapeProblem


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
    if isinstance(problem, MultiHeadProblem):
        from .layers import attend_heads
        return attend_heads(problem).facts()
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
    verdicts = [judge(claim, facts, rules) for claim in claims]
    if any(v.status == "wrong" for v in verdicts):  # only then: which known mistake fits?
        known = mistakes_of(problem)
        verdicts = [judge(c, facts, rules, known) if v.status == "wrong" else v
                    for c, v in zip(claims, verdicts)]
    return Verification(tuple(verdicts), problem.title)


def mistakes_of(problem: Problem | ShapeProblem) -> dict:
    """The classic mistakes' A and O by name, for diagnosing wrong answers (none for shapes)."""
    if not isinstance(problem, Problem):
        return {}
    from .mistakes import mistaken_stages, mistakes
    return mistaken_stages(mistakes(problem))
