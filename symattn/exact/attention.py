"""Problem -> Trace: the exact pipeline R = QKᵀ, S = sR, M, L = (S+M)/τ, A = softmax(L), O = AV.

Only A and O are built eagerly; R, S, M, L, E and Z are built on first access (most callers
read A and O only). Equal values share one linear form, so each distinct logit is scaled,
divided and exponentiated once, and the row sums are built as sparse polynomials in the
generators and turned into SymPy sums in one pass.
"""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Callable, Sequence
from typing import NamedTuple, cast

import mpmath
import sympy as sp

from ..errors import InputError, ProblemError
from ..limits import MAX_LOGIT_DIGITS
from ..model import Lazy, Problem, Trace
from ..numeric import LOG10_2, Evaluator
from ..parse.conventions import SMALLEST_MASK_BIAS
from .linear import (Exponentiator, LinearForm, add, dot, linear_form, multiply,
                     rational_matmul_t, to_expr)
from .trig import trig_reduced
from .sympy_fast import (ONE, Polynomial, add_term, build_sums, collect, immutable_matrix, is_zero_number,
                         plain_unit, python_rational, times_inverse)

NEG_INF = sp.S.NegativeInfinity
ZERO = sp.S.Zero
Grid = list[list[LinearForm]]
NO_BIAS: LinearForm = {}  # shared by every entry without a bias; linear forms are never mutated


class Softmax(NamedTuple):
    """Row-wise softmax: A, each row's numerators (by key) and shared denominator, and builders
    of E = exp(L) and the row sums Z (run on first access)."""

    A: sp.ImmutableMatrix
    fractions: list[tuple[dict[int, sp.Expr], sp.Expr] | None]
    exponentials: Callable[[], sp.ImmutableMatrix]
    sums: Callable[[], tuple[sp.Expr | None, ...]]


def attend(problem: Problem) -> Trace:
    """Compute every stage of scaled dot-product attention exactly."""
    readable = readable_entries(problem)
    fully_masked = tuple(i for i, row in enumerate(readable) if not any(row))
    _refuse_fully_masked(problem, fully_masked)
    raw = raw_scores(problem)
    bias = _bias_forms(problem)
    scaled, logits = logit_forms(problem, raw, bias, readable)
    refuse_huge_logits(problem, logits)
    hidden = masked_by_bias(problem)
    soft = softmax_rows(problem, logits, fully_masked, hidden or pushed_down(problem))
    return Trace(
        problem=problem,
        R=Lazy(lambda: _matrix(raw)), S=Lazy(lambda: _matrix(scaled)),
        M=Lazy(lambda: _mask_matrix(bias, readable)), L=Lazy(lambda: _matrix(logits)),
        E=Lazy(soft.exponentials), Z=Lazy(soft.sums), A=soft.A, O=_outputs(problem, soft),
        readable=readable, fully_masked_rows=fully_masked, masked_by_bias=hidden,
    )


def logit_grid(problem: Problem) -> tuple[tuple[tuple[bool, ...], ...],
                                          list[list[LinearForm | None]]]:
    """Which keys each query may read and L as linear forms (None where masked): the pipeline
    up to the softmax, without building A or O."""
    readable = readable_entries(problem)
    _, logits = logit_forms(problem, raw_scores(problem), _bias_forms(problem), readable)
    return readable, logits


