"""The Markdown as a whole, through a real math-aware Markdown renderer.

tests/clients.py `math_blocks` finds math with a regex and KaTeX renders each piece; here
markdown-it with @mdit/plugin-tex (Pandoc's `$` rules, as MyST, arithmatex and Pandoc read them)
parses every document and the pinned KaTeX renders what the parser found as math, in strict mode
(tools/katex/markdown.js). A document passes when nothing fails to render, no math-looking text is
left outside KaTeX, and the parser found exactly the math `math_blocks` finds. One node process
serves the whole module.
"""

from __future__ import annotations

import contextlib
import io
from collections import Counter

import pytest
from clients import math_blocks, render_markdown
from conftest import EXAMPLES, ROOT
from test_injection import hostile_trace

import symattn
from symattn.cli.main import main

DERIVATIONS = sorted(EXAMPLES.glob("*/derivation.*.md"))


def example(name: str) -> str:
    return str(EXAMPLES / name / "problem.toml")


CLI = {
    "solve-02-en": ["solve", example("02_causal_three_positions"), "--format", "markdown"],
    "solve-02-zh": ["solve", example("02_causal_three_positions"), "--format", "markdown",
                    "--lang", "zh"],
    "solve-01-full-figure": ["solve", example("01_two_positions"), "--format", "markdown",
                             "--detail", "full", "--figure"],
    "solve-12-two-heads": ["solve", example("12_two_heads"), "--format", "markdown",
                           "--detail", "full"],
    "solve-14-symbolic-zh": ["solve", example("14_symbolic_temperature"), "--format", "markdown",
                             "--detail", "full", "--lang", "zh"],
    "gradient-10": ["gradient", example("10_gradient"), "--format", "markdown"],
    "nonunique-08": ["nonunique", example("08_same_output_different_weights"), "--format",
                     "markdown"],
    "limits-01-zh": ["limits", example("01_two_positions"), "--format", "markdown", "--lang", "zh"],
}
"""CLI outputs, run in-process through main(argv)."""

UNIT = {
    "unfinished-fraction": r"Weight $\frac{1}{$ here.",
    "blank-line-in-display": "Text.\n\n$$\nA = 1\n\nB = 2\n$$\n",
    "unclosed-display": "Text.\n\n$$\nA = 1\n\nMore prose with $x$.\n",
    "adjacent-dollars": "$a$b$",
    "underscores": "$A_{1,2}$ and $B_{3}$",
    "underscores-plain": "A_{1,2} and B_{3}",
    "escaped-dollar": r"It costs \$5.",
    "paren-delimiters": r"Inline \(x^2\) is not a Markdown math delimiter.",
    "bare-control-word": "The weight is \\frac{1}{2}.\n",
    "indented-display": "- item\n\n        $$\n        x\n        $$\n",
    "clean": "# Title $R$\n\nProse $x_1$ and $y$.\n\n$$\nR = \\frac{1}{2}\n$$\n",
}
"""Small documents that prove the client catches (or, for "clean", passes) each case."""


def cli_markdown(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    assert code == 0, argv
    return out.getvalue()


@pytest.fixture(scope="module")
def rendered() -> dict[str, tuple[str, dict]]:
    """name -> (Markdown source, what markdown.js made of it), all in one node process."""
    sources = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in DERIVATIONS}
    sources |= {name: cli_markdown(argv) for name, argv in CLI.items()}
    trace = hostile_trace()
    sources |= {f"hostile-{lang}": symattn.render(trace, "markdown", figure=True, detail="full",
                                                  lang=lang) for lang in ("en", "zh")}
    sources |= UNIT
    results = render_markdown(list(sources.values()))
    return {name: (source, result) for (name, source), result in zip(sources.items(), results)}


def same_math(source: str, result: dict) -> None:
    """The parser found as math exactly what math_blocks finds, kind by kind."""
    expected = Counter((b["tex"].strip(), b["display"]) for b in math_blocks(source))
    found = Counter((r["tex"].strip(), r["display"]) for r in result["rendered"])
    assert result["math"] == len(math_blocks(source)) == result["display"] + result["inline"]
    assert found == expected, (expected - found, found - expected)


