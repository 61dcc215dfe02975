"""How a derivation writes a problem laid out in columns: the book's formulas and words.

In rows (the engine's own) nothing changes; laid out in columns as Prince's book lays them,
every matrix is transposed (Derivation.shown), entries are indexed (key, query), products go in
the book's order (Kᵀ Q, V A, W_Q X + b_Q 1ᵀ) and every sentence that says "row" says "column"
(its `_columns` twin in words.columns).
"""

from __future__ import annotations

from ..words import PHRASES

T = r"^{\mathsf T}"
ONE = r"\mathbf 1"


def said(key: str, columns: bool) -> str:
    """The phrase key to use: its `_columns` twin in a problem laid out in columns, if it has one."""
    return f"{key}_columns" if columns and f"{key}_columns" in PHRASES else key


def scores(columns: bool) -> str:
    """R = QKᵀ, or Kᵀ Q in the book."""
    return rf"K{T}Q" if columns else rf"QK{T}"


def output(columns: bool) -> str:
    """O = A V, or V A in the book."""
    return "VA" if columns else "AV"


def projection(name: str, source: str, biased: bool, columns: bool) -> str:
    """Q = X W_Q (+ 1 b_Qᵀ), or W_Q X (+ b_Q 1ᵀ) in the book."""
    weight, bias = f"W_{name}", f"b_{name}"
    if columns:
        return f"{weight}{source}" + (rf" + {bias}{ONE}{T}" if biased else "")
    return f"{source}{weight}" + (rf" + {ONE} {bias}{T}" if biased else "")


def heads_output(biased: bool, columns: bool, concat: str = "C") -> str:
    """MHA(X) = C W_O (+ 1 b_Oᵀ), or W_O C (+ b_O 1ᵀ) in the book; concat: what C is written
    as (Concat(head_1, …, head_h) where C is not yet named)."""
    if columns:
        return rf"W_O\,{concat}" + (rf" + b_O{ONE}{T}" if biased else "")
    return rf"{concat}\,W_O" + (rf" + {ONE} b_O{T}" if biased else "")


def bias_name(name: str, columns: bool) -> str:
    """A bias as shown beside its weights: b_Qᵀ (one row) or b_Q (a column, in the book)."""
    return f"b_{name}" if columns else f"b_{name}{T}"


def bias_term(shown: str, columns: bool) -> str:
    """The bias term of a product written out: 1 [b]ᵀ... as 1 (b row), or [b] 1ᵀ."""
    return f"{shown}{ONE}{T}" if columns else f"{ONE}{shown}"
