"""docs/tutorial.ipynb executed from top to bottom with nbclient (a real IPython kernel), so it
cannot rot: no cell fails, the exact values it shows are right, and what it prints today is what
the committed notebook shows (regenerate with `jupyter execute --inplace docs/tutorial.ipynb`
from docs/)."""

from __future__ import annotations

import pytest
from conftest import ROOT
from sites import need_module

NOTEBOOK = ROOT / "docs" / "tutorial.ipynb"


def texts(cell) -> list[str]:
    """A code cell's printed text and plain-text results (pictures left out)."""
    return [o.get("text") or o.get("data", {}).get("text/plain", "") for o in cell.outputs]


@pytest.fixture(scope="module")
def executed():
    need_module("nbclient")
    need_module("ipykernel")
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    committed = [texts(c) for c in notebook.cells if c.cell_type == "code"]
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    return committed, [c for c in notebook.cells if c.cell_type == "code"]


def test_the_notebook_runs_and_shows_what_is_committed(executed):
    committed, cells = executed
    assert [texts(c) for c in cells] == committed
    assert all(o.output_type != "error" for c in cells for o in c.outputs)


def test_the_values_it_shows_are_the_exact_ones(executed):
    _, cells = executed
    shown = "\n".join(t for c in cells for t in texts(c))
    assert "[1/10, 9/10,   0]" in shown and "[7/3,  8/3]]" in shown
    assert "passed: True" in shown and "2 of 3 claims correct" in shown
    # t = 1/4, row 3: logits 0, 4 ln 3, 4 ln 2 -> exponentials 1, 81, 16 over 98
    assert "t = 1/4: a = (1/98, 81/98, 8/49)" in shown
    pictures = [o.data["image/svg+xml"] for c in cells for o in c.outputs
                if "image/svg+xml" in o.get("data", {})]
    assert len(pictures) == 1 and "<svg" in pictures[0]
    derivation = [o.data["text/markdown"] for c in cells for o in c.outputs
                  if "text/markdown" in o.get("data", {})]
    assert len(derivation) == 1 and "$$" in derivation[0]
