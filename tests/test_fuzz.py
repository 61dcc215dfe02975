"""Fuzzing every entry point that reads other people's text: entries, claims, problem files, CSV
submissions and the command line.

The property is the same everywhere: the outcome is a result or the project's own InputError,
one line, with a location (file, key path, column or line), within a time bound; nothing else
escapes (no SymPy, tomllib, csv, Recursion or Unicode errors) and nothing runs: inputs carry
code that would create a canary file, the file must never appear, and an audit hook watches
for any process started or any code compiled from the canary text.

CI runs a few hundred examples in all, derandomized (the same ones every run). A longer,
random run:  SYMATTN_FUZZ_EXAMPLES=5000 python3 -m pytest -q tests/test_fuzz.py
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import re
import tempfile
import threading
import traceback
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from collections.abc import Callable
from typing import Any

import mpmath
import pytest
import sympy as sp
from conftest import EXAMPLES
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from symattn import cli
from symattn.answers.judge import judge
from symattn.answers.results import STATUSES
from symattn.answers.verify import facts_of
from symattn.errors import InputError
from symattn.model import Grading, Problem, ShapeProblem
from symattn.parse.claims import Claim, parse_claim
from symattn.parse.expressions import parse_expression
from symattn.parse.spec import load_problem, parse_problem
from symattn.parse.submissions import Submissions, read_submissions
from symattn.words import reason_text

LONG_RUN = int(os.environ.get("SYMATTN_FUZZ_EXAMPLES") or 0)
PARSE_SECONDS = 20.0  # hang guards, not performance goals: generous on two noisy cores
COMMAND_SECONDS = 120.0
X = sp.Symbol("x", real=True)
T = sp.Symbol("t", positive=True)
SYMBOLS = {"x": X, "t": T}


def fuzz(examples: int) -> settings:
    """`examples` in CI (derandomized); SYMATTN_FUZZ_EXAMPLES per property in a long run."""
    return settings(max_examples=LONG_RUN or examples, deadline=None, derandomize=not LONG_RUN,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much,
                                           HealthCheck.large_base_example])


# ---------------------------------------------------------------- canaries and the audit hook

CANARY = Path(tempfile.gettempdir()) / f"symattn_fuzz_canary_{os.getpid()}"
MARK = CANARY.name
CODE = [
    "__import__('os').system('touch {canary}')",
    "open('{canary}', 'w').write('x')",
    "__import__('pathlib').Path('{canary}').touch()",
    "exec(\"open('{canary}','w')\")",
    "eval(\"__import__('os').system('touch {canary}')\")",
    "().__class__.__base__.__subclasses__()[0]('{canary}')",
    "(lambda: open('{canary}', 'w'))()",
    "compile('open(\"{canary}\",\"w\")', '', 'exec')",
    "getattr(__builtins__, 'open')('{canary}', 'w')",
    "$(touch {canary})",
    "`touch {canary}`",
    r"\immediate\write18{{touch {canary}}}",
]
"""Code that creates the canary file if anything evaluates it (Python, shell or TeX)."""
CANARY_CODE = [template.format(canary=CANARY) for template in CODE]

_SPAWNING = ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
             "subprocess.Popen", "pty.spawn", "socket.connect", "urllib.Request")
_WATCHED = ("exec", "compile", "open", "os.remove", "os.rename", "os.mkdir", "os.utime")
_violations: list[str] = []
_armed = threading.Event()


def _audit(event: str, args: tuple) -> None:
    """Record a process started, or code compiled, run or a file touched from canary text."""
    if not _armed.is_set():
        return
    try:
        if event.startswith(_SPAWNING):
            _violations.append(event)
        elif event in _WATCHED:
            seen = args[0]
            text = repr((seen.co_consts, seen.co_names)) if hasattr(seen, "co_consts") \
                else repr(args)
            if MARK in text:
                _violations.append(f"{event}: {text[:200]}")
    except Exception:  # noqa: BLE001 - an audit hook must never raise
        _violations.append(f"{event}: unreadable arguments")


sys.addaudithook(_audit)


def bounded(call: Callable[[], Any],
            seconds: float = PARSE_SECONDS) -> tuple[Any, BaseException | None]:
    """(result, None) or (None, the exception), run in a thread under a hang guard, with the
    audit hook armed; fails if the call is still busy after `seconds` or ran anything."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["result"] = call()
        except BaseException as error:  # noqa: BLE001 - judged by the caller
            box["error"] = error
            box["trace"] = traceback.format_exc()

    _violations.clear()
    _armed.set()
    thread = threading.Thread(target=run, daemon=True)
    try:
        thread.start()
        thread.join(seconds)
    finally:
        _armed.clear()
    assert not thread.is_alive(), f"hang guard: still running after {seconds} s"
    assert not _violations, f"something ran: {_violations}"
    assert not CANARY.exists(), "the canary file appeared"
    error = box.get("error")
    if error is not None and not isinstance(error, InputError):
        pytest.fail(f"escaped {type(error).__name__}: {error}\n{box['trace']}")
    return box.get("result"), error


