"""Problem (+ claims) -> the verdict on every claim: the exact result computed once, then judged."""

from __future__ import annotations

from dataclasses import replace

from ..errors import InputError
from ..exact.attention import attend
from ..exact.heads import attend_heads
from ..model import Facts, Grading, MultiHeadProblem, Problem, ShapeProblem
from ..parse.claims import Claim
from .book import BookMistakes, book_facts
from .judge import judge
from .limits import masked_limits, masked_limits_heads
from .head_mistakes import HeadMistakes
from .mistakes import Mistakes
from .results import Verification

AnyProblem = Problem | ShapeProblem | MultiHeadProblem


def facts_and_mistakes(problem: AnyProblem
                       ) -> tuple[Facts, Mistakes | HeadMistakes | BookMistakes | None]:
    """The exact facts claims are judged against, and the classic mistakes of a problem with
    values (computed only when a wrong answer asks for them; a multi-head problem's are every
    head's, recombined); a problem laid out in columns has both as its book writes them."""
    if isinstance(problem, ShapeProblem):
        return problem.facts(), None
    found: tuple[Facts, Mistakes | HeadMistakes]
    if isinstance(problem, MultiHeadProblem):
        heads = attend_heads(problem)
        facts = heads.facts()
        if any(h.mask_bias is not None for h in problem.heads):
            facts = replace(facts, limits=masked_limits_heads(heads))
        found = facts, HeadMistakes(heads)
    else:
        trace = attend(problem)
        facts = trace.facts()
        if problem.mask_bias is not None:
            facts = replace(facts, limits=masked_limits(trace))
        found = facts, Mistakes(problem, trace)
    if problem.layout == "columns":
        return book_facts(found[0]), BookMistakes(found[1])
    return found


def verify(problem: AnyProblem, claims: tuple[Claim, ...] | None = None,
           grading: Grading | None = None) -> Verification:
    """Judge the claims (default: the problem's own [answers]) against the exact result; a wrong
    one is diagnosed against the classic mistakes.

    Raises:
        InputError: when there is no claim to judge.
    """
    claims = problem.answers if claims is None else claims
    if not claims:
        raise InputError("no claims to verify: add an [answers] table or give --answers FILE",
                         source=problem.source)
    facts, mistakes = facts_and_mistakes(problem)
    rules = problem.grading if grading is None else grading
    return Verification(tuple(judge(claim, facts, rules, mistakes) for claim in claims),
                        problem.title)


def facts_of(problem: AnyProblem) -> Facts:
    """The exact facts claims are judged against."""
    return facts_and_mistakes(problem)[0]
