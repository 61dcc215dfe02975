"""Shared test helpers: paths of the worked examples."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "worked_examples"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*/problem.toml"))


@pytest.fixture
def example():
    """example("02_causal_three_positions") -> path of that problem file."""
    def path(name: str) -> Path:
        return EXAMPLES / name / "problem.toml"
    return path
