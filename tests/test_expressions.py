"""The safe parser: user text -> exact SymPy values, or one InputError naming the column and why."""

from __future__ import annotations

import re

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.errors import InputError
from symattn.parse.expressions import parse_expression
from symattn.parse.primes import log_reduced
from symattn.parse.tokens import fold, tokenize

X = sp.Symbol("x", real=True)
T = sp.Symbol("t", positive=True)
THETA = sp.Symbol("theta", real=True)
SYMBOLS = {"x": X, "t": T, "theta": THETA}
R = sp.Rational
LN2, LN3, LN5 = sp.log(2), sp.log(3), sp.log(5)
# ln(2) minus its first 63 decimals: about 4.9e-64, so the 30-digit approximation cancels to 0.
LN2_63 = "0.693147180559945309417232121458176568075500134360255254120680009"


def parse(text: str, **options) -> sp.Expr:
    return parse_expression(text, symbols=SYMBOLS, **options)


ACCEPTED = [
    # integers, decimals (exact), fractions
    ("12", sp.Integer(12), "integer"),
    ("0", sp.Integer(0), "zero"),
    ("007", sp.Integer(7), "leading-zeros"),
    (".5", R(1, 2), "dot-five"),
    ("0.85", R(17, 20), "decimal-0.85"),
    ("2e-3", R(1, 500), "exponent-negative"),
    ("1E2", sp.Integer(100), "exponent-capital"),
    ("1.5e1", sp.Integer(15), "decimal-with-exponent"),
    ("1e+2", sp.Integer(100), "exponent-plus"),
    ("1.", sp.Integer(1), "trailing-dot"),
    ("0.1+0.2", R(3, 10), "no-float-error"),
    ("1/3", R(1, 3), "fraction"),
    ("6/4", R(3, 2), "fraction-reduced"),
    ("1/3+1/6", R(1, 2), "fraction-sum"),
    # precedence and associativity
    ("2^3^2", sp.Integer(512), "power-right-assoc"),
    ("2**3**2", sp.Integer(512), "starstar-right-assoc"),
    ("(2^3)^2", sp.Integer(64), "power-parenthesised"),
    ("-2^2", sp.Integer(-4), "unary-minus-below-power"),
    ("(-2)^2", sp.Integer(4), "negative-base"),
    ("2**-1", R(1, 2), "starstar-unary-exponent"),
    ("2^-2^2", R(1, 16), "unary-exponent-takes-power"),
    ("-2^-2", R(-1, 4), "minus-power-minus"),
    ("2^3^-1", 2 ** R(1, 3), "cube-root-by-tower"),
    ("1-2-3", sp.Integer(-4), "minus-left-assoc"),
    ("12/3/2", sp.Integer(2), "divide-left-assoc"),
    ("1+2*3", sp.Integer(7), "times-before-plus"),
    ("2*3^2", sp.Integer(18), "power-before-times"),
    ("--1", sp.Integer(1), "double-minus"),
    ("+-+1", sp.Integer(-1), "mixed-unary"),
    ("1\t+\t2", sp.Integer(3), "tabs"),
    # natural logs reduced to primes
    ("ln(12)", 2 * LN2 + LN3, "ln-12"),
    ("log(12)", 2 * LN2 + LN3, "log-is-natural"),
    ("ln(1)", sp.Integer(0), "ln-1"),
    ("ln(4/9)", 2 * LN2 - 2 * LN3, "ln-fraction"),
    ("ln(0.85)", sp.log(17) - 2 * LN2 - LN5, "ln-decimal"),
    ("ln(2^20)", 20 * LN2, "ln-power"),
    ("ln(sqrt(2))", LN2 / 2, "ln-root"),
    ("ln(e)", sp.Integer(1), "ln-e"),
    ("ln(e^2)", sp.Integer(2), "ln-e-squared"),
    ("ln(exp(3))", sp.Integer(3), "ln-exp"),
    ("ln((2^61-1)^3)", 3 * sp.log(2**61 - 1), "ln-power-of-large-prime"),
    # roots
    ("sqrt(8)", 2 * sp.sqrt(2), "sqrt-8"),
    ("\u221a2", sp.sqrt(2), "radical-sign"),
    ("\u221a(8)", 2 * sp.sqrt(2), "radical-parenthesised"),
    ("\u221a2^2", sp.Integer(2), "radical-binds-atom"),
    ("sqrt(0)", sp.Integer(0), "sqrt-0"),
    ("sqrt(1/4)", R(1, 2), "sqrt-fraction"),
    ("1/sqrt(2)", sp.sqrt(2) / 2, "inverse-sqrt"),
    ("0^(1/2)", sp.Integer(0), "zero-root"),
    # constants
    ("e", sp.E, "e"),
    ("E", sp.E, "E"),
    ("pi", sp.pi, "pi"),
    ("exp(1)", sp.E, "exp-1"),
    ("e^2", sp.exp(2), "e-power-is-exp"),
    # exp of logs collapses
    ("exp(2*ln(3))", sp.Integer(9), "exp-2ln3"),
    ("exp(-ln(4)+2*ln(2))", sp.Integer(1), "exp-cancels"),
    ("exp((20/17)*ln(2))", sp.Integer(2) ** R(20, 17), "exp-20/17-ln2"),
    ("exp(ln(2)/2)", sp.sqrt(2), "exp-half-ln2"),
    ("e^(ln(5))", sp.Integer(5), "e-power-ln"),
    ("exp(ln(2)*sqrt(2))", sp.Integer(2) ** sp.sqrt(2), "exp-irrational-coefficient"),
    # exact trigonometry
    ("sin(pi/6)", R(1, 2), "sin-pi/6"),
    ("cos(pi)", sp.Integer(-1), "cos-pi"),
    ("tan(pi/4)", sp.Integer(1), "tan-pi/4"),
    ("cos(pi/2)", sp.Integer(0), "cos-pi/2"),
    ("sin(pi/4)", sp.sqrt(2) / 2, "sin-pi/4"),
    ("tan(pi/3)", sp.sqrt(3), "tan-pi/3"),
    ("tan(pi/4+pi)", sp.Integer(1), "tan-periodic"),
    ("sin(1)", sp.sin(1), "sin-1-symbolic"),
    # exact zero that needs SymPy's proof (denested radical)
    ("sqrt(2)+sqrt(3)-sqrt(5+2*sqrt(6))", sp.Integer(0), "proved-zero-is-0"),
    # declared symbols
    ("x", X, "symbol-real"),
    ("2*x+1", 2 * X + 1, "symbol-linear"),
    ("x^2", X**2, "symbol-square"),
    ("x^-32", X**-32, "symbol-negative-power"),
    ("1/x", 1 / X, "symbol-reciprocal"),
    ("t^(1/2)", sp.sqrt(T), "positive-symbol-root"),
    ("ln(t)", sp.log(T), "positive-symbol-ln"),
    ("exp(x)", sp.exp(X), "symbol-exp"),
    ("2^x", 2**X, "symbol-exponent"),
    # Unicode folding
    ("2\u22123", sp.Integer(-1), "U+2212-minus"),
    ("5\u20132", sp.Integer(3), "en-dash-minus"),
    ("2\u00d73", sp.Integer(6), "times-sign"),
    ("2\u22c53", sp.Integer(6), "dot-operator"),
    ("2\u00b73", sp.Integer(6), "middle-dot"),
    ("2\u22173", sp.Integer(6), "asterisk-operator"),
    ("6\u00f74", R(3, 2), "division-sign"),
    ("\u03c0", sp.pi, "pi-letter"),
    ("\u03c0/2", sp.pi / 2, "pi-letter-over-2"),
    ("2*\u03b8", 2 * THETA, "theta-letter"),
    ("\uff11\uff12", sp.Integer(12), "full-width-digits"),
    ("\uff08\uff11\uff0b\uff12\uff09\uff0a\uff13", sp.Integer(9), "full-width-operators"),
    ("\uff11\uff0f\uff12", R(1, 2), "full-width-slash"),
    ("\uff12\uff3e\uff13", sp.Integer(8), "full-width-caret"),
    ("\uff12\uff45\uff0d\uff13", R(1, 500), "full-width-exponent"),
    ("\uff53\uff51\uff52\uff54\uff08\uff14\uff09", sp.Integer(2), "full-width-function"),
    ("2\u3000+\u30003", sp.Integer(5), "ideographic-spaces"),
    ("\u30002\u3000", sp.Integer(2), "ideographic-space-around"),
    ("1\u00a0+1", sp.Integer(2), "no-break-space"),
]


