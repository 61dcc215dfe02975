"""Independent recomputation of every corpus item, and the verdict each published claim deserves.

    python tests/corpus/independent.py            # rewrite every item's expected.json
    python tests/corpus/independent.py --check    # recompute and compare with the committed files
    python tests/corpus/independent.py 07_qml_the_cat_sleeps   # one item (a folder name)

An item is a folder with problem.toml, or with several <name>.problem.toml (one per batch
element, 41-43), each judged against its own <name>.published*.toml into <name>.expected.json.

Pure mpmath at 50 digits plus fractions; it never imports symattn. It reads each item's
problem.toml (decimals exactly: tomllib with parse_float=Decimal, then Fraction), computes
Q, K, V (from X and W_Q, W_K, W_V, or Y), R = Q K^T, S = s R (s = 1/sqrt(d_k) unless `scale` says
otherwise), M (0 = may read, -inf = may not, finite = bias), L = (S + M)/tau, A = row-wise softmax,
O = A V, and for [[heads]] every head, Concat(heads) and Concat W_O (+ 1 b_O^T). Biases b_Q, b_K,
b_V are added to every row of X W (Q = X W_Q + 1 b_Q^T). A problem laid out in columns ([input]
layout = "columns", Prince's Understanding Deep Learning) is computed the book's own way, every
stage in its orientation: X is D x N, Q = W_Q X + b_Q 1^T, R = K^T Q (keys x queries), the
softmax taken down each column, O = V A. A problem that gives
printed scores ([input] R with d_k, S or L, with V) starts there, carried as Q = scores, K = I. Mask semantics follow
symattn's README: "causal" is top-left (j <= i), "causal-bottom-right" is j <= i + n_k - n_q,
key_lengths[i] = query i reads keys 1..key_lengths[i], keep = true may read; all masks AND.

Every value is a pair (mpf at 50 digits, Fraction or None): the Fraction is kept while the stage
is rational (inputs, R, a rational scale, masked weights 0, a row with one readable key, equal
logits), so that claims written as integers can be judged exactly, not to 50 digits.

Each published*.toml of an item holds one [answers] table copied verbatim from the source
(PyTorch / NumPy / TensorFlow printouts, LaTeX, tuples). Numbers are read from the text in
reading order and matched to the addressed entries row by row. The rules are those the brief
states for symattn (docs/answers.md):

  * a decimal with k places ("0.6698", "0.", "17.") is correct iff it equals the exact value
    correctly rounded to k places; when the exact value is halfway, both roundings are accepted;
  * e-notation ("6.3379e-02") means as many significant figures as the mantissa has digits (5);
  * an integer or other exact form must equal the exact value; where the exact value is not
    rational here, agreement to 40 digits is reported "undecided" (never "correct");
  * "-inf" is correct only for an entry that is masked (M, L, S+M, R+M);
  * a percentage ("53%") is read as the decimal it stands for (0.53, two places).

Noise in printouts is skipped: "tensor(", "array(", "dtype=...", "grad_fn=<...>", "shape=(...)",
LaTeX commands and row labels (a number glued to a word, as in "Head1", is not read).

published_extra.toml (an [extra] table) holds published values that symattn's claim keys cannot
address: "head[h].O" (and head[h].A, .R, .S, .Q, .K, .V), "concat" (Concat of the heads), "keep"
(the boolean may-read mask as 1/0), "SM" (S + M), "RM" (R + M). Their verdicts use the same rules.

corpus.toml (beside this script) lists the items and, per item, `rounded_inputs`: the input
matrices that are themselves rounded printouts. For a wrong entry of such an item the script
also reports whether rounding of the printed inputs (half a unit in their last printed place)
could explain the difference (first-order bound from central differences).
"""

from __future__ import annotations

import json
import math
import re
import sys
import tomllib
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import mpmath
from mpmath import mp, mpf

mp.dps = 50
HERE = Path(__file__).resolve().parent
NINF = mpf("-inf")
OUT_DIGITS = 30
EQ_TOL = mpf(10) ** -40  # "equal" for inexact values: agreement to 40 digits (reported undecided)
TIE_TOL = mpf(10) ** -35  # a value within this of a rounding midpoint counts as a tie


class Num:
    """A real value: mpf at mp.dps, with the exact Fraction when the value is known rational."""

    __slots__ = ("m", "q")

    def __init__(self, m, q=None):
        self.q = q
        self.m = mpf(q.numerator) / q.denominator if q is not None else m

    @staticmethod
    def exact(q) -> Num:
        return Num(None, Fraction(q))

    def __add__(self, o):
        if self.q is not None and o.q is not None:
            return Num.exact(self.q + o.q)
        return Num(self.m + o.m)

    def __sub__(self, o):
        if self.q is not None and o.q is not None:
            return Num.exact(self.q - o.q)
        return Num(self.m - o.m)

    def __mul__(self, o):
        if self.q is not None and o.q is not None:
            return Num.exact(self.q * o.q)
        if (self.q == 0) or (o.q == 0):
            return Num.exact(0)
        return Num(self.m * o.m)

    def __truediv__(self, o):
        if o.q is not None and o.q == 0 or (o.q is None and o.m == 0):
            raise ZeroDivisionError("division by zero")
        if self.q is not None and o.q is not None:
            return Num.exact(self.q / o.q)
        return Num(self.m / o.m)

    def __neg__(self):
        return Num.exact(-self.q) if self.q is not None else Num(-self.m)

    @property
    def is_ninf(self) -> bool:
        return self.q is None and mpmath.isinf(self.m) and self.m < 0


MASKED = Num(NINF)


# ----------------------------------------------------------------------------------------------
# Entries: TOML integers, TOML decimals (as Decimal), and strings in a small expression syntax
# (numbers, + - * / ^ **, parentheses, ln/log/exp/sqrt/sin/cos/tan, e, pi; "-oo"/"-inf").

