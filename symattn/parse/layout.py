"""Layout options from the command line or a file's [derivation] table: the text width (a preset,
a length or characters), the heading level and a \\label prefix."""

from __future__ import annotations

import re

from ..errors import InputError

from ..vocabulary import HEADINGS as HEADINGS
WIDTHS = {"article": 345.0, "book": 345.0}
"""Presets for the text width in points: the standard classes' 10 pt body (ctex's is the same)."""
UNITS = {"pt": 1.0, "bp": 72.27 / 72, "mm": 72.27 / 25.4, "cm": 72.27 / 2.54, "in": 72.27}
POINTS_PER_CHARACTER = 5.0  # a width in characters: an average 10 pt character
WIDTH_RANGE = (150.0, 2000.0)  # points: narrower cannot hold a 3x3 matrix, wider is no page
_LENGTH = re.compile(r"(\d{1,4}(?:\.\d{1,3})?)\s*(pt|bp|mm|cm|in)?")
_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9:._-]{0,63}")


def parse_width(text: str) -> float:
    """article, book, 12cm, 400pt or 70 (characters) -> points.

    Raises:
        InputError: anything else, or a width outside WIDTH_RANGE.
    """
    text = text.strip()
    if text in WIDTHS:
        return WIDTHS[text]
    match = _LENGTH.fullmatch(text)
    if not match:
        raise InputError(f"width {text!r}: give article, book, a length (12cm, 400pt) or a "
                         "number of characters (70)")
    number, unit = float(match.group(1)), match.group(2)
    points = number * (UNITS[unit] if unit else POINTS_PER_CHARACTER)
    low, high = WIDTH_RANGE
    if not low <= points <= high:
        raise InputError(f"width {text!r} is {points:.0f}pt; it must be from {low:.0f}pt to "
                         f"{high:.0f}pt")
    return points


def check_label_prefix(text: str) -> str:
    """A \\label prefix: letters, digits and : . _ - (64 at most), starting with a letter."""
    if not _LABEL.fullmatch(text):
        raise InputError(f"label prefix {text!r}: use letters, digits and : . _ - only, "
                         "starting with a letter (64 characters at most)")
    return text
