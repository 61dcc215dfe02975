"""Page data: every state of the interactive page (temperature x mask), computed exactly, as JSON.

Math is kept as TeX in a MathStore and referred to by number; the page typesets the store once
with KaTeX, so a formula shared by several states is stored (and shipped) once.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import sympy as sp

from ..checks.invariants import check
from ..derivation import Options, derive
from ..errors import InputError
from ..exact.attention import attend
from ..exact.substitute import substitute
from ..kinds import refuse_kind
from ..model import Problem, ShapeProblem
from ..numeric_decimals import decimal_string
from ..documents.blocks import Block, Display, Heading, Items, Paragraph, Segment, Step
from ..documents.checks import check_blocks
from ..printing.fit import Fit
from ..printing.plain import plain
from ..documents.walk import row_blocks
from ..documents.rounding import rounding_note
from ..targets.markdown import block as markdown_block
from ..words import PHRASES
from ..printing.printer import escape_text, math
from .edit import edit_data, float_problem
from .handcheck import hand_checks
from .lesson import PAGE_TAKEN, legend, lesson_data
from .mistakes import mistakes_data
from ..words.page import page_phrases

TABLES = ("Q", "K", "V", "R", "S", "M", "L", "A", "O")
STATE_TABLES = TABLES[3:]
WORDS = {"Q": "queries", "K": "keys", "V": "values", **{s: f"stage_{s}" for s in STATE_TABLES}}
HEADINGS = {"Q": "Q", "K": "K", "V": "V", "R": r"R = QK^{\mathsf T}", "M": "M",
            "L": r"L = \frac{S + M}{\tau}", "A": r"A = \operatorname{softmax}(L)", "O": "O = AV"}
SCALED = {None: r"S = \frac{QK^{\mathsf T}}{\sqrt{d_k}}", 1: r"S = QK^{\mathsf T}"}
STEP_FORMULAS = (r"Q = HW_Q,\quad K = HW_K,\quad V = HW_V", r"R = QK^{\mathsf T}",
                 r"L = \frac{S + M}{\tau},\quad A = \operatorname{softmax}(L)",
                 r"O_{i} = \sum_{j} A_{ij}\, v_j")
Json = dict[str, Any]


class MathStore:
    """TeX items (inline or display), each stored once and referred to by its index."""

    def __init__(self) -> None:
        self.items: list[tuple[str, bool]] = []
        self._index: dict[tuple[str, bool], int] = {}

    def add(self, tex: str, display: bool = False) -> int:
        key = (tex, display)
        if key not in self._index:
            self._index[key] = len(self.items)
            self.items.append(key)
        return self._index[key]


def collect(problem: Problem | ShapeProblem, temperatures: list[sp.Expr], lang: str,
            store: MathStore) -> Json:
    """Everything the page shows, for every state of its controls (math as store indices); a
    problem the page does not take (laid out in columns, with biases) is refused here too."""
    refuse_kind(problem, "page")
    if isinstance(problem, ShapeProblem):
        return shapes_data(problem, lang, store)
    options = dict(problem.presentation)
    places = int(options.get("places", 4))
    taus = temperature_choices(problem, temperatures)
    masks = mask_states(problem)
    variants: dict[str, Json] = {}
    failures: list[InputError] = []
    for k, tau in enumerate(taus):
        for state, kind in masks.items():
            try:
                variants[f"{k}:{state}"] = variant(problem, tau, kind, lang, places, store)
            except InputError as error:  # this state shows its reason; the others still work
                failures.append(error)
                variants[f"{k}:{state}"] = {"error": str(shown_error(error))}
    if len(failures) == len(variants):
        raise failures[0]
    p = problem
    return {
        **common(p, lang, store, places), "kind": "values",
        "inputs": {name: grid(store, getattr(p, name), None, places) for name in "QKV"},
        "temperatures": [{"key": key(t), "m": store.add(math(t)), "dec": short_decimal(t, places),
                          **rational(t)} for t in taus],
        "free": free_data(p, masks),
        "edit": edit_data(p),
        "maskBias": None if p.mask_bias is None else plain(math(p.mask_bias)),
        "maskLabel": mask_label(problem, masks),
        "projections": projections(store, p, places),
        "mistakes": mistakes_data(p, places, lang),
        "defaults": {"row": int(options.get("row") or p.n_q), "tau": key(p.temperature),
                     "mask": "on" if p.mask != "none" else "off", "step": 1},
        "variants": variants,
    }


def is_cross(p: Problem) -> bool:
    """Queries and keys from different sequences (cross-attention)."""
    given = p.projections is not None and p.projections.Y is not None
    return given or p.key_tokens is not None or p.n_q != p.n_k


def mask_states(p: Problem) -> dict[str, str]:
    """The mask toggle's states. Cross-attention gets no causal toggle unless its file asks for a
    causal mask (then the toggle shows that one convention)."""
    if is_cross(p) and p.mask == "none":
        return {"off": "none"}
    return {"on": p.mask if p.mask != "none" else "causal", "off": "none"}


def mask_label(p: Problem, masks: dict[str, str]) -> str | None:
    """The toggle's words, naming the convention on cross-attention; None: no toggle."""
    if "on" not in masks:
        return None
    if masks["on"] == "causal-bottom-right":
        return "causal_mask_bottom_right"
    return "causal_mask_top_left" if is_cross(p) else "causal_mask"