_TOKEN = re.compile(r"\s*(?:(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?|(\*\*|[-+*/^(),])|([A-Za-z_]\w*))")


def _tokens(text: str):
    pos, out = 0, []
    text = text.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise ValueError(f"cannot read {text!r} at column {pos + 1}")
        pos = match.end()
        if match[1] is not None:
            out.append(("num", Fraction(Decimal(match[1] + (match[2] or "")))))
        elif match[3] is not None:
            out.append(("op", match[3]))
        else:
            out.append(("name", match[4]))
    return out


def _rational_sqrt(q: Fraction):
    if q < 0:
        return None
    n, d = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(n, d) if n * n == q.numerator and d * d == q.denominator else None


FUNCS = {"ln", "log", "exp", "sqrt", "sin", "cos", "tan"}


def _apply(name: str, x: Num) -> Num:
    if name in ("ln", "log"):
        if x.q == 1:
            return Num.exact(0)
        if x.m <= 0:
            raise ValueError("ln of a non-positive number")
        return Num(mpmath.log(x.m))
    if name == "exp":
        return Num.exact(1) if x.q == 0 else Num(mpmath.exp(x.m))
    if name == "sqrt":
        if x.q is not None and (r := _rational_sqrt(x.q)) is not None:
            return Num.exact(r)
        if x.m < 0:
            raise ValueError("sqrt of a negative number")
        return Num(mpmath.sqrt(x.m))
    if x.q == 0 and name in ("sin", "tan"):
        return Num.exact(0)
    if x.q == 0 and name == "cos":
        return Num.exact(1)
    return Num(getattr(mpmath, name)(x.m))


class _Parser:
    def __init__(self, text):
        self.toks, self.i = _tokens(text), 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, kind=None, value=None):
        tok = self.peek()
        if tok[0] is None or (kind and tok[0] != kind) or (value and tok[1] != value):
            raise ValueError(f"unexpected {tok[1]!r}")
        self.i += 1
        return tok

    def parse(self) -> Num:
        value = self.expr()
        if self.i != len(self.toks):
            raise ValueError(f"unexpected {self.peek()[1]!r}")
        return value

    def expr(self):
        value = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self):
        value = self.unary()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            rhs = self.unary()
            value = value * rhs if op == "*" else value / rhs
        return value

    def unary(self):
        if self.peek() == ("op", "-"):
            self.take()
            return -self.unary()
        if self.peek() == ("op", "+"):
            self.take()
            return self.unary()
        return self.power()

    def power(self):
        base = self.atom()
        if self.peek() in (("op", "^"), ("op", "**")):
            self.take()
            exponent = self.unary()  # right-associative, binds tighter than a leading minus
            if base.q is not None and exponent.q is not None and exponent.q.denominator == 1:
                return Num.exact(base.q ** exponent.q.numerator)
            return Num(mpmath.power(base.m, exponent.m))
        return base

    def atom(self):
        kind, value = self.peek()
        if kind == "num":
            self.take()
            return Num.exact(value)
        if kind == "op" and value == "(":
            self.take()
            inner = self.expr()
            self.take("op", ")")
            return inner
        if kind == "name":
            self.take()
            if value in FUNCS:
                self.take("op", "(")
                arg = self.expr()
                self.take("op", ")")
                return _apply(value, arg)
            if value in ("e", "E"):
                return Num(mpmath.e)
            if value == "pi":
                return Num(mpmath.pi)
        raise ValueError(f"unexpected {value!r}")


def entry(raw, allow_ninf=False) -> Num:
    if isinstance(raw, bool):
        raise ValueError("a boolean is not a number")
    if isinstance(raw, int):
        return Num.exact(raw)
    if isinstance(raw, Decimal):
        if not raw.is_finite():
            if allow_ninf and raw.is_infinite() and raw < 0:
                return MASKED
            raise ValueError("not finite")
        return Num.exact(Fraction(raw))
    text = str(raw).strip()
    if allow_ninf and text in ("-oo", "-inf"):
        return MASKED
    return _Parser(text).parse()


def matrix(raw, allow_ninf=False):
    if not isinstance(raw, list) or not raw or not all(isinstance(r, list) for r in raw):
        raise ValueError("a matrix is a list of rows")
    rows = [[entry(x, allow_ninf) for x in r] for r in raw]
    if len({len(r) for r in rows}) != 1:
        raise ValueError("rows of different lengths")
    return rows


def places_of(raw):
    """Half a unit in the last printed place of a TOML decimal entry (None for exact entries)."""
    if isinstance(raw, Decimal) and raw.is_finite():
        exponent = raw.as_tuple().exponent
        if exponent < 0:
            return Fraction(1, 2) * Fraction(10) ** exponent
    return None


# ----------------------------------------------------------------------------------------------
# Matrix arithmetic on Num


def matmul(a, b):
    if len(a[0]) != len(b):
        raise ValueError(f"shapes {len(a)}x{len(a[0])} and {len(b)}x{len(b[0])} do not multiply")
    out = []
    for row in a:
        new = []
        for j in range(len(b[0])):
            acc = Num.exact(0)
            for k, x in enumerate(row):
                acc = acc + x * b[k][j]
            new.append(acc)
        out.append(new)
    return out


def transpose(a):
    return [list(col) for col in zip(*a)]


