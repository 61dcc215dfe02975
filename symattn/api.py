"""attention(Q, K, V, ...): the pipeline from Python values, validated like a problem file."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import sympy as sp

from .pipeline import attend
from .model import MultiHeadTrace, Trace
from .spec import Reader


def attention(Q: Any = None, K: Any = None, V: Any = None, *, X: Any = None, Y: Any = None,
              W_Q: Any = None, W_K: Any = None, W_V: Any = None, mask: str = "none",
              keep: Any = None, key_lengths: Sequence[int] | None = None, bias: Any = None,
              temperature: Any = 1, scale: Any = "auto", fully_masked: str = "error",
              tokens: Sequence[str] | None = None, key_tokens: Sequence[str] | None = None,
              symbols: Mapping[str, str] | None = None, title: str | None = None) -> Trace:
    """Exact attention from matrices given as lists of rows (or SymPy matrices).

    Give Q, K, V, or X with W_Q, W_K, W_V (and Y for keys and values from another sequence).
    Entries may be ints, Fractions, SymPy values, or strings in the safe syntax ("ln(3)",
    "1/sqrt(2)", "17/20"); floats are refused because they are inexact. Options mean what
    the keys of a problem file's [attention] table mean.

    Raises:
        InputError: a bad entry or option, naming it.
    """
    matrices = {"Q": Q, "K": K, "V": V, "X": X, "Y": Y, "W_Q": W_Q, "W_K": W_K, "W_V": W_V}
    data = _document(matrices, locals(), symbols, tokens, key_tokens, title)
    return attend(Reader("<attention>").problem(data))


def multi_head(X: Any, heads: Sequence[Mapping[str, Any]], W_O: Any, *, mask: str = "none",
               temperature: Any = 1, scale: Any = "auto", fully_masked: str = "error",
               tokens: Sequence[str] | None = None, symbols: Mapping[str, str] | None = None,
               title: str | None = None) -> MultiHeadTrace:
    """MHA(X) = Concat(head_1, ..., head_h) W_O; each head a mapping with W_Q, W_K, W_V and
    optionally "attention" (options overriding the shared ones)."""
    from .layers import attend_heads

    data = _document({"X": X, "W_O": W_O}, locals(), symbols, tokens, None, title)
    data["heads"] = [{**{k: _rows(v) for k, v in head.items() if k != "attention"},
                      **({"attention": dict(head["attention"])} if "attention" in head else {})}
                     for head in heads]
    return attend_heads(Reader("<multi_head>").problem(data))


OPTION_NAMES = ("mask", "keep", "key_lengths", "bias", "temperature", "scale", "fully_masked")


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


PRESENTATION_DEFAULTS = {"lang": "en", "detail": "standard", "row": None, "places": 4,
                         "figure": False}


def render(trace: Trace, to: str = "text", *, lang: str | None = None, detail: str | None = None,
           row: int | None = None, places: int | None = None, figure: bool | None = None,
           standalone: bool = False, digits: int = 50) -> str:
    """Render a trace: "text", "json", "latex" or "markdown" (derivations in "en" or "zh").

    For LaTeX and Markdown the checks run first (at `digits`) so the derivation can close with
    them; `detail` is "summary", "standard" (one row written out: `row`, default the last) or
    "full" (every row); `figure` adds a heatmap of A. An option left as None takes the problem
    file's [derivation] value, else its default (PRESENTATION_DEFAULTS).
    """
    from .checks import check
    from .derivation import Options, derive
    from .numeric import decimal_grid
    from .renderers import FORMATS, render_derivation, render_trace
    from .renderers.phrases import LANGUAGES

    if isinstance(trace, MultiHeadTrace):
        return _render_heads(trace, to, lang=lang or "en", detail=detail or "summary",
                             places=4 if places is None else places, standalone=standalone,
                             digits=digits)
    given = {"lang": lang, "detail": detail, "row": row, "places": places, "figure": figure}
    chosen = {**PRESENTATION_DEFAULTS, **dict(trace.problem.presentation),
              **{k: v for k, v in given.items() if v is not None}}
    lang, detail, row, places, figure = (chosen[k] for k in PRESENTATION_DEFAULTS)
    if to not in FORMATS:
        raise ValueError(f"unknown format {to!r}; formats are {', '.join(FORMATS)}")
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; languages are {', '.join(LANGUAGES)}")
    if to in ("text", "json"):
        exact = not trace.problem.symbols
        decimals = {n: decimal_grid(trace.stage(n), places) for n in ("A", "O")} \
            if to == "text" and exact else None
        return render_trace(trace, to, decimals)
    options = Options(lang=lang, detail=detail, row=row, places=places, figure=figure)
    derivation = derive(trace, check(trace, digits=digits), options)
    return render_derivation(derivation, to, standalone=standalone)


def _render_heads(trace: MultiHeadTrace, to: str, *, lang: str, detail: str, places: int,
                  standalone: bool, digits: int) -> str:
    """A multi-head trace: text, JSON, or the derivation of every head and the output."""
    from .derivation import Options
    from .layers import derive_heads
    from .numeric import decimal_grid
    from .renderers import latex, markdown
    from .renderers.heads_doc import build_heads, heads_json, heads_text
    from .renderers.printer import needs_cjk

    if to == "json":
        return heads_json(trace)
    if to == "text":
        return heads_text(trace, [{n: decimal_grid(h.stage(n), places) for n in ("A", "O")}
                                  for h in trace.heads])
    derivation = derive_heads(trace, Options(lang=lang, detail=detail, places=places), digits)
    blocks = build_heads(derivation)
    if to == "markdown":
        return markdown.document(blocks)
    if not standalone:
        return latex.fragment(blocks)
    labels = "".join(trace.heads[0].problem.row_labels + (trace.problem.title or "",))
    return latex.document(blocks, lang, needs_cjk(labels))
