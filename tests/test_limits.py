"""Every limit at its boundary (accepted) and one past it (refused), and the resource bombs.

The bombs are not timed as a performance goal: each runs in a thread joined with a generous
HANG_GUARD_SECONDS only so that a regression fails the test instead of hanging the suite.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

import pytest
import sympy as sp

from symattn import limits
from symattn.errors import InputError
from symattn.limits import MAX_FILE_BYTES, MAX_LABEL, MAX_SIDE
from symattn.parse.expressions import parse_expression, tokenize
from symattn.parse.labels import check_label
from symattn.parse.spec import load_problem, parse_problem

X = sp.Symbol("x", real=True)
HANG_GUARD_SECONDS = 5.0  # whole commands get 60 s: they load SymPy and run on busy CI machines
R = sp.Rational
# Primes just past 2**1023 and 2**1024: 1024 and 1025 bits, no small factor to split off.
PRIME_1024_BITS = "(2^1023+1155)"
PRIME_1025_BITS = "(2^1024+643)"


def parse(text: str) -> sp.Expr:
    return parse_expression(text, symbols={"x": X})


def refused(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse(text)
    return caught.value


def _tokens(n: int) -> str:
    """An entry of exactly n tokens: 1+1+...+1, with a leading unary '+' when n is even."""
    ones = "+".join(["1"] * ((n + 1) // 2))
    return ones if n % 2 else "+" + ones


def test_the_limits_are_the_documented_values():
    assert (limits.MAX_LENGTH, limits.MAX_TOKENS, limits.MAX_DEPTH, limits.MAX_DIGITS) == (1000, 300, 30, 100)
    assert (limits.MAX_DECIMAL_EXPONENT, limits.MAX_POWER_BITS, limits.MAX_SYMBOLIC_POWER) == (100, 4096, 32)
    assert (limits.MAX_ROOT_DENOMINATOR, limits.MAX_EXP_ARGUMENT, limits.MAX_TRIG_ARGUMENT) == (
        1000, 10_000, 10_000)
    assert (limits.MAX_EXP_NESTING, limits.MAX_ROOT_BITS) == (3, 1024)
    assert (MAX_FILE_BYTES, MAX_SIDE, MAX_LABEL) == (1_000_000, 512, 200)
    assert (limits.MAX_ANSWERS_BYTES, limits.MAX_SUBMISSIONS_BYTES) == (1_000_000, 50_000_000)


# --- expressions.py -----------------------------------------------------------------------


def test_max_length():
    assert parse("1" + " " * (limits.MAX_LENGTH - 1)) == 1
    error = refused("1" + " " * limits.MAX_LENGTH)
    assert str(error) == f"entry is {limits.MAX_LENGTH + 1} characters long (limit {limits.MAX_LENGTH})"
    assert error.column is None


def test_max_tokens():
    at, past = _tokens(limits.MAX_TOKENS), _tokens(limits.MAX_TOKENS + 1)
    assert len(tokenize(at)) == limits.MAX_TOKENS + 1  # plus the end token
    assert parse(at) == limits.MAX_TOKENS // 2
    error = refused(past)
    assert error.reason == f"too many tokens (limit {limits.MAX_TOKENS})"
    assert error.column == limits.MAX_TOKENS + 1


@pytest.mark.parametrize("opening, closing", [("(", ")"), ("sqrt(", ")"), ("-", "")],
                         ids=["parentheses", "functions", "unary-minus"])
def test_max_depth(opening, closing):
    depth = limits.MAX_DEPTH
    assert parse(opening * depth + "1" + closing * depth) == 1
    error = refused(opening * (depth + 1) + "1" + closing * (depth + 1))
    assert error.reason == f"nested too deeply (limit {depth})"


def test_max_digits():
    assert parse("9" * limits.MAX_DIGITS) == 10**limits.MAX_DIGITS - 1
    assert parse("0." + "0" * (limits.MAX_DIGITS - 2) + "1") == R(1, 10 ** (limits.MAX_DIGITS - 1))
    error = refused("9" * (limits.MAX_DIGITS + 1))
    assert (error.column, error.reason) == (1, f"number has more than {limits.MAX_DIGITS} digits")
    assert refused("0." + "0" * (limits.MAX_DIGITS - 1) + "1").column == 1


def test_max_decimal_exponent():
    n = limits.MAX_DECIMAL_EXPONENT
    assert parse(f"1e{n}") == 10**n
    assert parse(f"1e-{n}") == R(1, 10**n)
    for text in (f"1e{n + 1}", f"1e-{n + 1}", "1e99999"):
        error = refused(text)
        assert (error.column, error.reason) == (1, f"decimal exponent beyond ±{n}")


def test_max_power_bits():
    # 2 and 1/2 are 2-bit numbers: 2^2048 is the largest power of 2 allowed.
    n = limits.MAX_POWER_BITS // 2
    assert parse(f"2^{n}") == 2**n
    assert parse(f"(1/2)^{n}") == R(1, 2**n)
    assert parse(f"(1/2)^-{n}") == 2**n
    for text, column in ((f"2^{n + 1}", 2), (f"(1/2)^-{n + 1}", 6)):
        error = refused(text)
        assert error.column == column
        assert error.reason == (f"power too large (about {2 * (n + 1)} bits; "
                                f"limit {limits.MAX_POWER_BITS})")


def test_max_power_bits_from_exact_exponent_not_cancelled_approximation():
    # (10^50 + 10^10) - 10^50 cancels to 0 in 30 digits; the exact exponent is 10^10.
    assert refused("2^((10^50+10^10)-10^50)").reason == (
        f"power too large (about {2 * 10**10} bits; limit {limits.MAX_POWER_BITS})")
    # ... and SymPy's exp(c*ln(2)) = 2^c is gated like 2^c, whatever the approximation says.
    assert refused("exp(ln(2)*(10^50+10^10)-ln(2)*10^50)").reason.startswith("exp argument")
    n = limits.MAX_POWER_BITS // 2
    assert parse(f"exp({n}*ln(2))") == 2**n
    assert refused(f"exp({n + 1}*ln(2))").reason == (
        f"power too large (about {2 * (n + 1)} bits; limit {limits.MAX_POWER_BITS})")


def test_max_symbolic_power():
    n = limits.MAX_SYMBOLIC_POWER
    assert parse(f"x^{n}") == X**n
    assert parse(f"x^-{n}") == X**-n
    assert parse(f"pi^{n}") == sp.pi**n
    assert refused(f"x^{n + 1}").reason == f"power of a symbolic value beyond {n}"
    assert refused(f"x^-{n + 1}").reason == f"power of a symbolic value beyond {n}"
    assert refused(f"pi^{n + 1}").reason == f"power of an irrational value beyond {n}"


def test_max_root_denominator():
    n = limits.MAX_ROOT_DENOMINATOR
    assert parse(f"2^(1/{n})") == 2 ** R(1, n)
    error = refused(f"2^(1/{n + 1})")
    assert (error.column, error.reason) == (2, f"root of degree beyond {n}")


def test_max_root_bits():
    # SymPy factors a number under a root; a root of a 1024-bit prime is allowed, 1025 is not.
    assert parse(f"sqrt{PRIME_1024_BITS}") == sp.sqrt(2**1023 + 1155)
    assert refused(f"sqrt{PRIME_1025_BITS}").reason == (
        f"root of a number beyond {limits.MAX_ROOT_BITS} bits")
    # ... and the part of a log that trial division cannot split.
    assert parse(f"ln{PRIME_1024_BITS}") == sp.log(2**1023 + 1155)
    assert refused(f"ln{PRIME_1025_BITS}").reason == (
        f"ln of a number with a part beyond {limits.MAX_ROOT_BITS} bits that cannot be split "
        "into primes")
    # ... and roots that SymPy multiplies together: sqrt(a)*sqrt(b) = sqrt(ab).
    assert parse("sqrt(2^511+1)*sqrt(2^511+3)") == sp.sqrt((2**511 + 1) * (2**511 + 3))
    error = refused("sqrt(2^511+1)*sqrt(2^512+1)")
    assert (error.column, error.reason) == (
        14, f"product of roots or logs of numbers beyond {limits.MAX_ROOT_BITS} bits")
    # ... and exp of logs, which SymPy turns into the roots of a product.
    assert parse(f"exp(ln{PRIME_1024_BITS}/2)") == sp.sqrt(2**1023 + 1155)
    assert refused("exp(ln(2^607-1)/2+ln(2^521-1)/2)").reason == (
        f"exp of logs of numbers beyond {limits.MAX_ROOT_BITS} bits")


def test_max_exp_argument():
    n = limits.MAX_EXP_ARGUMENT
    assert parse(f"exp({n})") == sp.exp(n)
    assert parse(f"exp(-{n})") == sp.exp(-n)
    assert parse(f"e^{n}") == sp.exp(n)
    for text in (f"exp({n + 1})", f"exp(-{n + 1})", f"e^{n + 1}"):
        assert refused(text).reason == f"exp argument too large (limit {n})"


@pytest.mark.parametrize("name", ["sin", "cos", "tan"])
def test_max_trig_argument(name):
    n = limits.MAX_TRIG_ARGUMENT
    assert parse(f"{name}({n})") == getattr(sp, name)(n)
    assert parse(f"{name}(-{n})") == getattr(sp, name)(-n)
    error = refused(f"{name}({n + 1})")
    assert (error.column, error.reason) == (1, f"{name} argument too large (limit {n})")


def test_max_exp_nesting():
    assert parse("exp(exp(exp(1)))") == sp.exp(sp.exp(sp.E))
    assert parse("e^(e^(e^1))") == sp.exp(sp.exp(sp.E))
    for text, column in (("exp(exp(exp(exp(1))))", 1), ("e^(e^(e^(e^1)))", 2)):
        error = refused(text)
        assert (error.column, error.reason) == (
            column, f"exp nested more than {limits.MAX_EXP_NESTING} deep")


# --- labels.py and spec.py ------------------------------------------------------------------


def test_max_label():
    assert check_label("\u732b" * MAX_LABEL) == "\u732b" * MAX_LABEL
    with pytest.raises(InputError, match=rf"^label is {MAX_LABEL + 1} characters long "
                                         rf"\(limit {MAX_LABEL}\)$"):
        check_label("a" * (MAX_LABEL + 1))


@pytest.mark.parametrize("key, labels, index", [
    ("tokens", '["", "tok2"]', 1), ("tokens", '["a", " \\u3000 "]', 2), ("key_tokens", '["k", ""]', 2),
], ids=["empty", "blank", "key-token"])
def test_an_empty_token_label_is_refused(tmp_path, capsys, key, labels, index):
    from symattn import cli
    path = tmp_path / "p.toml"
    path.write_text(f"{key} = {labels}\n[input]\nQ = [[1], [2]]\nK = [[1], [0]]\nV = [[1], [2]]\n",
                    encoding="utf-8")
    assert cli.main(["solve", str(path), "--format", "markdown"]) == 2
    assert capsys.readouterr().err == (f"error: {path}, {key}[{index}]: a token label must not "
                                       "be empty or blank\n")


BASE = "[input]\nQ = [[1]]\nK = [[1]]\nV = [[1]]\n"


def _padded(size: int) -> str:
    """A valid problem of exactly size characters (ASCII, so also size bytes)."""
    return BASE + "#" * (size - len(BASE) - 1) + "\n"


def test_max_file_bytes_as_text():
    assert parse_problem(_padded(MAX_FILE_BYTES), source="p.toml").Q == sp.Matrix([[1]])
    with pytest.raises(InputError, match=rf"^p\.toml: text is {MAX_FILE_BYTES + 1} characters "
                                         rf"\(limit {MAX_FILE_BYTES}\)$"):
        parse_problem(_padded(MAX_FILE_BYTES + 1), source="p.toml")


def test_max_file_bytes_as_file(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(_padded(MAX_FILE_BYTES), encoding="utf-8")
    assert load_problem(path).Q == sp.Matrix([[1]])
    path.write_text(_padded(MAX_FILE_BYTES + 1), encoding="utf-8")
    with pytest.raises(InputError, match=rf"^{path}: file is {MAX_FILE_BYTES + 1} bytes "
                                         rf"\(limit {MAX_FILE_BYTES}\)$"):
        load_problem(path)


def _rows(n: int, width: int = 1) -> str:
    return "[" + ", ".join(["[" + ", ".join(["1"] * width) + "]"] * n) + "]"


def test_max_side_rows():
    at = f"[input]\nQ = {_rows(MAX_SIDE)}\nK = [[1]]\nV = [[1]]\n"
    assert parse_problem(at).n_q == MAX_SIDE
    past = f"[input]\nQ = {_rows(MAX_SIDE + 1)}\nK = [[1]]\nV = [[1]]\n"
    with pytest.raises(InputError, match=rf"^p\.toml, input\.Q: has {MAX_SIDE + 1} rows "
                                         rf"\(limit {MAX_SIDE}\)$"):
        parse_problem(past, source="p.toml")


def test_max_side_columns():
    at = f"[input]\nQ = {_rows(1, MAX_SIDE)}\nK = {_rows(1, MAX_SIDE)}\nV = [[1]]\n"
    assert parse_problem(at).d_k == MAX_SIDE
    past = f"[input]\nQ = {_rows(1, MAX_SIDE + 1)}\nK = [[1]]\nV = [[1]]\n"
    with pytest.raises(InputError, match=rf"^p\.toml, input\.Q\[1\]: has {MAX_SIDE + 1} entries "
                                         rf"\(limit {MAX_SIDE}\)$"):
        parse_problem(past, source="p.toml")


# --- resource bombs -------------------------------------------------------------------------


def _outcome(call: Callable[[], object], seconds: float = HANG_GUARD_SECONDS
             ) -> BaseException | None:
    """Run call in a thread; fail (instead of hanging) if it is still busy after the guard."""
    outcome: dict[str, BaseException | None] = {}

    def run() -> None:
        try:
            call()
        except BaseException as error:  # noqa: BLE001 - reported to the test below
            outcome["error"] = error
        else:
            outcome["error"] = None

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"hang guard: still running after {seconds} s"
    return outcome["error"]


BOMBS = [
    ("9^9^9", "power-tower-9"),
    ("10^10^10", "power-tower-10"),
    ("2^(2^(2^(2^(2^5))))", "power-tower-2"),
    ("(2^4096)^(2^4096)", "power-of-power"),
    ("x^(10^10)", "symbolic-power"),
    ("(x*2^2048)^32", "symbolic-power-of-big-coefficient"),
    ("exp(exp(exp(exp(1))))", "exp-tower"),
    ("e^(e^(e^(e^1)))", "e-tower"),
    ("exp(10^10)", "exp-huge"),
    ("sin(10^100)", "sin-huge"),
    ("tan(10^100)", "tan-huge"),
    ("1e99999", "decimal-exponent"),
    ("9" * 1000, "thousand-digits"),
    ("1" * 100_000, "hundred-thousand-characters"),
    ("(" * 10_000 + "1" + ")" * 10_000, "ten-thousand-parentheses"),
    ("(" * 499 + "1" + ")" * 499, "deep-within-length"),
    ("-" * 999 + "1", "unary-chain"),
    ("1+" * 499 + "1", "token-flood"),
    ("2^((10^50+10^10)-10^50)", "cancelled-exponent"),
    ("exp(ln(2)*(10^50+10^10)-ln(2)*10^50)", "cancelled-exp-of-log"),
    ("ln((10^100+267)^12+2)", "ln-of-unfactorable-4000-bits"),
    ("((10^100+267)^12*(10^100+1)^12+2)^(1/1000)", "root-of-unfactorable-8000-bits"),
    ("sqrt(3^640+2)*sqrt(3^640+4)*sqrt(3^640+8)*sqrt(3^640+10)", "product-of-roots"),
    ("((3^2048+2)*(3^2048+4)*pi)^(1/3)", "root-of-product-with-pi"),
    ("exp(ln(3^600+2)/2+ln(3^600+4)/2)", "exp-of-logs-to-root"),
]


@pytest.mark.parametrize("text", [t for t, _ in BOMBS], ids=[i for _, i in BOMBS])
def test_bomb_is_refused(text):
    error = _outcome(lambda: parse(text))
    assert isinstance(error, InputError), error
    assert "\n" not in str(error)


def test_five_thousand_digit_toml_integer_is_refused():
    text = f"[input]\nQ = [[{'9' * 5000}]]\nK = [[1]]\nV = [[1]]\n"
    error = _outcome(lambda: parse_problem(text, source="p.toml"))
    assert isinstance(error, InputError), error
    assert str(error).startswith("p.toml: TOML value: ")


def test_huge_toml_integer_within_python_limit_is_refused_by_length():
    text = f"[input]\nQ = [[{'9' * 4000}]]\nK = [[1]]\nV = [[1]]\n"
    error = _outcome(lambda: parse_problem(text, source="p.toml"))
    assert isinstance(error, InputError), error
    assert str(error) == ("p.toml, input.Q[1][1]: entry is 4000 characters long "
                          f"(limit {limits.MAX_LENGTH})")


def test_hundred_thousand_character_toml_string_is_refused():
    text = f"[input]\nQ = [[\"{'1' * 100_000}\"]]\nK = [[1]]\nV = [[1]]\n"
    error = _outcome(lambda: parse_problem(text, source="p.toml"))
    assert isinstance(error, InputError), error
    assert str(error) == ("p.toml, input.Q[1][1]: entry is 100000 characters long "
                          f"(limit {limits.MAX_LENGTH})")


def test_deeply_nested_toml_is_refused():
    text = "a = " + "[" * 100_000 + "]" * 100_000 + "\n"
    error = _outcome(lambda: parse_problem(text, source="p.toml"))
    assert isinstance(error, InputError), error
    assert str(error) == "p.toml: TOML nested too deeply"


# --- exact factors in the pipeline ------------------------------------------------------------


@pytest.mark.parametrize("q, k, fragment", [
    ('"ln(2)"', '"10^9"', "exp of the logit 1000000000*log(2) is too large to write exactly"),
    ('"ln(2)"', "9000", "exp of the logit 9000*log(2) is too large to write exactly"),
], ids=["billion-bits", "past-limit"])
def test_huge_exact_factors_are_refused_not_computed(tmp_path, capsys, q, k, fragment):
    from symattn import cli
    path = tmp_path / "huge.toml"
    path.write_text(f'[input]\nQ = [[{q}], [0]]\nK = [[{k}], [0]]\nV = [[1], [2]]\n'
                    '[attention]\nscale = "none"\n', encoding="utf-8")
    assert cli.main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}, input: query row 1: {fragment}")


def test_exact_factor_at_the_limit_is_computed():
    from symattn import attention
    trace = attention([["ln(2)"], [0]], [[8000], [0]], [[1], [2]], scale="none")
    assert trace.A[0, 0] == sp.Rational(2**8000, 2**8000 + 1)


# --- claims, submissions, shapes, symbols and the command line -----------------------------


def test_max_claim_length():
    from symattn.limits import MAX_CLAIM_LENGTH
    from symattn.parse.claims import parse_claim
    row = "(" + ", ".join(["1/7"] * 3) + ")"
    at = row + " " * (MAX_CLAIM_LENGTH - len(row))
    claim = parse_claim("A[1]", at)
    assert claim.error is None and [g.value for g in claim.rows[0]] == [R(1, 7)] * 3
    past = parse_claim("A[1]", at + " ")
    assert past.error == (f"answer is {MAX_CLAIM_LENGTH + 1} characters long "
                          f"(limit {MAX_CLAIM_LENGTH})")


def _csv_of_size(size: int) -> bytes:
    """A valid submissions file of exactly size bytes: rows of one student with a blank answer."""
    header, line = b"id,A\n", b"s," + b" " * 99_997 + b"\n"
    data = header + line * ((size - len(header)) // len(line))
    return data + b"t" * (size - len(data))


def test_max_submissions_bytes(tmp_path):
    from symattn.limits import MAX_SUBMISSIONS_BYTES
    from symattn.parse.submissions import read_submissions
    path = tmp_path / "subs.csv"
    path.write_bytes(_csv_of_size(MAX_SUBMISSIONS_BYTES))
    assert len(read_submissions(path).students) == MAX_SUBMISSIONS_BYTES // 100_000
    path.write_bytes(_csv_of_size(MAX_SUBMISSIONS_BYTES + 1))
    with pytest.raises(InputError, match=rf"^{path}: file is {MAX_SUBMISSIONS_BYTES + 1} bytes "
                                         rf"\(limit {MAX_SUBMISSIONS_BYTES}\)$"):
        read_submissions(path)


def test_max_csv_cell(tmp_path):
    from symattn.parse.submissions import read_submissions
    limit = limits.MAX_CSV_CELL
    assert limit == 131_072
    path = tmp_path / "subs.csv"
    path.write_text("id,A\nann," + "1" * limit + "\nben,1\n", encoding="utf-8")
    assert len(read_submissions(path).students[0][1][0]) == limit
    path.write_text("id,A\nann," + "1" * (limit + 1) + "\nben,1\n", encoding="utf-8")
    submissions = read_submissions(path)  # that row is refused, the next one read
    assert submissions.students == (("ann", ("",)), ("ben", ("1",)))
    assert submissions.refused == ((0, ("read_row", 2, ("row_csv",
                                                      f"field larger than field limit ({limit})"))),)


def test_max_symbol_name():
    at, past = "x" * 32, "x" * 33
    assert [s.name for s in parse_problem(f'[symbols]\n{at} = "real"\n[input]\nQ = [["{at}"]]\n'
                                          'K = [[1]]\nV = [[1]]\n').symbols] == [at]
    with pytest.raises(InputError, match=rf"^p\.toml, symbols\.{past}: a symbol name is letters"):
        parse_problem(f'[symbols]\n{past} = "real"\n' + BASE, source="p.toml")


@pytest.mark.parametrize("side", [1, 100_000])
def test_shapes_of_a_shape_problem_at_the_limits(side):
    text = (f"[input]\nQ = {{shape = [{side}, 8]}}\nK = {{shape = [{side}, 8]}}\n"
            f"V = {{shape = [{side}, 3]}}\n")
    assert parse_problem(text).n_q == side


@pytest.mark.parametrize("side", [0, 100_001])
def test_shapes_of_a_shape_problem_past_the_limits(side):
    text = f"[input]\nQ = {{shape = [{side}, 8]}}\nK = {{shape = [4, 8]}}\nV = {{shape = [4, 3]}}\n"
    with pytest.raises(InputError, match=r"^p\.toml, input\.Q\.shape: must be \[rows, columns\], "
                                         r"two integers from 1 to 100000$"):
        parse_problem(text, source="p.toml")


def test_toml_integer_at_pythons_digit_limit():
    import sys
    digits = sys.get_int_max_str_digits()  # 4300: tomllib cannot read a longer integer
    at = f"[input]\nQ = [[{'9' * digits}]]\nK = [[1]]\nV = [[1]]\n"
    with pytest.raises(InputError, match=rf"^p\.toml, input\.Q\[1\]\[1\]: entry is {digits} "
                                         rf"characters long \(limit {limits.MAX_LENGTH}\)$"):
        parse_problem(at, source="p.toml")
    with pytest.raises(InputError, match=r"^p\.toml: TOML value: an integer has too many digits$"):
        parse_problem(at.replace("9" * digits, "9" * (digits + 1)), source="p.toml")


def test_max_factor_bits_of_prime_logs():
    # ln of a 4096-bit number is split into prime logs; one bit more and it is kept whole,
    # and then refused, being a part beyond MAX_ROOT_BITS that cannot be split.
    from symattn.limits import MAX_TRIAL_FACTOR_BITS
    assert MAX_TRIAL_FACTOR_BITS == 4096 and (2**4095).bit_length() == MAX_TRIAL_FACTOR_BITS
    assert parse("ln(2^2048*2^2047)") == 4095 * sp.log(2)
    assert refused("ln(2^2048*2^2048)").reason == (
        f"ln of a number with a part beyond {limits.MAX_ROOT_BITS} bits that cannot be split "
        "into primes")


def test_many_labels_together_are_not_one_long_label():
    # MAX_LABEL bounds each label; the derivation's prose lists them all in one sentence.
    from symattn import attention, render
    tokens = [chr(0x4E00 + i) * MAX_LABEL for i in range(8)]
    trace = attention([[1]] * 8, [[1]] * 8, [[1]] * 8, tokens=tokens)
    assert all(t in render(trace, "markdown", detail="summary") for t in tokens)


@pytest.mark.parametrize("argv, at, past, message", [
    (["check", "{f}", "--digits"], ("10", "1000"), ("9", "1001"),
     "--digits must be from 10 to 1000"),
    (["solve", "{f}", "--places"], ("0", "50"), ("-1", "51"), "--places must be from 0 to 50"),
    (["solve", "{f}", "--row"], ("1", "3"), ("0", "4"), "--row must be from 1 to 3"),
], ids=["digits", "places", "row"])
def test_command_line_ranges(example, capsys, argv, at, past, message):
    from symattn import cli
    path = str(example("02_causal_three_positions"))
    command = [a.format(f=path) for a in argv]
    for value in at:
        assert cli.main(command + [value]) == 0
    for value in past:
        assert cli.main(command + [value]) == 2
        assert capsys.readouterr().err == f"error: {message}\n"


@pytest.mark.parametrize("key, at, past, message", [
    ("places", (0, 50), (-1, 51), "derivation.places: must be an integer from 0 to 50"),
    ("row", (1, 3), (0, 4), "derivation.row: must be an integer from 1 to 3"),
], ids=["places", "row"])
def test_derivation_table_ranges(example, key, at, past, message):
    text = example("02_causal_three_positions").read_text(encoding="utf-8")
    for value in at:
        assert dict(parse_problem(text + f"\n[derivation]\n{key} = {value}\n").presentation) == {
            key: value}
    for value in past:
        with pytest.raises(InputError, match=re.escape(message)):
            parse_problem(text + f"\n[derivation]\n{key} = {value}\n")


def test_grading_sigfigs_range():
    from symattn.parse.claims import read_grading
    assert read_grading({"grading": {"sigfigs": 1}}, "p").sigfigs == 1
    assert read_grading({"grading": {"sigfigs": 50}}, "p").sigfigs == 50
    for value in (0, 51):
        with pytest.raises(InputError,
                           match=r"^p, grading\.sigfigs: must be an integer from 1 to 50$"):
            read_grading({"grading": {"sigfigs": value}}, "p")


@pytest.mark.parametrize("option, at, past", [
    ("--time-limit", ("0.1", "600"), ("0.09", "601")),
    ("--workers", ("1", "64"), ("0", "65")),
], ids=["time-limit", "workers"])
def test_grading_command_ranges(example, tmp_path, capsys, option, at, past):
    from symattn import cli
    subs = tmp_path / "subs.csv"
    subs.write_text('id,"A[1,1]"\nann,1\n', encoding="utf-8")
    command = ["grade", str(example("02_causal_three_positions")), "--submissions", str(subs),
               "-o", str(tmp_path / "report.csv")]
    for value in at:
        assert cli.main(command + [option, value]) == 0
    for value in past:
        assert cli.main(command + [option, value]) == 2
        assert capsys.readouterr().err == ("error: --time-limit must be from 0.1 to 600 seconds "
                                           "and --workers from 1 to 64\n")


# --- large magnitudes: decimals, the cross-check, the logit limit --------------------------
# Logits of any size the parser accepts up to 1e1000 get correct decimals (scientific from
# 1e15 on) and a cross-check at raised working precision, in every format and on the page;
# larger ones are refused up front (limits.MAX_LOGIT_DIGITS).

TEN_100 = 4342944819032518276511289189166050822943970058036665661144537831658646492088707747292249493384317484  # noqa: E501 floor(10^100 log10 e) + 1: e^(-10^100) is 6.5e-TEN_100
BIG = {  # name -> (file body, A's decimals, a decimal the derivation shows); each tiny weight was
    # checked against mpmath at 150 digits (e.g. 1/(1 + e^9950) = 5.8871e-4322)
    "logit-9950": ('Q = [["-9950"]]\nK = [[1], [0]]\nV = [[1], [2]]\n', [["5.9e-4322", "1.0000"]],
                   r"5.9 \times 10^{-4322} & 1.0000"),
    "bias-minus-1e100": ('Q = [[1]]\nK = [[1], [0]]\nV = [[1], [2]]\n[attention]\n'
                         'bias = [["-1e100", 0]]\n', [[f"1.8e-{TEN_100 - 1}", "1.0000"]],
                         r"1.8 \times 10^{-4.3 \times 10^{99}} & 1.0000"),
    "bias-1e100": ('Q = [[1]]\nK = [[1], [0]]\nV = [[1], [2]]\n[attention]\n'
                   'bias = [["1e100", 0]]\n', [["1.0000", f"2.4e-{TEN_100}"]],
                   r"1.0000 & 2.4 \times 10^{-4.3 \times 10^{99}}"),
    "temperature-1e-100": ('Q = [[1]]\nK = [[1], [0]]\nV = [[1], [2]]\n[attention]\n'
                           'temperature = "1e-100"\n', [["1.0000", f"6.5e-{TEN_100}"]],
                           r"1.0000, 6.5 \times 10^{-4.3 \times 10^{99}}"),
    "logits-8e199-one-apart": ('Q = [["9e99"]]\nK = [["9e99"], ["9e99 + 1/(9e99)"]]\n'
                               'V = [[1], [2]]\n', [["0.2689", "0.7311"]],
                               r"O = AV \approx \left[\begin{array}{c} 1.7311"),
    "logit-1e8": ('Q = [["1e4"], [1]]\nK = [["1e4"], [0]]\nV = [[1], [2]]\n',
                  [["1.0000", "6.5e-43429449"], ["1.0000", "1.1e-4343"]],
                  r"1.0000 & 6.5 \times 10^{-43429449} \\ 1.0000 & 1.1 \times 10^{-4343}"),
}


def _big_problem(tmp_path, name: str):
    path = tmp_path / f"{name}.toml"
    path.write_text("[input]\n" + BIG[name][0], encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(BIG))
def test_large_logits_have_correct_decimals_in_every_format(tmp_path, capsys, name):
    from symattn import cli
    from symattn.checks.invariants import check
    from symattn.derivation import derive
    from symattn.exact.attention import attend
    path = _big_problem(tmp_path, name)
    trace = attend(load_problem(path))
    report = check(trace)
    assert report.passed, report.results
    assert [[a.text for a in row] for row in derive(trace, report).decimals["A"]] == BIG[name][1]
    assert cli.main(["solve", str(path)]) == 0
    text = capsys.readouterr().out
    assert all(f" {x}" in text for row in BIG[name][1] for x in row)
    for fmt in ("latex", "markdown"):
        assert cli.main(["solve", str(path), "--format", fmt]) == 0
        assert BIG[name][2] in capsys.readouterr().out
    assert cli.main(["check", str(path)]) == 0


@pytest.mark.parametrize("name", sorted(BIG))
def test_large_logits_give_a_page(tmp_path, name):
    from clients import KATEX_DIR, need
    need((KATEX_DIR / "node_modules" / "katex").is_dir(),
         "KaTeX is not installed (npm ci --prefix tools/katex)")
    from symattn import cli
    out = tmp_path / "page.html"
    assert cli.main(["page", str(_big_problem(tmp_path, name)), "-o", str(out)]) == 0
    assert out.stat().st_size > 10_000


def test_a_weight_near_one_is_not_printed_as_a_half(tmp_path, capsys):
    """Logits 8.1e299 and 8.1e299 - 9e199: the weights are 1 and e^(-9e199)/..., not 0.5 each."""
    from symattn import cli
    path = tmp_path / "p.toml"
    path.write_text('[input]\nQ = [["9e99"], ["-9e99"], [1]]\nK = [["9e99"], [0], ["1e-100"]]\n'
                    'V = [[1], [2], [3]]\n[attention]\ntemperature = "1e-100"\n', encoding="utf-8")
    assert cli.main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert "~ 0.5000" not in out and "A[2,2] ~ " in out  # too wide for a grid: entry by entry
    row = [line for line in out.splitlines() if line.strip().startswith("A[2,")]
    shown = [line.rsplit("~ ", 1)[1] for line in row]
    assert shown[1] == "1.0000"  # e^(-8.1e299) and e^(-9e99): 10^(-3.5e299) and 10^(-3.9e99)
    assert shown[0].startswith("2.7e-35177853034163") and len(shown[0]) == 5 + 300
    assert shown[2].startswith("1.4e-3908650337129266") and len(shown[2]) == 5 + 100


def test_decimals_of_huge_and_tiny_values():
    from symattn.numeric_decimals import decimal_string, magnitude
    exp, ten = sp.exp, sp.Integer(10)
    assert decimal_string(exp(ten ** 100), 4) == "1.5384e+" + str(
        4342944819032518276511289189166050822943970058036665661144537831658646492088707747292249493384317483)
    assert decimal_string(exp(-ten ** 100), 4) == "0.0000"
    assert decimal_string(R(-99999995, 10) * ten ** 14, 4) == "-1.0000e+21"  # a half, away from 0
    assert decimal_string(R(10 ** 15 - 1, 1) + R(1, 2), 2) == "999999999999999.50"
    assert decimal_string(ten ** 15, 2) == "1.00e+15" and decimal_string(ten ** 15, 0) == "1e+15"
    assert decimal_string(-sp.sqrt(2) * ten ** 300, 3) == "-1.414e+300"
    assert magnitude(exp(ten ** 8)) == 43429448 and magnitude(R(1, 1000)) == -3
    assert magnitude(sp.S.Zero) is None


def test_max_logit_digits(tmp_path, capsys):
    from symattn import cli
    assert limits.MAX_LOGIT_DIGITS == 1000 and limits.MAX_WORKING_DIGITS == 2500
    path = tmp_path / "p.toml"
    at = '[input]\nQ = [["9*10^999"]]\nK = [[1], [0]]\nV = [[1], [2]]\n'
    path.write_text(at, encoding="utf-8")
    assert _outcome(lambda: cli.main(["solve", str(path), "--format", "latex"]), 60) is None
    assert cli.main(["check", str(path), "--digits", "1000"]) == 0
    capsys.readouterr()
    for past, size in (('"10^1000"', "1.0e+1000"), ('"exp(9000)"', "4.5e+3908")):
        path.write_text(at.replace('"9*10^999"', past), encoding="utf-8")
        for command in ("solve", "check", "limits"):
            assert cli.main([command, str(path)]) == 2
            assert capsys.readouterr().err == (
                f"error: {path}, input: the logit L[1,1] is about {size}; logits of 1e+1000 "
                "and beyond are refused (exp of one is known to d digits only from its first "
                "d + 1000 digits)\n")


def test_a_cross_check_needing_too_many_digits_is_not_decided(tmp_path, capsys):
    """At the sample value x = 3/7 the logit exp(20000/7) is about 1e3722: no numeric verdict,
    said plainly (not a failure)."""
    from symattn import cli
    path = tmp_path / "p.toml"
    path.write_text('[symbols]\nx = "real"\n[input]\nQ = [["exp(10000*x)"]]\n'
                    'K = [["exp(10000*x)"], [0]]\nV = [[1], [2]]\n', encoding="utf-8")
    assert cli.main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "[undecided] exact = numeric: not decided: to compare to 50 digits the values need " \
           "about 3850 working digits, more than the 2500 the numerics may use at x = 3/7\n" in out
    assert "FAIL" not in out
    assert cli.main(["check", str(path), "--lang", "zh"]) == 1
    assert "（超过数值计算可用的 2500 位），取 x = 3/7" in capsys.readouterr().out
    assert cli.main(["solve", str(path), "--format", "markdown"]) == 0
    assert ("The check “exact = numeric” is not decided: to compare to 50 digits the values need "
            "about 3850 working digits, more than the 2500 the numerics may use at x = 3/7.") \
        in capsys.readouterr().out


def test_decimal_answers_about_huge_values_are_judged_quickly(tmp_path, capsys):
    """A[2,2] is 1 to thousands of digits (the old numerics said 0.5); with sigfigs a weight
    of about 1e-3.9e99 is judged wrong at once (no decimal the parser reads is that small)."""
    from symattn import cli
    from symattn.answers.judge import rounded
    path = tmp_path / "p.toml"
    path.write_text('[input]\nQ = [["9e99"], ["-9e99"], [1]]\nK = [["9e99"], [0], ["1e-100"]]\n'
                    'V = [[1], [2], [3]]\n[attention]\ntemperature = "1e-100"\n[answers]\n'
                    '"A[2]" = "(0.0000, 1.0000, 0.0000)"\n', encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 0
    capsys.readouterr()
    with_sigfigs = path.read_text(encoding="utf-8").replace("[answers]", "[grading]\nsigfigs = 3\n[answers]")
    path.write_text(with_sigfigs.replace("(0.0000, 1.0000, 0.0000)", "(0.00, 1.00, 0.00)"), encoding="utf-8")
    assert _outcome(lambda: cli.main(["verify", str(path)]), 60) is None
    assert "[wrong] A[2]" in capsys.readouterr().out
    assert rounded(sp.exp(sp.Integer(10) ** 8), 2) is None
    assert rounded(sp.exp(-sp.Integer(10) ** 8), 4) == 0
    assert rounded(sp.sqrt(2) * 10 ** 150, -148) == 14100 * sp.Integer(10) ** 146



# --- --subs meets the same gates as the file ---------------------------------------------

SUBSTITUTED = [("exp(theta)", "20000"), ("exp(theta)", "1e20"), ("2^theta", "1e100"),
               ("sin(theta)", "1e20"), ("theta^32", "1e100"), ("1/theta", "0"),
               ("exp(exp(exp(theta)))", "10"), ("1/(theta - 1)", "1"), ("tan(theta)", "pi/2"),
               ("exp(exp(theta))", "exp(exp(-10))")]


@pytest.mark.parametrize("entry, value", SUBSTITUTED, ids=[f"{e}@{v}" for e, v in SUBSTITUTED])
def test_subs_values_meet_the_gates_of_file_values(tmp_path, capsys, entry, value):
    """The same value written in the file and given with --subs is refused for the same
    reason, at once, by solve, check and limits (never a hang or an internal error)."""
    from symattn import cli
    written, symbolic = tmp_path / "written.toml", tmp_path / "symbolic.toml"
    body = '[input]\nQ = [["{q}"]]\nK = [[1], [0]]\nV = [[1], [2]]\n'
    written.write_text(body.format(q=entry.replace("theta", f"({value})")), encoding="utf-8")
    symbolic.write_text('[symbols]\ntheta = "real"\n' + body.format(q=entry), encoding="utf-8")
    assert cli.main(["solve", str(written)]) == 2
    reason = capsys.readouterr().err.split(": ", 2)[2]
    for command in ("solve", "check", "limits"):
        assert _outcome(lambda command=command: cli.main([command, str(symbolic), "--subs",
                                          f"theta={value}"]), 60) is None
        err = capsys.readouterr().err
        assert err.startswith(f"error: {symbolic}, input.Q[1][1]: at theta = "), err
        assert err.endswith(f": {reason}"), (err, reason)


@pytest.mark.parametrize("command", [["nonunique"], ["mistakes"]])  # limits: SymPy's limit
def test_the_analyses_answer_on_huge_logits(tmp_path, capsys, command):
    """Logits of 8.1e299: the analyses answer (their rational guesses and simplify no longer
    turn exp of such a logit into an integer of its size); a whole command, about 3 s alone,
    so a guard of 60 s (they ran past 60 s before)."""
    from symattn import cli
    path = tmp_path / "p.toml"
    path.write_text('[input]\nQ = [["9e99"], ["-9e99"], [1]]\nK = [["9e99"], [0], ["1e-100"]]\n'
                    'V = [[1], [2], [3]]\n[attention]\ntemperature = "1e-100"\n', encoding="utf-8")
    assert _outcome(lambda: cli.main(command + [str(path)]), 60) is None
    out, err = capsys.readouterr()
    assert out and not err, err