def softmax_row(logits, policy: str, n_k: int, row_index: int):
    readable = [j for j, x in enumerate(logits) if not x.is_ninf]
    if not readable:
        if policy == "zero":
            return [Num.exact(0)] * n_k
        if policy == "uniform":
            return [Num.exact(Fraction(1, n_k))] * n_k
        raise ValueError(f"query row {row_index + 1} may read no key (fully_masked = \"error\")")
    out = [Num.exact(0)] * n_k
    if len(readable) == 1:
        out[readable[0]] = Num.exact(1)
        return out
    values = [logits[j] for j in readable]
    if all(v.q is not None for v in values) and len({v.q for v in values}) == 1:
        for j in readable:
            out[j] = Num.exact(Fraction(1, len(readable)))
        return out
    top = max(v.m for v in values)
    exps = {j: mpmath.exp(logits[j].m - top) for j in readable}
    total = mpmath.fsum(exps.values())
    for j in readable:
        out[j] = Num(exps[j] / total)
    return out


def attention_options(shared: dict, own: dict | None) -> dict:
    options = dict(shared)
    options.update(own or {})
    return options


def single_head(Q, K, V, options: dict):
    n_q, n_k, d_k = len(Q), len(K), len(Q[0])
    if len(K[0]) != d_k:
        raise ValueError("Q and K have different d_k")
    if len(V) != n_k:
        raise ValueError("K and V have different n_k")
    scale = options.get("scale", "auto")
    if scale == "auto":
        s = _apply("sqrt", Num.exact(d_k))
        s = Num.exact(1) / s
    elif scale == "none":
        s = Num.exact(1)
    else:
        s = entry(scale)
    tau = entry(options.get("temperature", 1))
    if tau.m <= 0:
        raise ValueError("temperature must be positive")
    R = matmul(Q, transpose(K))
    S = [[s * x for x in row] for row in R]
    readable = [[True] * n_k for _ in range(n_q)]
    mask = options.get("mask", "none")
    for i in range(n_q):
        for j in range(n_k):
            if mask == "causal" and j > i:
                readable[i][j] = False
            elif mask == "causal-bottom-right" and j > i + n_k - n_q:
                readable[i][j] = False
            elif mask not in ("none", "causal", "causal-bottom-right"):
                raise ValueError(f"unknown mask {mask!r}")
    if "key_lengths" in options:
        for i, length in enumerate(options["key_lengths"]):
            for j in range(length, n_k):
                readable[i][j] = False
    for name, hidden in (("keep", False), ("masked", True)):  # masked: true = may not read
        if name in options:
            rows = options[name]
            while len(rows) == 1 and isinstance(rows[0], list) and isinstance(rows[0][0], list):
                rows = rows[0]  # a batch of one, as [[[...]]]
            for i, row in enumerate(rows):
                for j, flag in enumerate(row):
                    readable[i][j] = readable[i][j] and bool(flag) != hidden
    bias = matrix(options["bias"], allow_ninf=True) if "bias" in options else None
    # mask_bias (the courses' -1e9): a masked key gets that finite number added, not -inf
    fill = entry(options["mask_bias"]) if "mask_bias" in options else None
    M = []
    for i in range(n_q):
        row = []
        for j in range(n_k):
            b = bias[i][j] if bias else Num.exact(0)
            if b.is_ninf or readable[i][j]:
                row.append(b if readable[i][j] and not b.is_ninf else MASKED)
            else:
                row.append(MASKED if fill is None else b + fill)
        M.append(row)
    L, SM, RM = [], [], []
    for i in range(n_q):
        L.append([MASKED if M[i][j].is_ninf else (S[i][j] + M[i][j]) / tau for j in range(n_k)])
        SM.append([MASKED if M[i][j].is_ninf else S[i][j] + M[i][j] for j in range(n_k)])
        RM.append([MASKED if M[i][j].is_ninf else R[i][j] + M[i][j] for j in range(n_k)])
    policy = options.get("fully_masked", "error")
    A = [softmax_row(L[i], policy, n_k, i) for i in range(n_q)]
    O = matmul(A, V)
    keep = [[Num.exact(1 if readable[i][j] else 0) for j in range(n_k)] for i in range(n_q)]
    return {"Q": Q, "K": K, "V": V, "R": R, "S": S, "M": M, "L": L, "A": A, "O": O,
            "SM": SM, "RM": RM, "keep": keep, "_s": s, "_tau": tau, "_d_k": d_k}


def vector(raw):
    """A bias: a list of entries, or a 1 x d or d x 1 matrix; None when absent."""
    if raw is None:
        return None
    if all(isinstance(x, list) for x in raw):
        return [x for row in matrix(raw) for x in row]
    return [entry(x) for x in raw]


def plus_rows(product, bias):
    """product + 1 bias^T: the bias added to every row (the row layout's X W + 1 b^T)."""
    if bias is None:
        return product
    return [[x + b for x, b in zip(row, bias)] for row in product]


def plus_columns(product, bias):
    """product + bias 1^T: the bias added to every column (the book's Omega X + beta 1^T)."""
    if bias is None:
        return product
    return [[x + bias[i] for x in row] for i, row in enumerate(product)]


