"""The closed vocabularies every way in shares: languages, formats, detail levels, mask kinds,
stages, headings, layouts, and the ranges of the numeric options, as types and as tuples for argparse,
the TOML reader, the Sphinx directive and the API."""

from __future__ import annotations

from typing import Final, Literal, get_args

from .limits import MAX_CHECK_DIGITS, MAX_PLACES

Language = Literal["en", "zh"]
Format = Literal["text", "json", "latex", "markdown"]
AnalysisFormat = Literal["text", "json", "latex", "markdown", "svg"]
Detail = Literal["summary", "textbook", "full"]
MaskKind = Literal["none", "causal", "causal-bottom-right"]
FullyMasked = Literal["error", "zero", "uniform"]
Stage = Literal["Q", "K", "V", "R", "S", "M", "L", "A", "O"]
HeadingLevel = Literal["chapter", "section", "subsection", "subsubsection", "paragraph"]
Layout = Literal["rows", "columns"]
GradingRule = Literal["float32", "float64", "allclose"]
Checks = Literal["short", "full", "none"]

LANGUAGES: Final[tuple[Language, ...]] = get_args(Language)
FORMATS: Final[tuple[Format, ...]] = get_args(Format)
DOCUMENT_FORMATS: Final[tuple[Format, ...]] = ("latex", "markdown")
DETAILS: Final[tuple[Detail, ...]] = get_args(Detail)
DETAIL_ALIASES: Final[dict[str, Detail]] = {"standard": "textbook"}
"""Old names still read: standard was the textbook level's name before it was one."""
DETAIL_CHOICES: Final[tuple[str, ...]] = DETAILS + tuple(DETAIL_ALIASES)
MASK_KINDS: Final[tuple[MaskKind, ...]] = get_args(MaskKind)
FULLY_MASKED_POLICIES: Final[tuple[FullyMasked, ...]] = get_args(FullyMasked)
STAGES: Final[tuple[Stage, ...]] = get_args(Stage)
HEADINGS: Final[tuple[HeadingLevel, ...]] = get_args(HeadingLevel)
LAYOUTS: Final[tuple[Layout, ...]] = get_args(Layout)
"""rows: one token per row (the engine's own); columns: one token per column (Prince's book)."""
GRADING_RULES: Final[tuple[GradingRule, ...]] = get_args(GradingRule)
CHECKS: Final[tuple[Checks, ...]] = get_args(Checks)
"""How a derivation closes: short (one sentence, the default), full (a sentence per check) or
none (nothing, unless a check does not pass)."""
"""[grading] rule: agreement to float32 or float64 precision, or NumPy's allclose."""

PLACES_RANGE: Final = (0, MAX_PLACES)
"""Decimal places shown."""
CHECK_DIGITS_RANGE: Final = (10, MAX_CHECK_DIGITS)
"""mpmath digits of the cross-check."""
GRADIENT_DIGITS_RANGE: Final = (20, 200)
"""mpmath digits of the gradients' finite-difference check."""
