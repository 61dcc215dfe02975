"""The Python API: attention() and multi_head() from Python values, render(), and the analyses.

    trace = symattn.attention([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[2, 0], [0, 4]])
    symattn.render(trace, "latex", lang="zh", detail="full")

    problem = symattn.load_problem("worked_examples/09_parameter_sweep/problem.toml")
    result = parameter_sweep(problem)                    # the file's [sweep]
    render_analysis(result, "markdown", lang="zh")

    trace = symattn.attend(symattn.load_problem("worked_examples/10_gradient/problem.toml"))
    grads = gradients(trace)                             # the file's [gradient], or dO=/loss=
    grads["dK"]                                          # Matrix([[-43/50], [-7/50], [1]])
    weights_with_same_output(trace, row=3)               # the set of weights giving O[3]

    result = verify(problem, {"O[3,1]": "7/3", "A[3]": "(0.167, 0.5, 0.333)"})  # as the CLI's
    render_verification(result, "text", lang="zh")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import sympy as sp

from .exact.attention import attend
from .exact.heads import attend_heads
from .jobs import settle
from .jobs.writing import write_trace
from .model import MultiHeadTrace, Problem, Trace
from .parse.reader import Reader
from .parse.spec import ProblemReader

if TYPE_CHECKING:  # the analyses and derivations load when used: solve and check start without
    from .analyses.results import Gradients, NonUniqueness, Sweep  # lazy: not at start
    from .answers.results import Verification
    from .kinds import AnyProblem


def attention(Q: Any = None, K: Any = None, V: Any = None, *, X: Any = None, Y: Any = None,
              W_Q: Any = None, W_K: Any = None, W_V: Any = None, b_Q: Any = None,
              b_K: Any = None, b_V: Any = None, layout: str = "rows", mask: str = "none",
              keep: Any = None, key_lengths: Sequence[int] | None = None, bias: Any = None,
              temperature: Any = 1, scale: Any = "auto", fully_masked: str = "error",
              tokens: Sequence[str] | None = None, key_tokens: Sequence[str] | None = None,
              symbols: Mapping[str, str] | None = None, title: str | None = None,
              mask_bias: Any = None) -> Trace:
    """Exact attention from matrices given as lists of rows (or SymPy matrices).

    Give Q, K, V, or X with W_Q, W_K, W_V (and Y for keys and values from another sequence),
    optionally with biases b_Q, b_K, b_V (Q = X W_Q + 1 b_Qᵀ); layout="columns" takes every
    matrix one token per column (X is D x N, W_Q is d_k x D), as [input] layout does. Entries
    may be ints, Fractions, SymPy values, or strings in the safe syntax ("ln(3)",
    "1/sqrt(2)", "17/20"); floats are refused because they are inexact. Options mean what
    the keys of a problem file's [attention] table mean.

    Raises:
        InputError: a bad entry or option, naming it.
    """
    matrices = {"Q": Q, "K": K, "V": V, "X": X, "Y": Y, "W_Q": W_Q, "W_K": W_K, "W_V": W_V,
                "b_Q": b_Q, "b_K": b_K, "b_V": b_V}
    data = _document(matrices, locals(), symbols, tokens, key_tokens, title)
    if layout != "rows":
        data["input"]["layout"] = layout
    return attend(ProblemReader("<attention>").problem(data))


def multi_head(X: Any, heads: Sequence[Mapping[str, Any]], W_O: Any, *, b_O: Any = None,
               layout: str = "rows", mask: str = "none",
               temperature: Any = 1, scale: Any = "auto", fully_masked: str = "error",
               tokens: Sequence[str] | None = None, symbols: Mapping[str, str] | None = None,
               title: str | None = None) -> MultiHeadTrace:
    """MHA(X) = Concat(head_1, ..., head_h) W_O (+ 1 b_Oᵀ); each head a mapping with W_Q, W_K,
    W_V, optionally their biases b_Q, b_K, b_V and "attention" (options overriding the shared
    ones); layout="columns" as in attention()."""
    data = _document({"X": X, "W_O": W_O, "b_O": b_O}, locals(), symbols, tokens, None, title)
    if layout != "rows":
        data["input"]["layout"] = layout
    data["heads"] = [{**{k: _rows(v) for k, v in head.items() if k != "attention"},
                      **({"attention": dict(head["attention"])} if "attention" in head else {})}
                     for head in heads]
    return attend_heads(ProblemReader("<multi_head>").problem(data))


OPTION_NAMES = ("mask", "keep", "key_lengths", "bias", "temperature", "scale", "fully_masked",
                "mask_bias")


def _document(matrices: Mapping[str, Any], given: Mapping[str, Any], symbols, tokens,
              key_tokens, title) -> dict[str, Any]:
    """A problem-file document from Python values, so the file's validation applies."""
    options = {name: given.get(name) for name in OPTION_NAMES}
    options["keep"], options["bias"] = _rows(options["keep"]), _rows(options["bias"])
    if options["key_lengths"] is not None:
        options["key_lengths"] = list(options["key_lengths"])
    data: dict[str, Any] = {
        "input": {k: _rows(v) for k, v in matrices.items() if v is not None},
        "attention": {k: v for k, v in options.items() if v is not None},
        "symbols": dict(symbols or {}),
    }
    for key, value in (("tokens", tokens), ("key_tokens", key_tokens), ("title", title)):
        if value is not None:
            data[key] = list(value) if key != "title" else value
    return data


