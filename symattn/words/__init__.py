"""Words: every phrase of the project in English and Chinese, looked up by `phrase(key, lang)`."""

from __future__ import annotations

from . import (analyses, answers, checks, columns, conventions, derivation, exercises,
               mistakes_tex, page, reading, textbook)
from .registry import GRAMMAR_FIELDS, LANGUAGES, PHRASES, Same, phrase, reason_text, register

register(derivation.DERIVATION_PHRASES)  # solve --format latex/markdown
register(textbook.TEXTBOOK_PHRASES)  # textbook derivations
register(analyses.ANALYSIS_PHRASES)  # sweeps, non-uniqueness, gradients
register(answers.ANSWER_PHRASES)  # verify, grade
register(reading.READING_PHRASES)  # why an answer could not be read
register(checks.CHECK_PHRASES)  # check
register(conventions.CONVENTION_PHRASES)  # mask_bias, a book's d_k with given scores
register(exercises.MISTAKE_NAMES)  # mistakes
register(exercises.MISTAKE_FORMULAS)
register(mistakes_tex.MISTAKE_TEX)  # mistakes --format latex/markdown
register(exercises.EXERCISE_PHRASES)
register(exercises.SET_PHRASES)  # problem sets
register(columns.COLUMN_PHRASES)  # problems laid out in columns (Prince's book)
register(columns.MIRRORED_MISTAKES)
register(page.PAGE_PHRASES, page.PREFIX)  # the course page

__all__ = ["GRAMMAR_FIELDS", "LANGUAGES", "PHRASES", "Same", "phrase", "reason_text", "register"]
