"""Derivations: phrase table, escaping, content of the seed examples, detail levels, injection."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import types
from string import Formatter

import pytest
import sympy as sp
from clients import compile_tex, katex_errors, math_blocks, pdf_text

import symattn
from symattn import InputError, cli, notebook
from symattn.targets.markdown import escape_markdown
from symattn.words import PHRASES
from symattn.words import GRAMMAR_FIELDS, LANGUAGES
from symattn.printing.printer import escape_text


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in Formatter().parse(text) if f}


@pytest.mark.parametrize("key", sorted(PHRASES))
def test_every_phrase_in_both_languages_with_the_same_placeholders(key):
    assert set(PHRASES[key]) == set(LANGUAGES)
    assert all(PHRASES[key][lang].strip() for lang in LANGUAGES)
    assert fields(PHRASES[key]["en"]) - GRAMMAR_FIELDS == fields(PHRASES[key]["zh"]) - GRAMMAR_FIELDS
    assert all(PHRASES[key][lang].count("$") % 2 == 0 for lang in LANGUAGES)


@pytest.mark.parametrize("label, latex", [
    (r"\input{/etc/passwd}", r"\textbackslash{}input\{/etc/passwd\}"),
    ("50%_a&b", r"50\%\_a\&b"),
    ("^^5c", r"\textasciicircum{}\textasciicircum{}5c"),
    ("$$", r"\textdollar{}\textdollar{}"),
    ("[CLS]", "{[}CLS{]}"),
    ("</script>", r"\textless{}/script\textgreater{}"),
    ("模型", "模型"),
    ("a~b#c|d", r"a\textasciitilde{}b\#c\textbar{}d"),
], ids=["input", "specials", "caret-escape", "dollars", "brackets", "script", "cjk", "more"])
def test_escape_text(label, latex):
    assert escape_text(label) == latex


@pytest.mark.parametrize("label", ["a\u202eb", "x\x00", "tab\there", "\u200bzero-width"],
                         ids=["bidi", "nul", "tab", "zero-width"])
def test_control_and_bidi_characters_are_refused(label):
    with pytest.raises(InputError, match="is not allowed in a label"):
        escape_text(label)


def test_escape_markdown():
    assert escape_markdown("</script> *x* $$ [CLS] a_b") == \
        r"&lt;/script&gt; \*x\* \$\$ \[CLS\] a\_b"


def render(name, example, **options):
    trace = symattn.attend(symattn.load_problem(example(name)))
    return symattn.render(trace, **options)


def test_causal_seed_row_three_is_written_out(example):
    md = render("02_causal_three_positions", example, to="markdown", row=3)
    assert r"e^{L_{3,2}} &= e^{\ln 3} = 3" in md
    assert r"Z_{3} &= \sum\nolimits_j e^{L_{3,j}} = 1 + 3 + 2 = 6" in md
    assert r"A_{3,2} &= e^{L_{3,2}}/Z_{3} = 3/6 = 1/2 \\" in md  # 1/2 needs no ≈ 0.5
    assert r"A_{3,1} &= e^{L_{3,1}}/Z_{3} = 1/6 \approx 0.1667" in md  # not 1/6 = 1/6
    assert "The weights sum to one: $1/6 + 1/2 + 1/3 = 1$." in md  # a sentence, not a display
    assert (r"O_{3,1} &= \sum\nolimits_j A_{3,j} V_{j,1} = \left(1/6\right) \cdot 2 + \left(1/2\right) "
            r"\cdot 0 + \left(1/3\right) \cdot 6 = 7/3 \approx 2.3333") in md


def test_two_position_seed_names_a_p_q(example):
    md = render("01_two_positions", example, to="markdown")
    assert r"write $a = 1/\sqrt{2} \approx 0.7071$:" in md
    assert (r"with $p = e^{a}/(e^{a} + 1) \approx 0.6698$ and "
            r"$q = 1 - p = 1/(e^{a} + 1) \approx 0.3302$, gives:") in md
    assert r"A = \left[\begin{array}{cc} p & q \\ q & p \end{array}\right]" in md
    assert (r"= \left[\begin{array}{cc} 2 p & 4 q \\ 2 q & 4 p \end{array}\right] \approx "
            r"\left[\begin{array}{cc} 1.3395 & 1.3210 \\ 0.6605 & 2.6790 \end{array}\right]") in md


def test_five_tokens_use_a_generator_t(example):
    md = render("13_five_tokens_no_mask", example, to="markdown", lang="zh", row=5)
    assert r"逐行取指数，记 $t = e^{20 \sqrt{3}/51} \approx 1.9724$，得到" in md
    assert r"Z_{5} &= \sum\nolimits_j e^{L_{5,j}} = t + t + t^{2} + t^{3} + t^{2} = t^{3} + 2 t^{2} + 2 t" in md
    assert "第 5 行（权重）逐步计算" in md


def test_a_row_sum_whose_terms_do_not_combine_is_written_once(example):
    md = render("05_five_tokens_temperature", example, to="markdown", row=3)
    z3 = [line for line in md.splitlines() if line.startswith("Z_{3} &=")]
    assert z3 == [r"Z_{3} &= \sum\nolimits_j e^{L_{3,j}} = e^{20 \sqrt{3}/17} + e^{938 \sqrt{3}/1275} + "
                  r"e^{543 \sqrt{3}/425} \approx 20.392"]  # not again in SymPy's order


@pytest.mark.parametrize("detail, row, rows", [("summary", None, []), ("textbook", None, []),
                                               ("textbook", 3, [3]), ("standard", 2, [2]),
                                               ("full", None, [1, 2, 3])])
def test_detail_levels(example, detail, row, rows):
    md = render("02_causal_three_positions", example, to="markdown", detail=detail, row=row)
    assert [int(r) for r in re.findall(r"## Row (\d) ", md)] == rows
    substitution = r"QK^{\mathsf T} = \left[\begin{array}{c} 1 \\ 2 \\ 1 \end{array}\right]\left["
    assert (substitution in md) == (detail != "summary")
    assert ("with sums $1$, $10$ and $6$" in md) == (detail != "summary")


def test_chosen_row_and_places(example):
    md = render("02_causal_three_positions", example, to="markdown", row=2, places=2)
    assert "## Row 2 (B) step by step" in md
    assert r"A_{2,2} &= e^{L_{2,2}}/Z_{2} = 9/10 \\" + "\n" in md  # no ≈ 0.90
    assert r"2.33 & 2.67" in md and "2.3333" not in md


def test_fully_masked_row_is_stated(example):
    trace = symattn.attention([[1], [1]], [[0], [1]], [[1], [2]], keep=[[False, False], [True, True]],
                              fully_masked="zero")
    md = symattn.render(trace, "markdown", detail="full")
    assert "Row 1 may read no key; by the policy its weights are 0." in md


def test_fragment_needs_only_amsmath():
    trace = symattn.attention([[1]], [[0], ["ln(3)"]], [[1], [2]])
    tex = symattn.render(trace, "latex")
    assert r"\documentclass" not in tex and r"\usepackage" not in tex
    assert not re.search(r"\\(label|mbox|begin\{tabular)", tex)


def test_unknown_format_and_language_are_refused():
    trace = symattn.attention([[1]], [[1]], [[1]])
    with pytest.raises(ValueError, match="unknown format 'pdf'"):
        symattn.render(trace, "pdf")
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        symattn.render(trace, "markdown", lang="fr")


HOSTILE = [r"\input{/etc/passwd}", "50%_a&b", "$$", "</script>", "[CLS]", "^^5c"]


@pytest.fixture(scope="module")
def hostile_trace():
    return symattn.attention([[1], [0], [1], [0], [1], [0]], [[1]] * 6, [[1]] * 6, tokens=HOSTILE,
                             title=r"\write18{touch /tmp/pwned} 100% ~")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hostile_labels_appear_literally_in_the_pdf(hostile_trace, lang):
    tex = symattn.render(hostile_trace, "latex", lang=lang, standalone=True, figure=True)
    text = pdf_text(compile_tex(tex, lang))
    for label in HOSTILE + [r"\write18{touch /tmp/pwned} 100% ~"]:
        assert label in text, label


def test_hostile_labels_render_with_katex(hostile_trace):
    md = symattn.render(hostile_trace, "markdown", figure=True)
    assert "</script>" not in md and "&lt;/script&gt;" in md
    assert katex_errors(math_blocks(md)) == []


class _Formatter:
    """What symattn uses of an IPython display formatter: registration by type name."""

    def __init__(self, mime, registered):
        self.mime, self.registered = mime, registered

    def for_type_by_name(self, module, name, function):
        self.registered[self.mime, module, name] = function


def _fake_ipython(registered):
    formatters = {mime: _Formatter(mime, registered) for mime in ("text/markdown", "text/latex")}
    shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace(formatters=formatters))
    return types.SimpleNamespace(get_ipython=lambda: shell)


def test_jupyter_shows_a_trace_as_its_derivation(monkeypatch):
    registered = {}
    monkeypatch.setitem(sys.modules, "IPython", _fake_ipython(registered))
    assert notebook.register()
    trace = symattn.attention([[1]], [[0], ["ln(3)"]], [[1], [2]])
    module, name = type(trace).__module__, type(trace).__name__
    assert registered["text/latex", module, name](trace) == (
        r"$$A = \left[\begin{array}{cc} \frac{1}{4} & \frac{3}{4} "
        r"\end{array}\right],\qquad O = \left[\begin{array}{c} "
        r"\frac{7}{4} \end{array}\right]$$")
    setups, rest = registered["text/markdown", module, name](trace).split("\n\n", 1)
    assert setups.startswith("<!-- symattn Markdown") and rest.startswith("# Derivation\n")


def test_outside_ipython_nothing_is_registered(monkeypatch):
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    assert notebook.register() is False
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: None))
    assert notebook.register() is False


def test_importing_symattn_in_ipython_registers_the_display():
    code = ("import sys, types\n"
            "registered = []\n"
            "class F:\n"
            "    def for_type_by_name(self, module, name, f): registered.append((module, name))\n"
            "shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace("
            "formatters={'text/markdown': F(), 'text/latex': F()}))\n"
            "sys.modules['IPython'] = types.SimpleNamespace(get_ipython=lambda: shell)\n"
            "import symattn\n"
            "print(sorted(set(registered)), 'sympy' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[('symattn.model', 'Trace')] False"


def test_problem_file_derivation_table_sets_defaults_that_options_override(example):
    trace = symattn.attend(symattn.load_problem(example("05_five_tokens_temperature")))
    assert dict(trace.problem.presentation) == {"figure": True, "row": 3, "places": 3}
    md = symattn.render(trace, "markdown")
    assert "## Row 3 (上下文) step by step" in md and r"\colorbox" in md
    md = symattn.render(trace, "markdown", row=5, figure=False)
    assert "## Row 5 (权重) step by step" in md and r"\colorbox" not in md


@pytest.mark.parametrize("table, message", [
    ("detail = 'all'", "derivation.detail: must be one of 'summary', 'textbook', 'full', "
                       "'standard'"),
    ("row = 4", "derivation.row: must be an integer from 1 to 3"),
    ("figure = 1", "derivation.figure: must be true or false"),
    ("font = 'x'", "derivation.font: unknown key"),
], ids=["detail", "row", "figure", "unknown"])
def test_bad_derivation_tables(example, table, message):
    text = example("02_causal_three_positions").read_text(encoding="utf-8")
    with pytest.raises(InputError, match=message):
        symattn.parse_problem(text + f"\n[derivation]\n{table}\n")


def _names(trace) -> list[str]:
    from symattn.checks.invariants import check
    from symattn.derivation import derive
    return [n.symbol.name for n in derive(trace, check(trace)).names]


def test_names_avoid_every_declared_symbol():
    letters = "a b c d t u w z g p q".split()
    trace = symattn.attention([[1, 0], [0, 1]], [[1, 0], [0, 1]], [["a", "b"], ["c", "d"]],
                              symbols=dict.fromkeys(letters, "real"))
    assert _names(trace) == ["a_1", "r", "p_1"]
    Q, K, V = [[1], [2]], [["sqrt(2)"], ["sqrt(3)"], [0]], [[1], [0], [2]]
    assert _names(symattn.attention(Q, K, V)) == ["t_1", "t_2"]
    taken = {"t_1": "real", "t_2": "real", "u": "real"}
    assert _names(symattn.attention(Q, K, V, symbols=taken)) == ["w_1", "w_2"]


def test_renderers_never_build_a_stage(example, monkeypatch):
    from symattn import model
    from symattn.checks.invariants import check
    from symattn.derivation import Options, derive
    from symattn.targets import render_derivation, render_trace

    trace = symattn.attend(symattn.load_problem(example("04_causal_four_positions")))
    assert not trace.is_complete
    for to in ("text", "json"):
        with pytest.raises(ValueError, match="not built yet"):
            render_trace(trace, to)
    derivation = derive(trace, check(trace), Options(detail="full", figure=True))
    assert derivation.trace.is_complete
    built = []
    real = model._Stage.__get__

    def spy(stage, owner_trace, owner=None):
        if owner_trace is not None and isinstance(owner_trace.__dict__[stage.name], model.Lazy):
            built.append(stage.name)
        return real(stage, owner_trace, owner)

    monkeypatch.setattr(model._Stage, "__get__", spy)
    for to in ("latex", "markdown"):
        render_derivation(derivation, to, standalone=True)
    with pytest.raises(ValueError, match="not built yet"):  # refused, not built
        render_trace(symattn.attend(trace.problem), "json")
    assert built == []


DECIMAL_PROBLEM = """[input]
X = [[0.42, -0.17, 0.88], [0.05, 0.61, -0.33]]
W_Q = [[0.3, -0.2], [0.7, 0.1], [-0.4, 0.9]]
W_K = [[0.5, 0.6], [-0.3, 0.2], [0.8, -0.1]]
W_V = [[1.0, 0.0], [0.0, 1.0], [0.5, -0.5]]
"""


def test_a_problem_written_in_decimals_is_shown_in_decimals():
    problem = symattn.parse_problem(DECIMAL_PROBLEM)
    assert problem.decimals and not symattn.parse_problem("[input]\nQ=[[1]]\nK=[[1]]\nV=[[1]]").decimals
    trace = symattn.attend(problem)
    assert trace.R[0, 0] == sp.Rational(-243095, 10 ** 6)  # exact underneath
    text = symattn.render(trace, "text")
    assert "-0.243095" in text and "243095" not in text.replace("-0.243095", "")
    assert "0.86" in text and "43/50" not in text and "scale s = sqrt(2)/2" in text
    document = json.loads(symattn.render(trace, "json"))
    assert document["stages"]["V"][0] == ["43/50", "-61/100"]
    assert document["display"]["V"][0] == ["0.86", "-0.61"]
    latex = symattn.render(trace, "latex", detail="full")
    assert "0.42 & -0.17 & 0.88" in latex.replace("- 0.17", "-0.17") and "\\frac{21}{50}" not in latex


def test_exponentials_of_decimal_logits_are_written_with_their_decimals():
    trace = symattn.attention([["0.9995"]], [[1], [0]], [[1], [0]], scale="none")
    latex = symattn.render(trace, "latex", detail="full")
    assert "e^{0.9995}" in latex and "1999" not in latex and "Names used" not in latex
    markdown = symattn.render(trace, "markdown")
    assert katex_errors(math_blocks(markdown)) == []


def test_people_read_e_and_json_keeps_sympy_syntax(tmp_path, capsys):
    trace = symattn.attention([[1]], [[1], [0]], [[10], [0]], scale="none")
    assert "e/(1 + e)" in symattn.render(trace, "text") and "E" not in symattn.render(trace, "text")
    assert json.loads(symattn.render(trace, "json"))["stages"]["A"][0][0] == "E/(1 + E)"
    path = tmp_path / "p.toml"
    path.write_text('[input]\nQ = [[1]]\nK = [[1], [0]]\nV = [[10], [0]]\n[attention]\n'
                    'scale = "none"\n[answers]\nO = "7"\n', encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 1
    assert "expected 10*e/(1 + e)" in capsys.readouterr().out
