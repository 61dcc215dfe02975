"""The exact pipeline: seed examples, log collapse, masks, policies, symbols, the trace's form."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest
import sympy as sp
from conftest import ROOT

import symattn
from symattn.api import attention
from symattn.errors import InputError, ProblemError
from symattn.numeric_decimals import decimal_grid

R = sp.Rational
Z, OO = sp.S.Zero, sp.S.NegativeInfinity


def solve(example, name):
    return symattn.attend(symattn.load_problem(example(name)))


def matrix(rows):
    return sp.ImmutableMatrix(rows)


def same(a, b):
    """Exact equality: structurally, or the difference simplifies to 0."""
    return a == b or sp.simplify(a - b) == 0


def direct_weights(L):
    """softmax(L) built independently from a matrix of logits (-oo = masked)."""
    rows = []
    for i in range(L.rows):
        exps = [Z if L[i, j] == OO else sp.exp(L[i, j]) for j in range(L.cols)]
        total = sp.Add(*exps)
        rows.append([e / total for e in exps])
    return sp.Matrix(rows)


# ---------------------------------------------------------------- the public name


def test_public_names_are_the_api_functions_even_after_every_module_loads():
    # No submodule may share a public name: importing it would rebind the package attribute.
    code = ("import symattn, symattn.exact.attention, symattn.targets, symattn.api, symattn.cli; "
            "print(symattn.attention is symattn.api.attention, symattn.render is symattn.api.render)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.strip() == "True True"


# ---------------------------------------------------------------- seed examples


def test_two_positions_p_and_q(example):
    trace = solve(example, "01_two_positions")
    a = 1 / sp.sqrt(2)
    p = sp.exp(a) / (sp.exp(a) + 1)
    assert trace.R == sp.eye(2)
    assert trace.S == matrix([[a, 0], [0, a]])
    assert trace.L == trace.S
    assert trace.M == sp.zeros(2, 2)
    for i, j in ((0, 0), (1, 1)):
        assert sp.simplify(trace.A[i, j] - p) == 0
    for i, j in ((0, 1), (1, 0)):
        assert sp.simplify(trace.A[i, j] - (1 - p)) == 0
    assert sp.simplify(trace.O[0, 0] - 2 * p) == 0
    assert sp.simplify(trace.O[0, 1] - 4 * (1 - p)) == 0
    assert sp.simplify(trace.O[1, 0] - 2 * (1 - p)) == 0
    assert sp.simplify(trace.O[1, 1] - 4 * p) == 0


def test_two_positions_decimals_as_printed_in_the_course(example):
    trace = solve(example, "01_two_positions")
    assert decimal_grid(trace.A, 4) == [["0.6698", "0.3302"], ["0.3302", "0.6698"]]
    assert decimal_grid(trace.O, 4) == [["1.3395", "1.3210"], ["0.6605", "2.6790"]]
    assert round(float(trace.O[0, 0].evalf(30)), 4) == 1.3395


CAUSAL_A = [[1, 0, 0], [R(1, 10), R(9, 10), 0], [R(1, 6), R(1, 2), R(1, 3)]]
CAUSAL_O = [[2, 0], [R(1, 5), R(18, 5)], [R(7, 3), R(8, 3)]]


def test_causal_three_positions_every_stage(example):
    trace = solve(example, "02_causal_three_positions")
    l2, l3 = sp.log(2), sp.log(3)
    assert trace.R == matrix([[0, l3, l2], [0, 2 * l3, 2 * l2], [0, l3, l2]])
    assert trace.S == trace.R
    assert trace.M == matrix([[0, OO, OO], [0, 0, OO], [0, 0, 0]])
    assert trace.L == matrix([[0, OO, OO], [0, 2 * l3, OO], [0, l3, l2]])
    assert trace.E == matrix([[1, 0, 0], [1, 9, 0], [1, 3, 2]])
    assert trace.Z == (1, 10, 6)
    assert trace.A == matrix(CAUSAL_A)
    assert trace.O == matrix(CAUSAL_O)
    assert trace.readable == ((True, False, False), (True, True, False), (True, True, True))
    assert trace.fully_masked_rows == ()


def test_causal_three_positions_from_python_strings():
    trace = attention([[1], [2], [1]], [[0], ["ln(3)"], ["ln(2)"]], [[2, 0], [0, 4], [6, 2]],
                      mask="causal")
    assert trace.A == matrix(CAUSAL_A)
    assert trace.O == matrix(CAUSAL_O)
    assert trace.O[2, 0] == R(7, 3)


def test_two_positions_from_python_values(example):
    trace = attention([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[2, 0], [0, 4]], temperature="1")
    from_file = solve(example, "01_two_positions")
    for name in ("R", "S", "M", "L", "A", "O"):
        assert trace.stage(name) == from_file.stage(name), name
    a = sp.sqrt(2) / 2
    assert sp.simplify(trace.A[0, 0] - sp.exp(a) / (sp.exp(a) + 1)) == 0


def test_uniform_weights_exercise(example):
    for trace in (solve(example, "03_uniform_weights"),
                  attention([[0]], [[1], [2], [3]], [[1, 0], [0, 2], [2, 1]])):
        assert trace.A == matrix([[R(1, 3), R(1, 3), R(1, 3)]])
        assert trace.O == matrix([[1, 1]])
        assert trace.O.shape == (1, 2)


def test_causal_four_positions_exercise(example):
    for trace in (solve(example, "04_causal_four_positions"),
                  attention([[1]] * 4, [["ln(2)"], [0], ["ln(3)"], [10]], [[0], [2], [4], [100]],
                            mask="causal")):
        assert list(trace.A.row(2)) == [R(1, 3), R(1, 6), R(1, 2), 0]
        assert trace.O[2, 0] == R(7, 3)
        assert list(trace.E.row(2)) == [2, 1, 3, 0]
        e10 = sp.exp(10)
        assert same(trace.A[3, 3], e10 / (6 + e10))
        assert same(trace.O[3, 0], (2 + 12 + 100 * e10) / (6 + e10))


def test_five_tokens_temperature_against_a_direct_softmax(example):
    trace = solve(example, "05_five_tokens_temperature")
    problem = trace.problem
    assert problem.temperature == R(17, 20)
    raw = sp.Matrix(problem.Q) * sp.Matrix(problem.K).T
    assert trace.R == raw
    logits = sp.Matrix(5, 5, lambda i, j: raw[i, j] / (sp.sqrt(3) * R(17, 20)) if j <= i else OO)
    assert trace.L == logits
    expected = direct_weights(logits)
    for i in range(5):
        for j in range(5):
            assert same(trace.A[i, j], expected[i, j]), (i, j)
    assert [round(float(x), 3) for x in trace.A.row(2)] == [0.376, 0.175, 0.448, 0, 0]  # the lesson's
    assert list(trace.O.row(0)) == [1, 0]


def test_cross_attention_with_padding_and_bias(example):
    trace = solve(example, "06_cross_attention_padding")
    assert trace.shapes == {"Q": (2, 2), "K": (4, 2), "V": (4, 2), "R": (2, 4), "S": (2, 4),
                            "M": (2, 4), "L": (2, 4), "A": (2, 4), "O": (2, 2)}
    assert trace.M == matrix([[sp.log(2), 0, 0, OO], [0, 0, 0, OO]])
    assert trace.E == matrix([[8, 1, 2, 0], [1, 9, 3, 0]])
    assert trace.A == matrix([[R(8, 11), R(1, 11), R(2, 11), 0], [R(1, 13), R(9, 13), R(3, 13), 0]])
    assert trace.O == matrix([[R(36, 11), R(8, 11)], [R(10, 13), R(42, 13)]])


# ---------------------------------------------------------------- logs reduced to primes


def test_exp_of_two_ln_3_is_9():
    trace = attention([[2]], [["ln(3)"], [0]], [[1], [0]], scale="none")
    assert trace.L == matrix([[2 * sp.log(3), 0]])
    assert trace.E == matrix([[9, 1]])
    assert trace.A == matrix([[R(9, 10), R(1, 10)]])


@pytest.mark.parametrize("K", [
    [["-ln(4)", "ln(2)"], [0, 0]],
    [[-sp.log(4), sp.log(2)], [0, 0]],
    [["ln(1/4)", "ln(2)"], [0, 0]],
], ids=["strings", "sympy-log-4", "log-of-a-quarter"])
def test_exp_of_minus_ln_4_plus_2_ln_2_is_1(K):
    trace = attention([[1, 2]], K, [[1], [0]], scale="none")
    assert trace.L == matrix([[0, 0]])
    assert trace.E == matrix([[1, 1]])
    assert trace.A == matrix([[R(1, 2), R(1, 2)]])


def test_sympy_log_of_a_fraction_splits_over_primes():
    trace = attention([[1]], [[sp.log(R(3, 2))], [0]], [[1], [0]], scale="none")
    assert trace.L[0, 0] == sp.log(3) - sp.log(2)
    assert trace.E == matrix([[R(3, 2), 1]])
    assert trace.A == matrix([[R(3, 5), R(2, 5)]])


def test_exp_of_twenty_seventeenths_ln_2():
    trace = attention([[1]], [["ln(2)"], [0]], [[1], [0]], scale="none", temperature="17/20")
    power = sp.Integer(2) ** R(20, 17)
    assert trace.L == matrix([[R(20, 17) * sp.log(2), 0]])
    assert trace.E == matrix([[power, 1]])
    assert not trace.E[0, 0].has(sp.exp, sp.log)
    assert same(trace.A[0, 0], power / (power + 1))
    assert same(trace.A[0, 1], 1 / (power + 1))


def test_temperature_seventeen_twentieths_on_the_causal_example():
    trace = attention([[1], [2], [1]], [[0], ["ln(3)"], ["ln(2)"]], [[2, 0], [0, 4], [6, 2]],
                      mask="causal", temperature="0.85")
    c = R(20, 17)
    three, two = sp.Integer(3) ** c, sp.Integer(2) ** c
    assert trace.E == matrix([[1, 0, 0], [1, three ** 2, 0], [1, three, two]])
    assert not any(e.has(sp.exp) for e in trace.E)
    L = matrix([[0, OO, OO], [0, 2 * c * sp.log(3), OO], [0, c * sp.log(3), c * sp.log(2)]])
    assert trace.L == L
    expected = direct_weights(L)
    for i in range(3):
        for j in range(3):
            assert sp.simplify(trace.A[i, j] - expected[i, j]) == 0, (i, j)
    assert trace.A[0, 0] == 1
    assert sp.simplify(trace.O[2, 0] - (2 + 6 * two) / (1 + three + two)) == 0


# ---------------------------------------------------------------- masks

# With Q = 0 every logit is 0, so A is uniform over each row's readable keys; V = I gives O = A.


def uniform_rows(pattern):
    return matrix([[R(1, sum(row)) if ok else 0 for ok in row] for row in pattern])


MASK_CASES = [
    ("causal-square", 3, 3, dict(mask="causal"), [[1, 0, 0], [1, 1, 0], [1, 1, 1]]),
    ("causal-top-left-nq<nk", 2, 4, dict(mask="causal"), [[1, 0, 0, 0], [1, 1, 0, 0]]),
    ("causal-bottom-right-nq<nk", 2, 4, dict(mask="causal-bottom-right"),
     [[1, 1, 1, 0], [1, 1, 1, 1]]),
    ("causal-bottom-right-square", 3, 3, dict(mask="causal-bottom-right"),
     [[1, 0, 0], [1, 1, 0], [1, 1, 1]]),
    ("keep", 2, 3, dict(keep=[[True, False, True], [False, True, True]]),
     [[1, 0, 1], [0, 1, 1]]),
    ("key-lengths", 2, 3, dict(key_lengths=[1, 3]), [[1, 0, 0], [1, 1, 1]]),
    ("bias-minus-infinity", 2, 3, dict(bias=[[0, "-oo", 0], ["-oo", "-oo", 0]]),
     [[1, 0, 1], [0, 0, 1]]),
    ("and-of-all", 3, 4, dict(mask="causal-bottom-right",
                              keep=[[True, True, True, True], [False, True, True, True],
                                    [True, True, True, False]],
                              key_lengths=[4, 4, 3], bias=[[0, "-oo", 0, 0], [0] * 4, [0] * 4]),
     [[1, 0, 0, 0], [0, 1, 1, 0], [1, 1, 1, 0]]),
]


@pytest.mark.parametrize("n_q, n_k, options, pattern", [c[1:] for c in MASK_CASES],
                         ids=[c[0] for c in MASK_CASES])
def test_mask_kinds(n_q, n_k, options, pattern):
    trace = attention([[0]] * n_q, [[1]] * n_k, sp.eye(n_k), **options)
    readable = tuple(tuple(bool(x) for x in row) for row in pattern)
    assert trace.readable == readable
    assert trace.A == uniform_rows(pattern)
    assert trace.O == trace.A
    assert trace.M == matrix([[0 if ok else OO for ok in row] for row in pattern])
    assert all((trace.L[i, j] == OO) != ok for i, row in enumerate(readable)
               for j, ok in enumerate(row))


def test_finite_bias_adds_to_the_scores():
    trace = attention([[0]], [[1], [1], [1], [1]], [[0], [2], [4], [100]],
                      bias=[["ln(2)", 0, "ln(3)", "-oo"]])
    assert trace.M == matrix([[sp.log(2), 0, sp.log(3), OO]])
    assert trace.A == matrix([[R(1, 3), R(1, 6), R(1, 2), 0]])
    assert trace.O == matrix([[R(7, 3)]])


def test_bias_and_scores_add_before_the_softmax():
    trace = attention([[1]], [["ln(2)"], ["ln(3)"]], [[1], [0]], scale="none",
                      bias=[["ln(3)", "-ln(3)"]])
    assert trace.L == matrix([[sp.log(2) + sp.log(3), 0]])
    assert trace.E == matrix([[6, 1]])
    assert trace.A == matrix([[R(6, 7), R(1, 7)]])


def test_temperature_divides_the_mask_too():
    trace = attention([[0]], [[1], [1]], [[1], [0]], bias=[["ln(9)", 0]], temperature=2)
    assert trace.L == matrix([[sp.log(3), 0]])
    assert trace.E == matrix([[3, 1]])
    assert trace.A == matrix([[R(3, 4), R(1, 4)]])


def test_masks_combine_with_scores_under_causal_bottom_right():
    # n_q = 1 < n_k = 3: the single query is the last position and reads every key.
    trace = attention([[1]], [["ln(2)"], [0], ["ln(5)"]], [[1], [2], [3]],
                      mask="causal-bottom-right", scale="none", key_lengths=[2])
    assert trace.E == matrix([[2, 1, 0]])
    assert trace.O == matrix([[R(4, 3)]])


# ---------------------------------------------------------------- cross-attention shapes


def test_cross_attention_shapes_of_the_course_exercise():
    Q = [[(i + j) % 3 - 1 for j in range(8)] for i in range(4)]
    K = [[(i * j) % 2 for j in range(8)] for i in range(6)]
    V = [[i, j, 1] for i in range(6) for j in range(1)]
    trace = attention(Q, K, V)
    assert trace.shapes == {"Q": (4, 8), "K": (6, 8), "V": (6, 3), "R": (4, 6), "S": (4, 6),
                            "M": (4, 6), "L": (4, 6), "A": (4, 6), "O": (4, 3)}
    assert trace.R == sp.Matrix(Q) * sp.Matrix(K).T
    assert trace.S == trace.R / sp.sqrt(8)
    assert list(trace.O.col(2)) == [1, 1, 1, 1]  # a constant value column is kept exactly


def test_shape_errors_name_the_constraint():
    with pytest.raises(ProblemError, match="Q and K must have the same number of columns"):
        attention([[1, 2]], [[1]], [[1]])
    with pytest.raises(ProblemError, match="K and V must have the same number of rows"):
        attention([[1]], [[1], [2]], [[1]])


# ---------------------------------------------------------------- fully masked rows


def test_fully_masked_row_error_names_the_row():
    with pytest.raises(ProblemError, match=r"query row 2 may read no key, so its softmax is 0/0"):
        attention([[0], [0]], [[1], [1]], [[1], [2]], key_lengths=[2, 0])


def test_fully_masked_row_error_names_the_token():
    with pytest.raises(ProblemError, match=r"query row 1 \(y1\) may read no key"):
        attention([[0], [0]], [[1], [1]], [[1], [2]], key_lengths=[0, 2], tokens=["y1", "y2"])


def test_bottom_right_with_more_queries_than_keys_leaves_a_row_empty():
    with pytest.raises(ProblemError, match="query row 1 may read no key"):
        attention([[0]] * 3, [[1]] * 2, [[1], [2]], mask="causal-bottom-right")
    trace = attention([[0]] * 3, [[1]] * 2, [[1], [2]], mask="causal-bottom-right",
                      fully_masked="zero")
    assert trace.A == matrix([[0, 0], [1, 0], [R(1, 2), R(1, 2)]])


def test_fully_masked_policy_zero():
    trace = attention([[0], [0]], [[1], [1], [1]], [[1, 0], [0, 2], [2, 1]],
                      key_lengths=[0, 2], fully_masked="zero")
    assert trace.fully_masked_rows == (0,)
    assert trace.A == matrix([[0, 0, 0], [R(1, 2), R(1, 2), 0]])
    assert trace.O == matrix([[0, 0], [R(1, 2), 1]])
    assert trace.Z[0] is None and trace.Z[1] == 2
    assert list(trace.E.row(0)) == [0, 0, 0]
    assert list(trace.L.row(0)) == [OO, OO, OO]


def test_fully_masked_policy_uniform():
    trace = attention([[0], [0]], [[1], [1], [1]], [[1, 0], [0, 2], [2, 1]],
                      keep=[[False, False, False], [True, False, False]], fully_masked="uniform")
    assert trace.fully_masked_rows == (0,)
    assert trace.A == matrix([[R(1, 3)] * 3, [1, 0, 0]])
    assert trace.O == matrix([[1, 1], [1, 0]])


# ---------------------------------------------------------------- declared symbols


@pytest.fixture(scope="module")
def rotating():
    theta = sp.Symbol("theta", real=True)
    trace = attention([["cos(theta)", "sin(theta)"]], [[1, 0], [0, 1]], [[2, 0], [0, 4]],
                      symbols={"theta": "real"})
    return theta, trace


def test_rotating_query_matches_the_direct_formula(rotating):
    theta, trace = rotating
    assert trace.problem.symbols == (theta,)
    c, s = sp.cos(theta) / sp.sqrt(2), sp.sin(theta) / sp.sqrt(2)
    assert trace.L == matrix([[c, s]])
    first = sp.exp(c) / (sp.exp(c) + sp.exp(s))
    assert sp.simplify(trace.A[0, 0] - first) == 0
    assert sp.simplify(trace.A[0, 1] - (1 - first)) == 0
    assert sp.simplify(trace.O[0, 0] - 2 * first) == 0


@pytest.mark.parametrize("angle, weight", [
    (0, sp.exp(sp.sqrt(2) / 2) / (sp.exp(sp.sqrt(2) / 2) + 1)),
    (sp.pi / 4, R(1, 2)),
    (sp.pi / 2, 1 / (sp.exp(sp.sqrt(2) / 2) + 1)),
    (sp.pi, 1 / (sp.exp(sp.sqrt(2) / 2) + 1)),
], ids=["0", "pi/4", "pi/2", "pi"])
def test_rotating_query_at_exact_angles(rotating, angle, weight):
    theta, trace = rotating
    assert sp.simplify(trace.A[0, 0].subs(theta, angle) - weight) == 0
    assert sp.simplify(trace.O[0, 1].subs(theta, angle) - 4 * (1 - weight)) == 0


def test_symbolic_temperature_declared_positive():
    tau = sp.Symbol("tau", positive=True)
    trace = attention([[1], [2]], [[1], [0]], [[1], [0]], temperature="tau",
                      symbols={"tau": "positive"})
    assert trace.L == matrix([[1 / tau, 0], [2 / tau, 0]])
    expected = sp.exp(2 / tau) / (sp.exp(2 / tau) + 1)
    assert sp.simplify(trace.A[1, 0] - expected) == 0
    assert sp.simplify(trace.A[0, 0].subs(tau, R(1, 2)) - sp.exp(2) / (sp.exp(2) + 1)) == 0


def test_symbolic_temperature_must_be_known_positive():
    with pytest.raises(InputError, match="must be known to be positive"):
        attention([[1]], [[1]], [[1]], temperature="tau", symbols={"tau": "real"})


# ---------------------------------------------------------------- scale


def test_scale_none_keeps_the_raw_scores():
    trace = attention([[1, 0]], [["ln(3)", 0], [0, 0]], [[1], [0]], scale="none")
    assert trace.S == trace.R == matrix([[sp.log(3), 0]])
    assert trace.A == matrix([[R(3, 4), R(1, 4)]])


def test_default_scale_divides_by_root_d_k():
    trace = attention([[1, 0]], [["ln(3)", 0], [0, 0]], [[1], [0]])
    assert trace.problem.scale_factor == 1 / sp.sqrt(2)
    assert trace.S == matrix([[sp.log(3) / sp.sqrt(2), 0]])
    power = sp.Integer(3) ** (sp.sqrt(2) / 2)
    assert same(trace.A[0, 0], power / (power + 1))


@pytest.mark.parametrize("scale, expected", [
    ("1/2", [[R(3, 4), R(1, 4)]]),
    ("2", [[R(81, 82), R(1, 82)]]),
], ids=["half", "two"])
def test_expression_scale(scale, expected):
    trace = attention([[1]], [["ln(9)"], [0]], [[1], [0]], scale=scale)
    assert trace.A == matrix(expected)


def test_irrational_expression_scale():
    trace = attention([[1], [2]], [[1], [0]], [[1], [0]], scale="sqrt(3)/2")
    assert trace.S == matrix([[sp.sqrt(3) / 2, 0], [sp.sqrt(3), 0]])
    e = sp.exp(sp.sqrt(3))
    assert same(trace.A[1, 0], e / (e + 1))


# ---------------------------------------------------------------- the trace's form


def test_trace_is_immutable(example):
    trace = solve(example, "02_causal_three_positions")
    for name in ("Q", "K", "V", "R", "S", "M", "L", "A", "O"):
        assert isinstance(trace.stage(name), sp.ImmutableMatrix), name
    assert isinstance(trace.E, sp.ImmutableMatrix)
    with pytest.raises(dataclasses.FrozenInstanceError):
        trace.A = sp.ImmutableMatrix([[0]])
    with pytest.raises(dataclasses.FrozenInstanceError):
        trace.problem.temperature = 2
    with pytest.raises(TypeError):
        trace.A[0, 0] = 5
    assert isinstance(trace.Z, tuple) and isinstance(trace.readable, tuple)
    with pytest.raises(KeyError, match="no stage 'E'"):
        trace.stage("E")


def _shared_denominator(trace, i):
    denominators = {sp.fraction(trace.A[i, j])[1] for j in range(trace.A.cols)
                    if trace.readable[i][j]}
    assert len(denominators) == 1, denominators
    return denominators.pop()


@pytest.mark.parametrize("name", ["01_two_positions", "05_five_tokens_temperature"],
                         ids=["two-positions", "five-tokens"])
def test_each_row_is_one_fraction_over_a_shared_denominator(example, name):
    trace = solve(example, name)
    for i in range(trace.A.rows):
        denominator = _shared_denominator(trace, i)
        if denominator != 1:
            numerators = [sp.fraction(trace.A[i, j])[0] for j in range(trace.A.cols)
                          if trace.readable[i][j]]
            assert sp.expand(sp.Add(*numerators) - denominator) == 0
            assert all(sp.fraction(o)[1] == denominator for o in trace.O.row(i)
                       if not o.is_Rational)


@pytest.mark.parametrize("K, temperature", [
    ([["-3/17*ln(2)"], [1]], 1),
    ([["-ln(2) + sqrt(2)"], [0]], 1),
    ([["ln(2)"], ["ln(3)"], [1]], "17/20"),
    ([["-ln(6)"], ["-ln(3)"], ["sqrt(2)"]], 1),
], ids=["negative-log-power", "half-times-exp", "two-primes-and-e", "reciprocals"])
def test_rational_factors_are_cleared_into_the_shared_denominator(K, temperature):
    trace = attention([[1]], K, [[1]] * len(K), scale="none", temperature=temperature)
    denominator = _shared_denominator(trace, 0)
    numerators = [sp.fraction(a)[0] for a in trace.A.row(0)]
    assert sp.expand(sp.Add(*numerators) - denominator) == 0
    for a, e in zip(trace.A.row(0), trace.E.row(0)):
        assert sp.simplify(a - e / trace.Z[0]) == 0


def test_rational_weights_are_plain_rationals(example):
    trace = solve(example, "06_cross_attention_padding")
    assert all(a.is_Rational for a in trace.A)
    assert all(o.is_Rational for o in trace.O)
