"""A line's width measured on from a prefix's measurement is the width measured afresh."""

from __future__ import annotations

import random

import pytest

from symattn import attend, load_problem, render
from symattn.printing import measure

from conftest import ROOT


def _fresh(tex: str) -> float:
    return measure._run(measure._TOKEN.findall(tex), "D")[0]


def _lines() -> list[str]:
    trace = attend(load_problem(ROOT / "worked_examples" / "05_five_tokens_temperature" / "problem.toml"))
    text = render(trace, "latex", detail="textbook")
    return [line.strip().rstrip("\\").strip() for line in text.splitlines()
            if "&" in line and len(line) > 40]


@pytest.mark.parametrize("seed", range(3))
def test_joined_width_is_the_width_of_the_whole(seed):
    rng = random.Random(seed)
    lines = _lines()
    assert len(lines) > 20
    for line in rng.sample(lines, 20):
        spaces = [k for k, c in enumerate(line) if c in " ,"]  # where a fitted line grows
        cuts = sorted(rng.sample(spaces, min(4, len(spaces))))
        measure._STATES.clear()
        measure._kept[0] = 0
        measure.width.cache_clear()
        start = 0
        for cut in cuts + [len(line)]:
            try:
                expected = _fresh(line[:cut])
            except ValueError:  # a cut inside an empty array: not a line the fitter makes
                continue
            assert measure.joined_width(line[:start], line[start:cut]) == expected, line[:cut]
            start = cut


@pytest.mark.parametrize("prefix, suffix", [
    (r"a \alpha", "b"), (r"x \left( y", r" \right) + \frac{1}{2}"), ("a \\", "b"),
    (r"{a", "b}"), (r"\sum", "_i x")])
def test_joins_that_change_the_tokens_are_measured_afresh(prefix, suffix):
    measure._STATES.clear()
    measure._kept[0] = 0
    measure.width(prefix)
    assert measure.joined_width(prefix, suffix) == _fresh(prefix + suffix)


@pytest.mark.parametrize("tex, separator, parts", [
    (r"a & {b & c} & d", "&", [["a"], ["{", "b", "&", "c", "}"], ["d"]]),
    (r"1 \\[1ex] 2 \\ 3", r"\\", [["1"], ["2"], ["3"]]),
    (r"\begin{array}{c} x \\ y \end{array} \\ z", r"\\",
     [[r"\begin", "{", "a", "r", "r", "a", "y", "}", "{", "c", "}", "x", r"\\", "y", r"\end", "{",
       "a", "r", "r", "a", "y", "}"], ["z"]]),
    (r"1 \\[1ex", r"\\", [["1"]])])
def test_rows_and_cells_split_outside_groups_without_row_spacing(tex, separator, parts):
    assert measure._split(measure._TOKEN.findall(tex), separator) == parts