def one_line(error: InputError) -> str:
    message = str(error)
    assert message.strip() and "\n" not in message and "\r" not in message, repr(message)
    assert "Traceback" not in message
    return message


# ---------------------------------------------------------------- text strategies

_GRAMMAR = "0123456789.eE+-*/^()√ ,[]xtπθτ∞−×÷·\u3000\uff11\uff0b"
_ATOMS = ["0", "1", "2", "7", "0.85", ".5", "1e-3", "2e400", "9" * 101, "1" * 100, "17/20",
          "pi", "e", "E", "x", "t", "theta", "tau", "oo", "-oo", "inf", "nan", "I", "zoo",
          "ln(2)", "log(3)", "sqrt(2)", "√3", "exp(1)", "sin(1)", "tan(pi/2)", "(1-1)",
          "10^50", "9^9^9", "2^4097", "exp(exp(exp(exp(1))))", "(-8)^(1/3)", "0^0", "x^33",
          "__import__", "lambda", "os", "Symbol", "Integer", "S", "evalf", "1_000",
          "２", "π", "−1", "1×2", "6÷4", "\u202e1", "\x00", "\ud800", "ﬁ", "²"]
_FUNCTIONS = ["exp", "ln", "log", "sqrt", "sin", "cos", "tan", "-", "", "abs", "Sum"]
_OPERATORS = ["+", "-", "*", "/", "^", "**", "", " ", "//", "%", ",", "=="]

grammar_texts = st.recursive(
    st.sampled_from(_ATOMS),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(_FUNCTIONS), inner).map(lambda p: f"{p[0]}({p[1]})"),
        st.tuples(inner, st.sampled_from(_OPERATORS), inner).map(lambda p: f"{p[0]}{p[1]}{p[2]}"),
        st.tuples(inner, st.sampled_from(_OPERATORS), inner).map(lambda p: f"({p[0]}{p[1]}{p[2]})"),
    ),
    max_leaves=10,
)


