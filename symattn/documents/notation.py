"""Notation a document uses once it must, said where it first appears: blocks of a matrix."""

from __future__ import annotations

import re

from .blocks import Block, Display, Paragraph, Segment, Step, segments

_COLUMNS = re.compile(r"(\{[^{}]+\}|[A-Za-z]+)_\{\\cdot,(\d+)\\ldots (\d+)\}")
_ROWS = re.compile(r"(\{[^{}]+\}|[A-Za-z]+)_\{(\d+)\\ldots (\d+),\\cdot\}")


def _note(display: Display, lang: str) -> tuple[Segment, ...] | None:
    """Which columns (X_{·,1…2}) or rows (X_{1…24,·}) the first block name of a display stands
    for; None when it sets no matrix in blocks."""
    text = "\n".join(display.lines)
    found, key = _COLUMNS.search(text), "blocks_columns"
    if found is None:
        found, key = _ROWS.search(text), "blocks_rows"
    if found is None:
        return None
    name, a, b = found.groups()
    return segments(key, lang, first=found.group(0), name=name.strip("{}"), a=a, b=b)


def explain_blocks(blocks: list[Block], lang: str) -> list[Block]:
    """The blocks, with a sentence right after the first display that sets a matrix in blocks
    (inside its step, before the displays that follow it)."""
    for k, block in enumerate(blocks):
        parts = block.parts if isinstance(block, Step) else (block,) \
            if isinstance(block, Display) else ()
        for i, part in enumerate(parts):
            note = _note(part, lang) if isinstance(part, Display) else None
            if note is None:
                continue
            if isinstance(block, Step):
                explained: Block = Step(block.parts[:i + 1] + (note,) + block.parts[i + 1:])
                return blocks[:k] + [explained] + blocks[k + 1:]
            return blocks[:k + 1] + [Paragraph(note)] + blocks[k + 1:]
    return blocks
