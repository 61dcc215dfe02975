"""Displays that fit the text block: equation chains broken at their relations, lists packed
into lines, and matrices set whole, row by row, or entry by entry as the width allows."""

from __future__ import annotations

from dataclasses import dataclass

from .measure import height, joined_width, width

SAFETY = 1.12  # the width estimate is within about 10 % of TeX's; err on the narrow side
INDENT = 20.0  # a continuation line starts this far right of the alignment point
TEXT_ROWS = 32  # rows of a matrix a display line may hold: a line cannot break across pages


@dataclass(frozen=True)
class Fit:
    """The width available to a display, in points."""

    points: float

    def fits(self, tex: str, after: str | None = None) -> bool:
        """Whether tex fits; after: a prefix of tex measured lately (measured on from there)."""
        return (width(tex) if after is None else joined_width(after, tex[len(after):])) \
            * SAFETY <= self.points


def chain(lhs: str, terms: list[tuple[str, str]], fit: Fit, *, at: float | None = None
          ) -> list[str] | None:
    """lhs rel₁ t₁ rel₂ t₂ …: one line, or broken before a relation into aligned lines
    ("lhs &= t₁ = t₂", "&= t₃"); a term identical to the one before is dropped (no x = x).
    at: the width left of the alignment point shared with other lines (default lhs's).
    None when one relation with its term does not fit on a line of its own."""
    kept: list[tuple[str, str]] = []
    for relation, term in terms:
        if kept and term == kept[-1][1] and relation == "=" or not kept and term == lhs:
            continue
        kept.append((relation, term))
    left = width(lhs) * SAFETY if at is None else at
    lines, current = [], ""
    for relation, term in kept:
        piece = f" {relation} {term}"
        if not current or joined_width(current, piece) * SAFETY + left <= fit.points:
            current += piece
            continue
        lines.append(current)
        current = piece
    lines.append(current)
    if any(width(line) * SAFETY + left > fit.points or height(line) > TEXT_ROWS
           for line in lines):
        return None
    first, rest = lines[0].strip(), [line.strip() for line in lines[1:]]
    relation, _, tail = first.partition(" ")
    return [f"{lhs} &{relation} {tail}"] + [f"&{line}" for line in rest]


def pack(items: list[str], fit: Fit, separator: str = r",\qquad ") -> list[str] | None:
    """Items side by side, as many to a line as fit; None if one item alone does not fit (or
    is taller than a page holds)."""
    if any(not fit.fits(item) or height(item) > TEXT_ROWS for item in items):
        return None
    lines: list[str] = []
    for item in items:
        if lines and fit.fits(lines[-1] + separator + item):
            lines[-1] += separator + item
        else:
            lines.append(item)
    return lines


def vector(entries: list[str], fit: Fit, lhs: str = "", relation: str = "=") -> list[str] | None:
    """(e₁, e₂, …) with an optional "lhs =" in front, broken after a comma when it is too
    wide; None if one entry alone does not fit. Each entry is measured once: a line's width
    is the sum of its pieces' (after a comma or \\quad an entry is spaced as on its own; the
    first is measured with the parenthesis, which spaces a leading minus differently)."""
    head = f"{lhs} {relation} " if lhs else ""
    current = head + r"\bigl(" + entries[0]
    closing, comma, at = width(r"\bigr)"), width(","), width(current)
    sizes = [width(entry) for entry in entries[1:]]
    if _fits(at + sum(sizes) + comma * len(sizes) + closing, fit):
        return [head + r"\bigl(" + ", ".join(entries) + r"\bigr)"]
    lines = []
    for entry, size in zip(entries[1:], sizes):
        if _fits(at + comma + size + closing, fit):
            current, at = current + ", " + entry, at + comma + size
        else:
            lines.append((current + ",", at + comma))
            current, at = r"\quad " + entry, width(r"\quad") + size
    lines.append((current + r"\bigr)", at + closing))
    return [line for line, _ in lines] if all(_fits(w, fit) for _, w in lines) else None


def _fits(points: float, fit: Fit) -> bool:
    return points * SAFETY <= fit.points
