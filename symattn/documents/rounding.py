"""The pieces shared by the documents of a derivation with rounded stages: each stage's cells
(its decimals when it is rounded) and the sentence that says why."""

from __future__ import annotations

from ..derivation import Derivation
from ..printing.matrices import approx_cells, cells
from ..printing.printer import approx
from .blocks import Paragraph, segments


def rounding_note(d: Derivation) -> Paragraph:
    """Why the values from here on are decimals (said where the first rounded stage is shown)."""
    return Paragraph(segments("tb_rounded", d.options.lang, places=d.options.places))


def stage_cells(d: Derivation, stage: str) -> list[list[str]]:
    """A stage's entries as shown: its decimals when it is rounded (masked logits −∞), else
    exact."""
    if stage not in d.rounded:
        return cells(d.display[stage])
    grid = d.decimals[stage]
    return approx_cells(grid) or [[approx(a) if a is not None else r"-\infty" for a in row]
                                  for row in grid]
