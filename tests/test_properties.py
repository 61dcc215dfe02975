"""Hypothesis properties of the exact pipeline on small exact matrices (rationals and prime logs)."""

from __future__ import annotations

import math
import os
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.api import attention
from symattn.checks.invariants import check
from symattn.numeric import recompute

OO = sp.S.NegativeInfinity
SETTINGS = settings(max_examples=30, deadline=None, derandomize=True)
LOG_PRIMES = (2, 3)
TEMPERATURES = (Fraction(1), Fraction(1, 2), Fraction(2), Fraction(17, 20), Fraction(3, 2))
SCALES = ("auto", "none", "1/2")

small = st.fractions(min_value=-2, max_value=2, max_denominator=2)


class Entry:
    """r + sum c_p ln p, kept as exact text for symattn and as a float for the reference."""

    def __init__(self, rational: Fraction, logs: tuple[Fraction, ...]) -> None:
        self.rational, self.logs = rational, logs

    @property
    def text(self) -> str:
        parts = [f"({self.rational})"]
        parts += [f"({c})*ln({p})" for c, p in zip(self.logs, LOG_PRIMES) if c]
        return " + ".join(parts)

    @property
    def value(self) -> float:
        return float(self.rational) + sum(float(c) * math.log(p)
                                          for c, p in zip(self.logs, LOG_PRIMES))


rational_entries = small.map(lambda r: Entry(r, (Fraction(0),) * len(LOG_PRIMES)))
log_entries = st.builds(Entry, small, st.tuples(*(small for _ in LOG_PRIMES)))