@pytest.mark.parametrize("text, expected", [(t, v) for t, v, _ in ACCEPTED],
                         ids=[i for _, _, i in ACCEPTED])
def test_accepted_text_gives_the_exact_value(text, expected):
    value = parse(text)
    assert isinstance(value, sp.Expr)
    assert value == expected


def test_decimals_are_exact_rationals_not_floats():
    value = parse("0.85")
    assert isinstance(value, sp.Rational)
    assert (value.p, value.q) == (17, 20)
    assert not parse("2e-3").atoms(sp.Float)


def test_ln12_is_reduced_structurally_to_prime_logs():
    value = parse("ln(12)")
    assert isinstance(value, sp.Add)
    assert set(value.args) == {2 * sp.log(2), sp.log(3)}
    assert log_reduced(sp.Integer(12)) == value


def test_log_reduced_keeps_a_large_prime_whole_and_splits_its_powers():
    prime = 2**89 - 1  # a Mersenne prime beyond trial division
    assert log_reduced(sp.Integer(prime)) == sp.log(prime)
    assert log_reduced(sp.Integer(prime) ** 2 * 6) == 2 * sp.log(prime) + LN2 + LN3


def test_tiny_nonzero_divisor_whose_approximation_cancels():
    # ln 2 - (its 63 decimals) is about 4.9e-64: exact and nonzero, though 30 digits see 0.
    difference = LN2 - sp.Rational(LN2_63.replace("0.", ""), 10**63)
    assert parse(f"1/(ln(2)-{LN2_63})") == 1 / difference
    assert parse(f"(ln(2)-{LN2_63})^(-1)") == 1 / difference
    assert parse(f"ln(ln(2)-{LN2_63})") == sp.log(difference)