def book_head(inp: dict, options: dict, get) -> dict:
    """The book's own arithmetic (Prince, UDL section 12.2): X is D x N, Q = W_Q X + b_Q 1^T
    (likewise K, V from Y when given), R = K^T Q with one row per key and one column per query,
    M and L likewise (keep and bias given so), softmax down each column, O = V A."""
    X = get("X")
    Y = get("Y") or X
    Q = plus_columns(matmul(get("W_Q"), X), vector(inp.get("b_Q")))
    K = plus_columns(matmul(get("W_K"), Y), vector(inp.get("b_K")))
    V = plus_columns(matmul(get("W_V"), Y), vector(inp.get("b_V")))
    n_q, n_k, d_k = len(Q[0]), len(K[0]), len(Q)
    scale = options.get("scale", "auto")
    s = Num.exact(1) / _apply("sqrt", Num.exact(d_k)) if scale == "auto" else \
        Num.exact(1) if scale == "none" else entry(scale)
    tau = entry(options.get("temperature", 1))
    R = matmul(transpose(K), Q)
    S = [[s * x for x in row] for row in R]
    mask = options.get("mask", "none")
    readable = [[mask == "none" or (mask == "causal" and j <= i) or
                 (mask == "causal-bottom-right" and j <= i + n_k - n_q) for i in range(n_q)]
                for j in range(n_k)]
    for i, length in enumerate(options.get("key_lengths", [])):
        for j in range(length, n_k):
            readable[j][i] = False
    for j, row in enumerate(options.get("keep", [])):
        for i, flag in enumerate(row):
            readable[j][i] = readable[j][i] and bool(flag)
    bias = matrix(options["bias"], allow_ninf=True) if "bias" in options else None
    M = [[(bias[j][i] if bias else Num.exact(0)) if readable[j][i] else MASKED
          for i in range(n_q)] for j in range(n_k)]
    L = [[MASKED if M[j][i].is_ninf else (S[j][i] + M[j][i]) / tau for i in range(n_q)]
         for j in range(n_k)]
    policy = options.get("fully_masked", "error")
    A = transpose([softmax_row(column, policy, n_k, i) for i, column in enumerate(transpose(L))])
    O = matmul(V, A)
    return {"Q": Q, "K": K, "V": V, "R": R, "S": S, "M": M, "L": L, "A": A, "O": O,
            "_s": s, "_tau": tau, "_d_k": d_k, "_columns": True}


def nested_shape(tree) -> list[int]:
    """The shape of a regular nested list ([] for a single entry)."""
    if not isinstance(tree, list):
        return []
    shapes = {tuple(nested_shape(x)) for x in tree}
    if len(shapes) != 1:
        raise ValueError("an irregular nested list")
    return [len(tree), *shapes.pop()]


def picked_matrix(raw):
    """(rows, batch axes) of an input: a list of rows as written, or {value = nested list,
    index = [i, ...]}, the matrix value[i][...] of a batch (counted from 0), whose batch axes are
    the value's shape but its last two; axes of size 1 left over are dropped."""
    if not isinstance(raw, dict):
        return raw, []
    value, index = raw["value"], raw.get("index", [])
    shape = nested_shape(value)
    for axis, i in enumerate(index):
        if not 0 <= i < shape[axis]:
            raise ValueError(f"index {index} does not fit shape {shape}")
        value = value[i]
    rest = shape[len(index):]
    while len(rest) > 2 and 1 in rest[:-2]:
        value, rest = value[0], rest[1:]  # a leading axis of size 1
    if len(rest) != 2:
        raise ValueError(f"index {index} of shape {shape} leaves {len(rest)} axes, not 2")
    return value, shape[:-2]


def split_heads(inp: dict) -> list[dict]:
    """[input] num_heads = h with whole W_Q, W_K, W_V (and biases): head k takes the k-th block
    of d/h columns of each, as nn.MultiheadAttention's view(..., h, d/h) splits them."""
    h = inp["num_heads"]
    heads = [{} for _ in range(h)]
    for name in ("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V"):
        if name not in inp:
            continue
        rows = inp[name] if name.startswith("W") or isinstance(inp[name][0], list) else [inp[name]]
        width = len(rows[0])
        if width % h:
            raise ValueError(f"{name} has {width} columns, not a multiple of num_heads = {h}")
        size = width // h
        for k, head in enumerate(heads):
            block = [row[k * size:(k + 1) * size] for row in rows]
            head[name] = block if name.startswith("W") else block[0]
    return heads


def unbatched(problem: dict) -> tuple[dict, list[int]]:
    """The problem with every input given as {value, index} replaced by the matrix it picks,
    num_heads written out as [[heads]], and the batch axes the picked inputs share."""
    inp = dict(problem["input"])
    batches = set()
    for name, raw in list(inp.items()):
        if isinstance(raw, dict):
            inp[name], batch = picked_matrix(raw)
            batches.add(tuple(batch))
    if len(batches) > 1:
        raise ValueError(f"the inputs' batch axes differ: {sorted(batches)}")
    out = dict(problem, input=inp)
    if "num_heads" in inp:
        if "heads" in problem:
            raise ValueError("num_heads and [[heads]] together")
        out["heads"] = split_heads(inp)
        for name in ("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V", "num_heads"):
            inp.pop(name, None)
    return out, list(batches.pop()) if batches else []


def solve(problem: dict, perturb: dict | None = None) -> dict:
    """Every stage of the problem; `perturb` maps (matrix name, i, j) -> added mpf (sensitivity)."""
    problem, batch = unbatched(problem)
    stages = solve_one(problem, perturb)
    stages["_batch"] = batch
    return stages


def solve_one(problem: dict, perturb: dict | None = None) -> dict:
    """Every stage of a problem whose inputs are plain matrices."""
    inp = problem["input"]
    shared = problem.get("attention", {})

    def get(name):
        if name not in inp:
            return None
        rows = matrix(inp[name])
        if perturb:
            rows = [[Num(x.m + perturb[(name, i, j)]) if (name, i, j) in perturb else x
                     for j, x in enumerate(r)] for i, r in enumerate(rows)]
        return rows

    heads = problem.get("heads")
    if heads:
        X = get("X")
        Y = get("Y") or X
        outs, per_head = [], []
        for h, head in enumerate(heads):
            def hm(name, h=h, head=head):
                rows = matrix(head[name])
                if perturb:
                    rows = [[Num(x.m + perturb[(f"heads.{h}.{name}", i, j)])
                             if (f"heads.{h}.{name}", i, j) in perturb else x
                             for j, x in enumerate(r)] for i, r in enumerate(rows)]
                return rows
            result = single_head(plus_rows(matmul(X, hm("W_Q")), vector(head.get("b_Q"))),
                                 plus_rows(matmul(Y, hm("W_K")), vector(head.get("b_K"))),
                                 plus_rows(matmul(Y, hm("W_V")), vector(head.get("b_V"))),
                                 attention_options(shared, head.get("attention")))
            per_head.append(result)
            outs.append(result["O"])
        concat = [sum((o[i] for o in outs), []) for i in range(len(X))]
        final = plus_rows(matmul(concat, get("W_O")), vector(inp.get("b_O")))
        return {"heads": per_head, "concat": concat, "O": final, "_multihead": True}
    given = [name for name in ("R", "S", "L") if name in inp]
    if given:
        return given_scores(given[0], get(given[0]) if given[0] != "L" else
                            matrix(inp["L"], allow_ninf=True), get("V"), inp, shared)
    if "X" in inp and inp.get("layout") == "columns":
        return book_head(inp, shared, get)
    if "X" in inp:
        X = get("X")
        Y = get("Y") or X
        Q, K, V = (plus_rows(matmul(source, get(f"W_{n}")), vector(inp.get(f"b_{n}")))
                   for n, source in (("Q", X), ("K", Y), ("V", Y)))
    else:
        Q, K, V = get("Q"), get("K"), get("V")
    return single_head(Q, K, V, shared)