def grid(entries, rows: int, cols: int):
    return st.lists(st.lists(entries, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


MINUS_INFINITY = "-oo"
bias_entries = st.one_of(rational_entries, log_entries, st.just(MINUS_INFINITY))


@st.composite
def problems(draw, masked: bool = False):
    """Sizes 1..3, d_k in 1..2; prime logs in K (and some Q); V rational; optional keep and bias."""
    n_q, n_k = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    d_k, d_v = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    queries = draw(st.sampled_from((rational_entries, log_entries)))
    case = {
        "Q": draw(grid(queries, n_q, d_k)),
        "K": draw(grid(log_entries, n_k, d_k)),
        "V": draw(grid(rational_entries, n_k, d_v)),
        "temperature": draw(st.sampled_from(TEMPERATURES)),
        "scale": draw(st.sampled_from(SCALES)),
        "keep": None,
        "bias": None,
        "fully_masked": "error",
    }
    if masked:
        case["keep"] = draw(grid(st.booleans(), n_q, n_k))
        case["bias"] = draw(st.none() | grid(bias_entries, n_q, n_k))
        case["fully_masked"] = draw(st.sampled_from(("zero", "uniform")))
    return case


def readable(case) -> list[list[bool]]:
    """The mask kind AND keep AND key lengths AND a bias entry other than -oo."""
    n_q, n_k = len(case["Q"]), len(case["K"])
    keep = case["keep"] or [[True] * n_k for _ in range(n_q)]
    bias = case["bias"] or [[None] * n_k for _ in range(n_q)]
    mask = case.get("mask", "none")
    lengths = case.get("key_lengths") or [n_k] * n_q
    return [[ok and b != MINUS_INFINITY and j < lengths[i] and (mask != "causal" or j <= i)
             and (mask != "causal-bottom-right" or j <= i + n_k - n_q)
             for j, (ok, b) in enumerate(zip(k, c))] for i, (k, c) in enumerate(zip(keep, bias))]


def run(case, **changes):
    case = {**case, **changes}
    text = lambda m: [[e.text if isinstance(e, Entry) else e for e in row] for row in m]  # noqa: E731
    bias = text(case["bias"]) if case["bias"] is not None else None
    return attention(text(case["Q"]), text(case["K"]), text(case["V"]), keep=case["keep"],
                     bias=bias, temperature=str(case["temperature"]), scale=case["scale"],
                     fully_masked=case["fully_masked"], mask=case.get("mask", "none"),
                     key_lengths=case.get("key_lengths"), symbols=case.get("symbols"))


def canonical(expr: sp.Expr) -> sp.Expr:
    """p^e (e not an integer) -> exp(e ln p) with ln p a symbol, so products combine one way.

    SymPy writes 2^(3x)·3^(2x) and 2^x·6^(2x) (the same number) differently; as exponentials of
    sums over prime-log symbols every such product has a single form.
    """
    def split(power: sp.Pow) -> sp.Expr:
        return sp.Mul(*(sp.exp(power.exp * k * prime_log(p))
                        for p, k in sp.factorint(power.base).items()))
    return expr.replace(lambda e: e.is_Pow and e.base.is_Integer and e.base > 1
                        and not e.exp.is_Integer, split)


def prime_log(p: int) -> sp.Symbol:
    return sp.Symbol(f"ln{p}", positive=True)


def ratio(expr: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(numerator, denominator) of a sum of fractions, combined without factoring."""
    if not expr.is_Add:
        return sp.fraction(expr)
    numerator, denominator = sp.S.Zero, sp.S.One
    for term in expr.args:
        n, d = ratio(term)
        if d == denominator:
            numerator += n
        else:
            numerator, denominator = numerator * d + n * denominator, denominator * d
    return numerator, denominator


def exactly_equal(a: sp.Expr, b: sp.Expr) -> bool:
    """a == b exactly: structurally, or a - b over one denominator expands to 0."""
    if a == b:
        return True
    (na, da), (nb, db) = ratio(a), ratio(b)
    return sp.expand(canonical(na) * canonical(db) - canonical(nb) * canonical(da)) == 0


def sums_to_one(row) -> bool:
    return exactly_equal(sp.Add(*row), sp.S.One)


# ---------------------------------------------------------------- invariants


@SETTINGS
@given(problems())
def test_rows_of_A_sum_exactly_to_one(case):
    trace = run(case)
    for i in range(trace.A.rows):
        assert sums_to_one(trace.A.row(i)), trace.A.row(i)


@SETTINGS
@given(problems(masked=True))
def test_masked_weights_are_exactly_zero(case):
    trace = run(case)
    for i, row in enumerate(readable(case)):
        if not any(row):
            expected = 0 if case["fully_masked"] == "zero" else sp.Rational(1, len(row))
            assert list(trace.A.row(i)) == [expected] * len(row)
            assert i in trace.fully_masked_rows
            continue
        assert sums_to_one(trace.A.row(i))
        for j, ok in enumerate(row):
            assert (trace.L[i, j] == OO) is (not ok)
            if not ok:
                assert trace.A[i, j] is sp.S.Zero
                assert trace.E[i, j] is sp.S.Zero
            else:
                assert trace.A[i, j].is_positive


@SETTINGS
@given(problems(masked=True))
def test_tau_scaling_of_the_logits(case):
    trace = run(case)
    tau = sp.Rational(case["temperature"].numerator, case["temperature"].denominator)
    for i, row in enumerate(readable(case)):
        for j, ok in enumerate(row):
            if ok:
                assert sp.expand(trace.L[i, j] * tau - (trace.S[i, j] + trace.M[i, j])) == 0
            else:
                assert trace.L[i, j] == trace.M[i, j] == OO


# ---------------------------------------------------------------- symmetries and linearity


@SETTINGS
@given(problems(), st.data())
def test_permuting_keys_and_values_together_leaves_O_unchanged(case, data):
    order = data.draw(st.permutations(range(len(case["K"]))))
    trace = run(case)
    moved = run(case, K=[case["K"][j] for j in order], V=[case["V"][j] for j in order])
    for i in range(trace.A.rows):
        for j, k in enumerate(order):
            assert exactly_equal(moved.A[i, j], trace.A[i, k])
    for a, b in zip(moved.O, trace.O):
        assert exactly_equal(a, b)


@SETTINGS
@given(problems(masked=True), st.data())
def test_permuting_queries_permutes_the_rows_of_O(case, data):
    order = data.draw(st.permutations(range(len(case["Q"]))))
    trace = run(case)
    bias = case["bias"] and [case["bias"][i] for i in order]
    moved = run(case, Q=[case["Q"][i] for i in order], keep=[case["keep"][i] for i in order],
                bias=bias)
    for i, k in enumerate(order):
        for a, b in zip(moved.O.row(i), trace.O.row(k)):
            assert exactly_equal(a, b)


@SETTINGS
@given(problems(), st.data())
def test_O_is_linear_in_V(case, data):
    n_k, d_v = len(case["V"]), len(case["V"][0])
    other = data.draw(grid(small, n_k, d_v))
    c = data.draw(small)
    V1 = [[e.rational for e in row] for row in case["V"]]
    O1 = run(case, V=[[str(x) for x in row] for row in V1]).O
    O2 = run(case, V=[[str(x) for x in row] for row in other]).O
    total = run(case, V=[[str(x + y) for x, y in zip(r, s)] for r, s in zip(V1, other)]).O
    scaled = run(case, V=[[str(c * x) for x in row] for row in V1]).O
    for i in range(O1.rows):
        for j in range(d_v):
            assert exactly_equal(total[i, j], O1[i, j] + O2[i, j])
            assert exactly_equal(scaled[i, j], sp.Rational(c.numerator, c.denominator) * O1[i, j])


# ---------------------------------------------------------------- numeric agreement


@SETTINGS
@given(problems(masked=True))
def test_exact_equals_the_mpmath_recomputation(case):
    trace = run(case)
    numeric = recompute(trace.problem, digits=50)
    ctx = mpmath.MPContext()
    ctx.dps = 60
    limit = ctx.mpf(10) ** -40
    for name in ("R", "S", "M", "L", "A", "O"):
        exact = trace.stage(name)
        for i in range(exact.rows):
            for j in range(exact.cols):
                x, y = exact[i, j], numeric[name][i][j]
                if x == OO:
                    assert y == ctx.ninf
                    continue
                assert abs(ctx.mpf(str(x.evalf(60))) - ctx.mpf(y)) < limit, (name, i, j)


def float_attention(case):
    """A plain float64 reference: R = QKᵀ, S = sR, L = (S + B)/τ, -inf masked, stable softmax, AV."""
    Q = [[e.value for e in row] for row in case["Q"]]
    K = [[e.value for e in row] for row in case["K"]]
    V = [[e.value for e in row] for row in case["V"]]
    d_k = len(Q[0])
    s = {"auto": 1 / math.sqrt(d_k), "none": 1.0, "1/2": 0.5}[case["scale"]]
    tau = float(case["temperature"])
    bias = [[0.0 if b in (None, MINUS_INFINITY) else b.value for b in row]
            for row in case["bias"] or [[None] * len(K) for _ in Q]]
    A = []
    for q, allowed, offsets in zip(Q, readable(case), bias):
        logits = [(s * sum(a * b for a, b in zip(q, k)) + c) / tau if ok else -math.inf
                  for k, ok, c in zip(K, allowed, offsets)]
        finite = [x for x in logits if x != -math.inf]
        if not finite:
            A.append([0.0 if case["fully_masked"] == "zero" else 1 / len(K)] * len(K))
            continue
        top = max(finite)
        exps = [math.exp(x - top) if x != -math.inf else 0.0 for x in logits]
        total = sum(exps)
        A.append([x / total for x in exps])
    O = [[sum(a * v[c] for a, v in zip(row, V)) for c in range(len(V[0]))] for row in A]
    return A, O


@SETTINGS
@given(problems(masked=True))
def test_agrees_with_a_float64_reference(case):
    trace = run(case)
    A, O = float_attention(case)
    for exact, reference in ((trace.A, A), (trace.O, O)):
        for i in range(exact.rows):
            for j in range(exact.cols):
                x = float(exact[i, j].evalf(30))
                assert x == pytest.approx(reference[i][j], rel=1e-9, abs=1e-9), (i, j)


@SETTINGS
@given(problems(masked=True))
def test_check_passes_on_every_computed_trace(case):
    report = check(run(case), digits=30)
    assert report.passed, report.results


# ---------------------------------------------------------------- mixed kinds of problem


@st.composite
def mixed_problems(draw):
    """Every option at once: a mask kind, keep, key lengths and a bias (with -oo), n_q != n_k
    as often as not, temperature, scale and a policy for rows that may read no key."""
    case = draw(problems(masked=True))
    n_q, n_k = len(case["Q"]), len(case["K"])
    case["mask"] = draw(st.sampled_from(("none", "causal", "causal-bottom-right")))
    case["key_lengths"] = draw(st.none() | st.lists(st.integers(0, n_k), min_size=n_q,
                                                    max_size=n_q))
    return case


def as_keep(case):
    """The same problem with its mask kind and key lengths written as one keep matrix."""
    return {**case, "mask": "none", "key_lengths": None,
            "keep": [[ok or b == MINUS_INFINITY for ok, b in zip(row, bias_row)]
                     for row, bias_row in zip(readable(case), case["bias"] or [[None] * len(
                         case["K"])] * len(case["Q"]))]}


LONG_RUN = int(os.environ.get("SYMATTN_FUZZ_EXAMPLES") or 0)  # the long run of docs/limits.md
MIXED = settings(max_examples=LONG_RUN or 20, deadline=None, derandomize=not LONG_RUN)


@MIXED
@given(mixed_problems())
def test_mixed_problems_keep_every_invariant(case):
    trace = run(case)
    for i, row in enumerate(readable(case)):
        if not any(row):
            assert i in trace.fully_masked_rows
            continue
        assert sums_to_one(trace.A.row(i))
        for j, ok in enumerate(row):
            assert (trace.A[i, j] is sp.S.Zero) is (not ok)
    A, O = float_attention(case)
    for exact, reference in ((trace.A, A), (trace.O, O)):
        for i in range(exact.rows):
            for j in range(exact.cols):
                assert float(exact[i, j].evalf(30)) == pytest.approx(reference[i][j], rel=1e-9,
                                                                      abs=1e-9)
    assert check(trace, digits=30).passed


@MIXED
@given(mixed_problems(), st.data())
def test_mixed_masks_are_their_keep_matrix_and_permute_with_it(case, data):
    trace, kept = run(case), run(as_keep(case))
    assert (trace.A, trace.O) == (kept.A, kept.O)
    plain = as_keep(case)
    rows = data.draw(st.permutations(range(len(case["Q"]))))
    cols = data.draw(st.permutations(range(len(case["K"]))))
    bias = plain["bias"] and [[plain["bias"][i][j] for j in cols] for i in rows]
    moved = run(plain, Q=[plain["Q"][i] for i in rows], K=[plain["K"][j] for j in cols],
                V=[plain["V"][j] for j in cols], bias=bias,
                keep=[[plain["keep"][i][j] for j in cols] for i in rows])
    for a, i in enumerate(rows):
        for b, j in enumerate(cols):
            assert exactly_equal(moved.A[a, b], trace.A[i, j])
        for c in range(trace.O.cols):
            assert exactly_equal(moved.O[a, c], trace.O[i, c])


@MIXED
@given(mixed_problems(), st.sampled_from([10, 25, 40]))
def test_mixed_exact_equals_mpmath_to_the_requested_digits(case, digits):
    trace = run(case)
    numeric = recompute(trace.problem, digits=digits)
    ctx = mpmath.MPContext()
    ctx.dps = digits + 20
    for name in ("A", "O"):
        exact = trace.stage(name)
        for i in range(exact.rows):
            for j in range(exact.cols):
                x = ctx.mpf(str(exact[i, j].evalf(digits + 20)))
                assert abs(x - ctx.mpf(numeric[name][i][j])) <= ctx.mpf(10) ** -digits * max(
                    1, abs(x)), (name, i, j)


THETA = sp.Symbol("theta", real=True)


@MIXED
@given(mixed_problems(), st.data())
def test_symbols_substituted_give_the_result_for_their_value(case, data):
    """A problem with a declared symbol θ in Q, K and V, solved symbolically, then θ = value,
    equals the problem solved with the value written in (to 40 digits)."""
    value = data.draw(small)
    symbolic = {**case, "symbols": {"theta": "real"}}
    numeric = dict(case)
    for name in ("Q", "K", "V"):
        rows_s, rows_n = [], []
        for row in case[name]:
            row_s, row_n = [], []
            for entry in row:
                if data.draw(st.booleans()):
                    row_s.append(f"({entry.text}) + theta")
                    row_n.append(f"({entry.text}) + ({value})")
                else:
                    row_s.append(entry.text)
                    row_n.append(entry.text)
            rows_s.append(row_s)
            rows_n.append(row_n)
        symbolic[name], numeric[name] = rows_s, rows_n
    with_symbol, with_value = run(symbolic), run(numeric)
    theta = sp.Rational(value.numerator, value.denominator)
    for a, b in ((with_symbol.A, with_value.A), (with_symbol.O, with_value.O)):
        for x, y in zip(a, b):
            difference = (x.subs(THETA, theta) - y).evalf(50)
            assert abs(difference) < sp.Float("1e-40"), (x, y)


def _argmax_rows(case):
    """For each query row, the readable keys whose logit S + M is largest (exactly)."""
    trace = run({**case, "temperature": Fraction(1)})
    out = []
    for i, row in enumerate(readable(case)):
        logits = {j: trace.L[i, j] for j, ok in enumerate(row) if ok}
        top = max(logits.values(), key=lambda x: float(x.evalf(30))) if logits else None
        out.append([j for j, x in logits.items() if sp.simplify(x - top) == 0])
    return out


@MIXED
@given(mixed_problems())
def test_temperature_limits(case):
    """τ → ∞ spreads each row evenly over its readable keys; τ → 0 puts it all on the
    largest logits (evenly when they tie). Rational entries, so ties and gaps are exact."""
    case = {**case, "Q": [[Entry(e.rational, (0, 0)) for e in row] for row in case["Q"]],
            "K": [[Entry(e.rational, (0, 0)) for e in row] for row in case["K"]]}
    if case["bias"]:
        case["bias"] = [[b if b == MINUS_INFINITY else Entry(b.rational, (0, 0)) for b in row]
                        for row in case["bias"]]
    hot = run({**case, "temperature": Fraction(10**6)})
    cold = run({**case, "temperature": Fraction(1, 1000)})
    for i, (row, top) in enumerate(zip(readable(case), _argmax_rows(case))):
        if not any(row):
            continue
        for j, ok in enumerate(row):
            spread = 1 / sum(row) if ok else 0
            peak = 1 / len(top) if j in top else 0
            assert abs(float(hot.A[i, j].evalf(30)) - spread) < 1e-4
            assert abs(float(cold.A[i, j].evalf(30)) - peak) < 1e-12