def logit_forms(problem: Problem, raw: Grid, bias: Grid, readable: tuple[tuple[bool, ...], ...]
                ) -> tuple[Grid, list[list[LinearForm | None]]]:
    """S = s R and L = (S + M)/τ as linear forms, once per distinct (score, bias) pair."""
    scale, inverse_tau = linear_form(problem.scale_factor), linear_form(1 / problem.temperature)
    scaled_of: dict[int, LinearForm] = {}  # by id: the forms stay alive in raw and bias
    logit_of: dict[tuple[int, int], LinearForm] = {}

    def scaled(r: LinearForm) -> LinearForm:
        return scaled_of[id(r)] if id(r) in scaled_of else \
            scaled_of.setdefault(id(r), multiply(r, scale))

    def logit(r: LinearForm, b: LinearForm) -> LinearForm:
        key = (id(r), id(b))
        return logit_of[key] if key in logit_of else \
            logit_of.setdefault(key, multiply(add(scaled(r), b), inverse_tau))
    return ([[scaled(r) for r in row] for row in raw],
            [[logit(r, b) if ok else None for r, b, ok in zip(*rows)]
             for rows in zip(raw, bias, readable)])


LOGIT_BITS = int(MAX_LOGIT_DIGITS / LOG10_2)  # 2^3321 < 10^1000


def refuse_huge_logits(problem: Problem, logits: list[list[LinearForm | None]]) -> None:
    """Refuse a logit without symbols whose terms reach 10^MAX_LOGIT_DIGITS in size: exp of it
    is known to d digits only from d + 1000 of its own (sum |c|·|basis|, what evaluating costs).

    Raises:
        ProblemError: naming the first such logit, "the logit L[1,1] is about 8.1e+1999; ...".
    """
    evaluator = Evaluator(5)
    ctx, magnitudes, seen = evaluator.ctx, {}, set()

    def magnitude(basis: sp.Expr) -> int | None:  # |value| < 2^magnitude; None: symbolic
        if basis not in magnitudes:
            value = None if basis.free_symbols else evaluator(basis)
            magnitudes[basis] = ctx.mag(value) if hasattr(value, "_mpf_") and value else None
        return magnitudes[basis]
    for i, row in enumerate(logits):
        for j, form in enumerate(row):
            if form is None or id(form) in seen:
                continue
            seen.add(id(form))
            bounds = [(c, magnitude(b)) for b, c in form.items()]
            known = [(c, m) for c, m in bounds if m is not None]
            if len(known) < len(bounds) or max(
                    (abs(c.numerator).bit_length() - c.denominator.bit_length() + 1 + m
                     for c, m in known), default=0) + len(bounds).bit_length() <= LOGIT_BITS:
                continue
            size = ctx.fsum(abs(ctx.mpf(c.numerator) / c.denominator * evaluator(b))
                            for b, c in form.items())
            if size >= ctx.mpf(10) ** MAX_LOGIT_DIGITS:
                raise ProblemError(
                    f"the logit L[{i + 1},{j + 1}] is about {mpmath.nstr(size, 2)}; logits of "
                    f"1e+{MAX_LOGIT_DIGITS} and beyond are refused (exp of one is known to d "
                    f"digits only from its first d + {MAX_LOGIT_DIGITS} digits)",
                    source=problem.source, key="input")


def readable_entries(problem: Problem) -> tuple[tuple[bool, ...], ...]:
    """Which keys enter each query's softmax: every mask given, combined by AND; with mask_bias
    every key (its masks add a large negative number instead: masked_by_bias)."""
    if problem.mask_bias is not None:
        return tuple((True,) * problem.n_k for _ in range(problem.n_q))
    return mask_rule(problem)


def masked_by_bias(problem: Problem) -> tuple[tuple[bool, ...], ...]:
    """With mask_bias, the keys each query's masks hide (they add mask_bias); () without it."""
    if problem.mask_bias is None:
        return ()
    return tuple(tuple(not ok for ok in row) for row in mask_rule(problem))


def pushed_down(problem: Problem) -> tuple[tuple[bool, ...], ...]:
    """The keys a bias pushes far down (a finite entry of at most −100, as courses write −1e9):
    left out of each row's shift like mask_bias's, so that their terms are the tiny ones."""
    if problem.bias is None:
        return ()
    rows = tuple(tuple(x != NEG_INF and x.is_number and bool(x <= -SMALLEST_MASK_BIAS)
                       for x in problem.bias.row(i)) for i in range(problem.n_q))
    return rows if any(any(row) for row in rows) else ()


