"""Names and notation across documents: no introduced name is a token's label, numbered names in
the order a reader meets them, and `limits` stating its problem in solve's own words."""

from __future__ import annotations

import contextlib
import io
import re

import pytest
from conftest import EXAMPLES

from symattn import cli
from symattn.checks.invariants import check
from symattn.derivation import derive
from symattn.derivation.names import label_names
from symattn.exact.attention import attend
from symattn.parse.spec import load_problem

LETTERS = """title = "Tokens named by single letters"
tokens = ["a", "p", "c", "t"]

[input]
Q = [[1, 0], [0, 1], [1, 1], [1, 0]]
K = [[1, 0], [0, 1], [1, 1], [0, 0]]
V = [[2, 0], [0, 4], [1, 1], [0, 0]]

[attention]
mask = "causal"

[gradient]
loss = "sum"
"""
"""Four tokens called as the derivation would name a logit (a), a weight (p), a generator (t) and
as limits names its differences (c): before, the generator e^{√2/2} was named t, the fourth
token's own letter, limits wrote c and nonunique its step t."""
SWEEP = """title = "A turning query against keys named by letters"
tokens = ["t"]
key_tokens = ["u", "t_1"]

[symbols]
theta = "real"
tau = "positive"

[input]
Q = [["cos(theta)", "sin(theta)"]]
K = [[1, 0], [0, 1]]
V = [[2, 0], [0, 4]]

[attention]
scale = "none"
temperature = "tau"

[sweep]
theta = {from = "0", to = "pi/2", steps = 3}
tau = [1, 2]
"""
"""Example 09's problem with a query "t" and keys "u" and "t_1": its two generators, t_1 and t_2
in example 09, may be neither t_1 (a key's label) nor u_1 (u is a key)."""
SIXTH = EXAMPLES / "09_parameter_sweep" / "problem.toml"
FIVE = EXAMPLES / "05_five_tokens_temperature" / "problem.toml"