def test_neg_infinity_only_as_a_whole_mask_entry():
    for text in ("-oo", "-inf", "\u2212\u221e", " - oo ", "-Infinity", "-infinity",
                 "\uff0d\uff4f\uff4f"):
        assert parse(text, allow_neg_infinity=True) is sp.S.NegativeInfinity
    with pytest.raises(InputError, match=r"^column 2: infinity is allowed only as a whole "
                                         r"mask entry '-oo'$"):
        parse("-oo")


REFUSED = [
    # unknown names and code
    ("foo", 1, "unknown name 'foo'", "unknown-name"),
    ("1 + y", 5, "unknown name 'y'", "undeclared-symbol"),
    ("nan", 1, "unknown name 'nan'", "nan"),
    ("NaN", 1, "unknown name 'NaN'", "NaN"),
    ("zoo", 1, "unknown name 'zoo'", "zoo"),
    ("I", 1, "unknown name 'I'", "imaginary-unit"),
    ("e1", 1, "unknown name 'e1'", "e1-is-a-name"),
    ("tau", 1, "unknown name 'tau'", "tau-undeclared"),
    ("__import__", 1, "unknown name '__import__'", "dunder-name"),
    ("__import__(1)", 1, "unknown name '__import__'", "dunder-call"),
    ("__import__('os').system('ls')", 12, "unexpected character \"'\"", "import-os"),
    ("().__class__.__bases__", 3, "unexpected character '.'", "dunder-chain"),
    ("x.__class__", 2, "unexpected character '.'", "attribute"),
    ("a.b", 2, "unexpected character '.'", "attribute-plain"),
    ("lambda: 1", 7, "unexpected character ':'", "lambda"),
    ("'a'", 1, "unexpected character \"'\"", "single-quotes"),
    ('"a"', 1, "unexpected character '\"'", "double-quotes"),
    ("1;2", 2, "unexpected character ';'", "semicolon"),
    ("[1]", 1, "unexpected character '['", "brackets"),
    ("{1}", 1, "unexpected character '{'", "braces"),
    ("x=1", 2, "unexpected character '='", "assignment"),
    ("1,2", 2, "unexpected character ','", "comma"),
    ("1 # c", 3, "unexpected character '#'", "comment"),
    ("2\\3", 2, "unexpected character '\\\\'", "backslash"),
    ("x(2)", 2, "unexpected '('", "symbol-call"),
    # implicit multiplication, with the suggested '*'
    ("2pi", 2, "implicit multiplication: write '2*pi'", "2pi"),
    ("2(3)", 2, "implicit multiplication: write '2*('", "2(3)"),
    ("(2)(3)", 4, "implicit multiplication: write ')*('", "(2)(3)"),
    ("2 3", 3, "implicit multiplication: write '2*3'", "space-separated"),
    ("pi e", 4, "implicit multiplication: write 'pi*e'", "constants"),
    ("2\u221a2", 2, "implicit multiplication: write '2*\u221a'", "number-radical"),
    ("2\u30003", 3, "implicit multiplication: write '2*3'", "ideographic-space-between"),
    ("ln 3", 4, "function 'ln' needs parentheses, e.g. 'ln(3)'", "ln-space"),
    ("sin pi", 5, "function 'sin' needs parentheses, e.g. 'sin(pi)'", "sin-space"),
    ("1.2.3", 4, "implicit multiplication: write '1.2*.3'", "two-dots"),
    ("1e", 2, "implicit multiplication: write '1*e'", "bare-exponent"),
    ("1_000", 2, "implicit multiplication: write '1*_000'", "underscore-digits"),
    ("0x10", 2, "implicit multiplication: write '0*x10'", "hex-literal"),
    ("1j", 2, "implicit multiplication: write '1*j'", "complex-literal"),
    # empty and unbalanced
    ("", 1, "empty expression", "empty"),
    ("   ", 4, "empty expression", "blank"),
    (".", 1, "unexpected character '.'", "lone-dot"),
    ("(1", 3, "expected ')' but found the end", "unclosed"),
    ("((1)", 5, "expected ')' but found the end", "unclosed-nested"),
    ("sqrt(4", 7, "expected ')' but found the end", "unclosed-call"),
    ("1)", 2, "unexpected ')'", "extra-close"),
    (")", 1, "expected a number, name or '(' but found ')'", "lone-close"),
    ("2^", 3, "expected a number, name or '(' but found the end of the entry", "dangling-power"),
    ("*2", 1, "expected a number, name or '(' but found '*'", "leading-times"),
    ("2***3", 4, "expected a number, name or '(' but found '*'", "triple-star"),
    ("sqrt()", 6, "expected a number, name or '(' but found ')'", "empty-call"),
    ("exp", 4, "expected '(' but found the end", "bare-function"),
    # division by zero, exact or proved
    ("1/0", 2, "division by zero", "one-over-zero"),
    ("1/(ln(4)-2*ln(2))", 2, "division by zero", "log-identity-zero"),
    ("1/(pi-pi)", 2, "division by zero", "pi-minus-pi"),
    ("1/cos(pi/2)", 2, "division by zero", "cos-pi/2"),
    ("1/(sqrt(2)*sqrt(3)-sqrt(6))", 2, "division by zero", "radical-identity"),
    ("1/(sqrt(2)+sqrt(3)-sqrt(5+2*sqrt(6)))", 2, "division by zero", "denested-zero"),
    ("x/0", 2, "division by zero", "symbol-over-zero"),
    ("1/(x-x)", 2, "division by zero", "symbol-cancels"),
    # zero a SymPy cannot prove: refused, never guessed from 30 digits
    ("1/(sin(1)^2+cos(1)^2-1)", 21, "cannot tell whether this sum is zero; simplify it",
     "pythagoras-divisor"),
    ("1/(exp(100)*(sin(pi/7)^2+cos(pi/7)^2-1))", 37,
     "cannot tell whether this sum is zero; simplify it", "scaled-pythagoras"),
    ("1/(tan(1)-sin(1)/cos(1))", 10, "cannot tell whether this sum is zero; simplify it",
     "tan-identity"),
    ("ln(sin(1)^2+cos(1)^2)", 1, "cannot tell whether this value is zero; simplify it",
     "ln-of-one-in-disguise"),
    ("sin(pi*sin(1)^2+pi*cos(1)^2)", 1, "cannot tell whether this value is zero; simplify it",
     "sin-of-pi-in-disguise"),
    ("tan(pi/2+sin(1)^2+cos(1)^2-1)", 1,
     "cannot tell whether the argument of tan is a multiple of pi/2", "tan-pole-in-disguise"),
    ("1/sin(pi+sin(1)^2+cos(1)^2-1)", 3,
     "cannot tell whether the argument of sin is a multiple of pi/2", "sin-zero-in-disguise"),
    # powers of zero, roots and logs of non-positive values
    ("0^0", 2, "zero raised to a non-positive power", "zero-to-zero"),
    ("0^-1", 2, "zero raised to a non-positive power", "zero-to-minus-one"),
    ("0**(-1/2)", 2, "zero raised to a non-positive power", "zero-to-minus-half"),
    ("sqrt(-1)", 1, "square root of a negative number is not real", "sqrt-minus-one"),
    ("\u221a(-4)", 1, "square root of a negative number is not real", "radical-negative"),
    ("sqrt(3-pi)", 1, "square root of a negative number is not real", "sqrt-negative-irrational"),
    ("sqrt(ln(1/2))", 1, "square root of a negative number is not real", "sqrt-negative-log"),
    ("sqrt(x)", 1, "a non-integer power needs a base known to be positive", "sqrt-real-symbol"),
    ("ln(-1)", 1, "ln of a negative number is not real", "ln-minus-one"),
    ("ln(3-pi)", 1, "ln of a negative number is not real", "ln-negative-irrational"),
    ("ln(ln(1/2))", 1, "ln of a negative number is not real", "ln-of-negative-log"),
    ("ln(0)", 1, "ln(0) is minus infinity; write '-oo' in a mask entry instead", "ln-zero"),
    ("3+log(1-1)", 3, "ln(0) is minus infinity", "log-zero-inside"),
    ("ln(x)", 1, "ln needs an argument known to be positive", "ln-real-symbol"),
    ("tan(pi/2)", 1, "tan is undefined here (cos is zero)", "tan-pi/2"),
    ("tan(-pi/2)", 1, "tan is undefined here (cos is zero)", "tan-minus-pi/2"),
    ("tan(3*pi/2)", 1, "tan is undefined here (cos is zero)", "tan-3pi/2"),
    # complex results
    ("(-8)^(1/3)", 5, "a negative number raised to a non-integer power is not real",
     "cube-root-of-negative"),
    ("(-1)^0.5", 5, "a negative number raised to a non-integer power is not real",
     "decimal-root-of-negative"),
    ("(-2)^pi", 5, "a negative number raised to a non-integer power is not real",
     "irrational-power-of-negative"),
    ("(-8)^(2/6)", 5, "a negative number raised to a non-integer power is not real",
     "reducible-root-of-negative"),
    # infinities outside mask entries
    ("oo", 1, "infinity is allowed only as a whole mask entry '-oo'", "oo"),
    ("inf", 1, "infinity is allowed only as a whole mask entry '-oo'", "inf"),
    ("Infinity", 1, "infinity is allowed only as a whole mask entry '-oo'", "Infinity"),
    ("\u221e", 1, "infinity is allowed only as a whole mask entry '-oo'", "infinity-sign"),
    ("-oo", 2, "infinity is allowed only as a whole mask entry '-oo'", "minus-oo-not-allowed"),
    ("-inf", 2, "infinity is allowed only as a whole mask entry '-oo'", "minus-inf-not-allowed"),
    ("\u2212\u221e", 2, "infinity is allowed only as a whole mask entry '-oo'",
     "unicode-minus-infinity"),
    ("1-oo", 3, "infinity is allowed only as a whole mask entry '-oo'", "oo-in-a-sum"),
    # control, bidi and other non-ASCII characters, named by code point
    ("\u202e1", 1, "character U+202E (a control or formatting character) is not allowed",
     "bidi-override"),
    ("1\u202e", 2, "character U+202E (a control or formatting character) is not allowed",
     "bidi-override-after"),
    ("\u200f1", 1, "character U+200F (a control or formatting character) is not allowed",
     "right-to-left-mark"),
    ("\x00", 1, "character U+0000 (a control or formatting character) is not allowed", "NUL"),
    ("1\n2", 2, "character U+000A (a control or formatting character) is not allowed",
     "newline"),
    ("\u200b1", 1, "character U+200B (a control or formatting character) is not allowed",
     "zero-width-space"),
    ("\ufeff1", 1, "character U+FEFF (a control or formatting character) is not allowed",
     "byte-order-mark"),
    ("\u00e9", 1, "character '\u00e9' (U+00E9) is not allowed", "e-acute"),
    ("\U0001f600", 1, "character '\U0001f600' (U+1F600) is not allowed", "emoji"),
    ("2\u00b2", 2, "character '\u00b2' (U+00B2) is not allowed", "superscript-two-not-22"),
    ("\u00bd", 1, "character '\u00bd' (U+00BD) is not allowed", "vulgar-half"),
    ("\u0663", 1, "character '\u0663' (U+0663) is not allowed", "arabic-indic-digit"),
    ("\U0001d7d0", 1, "character '\U0001d7d0' (U+1D7D0) is not allowed", "math-bold-digit"),
    ("\ufb01", 1, "character '\ufb01' (U+FB01) is not allowed", "fi-ligature"),
    ("\uff11\uff0b\uff59", 3, "unknown name 'y'", "full-width-keeps-columns"),
]