def given_scores(start: str, scores, V, inp: dict, shared: dict) -> dict:
    """A problem that starts from printed scores ([input] R with d_k, S or L, with V), as
    symattn's parse/scores.py describes it: the scores are carried as Q = scores and K = I (so
    R = Q K^T is the scores themselves); the scale is 1/sqrt(d_k) for R (or [attention] scale),
    1 for S and L; for L the temperature is 1 and a -inf entry is a masked one."""
    n_k = len(scores[0])
    options = dict(shared)
    if start == "R":
        if "scale" not in options:
            options["scale"] = f"1/sqrt({inp['d_k']})"
    else:
        for option in ("scale",) + (("temperature",) if start == "L" else ()):
            if option in options:
                raise ValueError(f"the given {start} already holds the {option}")
        options["scale"] = "none"
    if start == "L":
        keep = [[not x.is_ninf for x in row] for row in scores]
        if any(not k for row in keep for k in row):
            old = options.get("keep")
            options["keep"] = [[k and (old[i][j] if old else True) for j, k in enumerate(row)]
                               for i, row in enumerate(keep)]
        scores = [[Num.exact(0) if x.is_ninf else x for x in row] for row in scores]
    identity = [[Num.exact(1 if i == j else 0) for j in range(n_k)] for i in range(n_k)]
    result = single_head(scores, identity, V, options)
    if "d_k" in inp:  # R: the scale's d_k; S, L: the book's, already in them (s = 1/sqrt(d_k))
        result["_d_k"] = inp["d_k"]
        if start != "R":
            result["_s"] = Num.exact(1) / _apply("sqrt", Num.exact(inp["d_k"]))
    return result


# ----------------------------------------------------------------------------------------------
# Reading published text and judging it


def fmt(x: Num) -> str:
    if x.is_ninf:
        return "-inf"
    if x.q is not None and x.q.denominator == 1:
        return str(x.q.numerator)
    return mpmath.nstr(x.m, OUT_DIGITS, strip_zeros=False, min_fixed=-6, max_fixed=8)


def exact_text(x: Num):
    if x.q is None:
        return None
    return str(x.q.numerator) if x.q.denominator == 1 else f"{x.q.numerator}/{x.q.denominator}"


_NOISE = [
    re.compile(r"dtype\s*=\s*[\w.]+"),
    re.compile(r"grad_fn\s*=\s*<[^>]*>"),
    re.compile(r"shape\s*=\s*\([^)]*\)"),
    re.compile(r"device\s*=\s*'[^']*'"),
    re.compile(r"requires_grad\s*=\s*\w+"),
]
_NUMBER = re.compile(r"(?<![\w.])([-+−]?)(inf\b|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)(%?)")


def _percent(body: str) -> str:
    """'53%' -> '0.53', '0.5%' -> '0.005': a percentage as the decimal it stands for."""
    value = Decimal(body).scaleb(-2)
    places = (len(body.split(".")[1]) if "." in body else 0) + 2
    return f"{value:.{places}f}"


def read_numbers(text: str) -> list[str]:
    """The numbers of a printout in reading order ('-inf' kept; '53%' read as 0.53)."""
    for noise in _NOISE:
        text = noise.sub(" ", text)
    return [(sign.replace("−", "-") + (_percent(body) if pct else body))
            for sign, body, pct in _NUMBER.findall(text)]


def rounded_candidates(v, places: int):
    """The exact value correctly rounded to `places` decimals (two candidates at a tie)."""
    scaled = v * mpf(10) ** places
    low = mpmath.floor(scaled)
    frac = scaled - low
    if abs(frac - mpf("0.5")) < TIE_TOL:
        cands = [low, low + 1]
    else:
        cands = [low + 1 if frac > mpf("0.5") else low]
    return [Decimal(int(c)).scaleb(-places) for c in cands]


def sigfig_candidates(v, figures: int):
    if v == 0:
        return [Decimal(0)]
    exponent = int(mpmath.floor(mpmath.log10(abs(v))))
    if abs(v) >= mpf(10) ** (exponent + 1):
        exponent += 1
    if abs(v) < mpf(10) ** exponent:
        exponent -= 1
    return rounded_candidates(v, figures - 1 - exponent)


def mantissa_digits(body: str) -> str:
    """The significant digits of an e-notation mantissa ('' for 0.0000e+00)."""
    return body.lower().split("e")[0].replace(".", "").lstrip("0")


