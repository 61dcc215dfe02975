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


def conventions(problem: AnyProblem) -> tuple[str, ...]:
    """The book's conventions the problem uses: "columns" (laid out one token per column) and
    "biases" (projections with biases), each of which some verbs do not take."""
    if isinstance(problem, ShapeProblem):
        return ()
    heads = problem.heads if isinstance(problem, MultiHeadProblem) else (problem,)
    biased = any(h.projections is not None and h.projections.biased for h in heads) or (
        isinstance(problem, MultiHeadProblem) and problem.b_O is not None)
    return (("columns",) if heads[0].layout == "columns" else ()) + (("biases",) if biased else ())


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

CONVENTIONS_REFUSED: dict[tuple[str, str], str] = {
    **{(verb, "columns"): f"{what} one query per row; write the problem in rows (without "
                          'layout = "columns") for it'
       for verb, what in (("page", "the course page lays out its tables and editors"),
                          ("sweep", "a sweep tabulates the weights"),
                          ("gradient", "the gradients are derived"),
                          ("nonunique", "the weights with the same output are found"),
                          ("limits", "the temperature limits are derived"))},
    ("page", "biases"): "the course page recomputes edits without projection biases; solve, "
                        "check and verify take them",
    ("gradient", "biases"): "the gradients are derived through X W without the projection "
                            "biases (∂b is not derived)",
}
"""The book's conventions a verb does not take, with the sentence that refuses them."""

CONVENTION_NAMES = {"columns": 'laid out in columns (layout = "columns")',
                    "biases": "with projection biases"}


def refusal(problem: AnyProblem, verb: str) -> str | None:
    """The sentence refusing the problem for the verb, or None when the verb takes it."""
    kind = kind_of(problem)
    if kind not in TAKES[verb]:
        return f"'{verb}' does not take this {kind} problem: {WHY_NOT[(verb, kind)]}"
    for convention in conventions(problem):
        if (verb, convention) in CONVENTIONS_REFUSED:
            return (f"'{verb}' does not take a problem {CONVENTION_NAMES[convention]}: "
                    f"{CONVENTIONS_REFUSED[verb, convention]}")
    return None


def refuse_kind(problem: AnyProblem, verb: str) -> None:
    """Refuse, in one sentence, a kind of problem the verb does not take.

    Raises:
        InputError: naming the file, the verb and why.
    """
    reason = refusal(problem, verb)
    if reason is not None:
        raise InputError(reason, source=problem.source)