def mask_rule(problem: Problem) -> tuple[tuple[bool, ...], ...]:
    """Which keys each query may read by its masks (mask, keep, key_lengths, -oo bias), by AND."""
    n_q, n_k = problem.n_q, problem.n_k
    rows = []
    for i in range(n_q):
        row = []
        for j in range(n_k):
            ok = True
            if problem.mask == "causal":
                ok = j <= i
            elif problem.mask == "causal-bottom-right":
                ok = j <= i + n_k - n_q
            if problem.keep is not None:
                ok = ok and problem.keep[i][j]
            if problem.key_lengths is not None:
                ok = ok and j < problem.key_lengths[i]
            if problem.bias is not None:
                ok = ok and problem.bias[i, j] != NEG_INF
            row.append(ok)
        rows.append(tuple(row))
    return tuple(rows)


def _refuse_fully_masked(problem: Problem, rows: tuple[int, ...]) -> None:
    if rows and problem.fully_masked == "error":
        i = rows[0]
        label = problem.row_labels[i]
        named = f" ({label})" if label != str(i + 1) else ""
        raise ProblemError(
            f"query row {i + 1}{named} may read no key, so its softmax is 0/0; set "
            'attention.fully_masked = "zero" or "uniform" to choose a policy',
            source=problem.source, key="attention")


def raw_scores(problem: Problem) -> Grid:
    """R = Q Kᵀ as linear forms, with an integer fast path for rational Q and K.

    Equal scores share one form (the later stages are computed once per distinct form).
    """
    forms: dict[sp.Expr, LinearForm] = {}
    q_rows, k_rows = ([[forms[x] if x in forms else forms.setdefault(x, linear_form(x))
                        for x in row] for row in m.tolist()] for m in (problem.Q, problem.K))
    if all(set(f) <= {ONE} for row in q_rows + k_rows for f in row):
        rational = rational_matmul_t([[f.get(ONE, Fraction(0)) for f in row] for row in q_rows],
                                     [[f.get(ONE, Fraction(0)) for f in row] for row in k_rows])
        return _shared([[{ONE: x} if x else {} for x in row] for row in rational])
    products: dict[tuple[int, int], LinearForm] = {}  # by the ids of two shared forms

    def product(a: LinearForm, b: LinearForm) -> LinearForm:
        key = (id(a), id(b))
        return products[key] if key in products else products.setdefault(key, multiply(a, b))
    if problem.d_k == 1:  # one product per score: share it (forms are never mutated)
        return _shared([[product(q[0], k[0]) for k in k_rows] for q in q_rows])
    return _shared([[trig_reduced(dot(q, k, product)) for k in k_rows] for q in q_rows])


def _shared(grid: Grid) -> Grid:
    """The grid with equal forms replaced by one object."""
    seen: dict[tuple[tuple[sp.Expr, Fraction], ...], LinearForm] = {}
    return [[seen.setdefault(tuple(f.items()), f) for f in row] for row in grid]


def _bias_forms(problem: Problem) -> Grid:
    """M's finite entries as linear forms: the bias, plus mask_bias where a mask hides a key."""
    hidden = masked_by_bias(problem)
    if problem.bias is None and not hidden:
        return [[NO_BIAS] * problem.n_k for _ in range(problem.n_q)]
    zero = sp.ImmutableMatrix.zeros(problem.n_q, problem.n_k)
    bias = problem.bias if problem.bias is not None else zero
    if hidden:
        bias = bias + sp.ImmutableMatrix(problem.n_q, problem.n_k, lambda i, j: problem.mask_bias
                                         if hidden[i][j] else 0)
    return _shared([[NO_BIAS if x == NEG_INF else linear_form(x) for x in bias.row(i)]
                    for i in range(problem.n_q)])


