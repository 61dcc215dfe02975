"""Trace + Report -> Derivation: every value a written derivation shows, decided before rendering.

Renderers only lay out what is here: the names given to repeated subexpressions, the display
form of each stage (given forms kept: 1/√2, 0.85; powers of integers: 2^{1/t}), every row's
exponentials and their sum, the decimals (Approx), and the rows written out step by step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace

import mpmath
import sympy as sp

from ..exact.shown import MAX_SHOWN_DIGITS, Form, long_stages, shown_form, signed
from ..model import STAGES, Trace
from ..numeric import recompute
from ..reports import Report
from .approx import Approx, approximate
from .bias import bias_shown, hidden_entries, separated
from .forms import integer_powers, joined_logs, over_root, radicals
from .names import Name, Naming, choose_names
from .options import Options
from .products import expanded_product

DECIMAL_STAGES = ("S", "L", "E", "A", "O")
PROJECTED = ("X", "Y", "W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V")
NAMED = ("S", "L", "E", "O")  # the stages shown with named subexpressions (a, t, ...)
Grid = list[list["Approx | None"]]


@dataclass(frozen=True)
class RowSteps:
    """One query row written out: the pairs of each dot product q_i · k_j."""

    row: int  # 0-based
    dots: tuple[tuple[tuple[sp.Expr, sp.Expr], ...], ...]  # per key: (q_ic, k_jc) pairs
    readable: tuple[int, ...]


@dataclass(frozen=True)
class Derivation:
    """Everything a derivation shows; the renderer adds words and layout only."""

    trace: Trace
    report: Report
    options: Options
    names: tuple[Name, ...]
    display: Mapping[str, sp.ImmutableMatrix]  # every stage as shown (E: exponentials; W: A
    # without weight names), and the projections' inputs (X, Y, W_Q, W_K, W_V, the biases as rows)
    sums: tuple[sp.Expr | None, ...]  # each row's sum of exponentials Z_i as shown
    decimals: dict[str, Grid]  # S, L, E, A, O and Z (one column) -> Approx (exact problems)
    rows: tuple[RowSteps, ...]  # the rows written out step by step
    heat: tuple[tuple[int, ...], ...] | None  # weight percentages for the heatmap
    difference: str  # the cross-check's largest difference, formatted
    scalars: dict[str, sp.Expr]  # tau, s, 1/tau and √d_k as shown
    hidden: tuple[int, int] | None = None  # the masked score (row, key) that would have won its
    # row by the most, if one would have: the textbook shows it going to −∞
    rounded: frozenset[str] = frozenset()  # the stages too long to write exactly (from long
    # decimals such as NumPy's float64): shown by their decimals, ≈, and the rows not written out

    @property
    def columns(self) -> bool:
        """The problem is laid out in columns: every matrix is shown transposed (the book's)."""
        return self.trace.problem.layout == "columns"

    def book(self, matrix: sp.MatrixBase) -> sp.MatrixBase:
        """A matrix as the reader's layout shows it: transposed when laid out in columns."""
        return matrix.T if self.columns else matrix

    def shown(self, name: str) -> sp.MatrixBase:
        """A stage (or input) as shown, in the reader's layout."""
        return self.book(self.display[name])

    @property
    def example(self) -> int:
        """The row whose output entry the textbook works as an example (0-based)."""
        p = self.trace.problem
        return (p.n_q if self.options.row is None else self.options.row) - 1


def derive(trace: Trace, report: Report, options: Options = Options(),
           taken: set[str] | None = None) -> Derivation:
    """Decide names, display forms, decimals and the rows to write out; taken: the letters
    already used in the document (another head's names), extended with this one's."""
    options = options.checked(trace.problem.n_q)
    trace = trace.complete()  # every stage a renderer shows is built here, not while it renders
    p = trace.problem
    rounded = long_stages(trace)
    naming = Naming((), {}, {}) if rounded else \
        choose_names(trace, set() if taken is None else taken)
    form = _form(p)
    numbers = _numbers(trace, options.places) if not p.symbols else None
    seen: dict[sp.Expr, Approx | None] = {}
    decimals = {name: _grid(trace.stage(name) if name != "E" else trace.E, numbers.get(name),
                            options.places, seen)
                for name in DECIMAL_STAGES + tuple(sorted(rounded - set(DECIMAL_STAGES)))
                } if numbers else {}
    given = _form(p, None)  # the inputs' form
    display = _display(trace, naming.inner, naming.whole, form, given, rounded, decimals)
    if numbers:
        decimals["Z"] = [[approximate(z, n, options.places) if z is not None else None]
                         for z, n in zip(trace.Z, numbers["Z"])]
    values = _values(naming)
    names = tuple(replace(n, value=n.value if n.kind == "small" else  # e^{-10^9} as it is
                          _given(n.value, trace) or form(n.value),
                          decimal=approximate(values[n.symbol], None, options.places)
                          if numbers else None) for n in naming.names)
    return Derivation(
        trace=trace, report=report, options=options, names=names,
        display=display,
        sums=tuple(None if z is None else _shown(decimals["Z"][i][0]) if "E" in rounded else
                   form(z.xreplace(naming.inner)) for i, z in enumerate(trace.Z)),
        decimals=decimals, rows=() if rounded else
        tuple(_row_steps(trace, i, given) for i in _rows(trace, options)),
        heat=_heat(numbers["A"]) if options.figure and numbers else None,
        difference=mpmath.nstr(report.max_difference or 0, 2),
        scalars={"tau": form(p.temperature),
                 "s": p.scale_factor if p.scale is None else form(p.scale_factor),
                 "inverse_temperature": form(1 / p.temperature),
                 "root": sp.sqrt(p.key_dimension) if p.key_dimension else sp.S.One,
                 **({"mask_bias": bias_shown(p.mask_bias)} if p.mask_bias is not None else {}),
                 **({"book_scale": over_root(sp.S.One, p.key_dimension)}  # S, L hold it
                    if p.start in ("S", "L") and p.key_dimension else {})},
        hidden=hidden_winner(trace),
        rounded=rounded,
    )


def hidden_winner(t: Trace) -> tuple[int, int] | None:
    """Where the mask matters most: the hidden score exceeding every score its row may read by
    the largest margin (numerically, by sp.N), as (row, key); None when no hidden score would
    have won."""
    best = None
    for i in range(t.S.rows):
        reads = [ok and not (t.masked_by_bias and t.masked_by_bias[i][j])
                 for j, ok in enumerate(t.readable[i])]
        if all(reads):
            continue  # nothing hidden in this row
        readable = [sp.N(t.S[i, j]) for j in range(t.S.cols) if reads[j]]
        for j in range(t.S.cols):
            if reads[j] or not readable or not t.S[i, j].is_number:
                continue
            margin = sp.N(t.S[i, j]) - max(readable)
            if margin > 0 and (best is None or margin > best[0]):
                best = (margin, i, j)
    return None if best is None else best[1:]


def _form(problem, limit: int | None = MAX_SHOWN_DIGITS) -> Callable[[sp.Basic], sp.Basic]:
    """The display form of computed values (limit None: of the inputs, which keep a product
    of radicals as written, √2(1/2 + √3/2), where a computed value is expanded, (√2 + √6)/4)."""
    shown = shown_form(problem, limit)
    if limit is None:
        return lambda value: integer_powers(shown(joined_logs(value)))
    return lambda value: integer_powers(shown(radicals(joined_logs(value))))


def _values(naming) -> dict[sp.Symbol, sp.Expr]:
    """Each name's exact value in terms of the trace (for its decimal)."""
    values: dict[sp.Symbol, sp.Expr] = {}
    for name in naming.names:
        values[name.symbol] = name.value.xreplace(values)
    return values


def _display(trace: Trace, inner: dict, whole: dict, form: Form, given: Form,
             rounded: frozenset[str], decimals: dict[str, Grid]) -> Shown:
    """Every stage as shown: names substituted, S as R/√d_k, O in the weights' names; the
    inputs as written (given); a rounded stage by its decimals."""
    p = trace.problem
    if rounded:
        return _rounded_display(trace, given, rounded, decimals)
    display = {name: (given if name in _inputs(p) else form)(
        trace.stage(name).xreplace(inner) if name in NAMED else trace.stage(name))
        for name in STAGES}
    if p.scale is None and p.start == "Q":
        d = p.key_dimension
        display["S"] = sp.ImmutableMatrix(p.n_q, p.n_k, [
            inner[s] if s in inner else _over_root(r, d, p.decimals, form) if r.is_number
            else display["S"][k] for k, (r, s) in enumerate(zip(trace.R, trace.S))])
        if p.temperature == 1 and p.bias is None:
            display["L"] = sp.ImmutableMatrix(p.n_q, p.n_k, [
                s if ok else sp.S.NegativeInfinity
                for s, ok in zip(display["S"], (x for row in trace.readable for x in row))])
    display["M"], display["L"] = hidden_entries(trace, display["M"], display["L"], display["S"],
                                                form)
    if p.bias is not None:  # B beside Q, K, V; M the masks alone
        display["M"], display["B"], display["L"] = separated(trace, display["M"], display["L"],
                                                             given)
    display["A"] = trace.A.applyfunc(lambda x: whole.get(x, form(x.xreplace(inner))))
    display["E"] = form(trace.E.xreplace(inner))

    def numerators():  # O_ic Z_i
        return form(expanded_product(trace.E.xreplace(inner), p.V))

    if whole and all(x.is_Rational or x in whole for x in trace.A):
        named = sp.ImmutableMatrix(display["A"] * p.V).applyfunc(sp.expand)
        display["O"] = form(sp.ImmutableMatrix(named.rows, named.cols, [  # 1, not 2p + q
            o if o.is_Rational else x for x, o in zip(named, trace.O)]))
    if p.projections is not None:
        display.update({name: given(getattr(p.projections, name)) for name in PROJECTED
                        if getattr(p.projections, name) is not None})

    def weights():  # with a and t but without p, q, ...
        return form(trace.A.xreplace(inner))

    return Shown(display, {"N": numerators, "W": weights})


def _over_root(r: sp.Expr, d: int, decimals: bool, form: Form) -> sp.Expr:
    """A scaled score as the course writes it (over_root); in a problem written in decimals a
    rational score stays a decimal: 0.455/2 = 0.2275, 0.175/√2 (not 91/400, 7/(40√2))."""
    if not decimals or not r.is_Rational or r.is_Integer:
        return over_root(joined_logs(r), d)
    root = sp.sqrt(d)
    if root.is_Rational:
        return form(r / root)
    if r < 0:  # -(0.6/√3), not (-1)·0.6 over √3
        return -_over_root(-r, d, decimals, form)
    return sp.Mul(form(r), sp.Pow(root, -1, evaluate=False), evaluate=False)


def _inputs(p) -> tuple[str, ...]:
    """The stages the problem gives (shown as written): Q, K, V unless they are projections,
    and M (the mask and bias)."""
    return ("M",) if p.projections is not None else ("Q", "K", "V", "M")


def _rounded_display(trace: Trace, given: Form, rounded: frozenset[str],
                     decimals: dict[str, Grid]) -> Shown:
    """The stages of a problem with a stage too long to write: the inputs as written, the
    rounded stages by their decimals (ShownDecimal, which the documents mark ≈), the others
    exact; nothing is built later (the rows are not written out)."""
    p = trace.problem
    display = {}
    for name in STAGES:
        if name in rounded:
            display[name] = sp.ImmutableMatrix([[_shown(a) for a in row] for row in decimals[name]])
        else:
            display[name] = given(trace.stage(name))
    display["E"] = sp.ImmutableMatrix([[_shown(a) for a in row] for row in decimals["E"]])
    if p.bias is not None:
        display["M"], display["B"], display["L"] = separated(trace, display["M"], display["L"],
                                                             given)
    if p.projections is not None:
        display.update({name: given(getattr(p.projections, name)) for name in PROJECTED
                        if getattr(p.projections, name) is not None})
    return Shown(display, {})


def _shown(a: Approx | None) -> sp.Expr:
    """An Approx as a value to print: its digits (0 for a masked entry's weight)."""
    if a is None:
        return sp.S.NegativeInfinity
    return signed(a.text)  # 4.5e-5 as its text: 10^e of a huge e must not be built


class Shown(Mapping):
    """The stages as shown; those that only the textbook writes out (N, W) are built when
    first read, so a summary does not build them."""

    def __init__(self, built: dict[str, sp.ImmutableMatrix], later: dict[str, Callable]):
        self._built, self._later = dict(built), dict(later)

    def __getitem__(self, name: str) -> sp.ImmutableMatrix:
        if name not in self._built and name in self._later:
            self._built[name] = self._later.pop(name)()
        return self._built[name]

    def __contains__(self, name: object) -> bool:
        return name in self._built or name in self._later

    def __iter__(self) -> Iterator[str]:
        return iter([*self._built, *self._later])

    def __len__(self) -> int:
        return len(self._built) + len(self._later)


def _given(value: sp.Expr, trace: Trace) -> sp.Expr | None:
    """A named logit in the course's form of its scaled score (a = 1/√2, not √2/2)."""
    p = trace.problem
    at = next((k for k, x in enumerate(trace.S) if x == value), None)
    if at is None or p.scale is not None or p.start != "Q" or not trace.R[at].is_number:
        return None
    return over_root(joined_logs(trace.R[at]), p.key_dimension)


def _numbers(trace: Trace, places: int) -> dict[str, list[list[mpmath.mpf]]]:
    """Every shown stage from the independent mpmath recomputation, with E and Z."""
    numbers = recompute(trace.problem, places + 20)
    ctx = mpmath.mp.clone()
    ctx.dps = places + 20
    numbers["E"] = [[ctx.exp(x) if x != ctx.ninf else ctx.zero for x in row] for row in numbers["L"]]
    numbers["Z"] = [ctx.fsum(row) for row in numbers["E"]]
    return numbers


def _grid(matrix: sp.ImmutableMatrix, numbers, places: int, seen: dict) -> Grid:
    """Each entry's decimal; seen: the decimals of values already met (a wide problem's stages
    repeat their entries: R's integers, S's k/√d_k, every exponential in E, A and O)."""
    def decimal(x: sp.Expr, number) -> Approx | None:
        if x not in seen:
            seen[x] = approximate(x, number, places)
        return seen[x]
    numbers = numbers or [[None] * matrix.cols] * matrix.rows
    return [[decimal(x, number) for x, number in zip(row, numbers_row)]
            for row, numbers_row in zip(matrix.tolist(), numbers)]


def _rows(trace: Trace, options: Options) -> list[int]:
    """The rows written out step by step: all in full, the chosen one in textbook when asked."""
    if options.detail == "full":
        return list(range(trace.problem.n_q))
    if options.detail == "textbook" and options.row is not None:
        return [options.row - 1]
    return []


def _heat(weights) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(round(float(w) * 100)) for w in row) for row in weights)


def _row_steps(trace: Trace, i: int, form: Form) -> RowSteps:
    """The pieces of one row's arithmetic that are not already stages of the trace (the dot
    products' factors in the inputs' form, as Q and K are shown)."""
    p = trace.problem
    dots = tuple(tuple((form(p.Q[i, k]), form(p.K[j, k])) for k in range(p.d_k))
                 for j in range(p.n_k))
    readable = tuple(j for j, ok in enumerate(trace.readable[i]) if ok)
    return RowSteps(row=i, dots=dots, readable=readable)