def judge_token(token: str, x: Num, tolerance: Decimal | None = None) -> dict:
    result = {"given": token, "expected": fmt(x)}
    if (ex := exact_text(x)) is not None:
        result["exact"] = ex
    body = token.lstrip("+-")
    if body == "inf":
        ok = x.is_ninf and token.startswith("-")
        result.update(rule="infinity: only a masked entry is -inf", ok=ok)
        return result
    if x.is_ninf:
        result.update(rule="the entry is masked (-inf); a finite number cannot match", ok=False,
                      error="inf")
        return result
    given = Decimal(token)
    v = x.m
    if tolerance is not None and ("." in body or "e" in body.lower()):
        # [grading] tolerance = t in the answers file: |given - exact| <= t (np.allclose-like)
        ok = abs(mpf(str(given)) - v) <= mpf(str(tolerance))
        result.update(rule=f"within +-{tolerance} of the exact value", ok=bool(ok))
    elif "e" in body.lower() and x.q != 0 and not mantissa_digits(body):
        # 0.0000000e+00 (a float32 zero, as TensorFlow prints it) has no significant figure:
        # it is a decimal to its places, 7 here, as symattn reads it
        places = len(body.lower().split("e")[0].partition(".")[2]) - int(body.lower().split("e")[1])
        cands = rounded_candidates(v, places)
        result.update(rule=f"e-notation zero: a decimal with {places} places",
                      rounded=" or ".join(str(c) for c in cands), ok=any(given == c for c in cands))
    elif "e" in body.lower():
        mantissa = body.lower().split("e")[0]
        digits = mantissa.replace(".", "").lstrip("0") or "0"
        figures = len(digits)
        cands = sigfig_candidates(v, figures)
        ok = any(given == c for c in cands)
        result.update(rule=f"e-notation: {figures} significant figures",
                      rounded=" or ".join(str(c) for c in cands), ok=ok)
    elif "." in body:
        places = len(body.split(".")[1])
        cands = rounded_candidates(v, places)
        ok = any(given == c for c in cands)
        rule = f"decimal with {places} place{'s' if places != 1 else ''}: correctly rounded"
        if len(cands) == 2:
            rule += " (exact value halfway: either rounding accepted)"
        result.update(rule=rule, rounded=" or ".join(str(c) for c in cands), ok=ok)
    else:
        if x.q is not None:
            ok = Fraction(given) == x.q
            result.update(rule="exact form: must equal the exact value", ok=ok)
        elif abs(mpf(str(given)) - v) > EQ_TOL:
            result.update(rule="exact form: must equal the exact value", ok=False)
        else:
            result.update(rule="exact form: agrees to 40 digits, equality not proved here",
                          ok=None)
    if result["ok"] is False:
        result["error"] = mpmath.nstr(abs(mpf(str(given)) - v), 6)
    return result


_KEY = re.compile(r"^(?:head\[(?P<head>\d+)\]\.)?(?P<stage>[QKVRSMLAO]|SM|RM|concat|keep)"
                  r"(?:\[(?P<row>\d+|:)(?:,(?P<col>\d+|:))?\])?$")
_SHAPE = re.compile(r"^shape\((?P<stage>[QKVRSMLAO])\)$")


def addressed(key: str, stages: dict):
    """The entries a key addresses, as rows of (label, Num)."""
    compact = key.replace(" ", "")
    match = _KEY.match(compact)
    if not match:
        raise ValueError(f"unknown key {key!r}")
    name = match["stage"]
    if match["head"] is not None:
        source = stages["heads"][int(match["head"]) - 1]
    elif stages.get("_multihead") and name in "QKVRSMLA":
        raise ValueError(f"{key}: a multi-head problem's stage keys address its output only")
    else:
        source = stages
    mat = source[name]
    row, col = match["row"], match["col"]
    label = (f"head[{match['head']}]." if match["head"] else "") + name
    if row is None:
        return [[(f"{label}[{i + 1},{j + 1}]", x) for j, x in enumerate(r)] for i, r in enumerate(mat)]
    if row == ":":
        c = int(col) - 1
        return [[(f"{label}[{i + 1},{c + 1}]", r[c]) for i, r in enumerate(mat)]]
    i = int(row) - 1
    if col is None or col == ":":
        return [[(f"{label}[{i + 1},{j + 1}]", x) for j, x in enumerate(mat[i])]]
    j = int(col) - 1
    return [[(f"{label}[{i + 1},{j + 1}]", mat[i][j])]]


def bracket_shape(text: str) -> list[int]:
    """The shape a printout's brackets hold (PyTorch and NumPy print one [ per axis), read from
    the text with its noise (dtype=, grad_fn=, shape=) removed; tensor(...) and array(...) are
    parentheses, not axes."""
    for noise in _NOISE:
        text = noise.sub(" ", text)
    stack, root = [[]], None
    for token in re.finditer(r"\[|\]|" + _NUMBER.pattern, text):
        if token[0] == "[":
            stack.append([])
        elif token[0] == "]":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(0)
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ValueError("the printout's brackets do not hold one array")
    root = stack[0][0]
    return nested_shape(root)


def indexed(raw) -> tuple[str, list | None]:
    """(the text, the numbers it claims) of {value = "...", index = [i, ...]}: the matrix
    printout[i, ...] of a batched printout (counted from 0), found by the shape=(...) it states,
    or else by the shape its brackets hold (which a stated shape must equal)."""
    text = raw["value"]
    stated = re.search(r"shape\s*=\s*\(([\d,\s]*)\)", text)
    held = bracket_shape(text)
    shape = [int(x) for x in stated[1].split(",") if x.strip()] if stated else held
    if stated and math.prod(shape) != math.prod(held):
        raise ValueError(f"the printout states shape {shape} but its brackets hold {held}")
    numbers = read_numbers(text)
    if math.prod(shape) != len(numbers):
        raise ValueError(f"shape {shape} but {len(numbers)} numbers")
    size = math.prod(shape[len(raw["index"]):])
    offset = sum(i * math.prod(shape[axis + 1:]) for axis, i in enumerate(raw["index"]))
    return text, numbers[offset:offset + size]


