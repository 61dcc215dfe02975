"""How much a derivation writes and how it is laid out: detail, language, the row worked
through, decimals, a heatmap, the text width and the headings of a course's book."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..parse.layout import WIDTHS

from ..vocabulary import CHECKS, DETAIL_ALIASES, DETAILS, HEADINGS


@dataclass(frozen=True)
class Options:
    """What to write (detail, lang, row, places, figure) and how to lay it out (width in
    points, the heading level of the title, numbered headings, a \\label prefix)."""

    lang: str = "en"
    detail: str = "textbook"
    row: int | None = None  # 1-based; None = the last row for the example, none written out
    places: int = 4
    figure: bool = False
    width: float = WIDTHS["article"]
    heading: str = "section"
    numbered: bool = False
    label: str | None = None
    checks: str = "short"  # short, full or none: how the checks close the derivation

    def checked(self, n_q: int) -> Options:
        """These options with an alias resolved; ValueError for a value out of range."""
        detail = DETAIL_ALIASES.get(self.detail, self.detail)
        if detail not in DETAILS:
            raise ValueError(f"detail must be one of {', '.join(DETAILS)}")
        if self.row is not None and not 1 <= self.row <= n_q:
            raise ValueError(f"row must be from 1 to {n_q}")
        if self.heading not in HEADINGS:
            raise ValueError(f"heading must be one of {', '.join(HEADINGS)}")
        if self.checks not in CHECKS:
            raise ValueError(f"checks must be one of {', '.join(CHECKS)}")
        return replace(self, detail=detail)
