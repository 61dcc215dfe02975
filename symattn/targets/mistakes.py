"""The classic mistakes of one problem as text, JSON, LaTeX or Markdown: each mistake, its
formula, its A and O."""

from __future__ import annotations

import json

import sympy as sp

from ..answers.results import Mistake
from ..derivation import Derivation
from ..derivation.orientation import said
from ..documents.mistakes import mistake_blocks
from ..words import phrase
from .emit import ARTICLE, Page, render_page
from .verdicts import value_text


def _rows(matrix: sp.ImmutableMatrix) -> str:
    return "[" + ", ".join("[" + ", ".join(value_text(x) for x in matrix.row(i)) + "]"
                           for i in range(matrix.rows)) + "]"


def mistakes_text(found: tuple[Mistake, ...], lang: str = "en", title: str | None = None,
                  columns: bool = False) -> str:
    """One section per mistake: its name and formula, then A' and O' (or why it does not apply);
    a multi-head output's mistakes (A None: every head mistaken alike) give MHA'(X) alone; the
    formulas in the book's indices for a problem laid out in columns (found is then transposed)."""
    heading = phrase("mistakes_title", lang)
    lines = [f"{title} — {heading}" if title else heading]
    for m in found:
        lines.append(f"[{m.name}] {phrase(f'mistake_{m.name}', lang)}")
        lines.append(f"    {phrase(said(f'formula_{m.name}', columns), lang)}")
        if m.applies:
            lines += [f"    A' = {_rows(m.A)}", f"    O' = {_rows(m.O)}"]
        elif m.O is not None:
            lines.append(f"    MHA'(X) = {_rows(m.O)}")
        else:
            lines.append(f"    {phrase(f'mistake_{m.reason}', lang)}")
    return "\n".join(lines) + "\n"


def mistakes_json(found: tuple[Mistake, ...], lang: str = "en", columns: bool = False) -> str:
    """Every mistake with its name, words, formula, and A' and O' as SymPy strings (or null)."""
    def grid(matrix):
        return None if matrix is None else [[str(x) for x in matrix.row(i)]
                                            for i in range(matrix.rows)]
    document = [{"mistake": m.name, "text": phrase(f"mistake_{m.name}", lang),
                 "formula": phrase(said(f"formula_{m.name}", columns), lang), "applies": m.applies,
                 "reason": m.reason or None, "A": grid(m.A), "O": grid(m.O)} for m in found]
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def mistakes_document(groups: list[tuple[str | None, tuple[Mistake, ...]]], to: str, lang: str,
                      wide_labels: bool, columns: bool = False, page: Page = ARTICLE,
                      stated: list[Derivation | None] | None = None,
                      output: list[tuple[str, sp.MatrixBase]] | None = None) -> str:
    """The mistakes as LaTeX (fragment, document or preamble lines, as the page says) or
    Markdown: per group (a head), the problem stated in solve's words (from its derivation in
    stated) with its correct A and O, then one section per mistake, its formula in math, A' and
    O' fitted to the width; output: W_O and the correct MHA(X) before the heads' shared
    mistakes."""
    blocks = mistake_blocks(groups, lang, page.width, columns, stated or [], output or [])
    return render_page(blocks, to, lang, wide_labels, page)