def judge_claim(key: str, raw, stages: dict, sensitivity,
                tolerance: Decimal | None = None) -> dict:
    index = raw["index"] if isinstance(raw, dict) else None
    picked = indexed(raw) if isinstance(raw, dict) else None
    raw = picked[0] if picked else raw
    text = raw if isinstance(raw, str) else json.dumps(raw)
    claim = {"key": key, "given": text}
    if index is not None:
        claim["index"] = index
    if (m := _SHAPE.match(key.replace(" ", ""))):
        mat = stages[m["stage"]]
        dims = [int(t) for t in re.findall(r"\d+", text)]
        own = [len(mat), len(mat[0])]
        batch = stages.get("_batch", [])
        # with inputs picked from a batch, the batched stage (batch axes + own) is meant too
        shapes = [own] + ([batch + own] if batch else [])
        claim.update(expected=" or ".join("x".join(map(str, d)) for d in shapes),
                     verdict="correct" if dims in shapes else "wrong",
                     why="shape comparison" + (f" (the inputs' batch axes {batch} and the "
                                               "stage's own)" if batch else ""))
        return claim
    if key in ("d_k", "n_q", "n_k", "d_v", "tau", "s"):
        turned = stages.get("_columns", False)  # the book's A is n_k x n_q, V is d_v x n_k
        value = {"d_k": Num.exact(stages["_d_k"]),
                 "n_q": Num.exact(len(stages["A"][0] if turned else stages["A"])),
                 "n_k": Num.exact(len(stages["A"] if turned else stages["A"][0])),
                 "d_v": Num.exact(len(stages["V"] if turned else stages["V"][0])),
                 "tau": stages["_tau"], "s": stages["_s"]}[key]
        tokens = read_numbers(text)
        entries = [judge_token(tokens[0], value, tolerance)] if len(tokens) == 1 else []
        flat = [(key, value)]
    else:
        flat = [cell for row in addressed(key, stages) for cell in row]
        tokens = picked[1] if picked else read_numbers(text)
        entries = []
    if len(tokens) != len(flat):
        claim.update(verdict="invalid", expected=[fmt(x) for _, x in flat],
                     why=f"the text holds {len(tokens)} numbers, the key addresses {len(flat)} entries")
        return claim
    if not entries:
        entries = [judge_token(t, x, tolerance) for t, (_, x) in zip(tokens, flat)]
    for e, (label, _) in zip(entries, flat):
        e["entry"] = label
    claim["entries"] = entries
    wrong = [e for e in entries if e["ok"] is False]
    undecided = [e for e in entries if e["ok"] is None]
    rules = sorted({e["rule"] for e in entries})
    if wrong:
        claim["verdict"] = "wrong"
        worst = max(wrong, key=lambda e: mpf(e["error"]))
        parts = [f"{e['entry']}: given {e['given']}, exact {e['expected'][:12]}"
                 + (f" (rounds to {e['rounded']})" if "rounded" in e else "") for e in wrong[:6]]
        more = f" and {len(wrong) - 6} more" if len(wrong) > 6 else ""
        claim["why"] = (f"{len(wrong)} of {len(entries)} entries wrong; largest error "
                        f"{worst['error']} at {worst['entry']}. " + "; ".join(parts) + more)
        if sensitivity is not None:
            explained, unbounded = [], 0
            for e in wrong:
                bound = sensitivity(e["entry"])
                if bound is None:
                    unbounded += 1
                    continue
                unit = Fraction(0)
                body = e["given"].lstrip("+-")
                if "." in body and "e" not in body.lower():
                    unit = Fraction(1, 2) * Fraction(10) ** -len(body.split(".")[1])
                within = mpf(e["error"]) <= bound + mpf(unit.numerator) / unit.denominator
                e["input_rounding_bound"] = mpmath.nstr(bound, 6)
                e["explained_by_input_rounding"] = bool(within)
                explained.append(within)
            if explained and unbounded and all(explained):
                claim["why"] += (f" — every wrong finite entry is within what rounding of the printed "
                                 f"inputs can explain; {unbounded} masked entr"
                                 f"{'y is' if unbounded == 1 else 'ies are'} not a rounding matter")
            elif explained:
                claim["why"] += (" — every wrong entry is within what rounding of the printed inputs "
                                 "can explain" if all(explained) else
                                 " — not explained by rounding of the printed inputs"
                                 if not any(explained) else
                                 " — some (not all) wrong entries are within the input-rounding bound")
    notes = []
    if any(e["rule"].startswith("e-notation") for e in entries):
        notes.append("e-notation read as significant figures (the brief's rule); docs/answers.md "
                     "does not define e-notation and symattn's parser reads 6.3379e-02 as the exact "
                     "number 63379/1000000")
    if any(e["given"].endswith(".") for e in entries):
        notes.append("a NumPy/PyTorch trailing-dot number such as '0.' or '17.' is read as a decimal "
                     "with 0 places; the printing library meant the float is that value to its "
                     "print precision")
    if notes:
        claim["notes"] = notes
    if not wrong and undecided:
        claim["verdict"] = "undecided"
        claim["why"] = f"{len(undecided)} entries agree to 40 digits but are not proved equal"
    elif not wrong:
        claim["verdict"] = "correct"
        claim["why"] = f"all {len(entries)} entries fit: " + "; ".join(rules)
    return claim


# ----------------------------------------------------------------------------------------------
# Items