def softmax_rows(problem: Problem, logits: list[list[LinearForm | None]],
                 fully_masked: tuple[int, ...],
                 hidden: tuple[tuple[bool, ...], ...] = ()) -> Softmax:
    """exp of every readable logit, the row sums, and the weights as shared-denominator fractions;
    hidden: keys masked by mask_bias, left out of each row's shift (their terms are the tiny
    ones, e^(-10^9)·…, not the others' e^(10^9)·…)."""
    exponentiator = Exponentiator(f for row in logits for f in row if f is not None)
    numerators: list[dict[int, sp.Expr] | None] = []
    for i, row in enumerate(logits):
        if i in fully_masked:
            numerators.append(None)
            continue
        readable = [j for j, f in enumerate(row) if f is not None]
        among = [not hidden[i][j] for j in readable] if hidden else None
        try:
            _, shifted = exponentiator.row([f for f in row if f is not None], among)
        except InputError as error:
            raise ProblemError(f"query row {i + 1}: {error.reason}", source=problem.source,
                               key="input") from None
        numerators.append(dict(zip(readable, shifted)))
    denominators = iter(sums_of([list(nums.values()) for nums in numerators if nums is not None]))
    fractions = [None if nums is None else (nums, next(denominators)) for nums in numerators]
    n_k = problem.n_k
    A = []
    for fraction in fractions:
        if fraction is None:
            A.extend([ZERO if problem.fully_masked == "zero" else sp.Rational(1, n_k)] * n_k)
            continue
        nums, denominator = fraction
        divide = _divider(denominator)
        A.extend(divide(nums[j]) if j in nums else ZERO for j in range(n_k))
    return Softmax(immutable_matrix(problem.n_q, n_k, A), fractions,
                   lambda: _exponentials(problem, logits, exponentiator),
                   lambda: _row_sums(logits, exponentiator, fully_masked))


def _exponentials(problem: Problem, logits: list[list[LinearForm | None]],
                  exponentiator: Exponentiator) -> sp.ImmutableMatrix:
    """E = exp(L), 0 where masked (every entry of a fully masked row)."""
    return immutable_matrix(problem.n_q, problem.n_k, [
        ZERO if f is None else exponentiator.value(*exponentiator.split(f))
        for row in logits for f in row])


def _row_sums(logits: list[list[LinearForm | None]], exponentiator: Exponentiator,
              fully_masked: tuple[int, ...]) -> tuple[sp.Expr | None, ...]:
    """Z_i = the sum of row i of E (None for a fully masked row)."""
    rows = [i for i in range(len(logits)) if i not in fully_masked]
    plain = [[exponentiator.value(*exponentiator.split(f)) for f in logits[i] if f is not None]
             for i in rows]
    sums = dict(zip(rows, sums_of(plain)))
    return tuple(sums.get(i) for i in range(len(logits)))


def sums_of(groups: list[list[sp.Expr]]) -> list[sp.Expr]:
    """sp.Add(*group) for each group (the same objects), built together by build_sums."""
    split: dict[sp.Expr, tuple[Fraction | int, sp.Expr] | None] = {}
    polynomials: list[Polynomial] = []
    direct: dict[int, sp.Expr] = {}
    for k, group in enumerate(groups):
        terms = [split[x] if x in split else split.setdefault(x, add_term(x)) for x in group]
        plain = [t for t in terms if t is not None]
        if len(plain) < len(terms):
            direct[k] = sp.Add(*group)
            polynomials.append({})
        else:
            polynomials.append(collect(plain))
    built = build_sums(polynomials)
    return [direct.get(k, value) for k, value in enumerate(built)]


def _divider(denominator: sp.Expr) -> Callable[[sp.Expr], sp.Expr]:
    """x -> x / denominator as one fraction (the inverse built once per row)."""
    if denominator.is_Rational:
        return lambda x: ZERO if is_zero_number(x) else x / denominator
    inverse = sp.Pow(denominator, -1)
    return lambda x: ZERO if is_zero_number(x) else times_inverse(x, inverse)