def projections(store: MathStore, p: Problem, places: int) -> Json | None:
    """X, W_Q, W_K, W_V (and Y for cross-attention) when the problem gives them."""
    given = p.projections
    if given is None:
        return None
    names = ["X", "W_Q", "W_K", "W_V"] + (["Y"] if given.Y is not None else [])
    source = "Y" if given.Y is not None else "X"
    headings = {name: name for name in names} | {
        "Q": "Q = XW_Q", "K": f"K = {source}W_K", "V": f"V = {source}W_V"}
    return {"tables": {name: grid(store, getattr(given, name), None, places) for name in names},
            "headings": {name: store.add(tex) for name, tex in headings.items()},
            "cross": given.Y is not None}


def rational(t: sp.Expr) -> Json:
    """A temperature's value for the page's slider, and its fraction when it has one (to match
    a typed value exactly)."""
    out: Json = {"value": float(t)} if t.is_number else {}
    if t.is_Rational:
        out |= {"num": str(t.p), "den": str(t.q)}
    return out


def free_data(problem: Problem, masks: dict[str, str]) -> Json | None:
    """What the page needs to compute any other temperature in float64: S (it does not depend on
    tau), M for each mask state, V. None for a problem with symbols other than a symbolic
    temperature (no float values)."""
    problem = float_problem(problem)
    if problem is None:
        return None
    out: Json = {"min": 0.05, "max": 5, "V": floats(problem.V), "S": None, "M": {}}
    for state, kind in masks.items():
        try:
            trace = attend(replace(problem, mask=kind))
        except InputError:
            continue  # every temperature of this state fails alike: its generated states say why
        out["S"] = floats(trace.S)
        out["M"][state] = floats(trace.M)
    return out if out["S"] is not None else None


def floats(matrix: sp.ImmutableMatrix) -> list[list[float | None]]:
    """Entries as float64, None for -oo (a masked entry)."""
    return [[None if matrix[i, j] is sp.S.NegativeInfinity else float(matrix[i, j])
             for j in range(matrix.cols)] for i in range(matrix.rows)]


def shown_error(error: InputError) -> InputError:
    """The error as a page shows it: the file by its name, not by where it was read from."""
    source = Path(error.source).name if error.source else None
    return InputError(error.reason, source=source, key=error.key, column=error.column)


