"""Labels and titles from user files: refused when they hold control or bidi characters."""

from __future__ import annotations

import unicodedata

from ..errors import InputError
from ..limits import MAX_LABEL


UNSHOWN = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
"""Unicode categories never shown as they are: controls (terminal escapes), format (bidi
overrides), surrogates, private use, unassigned, line and paragraph separators."""


def check_label(text: str) -> str:
    """Return the label unchanged if it is safe to show; CJK and other scripts stay intact."""
    if len(text) > MAX_LABEL:
        raise InputError(f"label is {len(text)} characters long (limit {MAX_LABEL})")
    return check_characters(text)


def check_characters(text: str) -> str:
    """Return user text unchanged if it holds no control, format, bidi or unassigned character
    (any length: the targets check labels again, and prose may list many of them together)."""
    for column, char in enumerate(text, start=1):
        if unicodedata.category(char) in UNSHOWN:
            raise InputError(f"U+{ord(char):04X} (a control, format or unassigned character) "
                             "is not allowed in a label", column=column)
    return text


def shown_escaped(text: str) -> str:
    """User text that is shown, not refused (a student id): every character of UNSHOWN written
    as its escape (\\x1b, \\u202e, \\U000e0001), everything else as it is."""
    return "".join(char.encode("unicode_escape").decode("ascii")
                   if unicodedata.category(char) in UNSHOWN else char for char in text)