@st.composite
def near_miss(draw, base=grammar_texts) -> str:
    """A grammar-shaped text with a few edits: a character dropped, doubled, swapped or added."""
    text = draw(base)
    for _ in range(draw(st.integers(0, 3))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        edit = draw(st.sampled_from(("drop", "double", "swap", "insert", "repeat")))
        if edit == "drop":
            text = text[:i] + text[i + 1:]
        elif edit == "double":
            text = text[:i] + text[i] + text[i:]
        elif edit == "swap" and i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        elif edit == "insert":
            text = text[:i] + draw(st.sampled_from(_GRAMMAR)) + text[i:]
        elif edit == "repeat":
            text = text[:i] * draw(st.integers(2, 40)) + text[i:]
    return text


any_characters = st.characters(exclude_categories=())  # surrogates and controls included
entry_texts = st.one_of(
    near_miss(),
    st.text(max_size=60),
    st.text(alphabet=any_characters, max_size=30),
    st.text(alphabet=_GRAMMAR, max_size=80),
    st.sampled_from(CANARY_CODE),
    st.tuples(st.sampled_from(["(", "-", "sqrt(", "exp(", "2^"]), st.integers(25, 400)).map(
        lambda p: p[0] * p[1] + "1" + ")" * (p[1] if "(" in p[0] else 0)),
)


# ---------------------------------------------------------------- entries and claims


@fuzz(400)
@given(entry_texts, st.booleans())
def test_entries_give_a_finite_real_value_or_a_located_error(text, mask_entry):
    value, error = bounded(lambda: parse_expression(text, symbols=SYMBOLS,
                                                    allow_neg_infinity=mask_entry))
    if error is not None:
        one_line(error)
        if error.column is None:  # only refusals of the whole entry have no column
            assert error.reason.startswith(("entry is ", "expected text")), error.reason
        else:
            assert 1 <= error.column <= len(text) + 1, (error.column, len(text))
        return
    assert isinstance(value, sp.Expr)
    if value is sp.S.NegativeInfinity:
        assert mask_entry
        return
    assert not value.has(sp.I, sp.nan, sp.zoo, sp.oo, -sp.oo)
    assert value.is_real is not False and value.is_finite is not False
    assert value.free_symbols <= {X, T}


CLAIM_KEYS = ["A", "A[1]", "A[3]", "A[3,1]", "O[:,2]", "O[:, 1]", "shape(O)", "shape(A)", "d_k",
              "tau", "s", "n_q", "M[1,1]", "L[2]", "A[0]", "A[4,4]", "A[99999999999999999999]",
              "X", "A[1", "shape(Z)", "", " ", "A[1,2,3]", "A[-1]", "Ａ", "__class__", "A[1][1]"]
scalars = st.one_of(
    st.integers(-3, 3), st.integers(-10**30, 10**30), st.booleans(), st.none(),
    st.floats(allow_nan=True, allow_infinity=True), entry_texts,
    st.sampled_from(["(1/6, 1/2, 1/3)", "[[1, 0], [1/10, 9/10]]", "[1/6, 1/2", "((1))",
                     "[[1,2],[3]]", "4x3", "4×3", "3x2", "0x0", "99999x1", "[]", "[[]]", "()",
                     "(,)", "[,]", "1,,2", "0.1667", "2.33", "-oo", "7/3"]),
)
claim_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=12)
GRADINGS = [Grading(), Grading(tolerance=sp.Rational(1, 1000)),
            Grading(relative=sp.Rational(1, 100)), Grading(sigfigs=3), Grading(rule="float32"),
            Grading(rule="float64"),
            Grading(rule="allclose", rtol=sp.Rational(1, 10 ** 5), atol=sp.Rational(1, 10 ** 8))]
_FACTS: dict[str, Any] = {}


def causal_facts():
    if "facts" not in _FACTS:
        _FACTS["facts"] = facts_of(load_problem(EXAMPLES / "02_causal_three_positions" /
                                                "problem.toml"))
    return _FACTS["facts"]


@fuzz(250)
@given(st.one_of(st.sampled_from(CLAIM_KEYS), st.text(max_size=12)), claim_values,
       st.sampled_from(GRADINGS))
def test_claims_are_judged_or_their_key_refused(key, raw, grading):
    claim, error = bounded(lambda: parse_claim(key, raw, SYMBOLS))
    if error is not None:
        assert "claim key" in one_line(error)
        return
    assert isinstance(claim, Claim)
    for row in claim.rows:
        for entry in row:
            assert (entry.value is None) is (entry.error is not None)
            assert entry.error is None or "\n" not in entry.error
    verdict, error = bounded(lambda: judge(claim, causal_facts(), grading))
    assert error is None, error
    assert verdict.status in STATUSES


# ---------------------------------------------------------------- problem files


class Raw(str):
    """A TOML literal written as it is: numbers, nan, inf, dates."""


RAW_LITERALS = ["0.85", "-0.5", "1e400", "1e-400", "nan", "+nan", "-nan", "inf", "-inf", "+inf",
                "-0.0", "1_000.5", "0x1F", "0o17", "0b101", "1979-05-27", "07:32:00",
                "1979-05-27T07:32:00Z", "1" * 4400, "9" * 1200, "0." + "3" * 150, "2e-3"]
NICE_ENTRIES = [0, 1, 2, -1, Raw("0.5"), "ln(2)", "ln(3)", "1/2", "sqrt(2)", "2/3", "-ln(2)",
                "0.85", "x", "t", "exp(-1)"]
toml_scalars = st.one_of(
    st.integers(-3, 3), st.integers(-10**400, 10**400), st.booleans(),
    st.sampled_from(RAW_LITERALS).map(Raw), entry_texts,
)
toml_junk = st.recursive(
    toml_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["Q", "K", "V", "shape", "mask", "x", "a.b", "\u732b"]), inner,
        max_size=3),
    max_leaves=10)


