"""Shared test helpers: paths of the worked examples."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "worked_examples"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*/problem.toml"))
SHAPE_ONLY = {p for p in EXAMPLE_FILES if "{shape =" in p.read_text(encoding="utf-8")}
MULTI_HEAD = {p for p in EXAMPLE_FILES if "[[heads]]" in p.read_text(encoding="utf-8")}
VALUE_EXAMPLES = [p for p in EXAMPLE_FILES if p not in SHAPE_ONLY | MULTI_HEAD]
"""Single-head worked examples with values; the others give only shapes or have [[heads]]."""


@pytest.fixture
def example():
    """example("02_causal_three_positions") -> path of that problem file."""
    def path(name: str) -> Path:
        return EXAMPLES / name / "problem.toml"
    return path