@pytest.mark.parametrize("text, column, reason", [(t, c, r) for t, c, r, _ in REFUSED],
                         ids=[i for *_, i in REFUSED])
def test_refused_text_names_the_column_and_why(text, column, reason):
    with pytest.raises(InputError) as caught:
        parse(text)
    error = caught.value
    assert error.column == column
    assert error.reason.startswith(reason)
    assert (error.source, error.key) == (None, None)  # the caller adds file and key
    assert str(error) == f"column {column}: {error.reason}"
    assert "\n" not in str(error)


def test_superscript_two_is_not_folded_into_twenty_two():
    # NFKC would turn 2² into 22; the parser must refuse instead.
    with pytest.raises(InputError, match=r"^column 2: character '²' \(U\+00B2\) is not allowed$"):
        parse("2\u00b2")


@pytest.mark.parametrize("text", ["oo", "+oo", "-oo+1", "(-oo)", "2*-oo", "--oo", "-ooo",
                                  "-nan"],
                         ids=["oo", "plus-oo", "sum", "parenthesised", "product", "double-minus",
                              "ooo", "minus-nan"])
def test_mask_entries_allow_only_a_whole_minus_infinity(text):
    with pytest.raises(InputError):
        parse(text, allow_neg_infinity=True)


def test_non_text_is_refused_without_a_column():
    with pytest.raises(InputError, match=r"^expected text, got int$") as caught:
        parse_expression(5)  # type: ignore[arg-type]
    assert caught.value.column is None