NICE = st.sampled_from(NICE_ENTRIES)


def matrix(rows: int, cols: int, entries=NICE):
    return st.lists(st.lists(entries, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


@st.composite
def problem_data(draw) -> dict[str, Any]:
    """A problem that is mostly well formed: small exact matrices and some options."""
    n_q, n_k, d_k, d_v = (draw(st.integers(1, 3)) for _ in range(4))
    data: dict[str, Any] = {}
    if draw(st.booleans()):
        data["symbols"] = {"x": "real", "t": "positive"}
    entries = st.sampled_from(NICE_ENTRIES if "symbols" in data else NICE_ENTRIES[:-3])
    data["input"] = {"Q": draw(matrix(n_q, d_k, entries)), "K": draw(matrix(n_k, d_k, entries)),
                     "V": draw(matrix(n_k, d_v, entries))}
    if draw(st.integers(0, 9)) == 0:
        data["input"] = {name: {"shape": [draw(st.integers(1, 5)), draw(st.integers(1, 5))]}
                         for name in ("Q", "K", "V")}
        return data
    attention: dict[str, Any] = {}
    for key, values in ATTENTION_OPTIONS.items():
        if draw(st.integers(0, 2)) == 0:
            attention[key] = draw(values(n_q, n_k))
    if attention:
        attention.setdefault("fully_masked", draw(st.sampled_from(["zero", "uniform", "error"])))
        data["attention"] = attention
    if draw(st.booleans()):
        data["tokens"] = draw(st.lists(st.sampled_from(LABELS), min_size=n_q, max_size=n_q))
    if draw(st.integers(0, 2)) == 0:
        data["title"] = draw(st.sampled_from(LABELS))
    if draw(st.booleans()):
        data["answers"] = draw(st.dictionaries(st.sampled_from(CLAIM_KEYS[:10]), scalars,
                                               max_size=3))
    if draw(st.integers(0, 3)) == 0:
        data["grading"] = draw(st.sampled_from([{"tolerance": "0.001"}, {"sigfigs": 3},
                                                {"relative_tolerance": Raw("0.01")}]))
    if draw(st.integers(0, 3)) == 0:
        data["derivation"] = {"lang": draw(st.sampled_from(["en", "zh"])),
                              "row": draw(st.integers(1, n_q)), "figure": draw(st.booleans())}
    return data


LABELS = ["A", "B", "\u732b", "[CLS]", "<pad>", r"\input{x}", "50%_a&b", "$$", "^^5c", "</script>",
          "a" * 200]
ATTENTION_OPTIONS: dict[str, Callable[[int, int], st.SearchStrategy]] = {
    "mask": lambda n_q, n_k: st.sampled_from(["none", "causal", "causal-bottom-right"]),
    "keep": lambda n_q, n_k: matrix(n_q, n_k, st.booleans()),
    "key_lengths": lambda n_q, n_k: st.lists(st.integers(0, n_k), min_size=n_q, max_size=n_q),
    "bias": lambda n_q, n_k: matrix(n_q, n_k, st.sampled_from([0, "-oo", Raw("-inf"), "ln(2)",
                                                               Raw("0.5"), "-1"])),
    "temperature": lambda n_q, n_k: st.sampled_from([1, 2, Raw("0.85"), "17/20", "1/2", "t"]),
    "scale": lambda n_q, n_k: st.sampled_from(["auto", "none", "1/2", "sqrt(2)"]),
}


@st.composite
def damaged(draw, data: Any, depth: int = 0) -> Any:
    """The data with one value somewhere replaced by junk, removed, or a junk key added."""
    if isinstance(data, dict) and data and depth < 4 and draw(st.integers(0, 3)):
        key = draw(st.sampled_from(sorted(data, key=str)))
        return {**data, key: draw(damaged(data[key], depth + 1))}
    if isinstance(data, list) and data and depth < 4 and draw(st.integers(0, 3)):
        i = draw(st.integers(0, len(data) - 1))
        return data[:i] + [draw(damaged(data[i], depth + 1))] + data[i + 1:]
    change = draw(st.sampled_from(("junk", "junk", "empty", "grow", "key")))
    if change == "empty":
        return type(data)() if isinstance(data, (list, dict)) else ""
    if change == "grow" and isinstance(data, list) and data:
        return data * draw(st.sampled_from([2, 3, 171, 513]))
    if change == "key" and isinstance(data, dict):  # no empty top-level key: see the xfail below
        keys = ["junk", "Q", "mask", "\u732b", "title"] + ([""] if depth else [])
        return {**data, draw(st.sampled_from(keys)): draw(toml_junk)}
    return draw(toml_junk)


def toml_value(value: Any) -> str:
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value).lower()  # nan, inf and -inf are TOML; 1e+300 is too
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if value is None:
        return "[]"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)} = {toml_value(v)}"
                           for k, v in value.items()) + "}"