def _rows(matrix: Any) -> list[list[Any]] | None:
    if matrix is None:
        return None
    if isinstance(matrix, sp.MatrixBase):
        return matrix.tolist()
    return [list(row) if isinstance(row, (list, tuple)) else row for row in matrix]


def render(trace: Trace | MultiHeadTrace, to: str = "text", *, lang: str | None = None,
           detail: str | None = None, row: int | None = None, places: int | None = None,
           figure: bool | None = None, standalone: bool = False, digits: int = 50,
           width: str | float = "article", heading: str = "section", numbered: bool = False,
           label: str | None = None, preamble: bool = False, checks: str | None = None) -> str:
    """Render a trace (one head or several): "text", "json", "latex" or "markdown"
    (derivations in "en" or "zh").

    For LaTeX and Markdown the checks run first (at `digits`) so the derivation can close with
    them; `detail` is "summary", "textbook" (every stage with its reason; `row` also writes that
    row out step by step) or "full" (every row step by step); `figure` adds a heatmap of A. An
    option left as None takes the problem file's [derivation] value, else its default. Layout:
    `width` (article, book, 12cm, 400pt, 70 characters or points as a number), `heading` (the
    title's sectioning command), `numbered`, `label` (a \\label prefix); `preamble` gives the
    \\usepackage lines the LaTeX fragment needs. `checks` closes a derivation with "short" (one
    sentence, the default), "full" (a sentence per check) or "none"; a check that does not pass
    is said whichever is chosen.

    Raises:
        OptionError: an option outside its vocabulary or range (a ValueError).
    """
    settings = settle(trace.problem, {
        "to": to, "lang": lang, "detail": detail, "row": row, "places": places, "figure": figure,
        "standalone": standalone, "digits": digits, "width": width, "heading": heading,
        "numbered": numbered, "label": label, "preamble": preamble, "checks": checks})
    return write_trace(trace, settings)


ANALYSIS_FORMATS = {"Sweep": ("text", "json", "latex", "markdown", "svg"),
                    "Gradients": ("text", "json", "latex", "markdown"),
                    "NonUniqueness": ("text", "json", "latex", "markdown")}


def parameter_sweep(problem: Problem, sweep_table: dict[str, Any] | None = None, *,
                    row: int | None = None, places: int = 4) -> Sweep:
    """Attention at every point of the problem's [sweep] (or of sweep_table, same keys).

    Raises:
        InputError: a bad table, naming the key (sweep.theta.steps, ...).
        ProblemError: a point where the problem cannot be computed, naming it.
    """
    from .analyses.sweep import sweep  # lazy: solve and check start without it
    from .parse.options import read_sweep  # lazy: solve and check start without it
    spec = None if sweep_table is None else read_sweep(
        Reader(problem.source), sweep_table, {s.name: s for s in problem.symbols}, problem.n_q)
    return sweep(problem, spec, row=row, places=places)


def gradients(trace: Trace, *, dO: Sequence[Sequence[Any]] | None = None, loss: str | None = None,
              row: int | None = None, places: int = 4) -> Gradients:
    """Exact gradients of ℓ = Σ dO ⊙ O: from dO (rows of entries, strings in the safe syntax),
    loss="sum" (dO all ones), or else the problem's [gradient] table."""
    from .analyses.gradient import gradients as _gradients  # lazy: solve and check start without it
    from .parse.options import read_gradient  # lazy: solve and check start without it
    upstream = None
    if dO is not None or loss is not None:
        p = trace.problem
        table = {k: v for k, v in (("dO", _rows(dO)), ("loss", loss)) if v is not None}
        upstream = read_gradient(Reader(p.source), table, {s.name: s for s in p.symbols}, p.n_q,
                                 p.d_v)
    return _gradients(trace, upstream, places=places, row=row)