def test_fold_and_tokenize_keep_original_columns():
    assert fold("\u03c0") == [("p", 1), ("i", 1)]
    assert fold("1\u3000\u00d72") == [("1", 1), (" ", 2), ("*", 3), ("2", 4)]
    tokens = tokenize("\uff11\uff0b\u03c0")
    assert [(t.kind, t.text, t.column) for t in tokens] == [
        ("number", "1", 1), ("op", "+", 2), ("name", "pi", 3), ("end", "", 4)]


def test_symbols_are_only_the_declared_ones():
    assert parse_expression("x + 1", symbols={"x": X}) == X + 1
    with pytest.raises(InputError, match=r"^column 1: unknown name 'x'$"):
        parse_expression("x + 1")


CODE_ATTEMPTS = [
    "__import__('os').system('touch {canary}')",
    "open('{canary}','w').write('x')",
    "__import__('pathlib').Path('{canary}').touch()",
    "exec(\"open('{canary}','w')\")",
    "eval(\"__import__('os').system('touch {canary}')\")",
    "().__class__.__base__.__subclasses__()[0]('{canary}')",
    "(lambda: open('{canary}','w'))()",
    "compile('open(\"{canary}\",\"w\")','','exec')",
    "getattr(__builtins__,'open')('{canary}','w')",
]