def _outputs(problem: Problem, soft: Softmax) -> sp.ImmutableMatrix:
    """O = A V: one fraction over the row's denominator (c if the numerator is c times it)."""
    V, A, d_v = problem.V, soft.A, problem.d_v
    v_rows = V.tolist()
    rational_v = [[python_rational(x) for x in row] for row in v_rows] \
        if all(x.is_Rational for row in v_rows for x in row) else None
    rows: list[list[sp.Expr] | None] = []
    groups: list[tuple[int, int, Polynomial]] = []  # (row, column, polynomial) built together
    whole: dict[tuple[int, int], sp.Expr] = {}  # (row, column) -> O entry
    for i, fraction in enumerate(soft.fractions):
        if fraction is None:
            rows.append([sp.Add(*(A[i, j] * V[j, c] for j in range(problem.n_k)))
                         for c in range(d_v)])
            continue
        nums, denominator = fraction
        terms = {j: add_term(x) for j, x in nums.items()} if rational_v else {}
        if rational_v is None or not all(plain_unit(t) for t in terms.values()):
            divide = _divider(denominator)
            rows.append([divide(sp.Add(*(x * V[j, c] for j, x in nums.items())))
                         for c in range(d_v)])
            continue
        rows.append(None)
        plain = cast("dict[int, tuple[Fraction | int, sp.Expr]]", terms)  # no None: plain units
        denominator_poly = collect(plain.values())
        for c in range(d_v):
            poly = collect((coefficient * rational_v[j][c], unit)
                           for j, (coefficient, unit) in plain.items())
            ratio = _ratio(poly, denominator_poly)
            if ratio is None:
                groups.append((i, c, poly))
            else:  # every readable value in the column equal: O is it, not (3 + 3t)/(1 + t)
                whole[i, c] = sp.Rational(ratio.numerator, ratio.denominator)
    built = build_sums([poly for _, _, poly in groups])
    dividers = {i: _divider(fraction[1]) for i, _, _ in groups
                if (fraction := soft.fractions[i]) is not None}  # each row of groups has one
    whole.update({(i, c): dividers[i](value) for (i, c, _), value in zip(groups, built)})
    flat = [x for i, row in enumerate(rows)
            for x in (row if row is not None else [whole[i, c] for c in range(d_v)])]
    return immutable_matrix(problem.n_q, d_v, flat)


def _ratio(numerator: Polynomial, denominator: Polynomial) -> Fraction | int | None:
    """r when numerator = r * denominator term by term (r rational, not 0), else None."""
    num = {u: c for u, c in numerator.items() if c}
    den = {u: c for u, c in denominator.items() if c}
    if not num or num.keys() != den.keys():
        return None
    first = next(iter(den))
    r = Fraction(num[first]) / den[first]
    return r if all(num[u] == r * c for u, c in den.items()) else None


def _matrix(grid: Sequence[Sequence[LinearForm | None]]) -> sp.ImmutableMatrix:
    return immutable_matrix(len(grid), len(grid[0]), [x for row in expressions(grid) for x in row])


def expressions(grid: Sequence[Sequence[LinearForm | None]]) -> list[list[sp.Expr]]:
    """The grid's forms as SymPy expressions (-oo where None), each shared form built once."""
    built: dict[int, sp.Expr] = {}
    return [[NEG_INF if f is None else built[id(f)] if id(f) in built
             else built.setdefault(id(f), to_expr(f)) for f in row] for row in grid]


def _mask_matrix(bias: Grid, readable: tuple[tuple[bool, ...], ...]) -> sp.ImmutableMatrix:
    flat = [to_expr(b) if ok else NEG_INF for row, oks in zip(bias, readable)
            for b, ok in zip(row, oks)]
    return immutable_matrix(len(bias), len(bias[0]), flat)