def leak_lines(result: dict) -> list[str]:
    return [f"line {leak['line']}: {leak['match']!r} in {leak['context']!r}"
            + (f" (escaped: {leak['escaped']})" if leak["escaped"] else "")
            for leak in result["leaks"]]


# ---------------------------------------------------------------- the project's Markdown


@pytest.mark.parametrize("name", [str(p.relative_to(ROOT)) for p in DERIVATIONS]
                         + list(CLI), ids=[f"{p.parent.name}-{p.stem.split('.')[-1]}"
                                           for p in DERIVATIONS] + list(CLI))
def test_markdown_renders_as_a_whole(rendered, name):
    source, result = rendered[name]
    assert result["errors"] == []
    assert leak_lines(result) == []
    same_math(source, result)
    assert result["math"] > 0


def test_every_worked_example_is_rendered():
    assert len(DERIVATIONS) >= 2 * 14
    assert {p.name for p in DERIVATIONS} == {"derivation.en.md", "derivation.zh.md"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hostile_labels_leave_only_escaped_characters(rendered, lang):
    """Labels full of $, \\(, [ and TeX commands: all math renders, and every math-looking
    character left in the prose is one the source escaped (\\$, \\[, \\\\input)."""
    source, result = rendered[f"hostile-{lang}"]
    assert result["errors"] == []
    same_math(source, result)
    assert result["leaks"], "the hostile labels put escaped $ and \\( in the prose"
    assert [line for leak, line in zip(result["leaks"], leak_lines(result))
            if leak["escaped"] is None] == []
    assert "<script" not in result["html"] and "<b>" not in result["html"]


# ---------------------------------------------------------------- the client catches problems


def test_an_unfinished_fraction_is_an_error(rendered):
    _, result = rendered["unfinished-fraction"]
    assert [e["tex"] for e in result["errors"]] == [r"\frac{1}{"]
    assert "KaTeX parse error" in result["errors"][0]["message"]
    assert result["math"] == 0


def test_a_blank_line_inside_display_math_is_caught(rendered):
    _, result = rendered["blank-line-in-display"]
    assert result["errors"] or result["leaks"]
    assert any("blank line" in e["message"] for e in result["errors"])


def test_an_unclosed_display_block_is_caught(rendered):
    _, result = rendered["unclosed-display"]
    assert any("never closed" in e["message"] for e in result["errors"])


def test_adjacent_dollars_leave_a_dollar(rendered):
    source, result = rendered["adjacent-dollars"]
    assert [r["tex"] for r in result["rendered"]] == ["a"]
    assert [(leak["match"], leak["context"], leak["escaped"]) for leak in result["leaks"]] == \
        [("$", "b$", None)]
    same_math(source, result)  # the regex agrees: one piece of math, then a stray dollar


def test_underscores_in_inline_math_are_not_emphasis(rendered):
    source, result = rendered["underscores"]
    assert result["errors"] == [] and result["leaks"] == []
    assert result["inline"] == 2 and "<em>" not in result["html"]
    same_math(source, result)
    _, plain = rendered["underscores-plain"]  # outside math the same text leaks TeX
    assert [leak["match"] for leak in plain["leaks"]] == ["_{", "_{"]


def test_an_escaped_dollar_is_reported_as_escaped(rendered):
    _, result = rendered["escaped-dollar"]
    assert result["math"] == 0
    assert [(leak["match"], leak["escaped"]) for leak in result["leaks"]] == [("$", "escape")]
    assert "It costs $5." in result["html"]


def test_paren_delimiters_and_bare_commands_leak(rendered):
    _, parens = rendered["paren-delimiters"]
    assert parens["math"] == 0
    assert [(leak["match"], leak["escaped"]) for leak in parens["leaks"]] == \
        [("\\(", "escape"), ("\\)", "escape")]
    _, bare = rendered["bare-control-word"]
    assert [leak["match"] for leak in bare["leaks"]] == ["\\frac"]


def test_display_math_indented_into_code_leaks(rendered):
    _, result = rendered["indented-display"]
    assert result["math"] == 0
    assert {leak["where"] for leak in result["leaks"]} == {"code"}


def test_a_clean_document_passes(rendered):
    source, result = rendered["clean"]
    assert result["errors"] == [] and result["leaks"] == []
    assert (result["display"], result["inline"]) == (1, 3)
    assert result["html"].count('class="katex"') == 4
    same_math(source, result)