@pytest.mark.parametrize("template", CODE_ATTEMPTS,
                         ids=["os-system", "open", "pathlib", "exec", "eval", "subclasses",
                              "lambda", "compile", "getattr"])
def test_code_is_refused_and_never_runs(tmp_path, template):
    canary = tmp_path / "CANARY"
    with pytest.raises(InputError):
        parse(template.format(canary=canary))
    with pytest.raises(InputError):
        parse(template.format(canary=canary), allow_neg_infinity=True)
    assert not canary.exists()


_ATOMS = st.sampled_from(["0", "1", "2", "7", "0.5", ".25", "1e-3", "17/20", "pi", "e", "x",
                          "t", "ln(2)", "sqrt(2)", "(1-1)", "10^50", "sin(1)^2", "-oo"])
_EXPRESSIONS = st.recursive(
    _ATOMS,
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["exp", "ln", "log", "sqrt", "sin", "cos", "tan", "-"]),
                  inner).map(lambda p: f"{p[0]}({p[1]})"),
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "^", "**"]), inner)
        .map(lambda p: f"({p[0]}{p[1]}{p[2]})"),
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(_EXPRESSIONS)
def test_grammar_fuzz_gives_a_finite_real_value_or_an_input_error(text):
    try:
        value = parse(text)
    except InputError as error:
        assert error.column is not None
        assert "\n" not in str(error)
        return
    assert isinstance(value, sp.Expr)
    assert value.is_finite is not False
    assert not value.has(sp.I, sp.nan, sp.zoo, sp.oo, -sp.oo)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_arbitrary_text_gives_a_value_or_an_input_error(text):
    try:
        value = parse(text, allow_neg_infinity=True)
    except InputError as error:
        assert "\n" not in str(error)
        return
    assert isinstance(value, sp.Expr)
    assert re.fullmatch(r"[\s0-9.eE+\-*/^()a-zA-Z_\u221a\u3000\u00a0\u2212\u2013\u00d7\u22c5"
                        r"\u00b7\u2217\u00f7\u03c0\u03b8\u03c4\u221e\uff01-\uff5e]*", text)
