"""Problem (+ claims) -> the verdict on every claim: the exact result computed once, then judged."""

from __future__ import annotations

from ..errors import InputError
from ..exact.attention import attend
from ..exact.heads import attend_heads
from ..model import Facts, Grading, MultiHeadProblem, Problem, ShapeProblem
from ..parse.claims import Claim
from .judge import judge
from .mistakes import mistaken_stages, mistakes
from .results import Verification


def facts_of(problem: Problem | ShapeProblem) -> Facts:
    """The exact facts claims are judged against (computing the trace for a full problem)."""
    if isinstance(problem, ShapeProblem):
        return problem.facts()
    if isinstance(problem, MultiHeadProblem):
        return attend_heads(problem).facts()
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
    return mistaken_stages(mistakes(problem))
