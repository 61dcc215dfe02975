"""Which kinds of problem each verb takes, and the sentence that refuses the others."""

from __future__ import annotations

from .errors import InputError
from .model import MultiHeadProblem, Problem, ShapeProblem

AnyProblem = Problem | ShapeProblem | MultiHeadProblem


def kind_of(problem: AnyProblem) -> str:
    """The problem's kind as the refusals name it."""
    if isinstance(problem, ShapeProblem):
        return "shapes"
    if isinstance(problem, MultiHeadProblem):
        return "multi-head"
    return "scores" if problem.start != "Q" else "single-head"


TAKES: dict[str, tuple[str, ...]] = {
    "solve": ("single-head", "scores", "multi-head", "shapes"),
    "check": ("single-head", "scores", "multi-head", "shapes"),
    "verify": ("single-head", "scores", "multi-head", "shapes"),
    "grade": ("single-head", "scores", "multi-head", "shapes"),
    "mistakes": ("single-head", "scores", "multi-head"),
    "page": ("single-head", "multi-head", "shapes"),
    "problemset": ("single-head", "scores", "multi-head"),
    "sweep": ("single-head", "scores"),
    "gradient": ("single-head",),
    "nonunique": ("single-head", "scores"),
    "limits": ("single-head", "scores"),
}
"""Which kinds each verb takes; every other kind is refused with WHY_NOT's sentence."""

WHY_NOT: dict[tuple[str, str], str] = {
    ("mistakes", "shapes"): "a problem that gives only shapes has no weights to get wrong",
    ("page", "scores"): "a course page shows Q, K and V, and this problem gives its scores "
                        "(use symattn solve for its derivation)",
    ("problemset", "shapes"): "a problem set asks for weights, and this problem gives only "
                              "shapes",
    **{(verb, "shapes"): "a problem that gives only shapes has no weights"
       for verb in ("sweep", "gradient", "nonunique", "limits")},
    ("sweep", "multi-head"): "a sweep follows one head's weights; give that head as a "
                             "single-head problem",
    ("gradient", "scores"): "gradients follow Q, K and V back, and this problem gives its "
                            "scores",
    ("gradient", "multi-head"): "gradients are taken through one head; give that head as a "
                                "single-head problem",
    ("nonunique", "multi-head"): "the weights with the same output are one head's; give that "
                                 "head as a single-head problem",
    ("limits", "multi-head"): "the temperature limits are one head's weights; give that head as "
                              "a single-head problem",
}


def refuse_kind(problem: AnyProblem, verb: str) -> None:
    """Refuse, in one sentence, a kind of problem the verb does not take.

    Raises:
        InputError: naming the file, the verb and why.
    """
    kind = kind_of(problem)
    if kind not in TAKES[verb]:
        raise InputError(f"'{verb}' does not take this {kind} problem: {WHY_NOT[(verb, kind)]}",
                         source=problem.source)
