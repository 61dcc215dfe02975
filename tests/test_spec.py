"""Problem files: the schema, and one-line errors naming the file, the key path and the column."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from symattn.cli import main
from symattn.errors import InputError, ProblemError
from symattn.parse.spec import ProblemReader, load_problem, parse_problem

R = sp.Rational
NEG_INF = sp.S.NegativeInfinity
QKV = "Q = [[1, 0], [0, 1]]\nK = [[1, 0], [0, 1]]\nV = [[1, 2], [3, 4]]\n"
BASE = "[input]\n" + QKV


def with_attention(body: str) -> str:
    return BASE + "[attention]\n" + body + "\n"


def problem(text: str):
    return parse_problem(text, source="p.toml")


# --- a valid schema -------------------------------------------------------------------------


FULL = """\
title = "Two tokens"
tokens = ["\u732b", "\u72d7"]
key_tokens = ["\u4e0a\u4e0b\u6587", "<pad>"]

[symbols]
x = "real"
t = "positive"

[input]
Q = [[1, "x"], [0.5, "ln(3)"]]
K = [[1, 0], [0, "sqrt(2)"]]
V = [[1, 2], [3, "t"]]

[attention]
mask = "causal"
keep = [[true, false], [true, true]]
key_lengths = [1, 2]
bias = [["ln(2)", "-oo"], [-inf, "1/2"]]
temperature = 0.85
scale = "none"
fully_masked = "zero"
"""


def test_full_schema():
    x, t = sp.Symbol("x", real=True), sp.Symbol("t", positive=True)
    p = problem(FULL)
    assert p.title == "Two tokens"
    assert p.tokens == ("\u732b", "\u72d7")
    assert p.key_tokens == ("\u4e0a\u4e0b\u6587", "<pad>")
    assert p.symbols == (x, t)
    assert p.Q == sp.Matrix([[1, x], [R(1, 2), sp.log(3)]])
    assert p.K == sp.Matrix([[1, 0], [0, sp.sqrt(2)]])
    assert p.V == sp.Matrix([[1, 2], [3, t]])
    assert p.mask == "causal"
    assert p.keep == ((True, False), (True, True))
    assert p.key_lengths == (1, 2)
    assert p.bias == sp.Matrix([[sp.log(2), NEG_INF], [NEG_INF, R(1, 2)]])
    assert p.temperature == R(17, 20)
    assert p.scale == 1
    assert p.fully_masked == "zero"
    assert p.source == "p.toml"


def test_defaults():
    p = problem(BASE)
    assert (p.mask, p.keep, p.key_lengths, p.bias) == ("none", None, None, None)
    assert (p.temperature, p.scale, p.fully_masked) == (1, None, "error")
    assert (p.title, p.tokens, p.key_tokens, p.symbols) == (None, None, None, ())


TEMPERATURES = [
    ("0.85", R(17, 20), "toml-float"),
    ('"0.85"', R(17, 20), "string"),
    ("1e-3", R(1, 1000), "toml-float-exponent"),
    ("1_000.5", R(2001, 2), "toml-float-underscore"),
    ("+0.5", R(1, 2), "toml-float-plus"),
    ("2", sp.Integer(2), "toml-integer"),
    ('"ln(3)"', sp.log(3), "expression"),
    ('"1/sqrt(2)"', sp.sqrt(2) / 2, "root"),
]


@pytest.mark.parametrize("literal, expected", [(l, v) for l, v, _ in TEMPERATURES],
                         ids=[i for *_, i in TEMPERATURES])
def test_temperature_is_exact(literal, expected):
    value = problem(with_attention(f"temperature = {literal}")).temperature
    assert value == expected
    assert not value.atoms(sp.Float)


def test_temperature_0_85_is_exactly_17_over_20():
    value = problem(with_attention("temperature = 0.85")).temperature
    assert isinstance(value, sp.Rational) and (value.p, value.q) == (17, 20)


@pytest.mark.parametrize("literal, expected", [
    ('"auto"', None), ('"none"', sp.Integer(1)), ('"1/sqrt(2)"', sp.sqrt(2) / 2),
    ("0.5", R(1, 2)), ("3", sp.Integer(3)),
], ids=["auto", "none", "expression", "toml-float", "toml-integer"])
def test_scale(literal, expected):
    assert problem(with_attention(f"scale = {literal}")).scale == expected


@pytest.mark.parametrize("kind", ["none", "causal", "causal-bottom-right"])
def test_mask_kinds(kind):
    assert problem(with_attention(f'mask = "{kind}"')).mask == kind


@pytest.mark.parametrize("policy", ["error", "zero", "uniform"])
def test_fully_masked_policies(policy):
    assert problem(with_attention(f'fully_masked = "{policy}"')).fully_masked == policy


@pytest.mark.parametrize("literal", ['"-oo"', '"-inf"', '"\u2212\u221e"', '" - oo "', "-inf",
                                     '"-Infinity"'],
                         ids=["minus-oo", "minus-inf-string", "unicode", "spaces", "toml-minus-inf",
                              "minus-Infinity"])
def test_bias_accepts_minus_infinity(literal):
    p = problem(with_attention(f"bias = [[0, {literal}], [1.5, 0]]"))
    assert p.bias == sp.Matrix([[0, NEG_INF], [R(3, 2), 0]])
    assert p.bias[0, 1] is NEG_INF


def test_entries_as_toml_numbers():
    p = problem("[input]\nQ = [[-3, 0xff, 1_000, 0.25, 2e2]]\nK = [[1, 1, 1, 1, 1]]\n"
                "V = [[1]]\n")
    assert p.Q == sp.Matrix([[-3, 255, 1000, R(1, 4), 200]])


def test_cjk_labels_are_kept_intact():
    p = problem('title = "\u6ce8\u610f\u529b"\ntokens = ["\u6a21\u578b", "\u6743\u91cd"]\n'
                + BASE)
    assert p.title == "\u6ce8\u610f\u529b"
    assert p.tokens == ("\u6a21\u578b", "\u6743\u91cd")


def test_inline_input_table():
    assert problem('input = {Q = [[1]], K = [[1]], V = [["2"]]}\n').V == sp.Matrix([[2]])


def test_byte_order_mark_is_accepted_in_text_and_file(tmp_path):
    assert problem("\ufeff" + BASE).Q == sp.eye(2)
    path = tmp_path / "p.toml"
    path.write_bytes(b"\xef\xbb\xbf" + BASE.encode())
    assert load_problem(path).Q == sp.eye(2)


def test_load_problem_reads_a_path_and_parse_problem_reads_text(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(FULL, encoding="utf-8")
    assert load_problem(path).source == str(path)
    assert load_problem(str(path)).temperature == R(17, 20)
    assert load_problem(str(path), source="shown.toml").source == "shown.toml"
    assert parse_problem(FULL).source == "<text>"
    assert parse_problem(FULL).tokens == ("\u732b", "\u72d7")


def test_a_path_with_an_equals_sign_is_a_path(tmp_path, monkeypatch):
    (tmp_path / "run=1").mkdir()
    (tmp_path / "run=1" / "problem.toml").write_text(FULL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert load_problem("run=1/problem.toml").source == "run=1/problem.toml"
    assert main(["solve", "run=1/problem.toml", "--format", "json"]) == 0
    with pytest.raises(InputError, match=r'^title = "x": cannot read file: No such file'):
        load_problem('title = "x"')  # TOML text is parse_problem's


def test_python_values_through_the_reader():
    p = ProblemReader("<api>").problem({"input": {"Q": [[Fraction(1, 3), sp.sqrt(2)]],
                                           "K": [[1, "ln(4)"]], "V": [[1]]}})
    assert p.Q == sp.Matrix([[R(1, 3), sp.sqrt(2)]])
    assert p.K == sp.Matrix([[1, 2 * sp.log(2)]])


# --- one-line errors ------------------------------------------------------------------------


def _q(row: str) -> str:
    return f"[input]\nQ = [{row}]\nK = [[1, 0], [0, 1]]\nV = [[1, 2], [3, 4]]\n"


ERRORS = [
    # unknown keys
    ("foo = 1\n" + BASE,
     "p.toml, foo: unknown key (expected one of answers, attention, derivation, gradient, grading, "
     "heads, input, key_tokens, page, sweep, symbols, title, "
     "title_zh, tokens)", InputError, "unknown-top-level-key"),
    (BASE + "W = [[1]]\n",
     "p.toml, input.W: unknown key (expected one of K, L, Q, R, S, V, W_K, W_O, W_Q, W_V, X, Y, "
     "b_K, b_O, b_Q, b_V, batch, d_k, heads, layout, num_heads)", InputError, "unknown-input-key"),
    (with_attention('masks = "causal"'),
     "p.toml, attention.masks: unknown key (expected one of bias, fully_masked, keep, "
     "key_lengths, mask, mask_bias, masked, scale, temperature)", InputError, "unknown-attention-key"),
    ('"a\\u202eb" = 1\n' + BASE,
     "p.toml, 'a\\u202eb': unknown key (expected one of answers, attention, derivation, gradient, "
     "grading, heads, input, key_tokens, page, sweep, symbols, "
     "title, title_zh, tokens)", InputError, "unknown-key-with-bidi-quoted"),
    # missing and mistyped tables
    ('title = "x"\n', "p.toml, input: missing table", InputError, "missing-input"),
    ("input = 1\n", "p.toml, input: must be a table, not an integer", InputError,
     "input-not-table"),
    ("attention = 1\n" + BASE, "p.toml, attention: must be a table, not an integer", InputError,
     "attention-not-table"),
    ("[input]\nK = [[1]]\nV = [[1]]\n", "p.toml, input.Q: missing (Q, K and V, X with W_Q, W_K and W_V, "
     "or scores R, S or L with V)",
     InputError, "missing-Q"),
    ("[input]\nQ = [[1]]\nV = [[1]]\n", "p.toml, input.K: missing (Q, K and V, X with W_Q, W_K and W_V, "
     "or scores R, S or L with V)",
     InputError, "missing-K"),
    ("[input]\nQ = [[1]]\nK = [[1]]\n", "p.toml, input.V: missing (Q, K and V, X with W_Q, W_K and W_V, "
     "or scores R, S or L with V)",
     InputError, "missing-V"),
    # shapes, with both shapes named
    (_q("[1, 0], [0]"), "p.toml, input.Q[2]: has 1 entries but row 1 has 2", InputError,
     "ragged-rows"),
    ("[input]\nQ = [[1, 0, 0]]\nK = [[1, 0], [0, 1]]\nV = [[1, 2], [3, 4]]\n",
     "p.toml, input.K: Q is 1x3 and K is 2x2: Q and K must have the same number of columns (d_k)",
     ProblemError, "Q-K-columns"),
    ("[input]\nQ = [[1, 0]]\nK = [[1, 0], [0, 1]]\nV = [[1, 2], [3, 4], [5, 6]]\n",
     "p.toml, input.V: K is 2x2 and V is 3x2: K and V must have the same number of rows (n_k)",
     ProblemError, "K-V-rows"),
    ("[input]\nQ = 1\nK = [[1]]\nV = [[1]]\n",
     "p.toml, input.Q: must be a non-empty list of rows, e.g. [[1, 0], [0, 1]]", InputError,
     "matrix-not-list"),
    ("[input]\nQ = []\nK = [[1]]\nV = [[1]]\n",
     "p.toml, input.Q: must be a non-empty list of rows, e.g. [[1, 0], [0, 1]]", InputError,
     "matrix-empty"),
    ("[input]\nQ = [1, 2]\nK = [[1]]\nV = [[1]]\n",
     "p.toml, input.Q[1]: each row must be a non-empty list, not an integer", InputError,
     "matrix-flat"),
    ("[input]\nQ = [[]]\nK = [[1]]\nV = [[1]]\n",
     "p.toml, input.Q[1]: each row must be a non-empty list, not a list", InputError,
     "row-empty"),
    (with_attention("keep = [[true, true, true], [true, true, true]]"),
     "p.toml, attention.keep: shape 2x3 does not match the scores, n_q x n_k = 2x2",
     ProblemError, "keep-shape"),
    (with_attention("bias = [[0, 1]]"),
     "p.toml, attention.bias: shape 1x2 does not match the scores, n_q x n_k = 2x2",
     ProblemError, "bias-shape"),
    (with_attention("bias = [[0, 1], [0]]"),
     "p.toml, attention.bias[2]: has 1 entries but row 1 has 2", InputError, "bias-ragged"),
    (with_attention("keep = [[1, 0], [1, 1]]"),
     "p.toml, attention.keep[1][1]: must be true or false", InputError, "keep-integers"),
    (with_attention("keep = [true, false]"),
     "p.toml, attention.keep[1]: each row must be a non-empty list, not a boolean", InputError,
     "keep-flat"),
    (with_attention("key_lengths = [1]"),
     "p.toml, attention.key_lengths: must be a list of 2 integers, one per query", InputError,
     "key-lengths-count"),
    (with_attention("key_lengths = [1, 3]"),
     "p.toml, attention.key_lengths[2]: must be an integer from 0 to 2", InputError,
     "key-lengths-too-long"),
    (with_attention("key_lengths = [-1, 1]"),
     "p.toml, attention.key_lengths[1]: must be an integer from 0 to 2", InputError,
     "key-lengths-negative"),
    (with_attention("key_lengths = [true, 1]"),
     "p.toml, attention.key_lengths[1]: must be an integer from 0 to 2", InputError,
     "key-lengths-bool"),
    # temperature and scale
    (with_attention("temperature = 0"), "p.toml, attention.temperature: must be positive; got 0",
     InputError, "temperature-0"),
    (with_attention("temperature = 0.0"),
     "p.toml, attention.temperature: must be positive; got 0", InputError, "temperature-0.0"),
    (with_attention("temperature = -1"),
     "p.toml, attention.temperature: must be positive; got -1", InputError, "temperature-minus-1"),
    (with_attention('temperature = "ln(1/2)"'),
     "p.toml, attention.temperature: must be positive; got -log(2)", InputError,
     "temperature-negative-log"),
    ("[symbols]\nx = \"real\"\n" + with_attention('temperature = "x"'),
     'p.toml, attention.temperature: must be known to be positive; got x (declare its symbols '
     '"positive")', InputError, "temperature-real-symbol"),
    (with_attention("temperature = inf"),
     "p.toml, attention.temperature, column 1: infinity is allowed only as a whole mask entry "
     "'-oo'", InputError, "temperature-inf"),
    (with_attention("temperature = nan"),
     "p.toml, attention.temperature, column 1: unknown name 'nan'", InputError,
     "temperature-nan"),
    (with_attention('temperature = "-oo"'),
     "p.toml, attention.temperature, column 2: infinity is allowed only as a whole mask entry "
     "'-oo'", InputError, "temperature-minus-oo"),
    (with_attention("temperature = true"),
     "p.toml, attention.temperature: expected a number or a string expression, not a boolean",
     InputError, "temperature-bool"),
    (with_attention("temperature = 1979-05-27"),
     "p.toml, attention.temperature: expected a number or a string expression, not a date",
     InputError, "temperature-date"),
    (with_attention('scale = "-1"'), "p.toml, attention.scale: must be positive; got -1",
     InputError, "scale-negative"),
    (with_attention("scale = [1]"),
     "p.toml, attention.scale: expected a number or a string expression, not a list",
     InputError, "scale-list"),
    (with_attention('mask = "future"'),
     "p.toml, attention.mask: must be one of 'none', 'causal', 'causal-bottom-right'",
     InputError, "mask-unknown"),
    (with_attention('mask = ["causal"]'),
     "p.toml, attention.mask: must be one of 'none', 'causal', 'causal-bottom-right'",
     InputError, "mask-list"),
    (with_attention("fully_masked = 1"),
     "p.toml, attention.fully_masked: must be one of 'error', 'zero', 'uniform'", InputError,
     "fully-masked-integer"),
    # entries: key path and column
    ("[input]\nQ = [[1, 0]]\nK = [[1, 0], [\"1 +\", 0]]\nV = [[1], [2]]\n",
     "p.toml, input.K[2][1], column 4: expected a number, name or '(' but found the end of the "
     "entry", InputError, "entry-K21"),
    ("[input]\nQ = [[1, 0]]\nK = [[1, 0], [0, \"2pi\"]]\nV = [[1], [2]]\n",
     "p.toml, input.K[2][2], column 2: implicit multiplication: write '2*pi'", InputError,
     "entry-implicit-multiplication"),
    (_q("[1, \"x\"], [0, 1]"), "p.toml, input.Q[1][2], column 1: unknown name 'x'", InputError,
     "entry-undeclared-symbol"),
    (_q("[1, \"-oo\"], [0, 1]"),
     "p.toml, input.Q[1][2], column 2: infinity is allowed only as a whole mask entry '-oo'",
     InputError, "entry-minus-oo-outside-mask"),
    (_q("[1, -inf], [0, 1]"),
     "p.toml, input.Q[1][2], column 2: infinity is allowed only as a whole mask entry '-oo'",
     InputError, "entry-toml-minus-inf"),
    (_q("[1, nan], [0, 1]"), "p.toml, input.Q[1][2], column 1: unknown name 'nan'", InputError,
     "entry-toml-nan"),
    (_q("[true, 0], [0, 1]"),
     "p.toml, input.Q[1][1]: expected a number or a string expression, not a boolean",
     InputError, "entry-bool"),
    (_q("[{a = 1}, 0], [0, 1]"),
     "p.toml, input.Q[1][1]: expected a number or a string expression, not a table",
     InputError, "entry-nested-table"),
    (_q("[[1], 0], [0, 1]"),
     "p.toml, input.Q[1][1]: expected a number or a string expression, not a list", InputError,
     "entry-list"),
    (_q("[1e400, 0], [0, 1]"),
     "p.toml, input.Q[1][1], column 1: decimal exponent beyond ±100", InputError,
     "entry-toml-float-overflow"),
    (_q("[\"__import__('os').system('ls')\", 0], [0, 1]"),
     "p.toml, input.Q[1][1], column 12: unexpected character \"'\"", InputError,
     "entry-code"),
    (with_attention('bias = [[0, "+oo"], [0, 0]]'),
     "p.toml, attention.bias[1][2], column 2: infinity is allowed only as a whole mask entry "
     "'-oo'", InputError, "bias-plus-oo"),
    (with_attention("bias = [[0, inf], [0, 0]]"),
     "p.toml, attention.bias[1][2], column 1: infinity is allowed only as a whole mask entry "
     "'-oo'", InputError, "bias-toml-inf"),
    # symbols
    ("[symbols]\nx = \"complex\"\n" + BASE, 'p.toml, symbols.x: must be "real" or "positive"',
     InputError, "symbol-kind-unknown"),
    ("[symbols]\nx = [\"real\"]\n" + BASE, 'p.toml, symbols.x: must be "real" or "positive"',
     InputError, "symbol-kind-list"),
    ("[symbols]\nx = 1\n" + BASE, 'p.toml, symbols.x: must be "real" or "positive"',
     InputError, "symbol-kind-integer"),
    ("symbols = 1\n" + BASE, "p.toml, symbols: must be a table, not an integer", InputError,
     "symbols-not-table"),
    ("[symbols]\n__x = \"real\"\n" + BASE,
     "p.toml, symbols.__x: a symbol name is letters, digits and '_', not starting with '_'",
     InputError, "symbol-name-underscore"),
    ("[symbols]\n2x = \"real\"\n" + BASE,
     "p.toml, symbols.2x: a symbol name is letters, digits and '_', not starting with '_'",
     InputError, "symbol-name-digit"),
    ("[symbols]\n\"x\u00e9\" = \"real\"\n" + BASE,
     "p.toml, symbols.x\u00e9: a symbol name is letters, digits and '_', not starting with '_'",
     InputError, "symbol-name-non-ascii"),
    ("[symbols]\n\"a\\nb\" = \"real\"\n" + BASE,
     "p.toml, symbols.'a\\nb': a symbol name is letters, digits and '_', not starting with '_'",
     InputError, "symbol-name-newline-quoted"),
    # labels
    ('title = 1\n' + BASE, "p.toml, title: must be a string, not an integer", InputError,
     "title-integer"),
    ('title = "a\\u202eb"\n' + BASE,
     "p.toml, title, column 2: U+202E (a control, format or unassigned character) is not "
     "allowed in a label", InputError, "title-bidi"),
    ('tokens = ["a", "b\\u0007"]\n' + BASE,
     "p.toml, tokens[2], column 2: U+0007 (a control, format or unassigned character) is not "
     "allowed in a label", InputError, "token-bell"),
    ('key_tokens = ["\\u200fa", "b"]\n' + BASE,
     "p.toml, key_tokens[1], column 1: U+200F (a control, format or unassigned character) is "
     "not allowed in a label", InputError, "key-token-rtl-mark"),
    ('tokens = ["a\\nb", "c"]\n' + BASE,
     "p.toml, tokens[1], column 2: U+000A (a control, format or unassigned character) is not "
     "allowed in a label", InputError, "token-newline"),
    ('tokens = ["a"]\n' + BASE, "p.toml, tokens: must be a list of 2 strings, one per row",
     InputError, "tokens-count"),
    ('tokens = "ab"\n' + BASE, "p.toml, tokens: must be a list of 2 strings, one per row",
     InputError, "tokens-not-list"),
    ('tokens = ["a", 1]\n' + BASE, "p.toml, tokens[2]: must be a string, not an integer",
     InputError, "token-integer"),
    ('key_tokens = ["a", "b", "c"]\n' + BASE,
     "p.toml, key_tokens: must be a list of 2 strings, one per row", InputError,
     "key-tokens-count"),
    # the TOML itself
    ("[input\n", "p.toml: TOML syntax: Expected ']' at the end of a table declaration "
     "(at line 1, column 7)", InputError, "toml-syntax"),
    ("[input]\nQ = [[1]]\nQ = [[2]]\n",
     "p.toml: TOML syntax: Cannot overwrite a value (at line 3, column 10)", InputError,
     "duplicate-key"),
    ("[input]\n[input]\n", "p.toml: TOML syntax: Cannot declare ('input',) twice "
     "(at line 2, column 7)", InputError, "duplicate-table"),
    ("[input]\nQ = [[1]]\x00\n", "p.toml: file contains a NUL character", InputError, "NUL"),
]


@pytest.mark.parametrize("text, message, kind", [(t, m, k) for t, m, k, _ in ERRORS],
                         ids=[i for *_, i in ERRORS])
def test_error_is_one_line_naming_file_key_and_column(text, message, kind):
    with pytest.raises(kind, match=f"^{re.escape(message)}$") as caught:
        problem(text)
    assert caught.value.source == "p.toml"
    assert "\n" not in str(caught.value)


def test_error_fields():
    with pytest.raises(InputError) as caught:
        problem("[input]\nQ = [[1, 0]]\nK = [[1, 0], [0, \"2pi\"]]\nV = [[1], [2]]\n")
    error = caught.value
    assert (error.source, error.key, error.column) == ("p.toml", "input.K[2][2]", 2)
    assert error.reason == "implicit multiplication: write '2*pi'"


def test_float_through_the_python_api_is_refused():
    with pytest.raises(InputError, match=r"^<api>, input\.Q\[1\]\[1\]: the float 0\.1 is "
                                         r"inexact; pass a string such as '0\.1' or a "
                                         r"Fraction$"):
        ProblemReader("<api>").problem({"input": {"Q": [[0.1]], "K": [[1]], "V": [[1]]}})


@pytest.mark.parametrize("name", ["e", "E", "pi", "oo", "inf", "infinity", "Infinity", "exp",
                                  "ln", "log", "sqrt", "sin", "cos", "tan"])
def test_reserved_symbol_names(name):
    with pytest.raises(InputError, match=rf"^p\.toml, symbols\.{name}: '{name}' is a reserved "
                                         r"name$"):
        problem(f'[symbols]\n{name} = "real"\n' + BASE)


def test_non_text_symbol_name_through_the_python_api():
    with pytest.raises(InputError, match=r"^<api>, symbols\.1: a symbol name is letters, "
                                         r"digits and '_', not starting with '_'$"):
        ProblemReader("<api>").problem({"symbols": {1: "real"}, "input": {"Q": [[1]], "K": [[1]],
                                                                   "V": [[1]]}})


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_endless_device_is_refused_unread():
    with pytest.raises(InputError, match=r"^/dev/zero: cannot read file: not a regular file "
                                         r"\(a character device\)$"):
        load_problem(Path("/dev/zero"))


def test_invalid_utf8_file(tmp_path):
    path = tmp_path / "p.toml"
    path.write_bytes(b"[input]\nQ = [[\"\xff\"]]\n")
    with pytest.raises(InputError, match=rf"^{re.escape(str(path))}: not UTF-8 text "
                                         r"\(bad byte at offset 15\)$"):
        load_problem(path)


def test_missing_file(tmp_path):
    path = tmp_path / "absent.toml"
    with pytest.raises(InputError, match=rf"^{re.escape(str(path))}: cannot read file: "
                                         r"No such file or directory$"):
        load_problem(path)


def test_code_in_a_problem_file_never_runs(tmp_path):
    canary = tmp_path / "CANARY"
    attempts = [f"__import__('os').system('touch {canary}')", f"open('{canary}','w')",
                f"__import__('pathlib').Path('{canary}').touch()", "lambda: 1"]
    for attempt in attempts:
        literal = f"'''{attempt}'''"  # a TOML literal string holds both quote kinds
        for text in (_q(f"[{literal}, 0], [0, 1]"),
                     with_attention(f"temperature = {literal}"),
                     with_attention(f"scale = {literal}"),
                     with_attention(f"bias = [[0, {literal}], [0, 0]]")):
            with pytest.raises(InputError, match=r"^p\.toml, (input|attention)\.[^:]*, "
                                                 r"column \d+: "):
                problem(text)
    assert not canary.exists()


# --- the command line -----------------------------------------------------------------------


def _solve(tmp_path, text: str, capsys, command: str = "solve") -> tuple[int, str, str]:
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    code = main([command, str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("text, message", [(t, m) for t, m, _, _ in ERRORS],
                         ids=[i for *_, i in ERRORS])
def test_cli_bad_file_exits_2_with_one_line(tmp_path, capsys, text, message):
    code, out, err = _solve(tmp_path, text, capsys)
    path = tmp_path / "p.toml"
    assert code == 2
    assert out == ""
    assert err == "error: " + message.replace("p.toml", str(path), 1) + "\n"
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["solve", "check"])
def test_cli_fully_masked_row_names_the_row(tmp_path, capsys, command):
    text = 'tokens = ["\u732b", "\u72d7"]\n' + with_attention(
        "keep = [[true, true], [false, false]]")
    code, out, err = _solve(tmp_path, text, capsys, command)
    assert code == 2
    assert out == ""
    assert err == (f"error: {tmp_path / 'p.toml'}, attention: query row 2 (\u72d7) may read no "
                   'key, so its softmax is 0/0; set attention.fully_masked = "zero" or "uniform" '
                   "to choose a policy\n")


def test_cli_fully_masked_row_without_labels(tmp_path, capsys):
    code, _, err = _solve(tmp_path, with_attention("keep = [[false, false], [true, true]]"),
                          capsys)
    assert code == 2
    assert re.fullmatch(r"error: .*p\.toml, attention: query row 1 may read no key, .*\n", err)


def test_cli_fully_masked_row_with_a_policy_is_solved(tmp_path, capsys):
    code, out, err = _solve(tmp_path, with_attention(
        'keep = [[false, false], [true, true]]\nfully_masked = "zero"'), capsys)
    assert (code, err) == (0, "")
    assert out


def test_cli_valid_file_exits_0(tmp_path, capsys):
    code, out, err = _solve(tmp_path, FULL.replace('fully_masked = "zero"', ""), capsys, "check")
    assert err == ""
    assert code == 0
    assert out


@pytest.mark.parametrize("data, message", [
    (b"[input]\nQ = [[\"\xff\"]]\n", "not UTF-8 text (bad byte at offset 15)"),
    (b"\x00", "file contains a NUL character"),
    (b"#" * 1_000_001, "file is 1000001 bytes (limit 1000000)"),
], ids=["invalid-utf8", "NUL", "too-large"])
def test_cli_unreadable_file_exits_2(tmp_path, capsys, data, message):
    path = tmp_path / "p.toml"
    path.write_bytes(data)
    assert main(["solve", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: {path}: {message}\n"


def test_cli_missing_file_and_usage_errors_exit_2(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "absent.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "No such file" in err
    assert main(["solve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