def weights_with_same_output(trace: Trace, row: int | None = None, *,
                             places: int = 4) -> NonUniqueness:
    """For one row (1-based) or every row: all weights on the simplex that give the same output."""
    from .analyses.nonunique import nonunique  # lazy: solve and check start without it
    return nonunique(trace, row, places=places)


def render_analysis(result: Sweep | Gradients | NonUniqueness, to: str = "markdown", *,
                    lang: str = "en", standalone: bool = False, image: str | None = None,
                    digits: int = 60, width: str | float = "article", heading: str = "section",
                    numbered: bool = False, label: str | None = None,
                    preamble: bool = False) -> str:
    """Render a result; for gradients the mpmath finite-difference check runs first (at digits).
    Layout as for `render`: `width`, `heading`, `numbered`, `label`, `standalone`, `preamble`.

    Raises:
        OptionError: an option outside its vocabulary or range (a ValueError).
    """
    from .analyses.gradient_check import check_gradients  # lazy: solve and check start without it
    from .analyses.results import Gradients, Sweep  # lazy: solve and check start without it
    from .targets.gradient import render_gradient  # lazy: solve and check start without it
    from .targets.nonunique import render_nonunique  # lazy: solve and check start without it
    from .targets.sweep import render_sweep  # lazy: solve and check start without it
    formats = ANALYSIS_FORMATS.get(type(result).__name__)
    if formats is None:
        raise TypeError(f"cannot render a {type(result).__name__}")
    s = settle(None, {"to": to, "lang": lang, "width": width, "heading": heading,
                      "numbered": numbered, "label": label, "standalone": standalone,
                      "preamble": preamble}, formats=formats)
    from .jobs.writing import statement  # lazy: solve and check start without it
    problem = result.problem if isinstance(result, Sweep) else result.trace.problem
    stated = statement(problem, s) if s.to in ("latex", "markdown") else None  # solve's words
    if isinstance(result, Sweep):
        return render_sweep(result, to, s.lang, page=s.page(), image=image, problem=stated)
    if isinstance(result, Gradients):
        return render_gradient(result, check_gradients(result, digits), to, s.lang, page=s.page(),
                               problem=stated)
    return render_nonunique(result, to, s.lang, page=s.page(), problem=stated)


def verify(problem: AnyProblem, answers: Mapping[str, Any] | None = None, *,
           grading: Mapping[str, Any] | None = None) -> Verification:
    """Judge claimed answers against the exact result, as `symattn verify` does: each verdict
    correct, wrong (with the classic mistake it matches), undecided or invalid.

    answers: claim key -> claimed value, as a problem file's [answers] table holds them
    ({"A[3]": "(1/6, 1/2, 1/3)", "O[3,1]": 2.3333, "d_k": 2}); default the problem's own
    [answers]. Every value is read by symattn's own parser, never evaluated. grading: a
    [grading] table ({"sigfigs": 3}, {"rule": "float32"}); default the problem's.

        symattn.verify(problem, {"O[3,1]": "7/3"}).passed            # True

    Raises:
        InputError: an unknown claim key or grading rule, or a problem verify does not take
            (a claimed value that cannot be read is an invalid verdict, not an error).
    """
    from .answers.verify import verify as judge  # lazy: the judge loads with its first use
    from .jobs import refuse_kind  # lazy: as the judge
    from .parse.claims import parse_answers, read_grading  # lazy: as the judge

    refuse_kind(problem, "verify")
    symbols = {s.name: s for s in getattr(problem, "symbols", ())}
    claims = None if answers is None else parse_answers(dict(answers), symbols, source="")
    rule = None if grading is None else read_grading({"grading": dict(grading)}, "")
    return judge(problem, claims, rule)


def render_verification(result: Verification, to: str = "text", *, lang: str = "en") -> str:
    """A verification as `symattn verify` writes it: "text" (a line per claim, with its reason
    and the classic mistake) or "json", in "en" or "zh".

    Raises:
        OptionError: an unknown format or language (a ValueError).
    """
    from .targets.verdicts import render_verification_json, render_verification_text  # lazy: verify only

    settings = settle(None, {"to": to, "lang": lang}, formats=("text", "json"))
    write = render_verification_json if settings.to == "json" else render_verification_text
    return write(result, settings.lang)
