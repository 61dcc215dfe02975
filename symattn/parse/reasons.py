"""Why a claimed answer cannot be read, as a phrase of words/reading.py: the parser's precise
reason for a nearly-right entry (`2pi`, `ln 3`), one plain sentence for text that is no answer.

A reason is a tuple (phrase key, values...); a value that is itself a tuple is a phrase too.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ..errors import InputError
from .expressions import CONSTANTS, INFINITY_NAMES
from .tokens import FUNCTION_NAMES

Reason = tuple[object, ...]
UNREADABLE: Reason = ("read_unreadable",)
WHOLE_VALUE_CODES = frozenset({"read_too_long", "read_batch", "read_axes"})
"""Reasons about a whole value (no column): its length, a batch of matrices, too many axes."""

GREEK = frozenset({"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
                   "kappa", "lambda", "mu", "nu", "xi", "omicron", "rho", "sigma", "tau",
                   "upsilon", "phi", "chi", "psi", "omega"})
"""Names a course writes for symbols: an undeclared one is a near miss, not prose."""
KNOWN = FUNCTION_NAMES | frozenset(CONSTANTS) | INFINITY_NAMES
_WORD = re.compile(r"[^\W\d_]+")  # letters of any script


def looks_like_math(text: str, symbols: Collection[str] = ()) -> bool:
    """Whether text reads as an attempt at a number: every word a function, a constant, a
    declared symbol, a Greek letter's name or a single ASCII letter, and some digit or known
    name in it ("2pi", "x/2" do; "see my notebook", "idk", "42 lol", "N/A" do not)."""
    words = [w for w in _WORD.findall(text) if w.isalpha()]  # not ², which the pattern takes
    known = [w for w in words if w in KNOWN or w in symbols or w.lower() in GREEK]
    loose = [w for w in words if w not in known]
    if any(len(w) > 1 or not w.isascii() for w in loose):
        return False
    return bool(known) or any(c.isdigit() for c in text)


def entry_reason(text: str, error: InputError, symbols: Collection[str] = ()) -> Reason:
    """The reason an entry was refused: the parser's own when it helps a near miss, else the
    plain sentence."""
    if error.code is None or not looks_like_math(text, symbols):
        return UNREADABLE
    return (error.code, error.column or 1, *error.values)


def structure_reason(text: str) -> Reason:
    """The reason a whole value's structure was refused (read from the text itself)."""
    if "..." in text or "\u2026" in text:
        return ("read_shortened",)
    if any(c.isdigit() for c in text) and (text.count("[") != text.count("]")
                                           or text.count("(") != text.count(")")):
        return ("read_brackets",)
    return UNREADABLE