def stage_dump(stages: dict) -> dict:
    def dump(mat):
        return [[fmt(x) for x in r] for r in mat]

    if stages.get("_multihead"):
        return {"heads": [{k: dump(v) for k, v in h.items() if not k.startswith("_")
                           and k not in ("SM", "RM", "keep")} for h in stages["heads"]],
                "concat": dump(stages["concat"]), "O": dump(stages["O"])}
    out = {k: dump(stages[k]) for k in ("Q", "K", "V", "R", "S", "M", "L", "A", "O")}
    out["scale_s"] = fmt(stages["_s"])
    out["temperature"] = fmt(stages["_tau"])
    exact = {k: [[exact_text(x) for x in r] for r in stages[k]]
             for k in ("Q", "K", "V", "R", "S", "A", "O")
             if all(x.q is not None for r in stages[k] for x in r)}
    if exact:
        out["exact"] = exact
    return out


def make_sensitivity(problem: dict, rounded: list[str], base: dict):
    """entry label -> first-order bound of its change when the rounded inputs move by half a unit."""
    if not rounded:
        return None
    inp = problem["input"]
    cells = []
    for name in rounded:
        for i, r in enumerate(inp[name]):
            for j, raw in enumerate(r):
                half = places_of(raw)
                if half is not None:
                    cells.append(((name, i, j), mpf(half.numerator) / half.denominator))
    h = mpf(10) ** -20
    jac = {}
    for cell, _ in cells:
        plus, minus = solve(problem, {cell: h}), solve(problem, {cell: -h})
        jac[cell] = (plus, minus)
    cache = {}

    def bound(label: str):
        if label in cache:
            return cache[label]
        match = re.match(r"^(?:head\[(\d+)\]\.)?(\w+)\[(\d+),(\d+)\]$", label)
        if not match:
            return None
        head, stage, i, j = match[1], match[2], int(match[3]) - 1, int(match[4]) - 1

        def pick(st):
            src = st["heads"][int(head) - 1] if head else st
            return src[stage][i][j]

        if pick(base).is_ninf:
            return None
        total = mpf(0)
        for cell, half in cells:
            plus, minus = jac[cell]
            total += abs((pick(plus).m - pick(minus).m) / (2 * h)) * half
        cache[label] = total
        return total

    return bound


def plain(raw):
    """TOML values with Decimals turned into their text (for claims given as TOML arrays)."""
    if isinstance(raw, Decimal):
        return str(raw)
    if isinstance(raw, list):
        return [plain(x) for x in raw]
    return raw


def problem_files(folder: Path) -> list[Path]:
    """An item's problems: problem.toml, or several <name>.problem.toml (one per batch element
    or per class of a chapter), each with its own answers files and expected.json."""
    return sorted(folder.glob("problem.toml")) + sorted(folder.glob("*.problem.toml"))


def stem_of(problem_path: Path) -> str:
    """'' for problem.toml, 'batch0.' for batch0.problem.toml: the prefix of its other files."""
    return problem_path.name[:-len("problem.toml")]


def run_item(problem_path: Path, meta: dict) -> dict:
    folder, stem = problem_path.parent, stem_of(problem_path)
    problem = tomllib.loads(problem_path.read_text(encoding="utf-8"), parse_float=Decimal)
    stages = solve(problem)
    rounded = meta.get("rounded_inputs", [])
    sensitivity = make_sensitivity(problem, rounded, stages)
    claims = []
    for path in sorted(folder.glob(f"{stem}published*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"), parse_float=Decimal)
        table = data.get("answers", data.get("extra", {}))
        grading = data.get("grading", {})
        if set(grading) - {"tolerance"}:
            raise ValueError(f"{path.name}: only [grading] tolerance is recomputed here")
        tolerance = Decimal(str(grading["tolerance"])) if "tolerance" in grading else None
        for key, raw in table.items():
            raw = plain(raw)
            try:
                claim = judge_claim(key, raw, stages, sensitivity, tolerance)
            except (ValueError, KeyError, IndexError) as error:
                claim = {"key": key, "given": raw, "verdict": "invalid", "why": str(error)}
            claim["file"] = path.name
            claims.append(claim)
    summary = {}
    for c in claims:
        summary[c["verdict"]] = summary.get(c["verdict"], 0) + 1
    return {
        "item": folder.name,
        **({"problem": problem_path.name} if stem else {}),
        "title": problem.get("title", ""),
        "computed_with": "tests/corpus/independent.py: mpmath at 50 digits, Fractions where rational",
        "rounded_inputs": rounded,
        "stages": stage_dump(stages),
        "claims": claims,
        "summary": summary,
    }


def to_json(value, indent: int = 0) -> str:
    """JSON with one line per matrix row: lists of scalars stay on one line."""
    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {to_json(v, indent + 1)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(not isinstance(v, (list, dict)) for v in value):
            return json.dumps(value, ensure_ascii=False)
        return "[\n" + ",\n".join(inner + to_json(v, indent + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    wanted = [a for a in argv if not a.startswith("--")]
    manifest = tomllib.loads((HERE / "corpus.toml").read_text(encoding="utf-8"))
    metas = {m["dir"]: m for m in manifest["item"]}
    folders = sorted(p for p in HERE.iterdir() if p.is_dir() and problem_files(p))
    missing = set(metas) ^ {f.name for f in folders}
    if missing:
        print(f"corpus.toml and the folders disagree: {sorted(missing)}")
        return 1
    status = 0
    for folder, path in ((f, p) for f in folders for p in problem_files(f)):
        if wanted and folder.name not in wanted:
            continue
        result = run_item(path, metas[folder.name])
        text = to_json(result) + "\n"
        target = folder / f"{stem_of(path)}expected.json"
        line = (f"{folder.name}{'/' + path.name if stem_of(path) else ''}: "
                + ", ".join(f"{v} {k}" for k, v in sorted(result["summary"].items())))
        if check:
            same = target.exists() and target.read_text(encoding="utf-8") == text
            print(("ok   " if same else "DIFF ") + line)
            status |= 0 if same else 1
        else:
            target.write_text(text, encoding="utf-8")
            print(line)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
