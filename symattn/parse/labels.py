"""Labels and titles from user files: refused when they hold control or bidi characters."""

from __future__ import annotations

import unicodedata

from ..errors import InputError
from ..limits import MAX_LABEL


def check_label(text: str) -> str:
    """Return the label unchanged if it is safe to show; CJK and other scripts stay intact."""
    if len(text) > MAX_LABEL:
        raise InputError(f"label is {len(text)} characters long (limit {MAX_LABEL})")
    return check_characters(text)


def check_characters(text: str) -> str:
    """Return user text unchanged if it holds no control, format, bidi or unassigned character
    (any length: renderers check labels again, and prose may list many of them together)."""
    for column, char in enumerate(text, start=1):
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise InputError(f"U+{ord(char):04X} (a control, format or unassigned character) "
                             "is not allowed in a label", column=column)
    return text