def common(p: Problem | ShapeProblem, lang: str, store: MathStore, places: int) -> Json:
    """What every page has: title, sizes, labels, table headings, the words of the page."""
    rows = p.row_labels if isinstance(p, Problem) else tuple(str(i + 1) for i in range(p.n_q))
    cols = p.column_labels if isinstance(p, Problem) else tuple(str(j + 1) for j in range(p.n_k))
    for label in (p.title or "", *rows, *cols):
        escape_text(label)  # refuses control and bidi characters, as every renderer does
    scale, tau = getattr(p, "scale", None), getattr(p, "temperature", None)
    headings = {**HEADINGS, "S": SCALED.get(scale, r"S = s\,QK^{\mathsf T}")}
    return {
        "lang": lang,
        "title": (lang == "zh" and getattr(p, "title_zh", None)) or p.title or
        Path(p.source).parent.name or p.source,
        "source": Path(p.source).name, "places": places,
        "sizes": {"n_q": p.n_q, "n_k": p.n_k, "d_k": p.d_k, "d_v": p.d_v},
        "rowLabels": list(rows), "colLabels": list(cols),
        "headings": {name: store.add(headings[name]) for name in TABLES},
        "stepMath": [store.add(tex) for tex in STEP_FORMULAS],
        "rowMath": {letter: [store.add(f"{letter}_{{{i}}}") for i in range(1, p.n_q + 1)]
                    for letter in ("q", "O")},
        "words": {name: PHRASES[WORDS[name]][lang] for name in TABLES},
        "phrases": page_phrases(lang, symbolic=tau in getattr(p, "symbols", ()), script=True),
        "lesson": lesson_data(getattr(p, "page", None), lang),
    }


def shapes_data(p: ShapeProblem, lang: str, store: MathStore) -> Json:
    """A problem that gives only shapes: the nine shapes and the two constraints."""
    return {**common(p, lang, store, 4), "kind": "shapes", "defaults": {"row": p.n_q, "step": 1},
            "shapes": {name: list(shape) for name, shape in p.shapes.items()}}


def temperature_choices(problem: Problem, temperatures: list[sp.Expr]) -> list[sp.Expr]:
    """The listed temperatures and the problem's own, each once, smallest first."""
    unique: dict[sp.Expr, None] = dict.fromkeys([*temperatures, problem.temperature])
    return sorted(unique, key=lambda t: (not t.is_number, float(t) if t.is_number else 0.0))


def key(value: sp.Expr) -> str:
    """A value as URL-friendly text: 17/20, 3/2, 1."""
    return str(value).replace(" ", "")


def short_decimal(value: sp.Expr, places: int) -> str | None:
    """The decimal of a non-integer, without trailing zeros when it is exact: 0.85, 1.4142."""
    if value.is_Integer or not value.is_number:
        return None
    text = decimal_string(value, places)
    exact = value.is_Rational and sp.Rational(text) == value
    return text.rstrip("0").rstrip(".") if exact else text


def at_temperature(problem: Problem, tau: sp.Expr) -> Problem:
    """The problem at temperature tau: a temperature given as a declared symbol takes the value
    everywhere the symbol appears (the one substitution), any other is replaced."""
    t = problem.temperature
    if tau == t:
        return problem
    if t in problem.symbols and tau.is_number:
        return substitute(problem, {t: tau})
    return replace(problem, temperature=tau)


def variant(problem: Problem, tau: sp.Expr, mask: str, lang: str, places: int,
            store: MathStore) -> Json:
    """One state of the controls: the six computed tables, the row derivations and the checks.

    Raises:
        InputError: the state cannot be computed (a row that may read no key, by default).
    """
    at = at_temperature(problem, tau)
    trace = attend(replace(at, mask=mask))
    report = check(trace)
    d = derive(trace, report, Options(lang=lang, detail="full", places=places, checks="full"),
               set(PAGE_TAKEN))  # the page's checks panel writes every check
    tables = {name: grid(store, d.display.get(name, trace.stage(name)), trace.stage(name), places)
              for name in STATE_TABLES}
    return {
        "tables": tables,
        "readable": [[int(ok) for ok in row] for row in trace.readable],
        "weights": texts(d.decimals.get("A")), "outputs": texts(d.decimals.get("O")),
        "fractions": {"A": fractions(trace.A), "O": fractions(trace.O)},
        "zeros": zero_reasons(trace.problem, trace.readable),
        "rows": [[block_json(store, b) for b in flat(row_blocks(d, steps, Fit(d.options.width)))]
                 for steps in d.rows] if not d.rounded else  # too long to write out: why
        [[block_json(store, rounding_note(d))]] * trace.problem.n_q,
        "checks": [block_json(store, b) for b in flat(check_blocks(d))],
        "passed": report.passed,
        "symbols": [str(s) for s in at.symbols],  # left symbolic: no colours, no decimals
        "legend": legend(d, store),
        "hand": hand_checks(trace, trace.readable, zero_reasons(trace.problem, trace.readable),
                            texts(d.decimals.get("A")), places, lang, store),
    }