def _run(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main([str(a) for a in argv]) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def letters(tmp_path_factory):
    folder = tmp_path_factory.mktemp("letters")
    (folder / "letters.toml").write_text(LETTERS, encoding="utf-8")
    (folder / "sweep.toml").write_text(SWEEP, encoding="utf-8")
    return folder / "letters.toml", folder / "sweep.toml"


def test_a_label_reads_as_the_name_it_spells():
    assert label_names(("u", "t2", "t_3", "ε", "Δ", "模型", "k1")) == {
        "u", "t2", "t_2", "t_3", "ε", "epsilon", "Δ", "Delta", "模型", "k1", "k_1"}


def test_no_name_the_derivation_introduces_is_a_token(letters):
    for path in letters:
        trace = attend(load_problem(path))
        d = derive(trace, check(trace))
        labels = label_names(trace.problem.row_labels + trace.problem.column_labels)
        introduced = {n.symbol.name for n in d.names}
        assert introduced and not introduced & labels, introduced


DEFINED = re.compile(r"(?:\\\(|\$)([A-Za-z](?:_\{\d+\})?) = ")
"""A name defined inline: \\(u = …, $w_{1} = …."""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("to", ["latex", "markdown"])
def test_no_document_names_a_thing_after_a_token(letters, lang, to):
    """Every document kind of the problems whose tokens are letters: no letter defined inline is
    a token's label; the generator of the letters problem is u, the sweep's are w_1 and w_2."""
    path, sweep = letters
    runs = [("solve", path), ("limits", path), ("gradient", path), ("mistakes", path),
            ("nonunique", path), ("solve", sweep), ("sweep", sweep)]
    texts = {(verb, p.stem): _run(verb, p, "--format", to, "--lang", lang) for verb, p in runs}
    for (verb, stem), text in texts.items():
        defined = {name.replace("{", "").replace("}", "") for name in DEFINED.findall(text)}
        labels = {"a", "p", "c", "t"} if stem == "letters" else {"t", "u", "t_1"}
        assert not defined & labels, (verb, stem, defined)
    assert r"u = e^{\sqrt{2}/2} \approx 2.0281" in texts[("solve", "letters")]
    assert r"g = (S + M)_{ir} - (S + M)_{ij}" in texts[("limits", "letters")]
    assert r"w(u) = a + u\,n_1" in texts[("nonunique", "letters")]
    assert r"w_{1} = e^{\cos{\left(\theta \right)}/\tau}" in texts[("solve", "sweep")]
    assert r"w_{2} = e^{\sin{\left(\theta \right)}/\tau}" in texts[("solve", "sweep")]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("to", ["latex", "markdown"])
def test_generators_are_numbered_as_a_reader_meets_them(lang, to):
    """Example 09 at full detail: t_1 is the first exponential of the row, e^{cos θ/τ}, so the
    row reads (t_1, t_2), its sum Z_1 = t_1 + t_2 and its check (t_1 + t_2)/Z_1 = 1 (it was
    (t_2, t_1) and t_2/(t_1 + t_2) + t_1/(t_1 + t_2) = 1)."""
    text = _run("solve", SIXTH, "--format", to, "--lang", lang, "--detail", "full")
    assert r"t_{1} = e^{\cos{\left(\theta \right)}/\tau}" in text
    assert r"t_{2} = e^{\sin{\left(\theta \right)}/\tau}" in text
    assert r"\bigl(t_{1}, t_{2}\bigr)" in text
    assert r"(t_{1} + t_{2})/Z_{1} = 1" in text
    assert r"Z_{1} &= \sum\nolimits_j e^{L_{1,j}} = t_{1} + t_{2}" in text
    assert "t_{2}, t_{1}" not in text and "t_{2} + t_{1}" not in text


OPENING_ENDS = {"en": "Exponentiating each row", "zh": "逐行取指数"}


def _after_title(text: str) -> str:
    """What follows the document's first heading (LaTeX \\section*{…} or Markdown #)."""
    return re.split(r"^(?:\\section\*\{.*\}|# .*)$", text, maxsplit=1, flags=re.M)[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("to", ["latex", "markdown"])
def test_limits_state_the_problem_as_solve_does(lang, to):
    """Example 05: limits opens with solve's own setup sentence, inputs, scaled scores and
    logits L = (S + M)/τ, word for word, before its limits (it stated nothing of the problem)."""
    solve = _run("solve", FIVE, "--format", to, "--lang", lang)
    limits = _run("limits", FIVE, "--format", to, "--lang", lang)
    opening = _after_title(solve).split(OPENING_ENDS[lang], 1)[0].strip()
    assert opening.count("\n") >= 8  # the sentence, Q K V, R and S, the mask and L
    assert _after_title(limits).strip().startswith(opening)
    assert opening.startswith("取 $n_q = n_k = 5$" if (lang, to) == ("zh", "markdown") else
                              r"取 \(n_q = n_k = 5\)" if lang == "zh" else
                              "Take $n_q = n_k = 5$" if to == "markdown" else
                              r"Take \(n_q = n_k = 5\)")
    heading = "温度的极限" if lang == "zh" else "Limits in the temperature"
    assert limits.index(opening) < limits.index(heading)
    assert r"L &= (S + M)/\tau" in opening


@pytest.mark.parametrize("lang, words", [
    ("en", r"(symbols at \(\theta = 3/7\) and \(\tau = 5/7\))."),
    ("zh", r"（符号取 \(\theta = 3/7\)、\(\tau = 5/7\)）。")])
def test_the_gradient_check_writes_its_sample_point_as_math(lang, words):
    """Example 09's gradient is checked at θ = 3/7, τ = 5/7: written "theta = 3/7, tau = 5/7",
    an ASCII comma between Chinese words, before."""
    text = _run("gradient", SIXTH, "--loss", "sum", "--format", "latex", "--lang", lang)
    assert words in text and not re.search(r"(?<!\\)theta = 3/7", text)