def toml_document(data: dict[str, Any]) -> str:
    """Scalars and arrays first, then one [table] per table (its own tables written inline)."""
    lines = [f"{json.dumps(k, ensure_ascii=False)} = {toml_value(v)}"
             for k, v in data.items() if not isinstance(v, dict)]
    for key, table in data.items():
        if isinstance(table, dict):
            lines.append(f"[{json.dumps(key, ensure_ascii=False)}]")
            lines += [f"{json.dumps(k, ensure_ascii=False)} = {toml_value(v)}"
                      for k, v in table.items()]
    return "\n".join(lines) + "\n"


@st.composite
def problem_texts(draw, damage: int = 3) -> str:
    """TOML text of a problem, damaged in its data and then in its text."""
    data = draw(problem_data())
    for _ in range(draw(st.integers(0, damage))):
        data = draw(damaged(data))
    text = toml_document(data if isinstance(data, dict) else {"input": data})
    for _ in range(draw(st.integers(0, damage // 2))):
        i = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(("nul", "bom", "duplicate", "truncate", "char", "nest")))
        if edit == "nul":
            text = text[:i] + "\x00" + text[i:]
        elif edit == "bom":
            text = "\ufeff" + text
        elif edit == "duplicate":  # a repeated line is a duplicate key or table
            lines = text.splitlines(keepends=True)
            j = draw(st.integers(0, len(lines) - 1))
            text = "".join(lines[:j + 1] + [lines[j]] + lines[j + 1:])
        elif edit == "truncate":
            text = text[:i]
        elif edit == "char":
            text = text[:i] + draw(any_characters) + text[i:]
        else:
            n = draw(st.sampled_from([10, 500, 5000]))
            text = text[:i] + "[" * n + "]" * n + text[i:]
    return text


WHOLE_FILE_REASONS = ("TOML syntax: ", "TOML nested too deeply", "TOML value: ",
                      "file contains a NUL character", "text is ", "file is ", "not UTF-8",
                      "cannot read file")


def located(error: InputError, source: str) -> None:
    """A refusal of a file names the file, and a key path unless it is about the whole file."""
    message = one_line(error)
    assert error.source == source and message.startswith(source), message
    if not error.key:
        assert error.reason.startswith(WHOLE_FILE_REASONS), message
    if error.reason.startswith("TOML syntax: ") and "end of document" not in error.reason:
        assert "line" in error.reason, message


@fuzz(250)
@given(problem_texts())
def test_problem_text_gives_a_problem_or_a_located_error(text):
    problem, error = bounded(lambda: parse_problem(text, source="p.toml"))
    event("refused" if error else "read")
    if error is not None:
        located(error, "p.toml")
        return
    assert isinstance(problem, (Problem, ShapeProblem))


@pytest.mark.parametrize("text", ['"" = 0\n', '[input]\n"" = 1\n'], ids=["top", "input"])
def test_an_empty_key_is_named_in_the_error(text):
    with pytest.raises(InputError) as caught:
        parse_problem(text, source="p.toml")
    assert caught.value.key and not caught.value.key.endswith("."), str(caught.value)


@fuzz(60)
@given(problem_texts(), st.sampled_from(["utf-8", "bom", "utf-16", "latin-1", "bad-byte",
                                         "surrogate", "huge"]))
def test_problem_file_bytes_give_a_problem_or_a_located_error(text, encoding):
    if encoding == "bom":
        data = b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")
    elif encoding in ("utf-16", "latin-1"):
        data = text.encode(encoding, "replace")
    elif encoding == "bad-byte":
        data = text.encode("utf-8", "surrogatepass") + b"\n# \xc3\x28 \xff\n"
    elif encoding == "surrogate":  # a lone surrogate, as some editors write it
        data = text.encode("utf-8", "surrogatepass") + '\ntitle = "\ud800"\n'.encode(
            "utf-8", "surrogatepass")
    elif encoding == "huge":
        data = text.encode("utf-8", "surrogatepass") + b"#" * 1_000_000
    else:
        data = text.encode("utf-8", "surrogatepass")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.toml"
        path.write_bytes(data)
        problem, error = bounded(lambda: load_problem(path))
    if error is not None:
        located(error, str(path))
        return
    assert isinstance(problem, (Problem, ShapeProblem))


# ---------------------------------------------------------------- the command line

COMMANDS = [["solve"], ["solve", "--format", "json"], ["solve", "--format", "latex"],
            ["solve", "--format", "markdown", "--detail", "full", "--figure"],
            ["solve", "--format", "latex", "--lang", "zh", "--standalone", "--places", "2"],
            ["solve", "--row", "2"], ["check"], ["check", "--digits", "20"], ["verify"],
            ["verify", "--format", "json", "--lang", "zh"], ["solve", "--places", "99"],
            ["check", "--digits", "5"], ["verify", "--answers", "{answers}"]]


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code, error = bounded(lambda: cli.main(argv), COMMAND_SECONDS)
    assert error is None
    return code, out.getvalue(), err.getvalue()


@fuzz(60)
@given(problem_texts(damage=1), st.sampled_from(COMMANDS), problem_texts(damage=1))
def test_command_line_exits_0_1_or_2_with_one_line_errors(text, command, answers):
    with tempfile.TemporaryDirectory() as folder:
        path, other = Path(folder) / "p.toml", Path(folder) / "a.toml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        other.write_text(answers, encoding="utf-8", errors="surrogatepass")
        argv = [command[0], str(path)] + [a.format(answers=other) for a in command[1:]]
        code, out, err = run_cli(argv)
    event(f"exit {code}")
    assert code in (0, 1, 2), err
    if code == 2:  # one line naming the file (or the command-line option) at fault
        assert err.count("\n") == 1 and "internal error" not in err, err
        assert err.startswith((f"error: {path}", f"error: {other}", "error: symattn",
                               "error: --")), err
    else:
        assert out and not err, err


@pytest.mark.parametrize("code", CANARY_CODE, ids=[
    "os-system", "open", "pathlib", "exec", "eval", "subclasses", "lambda", "compile", "getattr",
    "shell", "backticks", "write18"])
def test_code_in_every_field_of_a_problem_never_runs(tmp_path, code):
    c = "'''" + code + "'''"  # the code as a TOML literal string
    text = (f"title = {c}\ntokens = [{c}, 'b']\n[input]\nQ = [[{c}], [1]]\nK = [[1], [2]]\n"
            f"V = [[1], [{c}]]\n[attention]\ntemperature = {c}\nbias = [[{c}, 0], [0, 0]]\n"
            f"[answers]\n'A[1,1]' = {c}\n'O' = [[{c}], [1]]\n")
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    for argv in (["solve", str(path)], ["verify", str(path)], ["check", str(path)]):
        code_, out, err = run_cli(argv)
        assert code_ == 2 and err.startswith(f"error: {path}, "), err
    # The same code as labels and claims (which are never parsed as values) is inert text.
    fine = (f"title = {c}\ntokens = [{c}, 'b']\n[input]\nQ = [[1], [1]]\nK = [[1], [2]]\n"
            f"V = [[1], [2]]\n[answers]\n'A[1,1]' = {c}\n")
    path.write_text(fine, encoding="utf-8")
    assert run_cli(["verify", str(path)])[0] == 1
    for fmt in ("latex", "markdown", "json", "text"):
        assert run_cli(["solve", str(path), "--format", fmt])[0] in (0, 2)


# ---------------------------------------------------------------- CSV submissions

csv_cells = st.one_of(entry_texts, st.sampled_from(['"', '""', ',', '\n', '\r', '"a,b"', "\x00",
                                                    "x" * 200_000, "(1/6, 1/2, 1/3)"]))


@st.composite
def submission_bytes(draw) -> bytes:
    keys = draw(st.lists(st.sampled_from(CLAIM_KEYS + ['"O[3,1]"', '"A[1,1]"']), max_size=4))
    lines = [",".join(["id"] + keys)]
    for _ in range(draw(st.integers(0, 4))):
        lines.append(",".join(draw(st.lists(csv_cells, max_size=5))))
    text = draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)
    data = text.encode("utf-8", "surrogatepass")
    edit = draw(st.sampled_from(("none", "none", "bom", "bad-byte", "nul", "random")))
    if edit == "bom":
        data = b"\xef\xbb\xbf" + data
    elif edit == "bad-byte":
        data += b"\xff"
    elif edit == "nul":
        data = b"\x00" + data
    elif edit == "random":
        data = draw(st.binary(max_size=200))
    return data


@fuzz(150)
@given(submission_bytes())
def test_submissions_are_read_or_refused_with_a_location(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "subs.csv"
        path.write_bytes(data)
        submissions, error = bounded(lambda: read_submissions(path))
    if error is not None:
        message = one_line(error)
        assert error.source == str(path), message
        assert error.key == "line 1" or error.reason.startswith("file is over"), message
        return
    assert isinstance(submissions, Submissions)
    assert all(len(answers) == len(submissions.keys) for _, answers in submissions.students)
    assert all(why[0] == "read_row" and "\n" not in reason_text(why, "en")
               for _, why in submissions.refused)
    assert not any(c in student for student, _ in submissions.students for c in "\x00\x1b\u202e")


# ---------------------------------------------------------------- huge and tiny magnitudes
# Logits, biases and temperatures spread over 10^±300: every format and the cross-check answer
# (exit 0), or the logit limit refuses the problem (exit 2), within the hang guard; the weights'
# decimals are checked against an independent computation from the exact logit differences.

HUGE_LOGIT = '[input]\nQ = [["1e4"], [1]]\nK = [["1e4"], [0]]\nV = [[1], [2]]\n'
HUGE_VALUES = ('[input]\nQ = [["9e99"], ["-9e99"], [1]]\nK = [["9e99"], [0], ["1e-100"]]\n'
               'V = [[1], [2], [3]]\n[attention]\ntemperature = "1e-100"\n')


@pytest.mark.parametrize("fmt", ["markdown", "latex"])
def test_a_huge_logit_is_derived(tmp_path, fmt):
    path = tmp_path / "p.toml"
    path.write_text(HUGE_LOGIT, encoding="utf-8")
    code, out, _ = run_cli(["solve", str(path), "--format", fmt])
    assert code == 0 and r"Z_{2} = e^{10000} + 1" in out and r"e^{10000}/Z_{2}" in out
    assert r"1.0000 \\ 1.0000" in out  # O's decimals, from the exact logit differences


def test_huge_exact_values_pass_the_cross_check(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(HUGE_VALUES, encoding="utf-8")
    code, out, _ = run_cli(["check", str(path)])
    assert code == 0, out


def power_of_ten(low: int = -100, high: int = 100):
    """A decimal literal m·10^k the parser reads: 1 to 3 digits, k from low to high."""
    return st.tuples(st.integers(-999, 999).filter(bool), st.integers(low, high))


def literal(number: tuple[int, int]) -> str:
    return f"{number[0]}e{number[1]}"


def fraction(number: tuple[int, int]) -> Fraction:
    return Fraction(number[0]) * Fraction(10) ** number[1]


@st.composite
def huge_problems(draw) -> tuple[str, list[Fraction]]:
    """One query and three keys (d_k = 1, no scale) whose logits q·k_j/τ + b_j reach 10^±300:
    two keys nearly equal in size, so that logits agree in their first hundred digits or more.
    Returns the file and the exact logits."""
    q, k, (m, e) = draw(power_of_ten()), draw(power_of_ten()), draw(power_of_ten(-100, 10))
    tau = (abs(m), e)
    nudge, bias = draw(power_of_ten()), draw(power_of_ten())
    keys = [fraction(k), fraction(k) + fraction(nudge), Fraction(0)]
    text = (f'[input]\nQ = [["{literal(q)}"]]\nK = [["{literal(k)}"], ["{literal(k)} + '
            f'{literal(nudge)}"], [0]]\nV = [[1], [-1], [2]]\n[attention]\nscale = "none"\n'
            f'temperature = "{literal(tau)}"\n'
            f'bias = [[0, 0, "{literal(bias)}"]]\n')
    logits = [fraction(q) * key / fraction(tau) for key in keys]
    logits[2] += fraction(bias) / fraction(tau)
    return text, logits


def expected_weights(logits: list[Fraction], places: int = 4) -> list[str]:
    """Softmax from exact differences of logits, each weight rounded to `places` decimals; one
    that rounds to zero in two significant figures (1.0e-43), from its base-10 logarithm with
    as many more digits as the largest difference has (e^(-10^41) has a 41-digit exponent)."""
    ctx = mpmath.MPContext()
    top = max(logits)
    differences = [x - top for x in logits]
    ctx.dps = 40 + len(str(int(max(abs(d) for d in differences))))
    exps = [ctx.exp(ctx.mpf(d.numerator) / d.denominator) for d in differences]
    total = ctx.fsum(exps)
    shown = []
    for weight in (x / total for x in exps):
        units = int(ctx.nint(weight * 10 ** places))
        if units:
            shown.append(f"{units // 10 ** places}.{units % 10 ** places:0{places}d}")
            continue
        power = ctx.log10(weight)
        exponent = int(ctx.floor(power))
        mantissa = Decimal(ctx.nstr(ctx.power(10, power - exponent), 15, min_fixed=-1))
        rounded = mantissa.quantize(Decimal("0.1"), ROUND_HALF_UP)
        if rounded >= 10:  # 9.96e-7 is 1.0e-6
            rounded, exponent = Decimal("1.0"), exponent + 1
        shown.append(f"{rounded}e{exponent}")
    return shown


def weights_shown(text: str) -> list[str]:
    """The decimals beside the first row of A in `symattn solve` text (a grid or a listing)."""
    block = text.split("A = softmax")[1].split("O = A V")[0]
    grid = re.search(r"~ decimals[^\n]*:\n(?!\s*row )", block)  # not "row 1:" of a listing
    if grid:
        return block[grid.end():].splitlines()[1].split()[1:]
    return [line.rsplit("~ ", 1)[1].strip() for line in block.splitlines()
            if line.strip().startswith("A[1,")]


@fuzz(40)
@given(huge_problems())
def test_huge_magnitudes_are_answered_with_correct_decimals(problem):
    text, logits = problem
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.toml"
        path.write_text(text, encoding="utf-8")
        results = {fmt: run_cli(["solve", str(path), "--format", fmt])
                   for fmt in ("text", "latex", "markdown")}
        check_code, check_out, _ = run_cli(["check", str(path)])
    refused = max(abs(x) for x in logits) >= Fraction(10) ** 1000
    event("refused" if refused else "answered")
    for code, out, err in [*results.values(), (check_code, check_out, "")]:
        assert code == (2 if refused else 0), (err, out[-400:])
    if refused:
        return
    assert weights_shown(results["text"][1]) == expected_weights(logits), text


# ---------------------------------------------------------------- enormous and strange files


def test_enormous_and_strange_files_exit_2_quickly(tmp_path):
    cases = {
        "huge.toml": b"[input]\nQ = [[1]]\nK = [[1]]\nV = [[1]]\n" + b"#" * 3_000_000,
        "nul.toml": b"[input]\nQ = [[1]]\0\nK = [[1]]\nV = [[1]]\n",
        "bad-utf8.toml": b"title = \"\xc3\x28\"\n",
        "utf16.toml": "[input]\nQ = [[1]]\n".encode("utf-16"),
        "duplicate.toml": b"[input]\nQ = [[1]]\nQ = [[2]]\nK = [[1]]\nV = [[1]]\n",
        "nan.toml": b"[input]\nQ = [[nan]]\nK = [[1]]\nV = [[1]]\n",
        "inf.toml": b"[input]\nQ = [[inf]]\nK = [[1]]\nV = [[1]]\n",
        "empty.toml": b"",
        "binary.toml": bytes(range(256)) * 10,
        "deep.toml": b"a = " + b"[" * 200_000 + b"]" * 200_000,
        "long-line.toml": b"title = \"" + b"a" * 900_000 + b"\"\n",
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        for command in ("solve", "check", "verify"):
            code, out, err = run_cli([command, str(path)])
            assert code == 2 and err.startswith(f"error: {path}") and err.count("\n") == 1, \
                (name, err)
    assert run_cli(["solve", str(tmp_path)])[0] == 2  # a directory
    assert run_cli(["solve", str(tmp_path / "absent.toml")])[0] == 2