def fractions(matrix: sp.ImmutableMatrix) -> list[list[str | None]]:
    """Each non-integer rational entry as a fraction, 1/6 or -7/3 (None for any other entry)."""
    return [[f"{x.p}/{x.q}" if x.is_Rational and not x.is_Integer else None
             for x in matrix.row(i)] for i in range(matrix.rows)]


def zero_reasons(p: Problem, readable: tuple[tuple[bool, ...], ...]) -> list[list[str | None]]:
    """Why each unreadable key has weight 0: a future position (causal), padding (key lengths),
    a keep entry, or a -oo bias; None where the key is read."""
    def reason(i: int, j: int) -> str | None:
        if readable[i][j]:
            return None
        if (p.mask == "causal" and j > i) or \
                (p.mask == "causal-bottom-right" and j > i + p.n_k - p.n_q):
            return "future"
        if p.key_lengths is not None and j >= p.key_lengths[i]:
            return "padding"
        if p.keep is not None and not p.keep[i][j]:
            return "entry"
        return "bias"
    return [[reason(i, j) for j in range(p.n_k)] for i in range(p.n_q)]


def grid(store: MathStore, shown: sp.ImmutableMatrix, exact: sp.ImmutableMatrix | None,
         places: int | None) -> list[list[list[Any]]]:
    """Cells [math index, decimal or None]: decimals beside every non-integer finite entry."""
    exact = shown if exact is None else exact
    return [[[store.add(math(shown[i, j])), cell_decimal(exact[i, j], places)]
             for j in range(shown.cols)] for i in range(shown.rows)]


def cell_decimal(value: sp.Expr, places: int | None) -> str | None:
    if places is None or value.is_Integer or not value.is_number or value is sp.S.NegativeInfinity:
        return None
    return decimal_string(value, places)


def texts(grid) -> list[list[str | None]] | None:
    """Decimals as the page shows and reads them: 0.1667, 0.1, 4.5e-5."""
    return [[a.text if a is not None else None for a in row] for row in grid] if grid else None


def flat(blocks: list[Block]) -> list[Block]:
    """A Step's sentences and displays as the page's paragraphs and displays, in order."""
    out: list[Block] = []
    for b in blocks:
        if isinstance(b, Step):
            out += [part if isinstance(part, Display) else Paragraph(part) for part in b.parts]
        else:
            out.append(b)
    return out


def block_json(store: MathStore, b: Block) -> Json:
    """A derivation block as JSON: text stays text (the page sets it as text), math goes to the store."""
    if isinstance(b, Heading):
        return {"k": "h", "s": segments_json(store, b.segments)}
    if isinstance(b, Paragraph):
        return {"k": "p", "s": segments_json(store, b.segments)}
    if isinstance(b, Display):
        tex = markdown_block(b).removeprefix("$$\n").removesuffix("\n$$")
        return {"k": "d", "m": store.add(tex, True)}
    if isinstance(b, Items):
        return {"k": "i", "items": [segments_json(store, item) for item in b.items]}
    raise TypeError(f"a page does not show {type(b).__name__} blocks")


def segments_json(store: MathStore, segments: tuple[Segment, ...]) -> list[str | int]:
    out: list[str | int] = []
    for kind, content in segments:
        if kind == "label":
            escape_text(content)
        out.append(store.add(content) if kind == "math" else content)
    return out
