"""One table of every phrase, filled once at import; a key registered twice is an error."""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("en", "zh")

GRAMMAR_FIELDS = frozenset({"places"})
"""Placeholders that only carry grammar (English plurals); other languages may leave them out."""

PHRASES: dict[str, dict[str, str]] = {}
"""Phrase key -> language -> text: every table of symattn.words, registered by its __init__."""


@dataclass(frozen=True)
class Same:
    """In a table: the words of another table's key, shown under this key (written once)."""

    key: str


def register(table: dict[str, dict[str, str] | Same], prefix: str = "") -> None:
    """Add a table's phrases (keys prefixed); a key already taken raises, so no table overwrites
    another's words; Same entries name a registered key and add none."""
    for key, texts in table.items():
        if isinstance(texts, Same):
            if texts.key not in PHRASES:
                raise KeyError(f"phrase {prefix}{key}: Same({texts.key!r}) names no phrase")
            continue
        if prefix + key in PHRASES:
            raise KeyError(f"phrase {prefix}{key} is registered twice")
        PHRASES[prefix + key] = texts


def phrase(key: str, lang: str, *args: object, **values: object) -> str:
    """The phrase in the language, with its placeholders filled."""
    return PHRASES[key][lang].format(*args, **values)


def reason_text(reason: tuple[object, ...], lang: str) -> str:
    """A reason (phrase key, values...) in words; a value that is a tuple is a phrase too."""
    key, *values = reason
    return phrase(str(key), lang, *(reason_text(v, lang) if isinstance(v, tuple) else v
                                    for v in values))
