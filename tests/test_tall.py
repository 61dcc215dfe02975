"""Matrices taller than a page: a display line cannot break across pages, so a matrix with more
rows than a page holds is set in blocks of rows (X_{1…24,·} = […], X_{25…48,·} = […]), and no
line of any display is taller than that (tests/test_pages.py compiles the case: no overfull box)."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

from symattn.checks.invariants import check
from symattn.derivation import Options, derive
from symattn.exact.attention import attend
from symattn.parse.spec import load_problem
from symattn.documents.blocks import Display, Step
from symattn.documents.derivation import build
from symattn.printing.fit import TEXT_ROWS
from symattn.printing.matrices import cells, stacked
from symattn.printing.measure import height
from symattn.printing.printer import matrix

TALL = ROOT / "tests" / "tall" / "forty_eight_tokens.toml"


def _displays(detail: str, lang: str = "en") -> list[str]:
    trace = attend(load_problem(TALL))
    derivation = derive(trace, check(trace), Options(lang=lang, detail=detail))
    return [line for block in build(derivation) if isinstance(block, Step)
            for part in block.parts if isinstance(part, Display) for line in part.lines]


def test_height_counts_the_tallest_arrays_rows_and_fractions_twice():
    assert height("x + 1") == 1
    assert height(matrix([["1", "2"]] * 5)) == 5
    assert height(matrix([[r"\frac{1}{2}", "2"]] * 3 + [["1", "1"]])) == 7
    assert height(matrix([["1"]] * 3) + matrix([["1"]] * 8)) == 8  # side by side: the taller


@pytest.mark.parametrize("rows, blocks", [
    (32, ["Q"]), (33, ["1-17", "18-33"]), (48, ["1-24", "25-48"]), (65, ["1-22", "23-44", "45-65"])])
def test_a_tall_matrix_splits_into_blocks_of_about_equal_height(rows, blocks):
    grid = [[str(k), "1"] for k in range(1, rows + 1)]
    items = stacked("Q", grid)
    labels = [item.split(" = ")[0] for item in items]
    ranges = [re.fullmatch(r"Q_\{(\d+)\\ldots (\d+),\\cdot\}", label) for label in labels]
    assert [f"{m[1]}-{m[2]}" if m else label for m, label in zip(ranges, labels)] == blocks
    # the blocks hold every row once, in order, and each fits a page
    assert [row for item in items for row in re.findall(r"(\d+) & 1", item)] == \
        [str(k) for k in range(1, rows + 1)]
    assert all(height(item) <= TEXT_ROWS for item in items)


def test_fractions_count_double_and_a_subscripted_name_is_grouped():
    items = stacked("W_Q", [[r"\frac{1}{2}"]] * 20)
    assert [item.split(" = ")[0] for item in items] == \
        [r"{W_Q}_{1\ldots 10,\cdot}", r"{W_Q}_{11\ldots 20,\cdot}"]


@pytest.mark.parametrize("detail, lang", [("textbook", "en"), ("summary", "zh")])
def test_no_display_line_of_the_tall_case_is_taller_than_a_page(detail, lang):
    lines = _displays(detail, lang)
    assert max(height(line) for line in lines) <= TEXT_ROWS
    joined = "\n".join(lines)
    for name in ("X", "Q", "K", "V"):  # every input and projection set in two blocks of 24 rows
        assert rf"{name}_{{1\ldots 24,\cdot}} " in joined
        assert rf"{name}_{{25\ldots 48,\cdot}} " in joined
    x = cells(load_problem(TALL).projections.X)
    assert rf"X_{{1\ldots 24,\cdot}} = {matrix(x[:24])}" in joined
    assert rf"X_{{25\ldots 48,\cdot}} = {matrix(x[24:])}" in joined


def test_a_short_entry_keeps_together_and_a_long_one_may_break():
    """\\\\* inside an entry of at most KEPT lines; a row of 48 fractions, one to a line, is
    taller than a page and must be allowed to break (tests/test_pages.py compiles it)."""
    from symattn.targets.latex import KEPT, display
    short = [r"O_{1,1} &= a", "&+ b", "&+ c"]
    long_ = [r"A_{2,\cdot} &= \bigl(x,"] + [r"&\mathrel{\phantom{=}} \quad x,"] * (KEPT + 3)
    text = display(Display(tuple(short + long_ + [r"O_{3,1} &= d"] * 12)))
    lines = text.splitlines()
    assert lines[2:4] == [r"O_{1,1} &= a \\*", r"&+ b \\*"] and lines[4] == r"&+ c \\"
    assert not any(line.endswith(r"\\*") for line in lines[5:])
