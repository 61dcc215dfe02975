"""A problem file's [page] table: the predictions and the true/false claim a course page asks
before its lab, each text checked like a label (no control or bidi character) and kept as text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..limits import MAX_PAGE_TEXT, MAX_PREDICTIONS
from ..model import Lesson
from .labels import check_characters
from .reader import Reader, kind_of

PAGE_KEYS = frozenset({"predictions", "predictions_zh", "claim", "claim_zh", "claim_answer",
                       "claim_reason", "claim_reason_zh"})
NEEDS = {"predictions_zh": "predictions", "claim_zh": "claim", "claim_answer": "claim",
         "claim_reason": "claim", "claim_reason_zh": "claim_zh"}
"""A key and the key it goes with: a translation needs its English, an answer its claim."""


def read_lesson(reader: Reader, data: Mapping[str, Any]) -> Lesson | None:
    """The [page] table, or None when the file has none.

    Raises:
        InputError: one line naming the file, the key (page.predictions[2]) and, for a refused
            character, its column.
    """
    table = reader.table(data, "page", required=False)
    if not table:
        return None
    reader.only(table, PAGE_KEYS, "page")
    for key, needed in NEEDS.items():
        if key in table and needed not in table:
            raise reader.fail(f"page.{key}", f"goes with page.{needed}, which is missing")
    if "claim" in table:
        for key in ("claim_answer", "claim_reason"):
            if key not in table:
                raise reader.fail(f"page.{key}", "missing (a claim needs its answer, true or "
                                                 "false, and the reason)")
    if "claim_zh" in table and "claim_reason_zh" not in table:
        raise reader.fail("page.claim_reason_zh", "missing (the Chinese claim needs its reason)")
    answer = table.get("claim_answer")
    if answer is not None and not isinstance(answer, bool):
        raise reader.fail("page.claim_answer", f"must be true or false, not {kind_of(answer)}")
    predictions = _texts(reader, table, "predictions")
    translated = _texts(reader, table, "predictions_zh")
    if "predictions_zh" in table and len(translated) != len(predictions):
        raise reader.fail("page.predictions_zh", f"has {len(translated)} predictions but "
                                                 f"page.predictions has {len(predictions)}")
    text = {key: _text(reader, table[key], f"page.{key}") if key in table else None
            for key in ("claim", "claim_zh", "claim_reason", "claim_reason_zh")}
    return Lesson(predictions=predictions,
                  predictions_zh=translated if "predictions_zh" in table else None,
                  claim_answer=answer, **text)


def _texts(reader: Reader, table: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = table.get(key, [])
    where = f"page.{key}"
    if not isinstance(value, list):
        raise reader.fail(where, f"must be a list of strings, not {kind_of(value)}")
    if len(value) > MAX_PREDICTIONS:
        raise reader.fail(where, f"has {len(value)} predictions (limit {MAX_PREDICTIONS})")
    return tuple(_text(reader, x, f"{where}[{i}]") for i, x in enumerate(value, start=1))


def _text(reader: Reader, value: Any, key: str) -> str:
    """One prediction, claim or reason: a non-blank string of at most MAX_PAGE_TEXT characters
    holding no control, format or unassigned character (shown as text, never as markup)."""
    if not isinstance(value, str):
        raise reader.fail(key, f"must be a string, not {kind_of(value)}")
    if not value.strip():
        raise reader.fail(key, "must not be empty or blank")
    if len(value) > MAX_PAGE_TEXT:
        raise reader.fail(key, f"is {len(value)} characters long (limit {MAX_PAGE_TEXT})")
    try:
        return check_characters(value)
    except InputError as error:
        raise error.located(source=reader.source, key=key) from None
