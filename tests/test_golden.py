"""Worked examples: committed derivations equal what the code writes now, and real clients accept them."""

from __future__ import annotations

import sys

import pytest
from clients import compile_tex, katex_errors, math_blocks
from conftest import MULTI_HEAD, ROOT, SHAPE_ONLY, VALUE_EXAMPLES

sys.path.insert(0, str(ROOT / "tools"))
from regenerate import VARIANTS, golden  # noqa: E402

DERIVED = sorted(set(VALUE_EXAMPLES) | MULTI_HEAD | SHAPE_ONLY)
IDS = [p.parent.name for p in DERIVED]


@pytest.mark.parametrize("problem", DERIVED, ids=IDS)
def test_committed_derivations_are_current(problem):
    for name, text in golden(problem).items():
        committed = problem.parent / name
        assert committed.exists(), f"{committed} is missing: run python tools/regenerate.py"
        assert committed.read_text(encoding="utf-8") == text, \
            f"{committed} differs from the code's output: run python tools/regenerate.py and review the diff"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("problem", DERIVED, ids=IDS)
def test_latex_compiles(problem, lang):
    compile_tex((problem.parent / f"derivation.{lang}.tex").read_text(encoding="utf-8"), lang)


def test_every_markdown_math_block_renders_with_katex():
    blocks = []
    for problem in DERIVED:
        for lang in ("en", "zh"):
            blocks += math_blocks((problem.parent / f"derivation.{lang}.md").read_text(encoding="utf-8"))
    assert len(blocks) > 100
    assert katex_errors(blocks) == []


def test_variants_cover_both_languages_and_formats():
    assert sorted(VARIANTS) == ["derivation.en.md", "derivation.en.tex", "derivation.zh.md",
                                "derivation.zh.tex"]
