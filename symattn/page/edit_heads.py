"""What a multi-head page needs to let a student edit its inputs: X (and Y) and W_O, shared by
the heads, and each head's W_Q, W_K, W_V (named W_Q_2 for head 2), as the editor shows them."""

from __future__ import annotations

from typing import Any

from ..model import MultiHeadProblem
from .edit import LIMIT, entries

Json = dict[str, Any]


def heads_edit(problem: MultiHeadProblem) -> Json | None:
    """Every editable matrix's entries (edit.entries) and their names in "editable", in the order
    the link lists them. None for a problem with symbols: the heads' own states, which C and the
    output take, would have no float values."""
    if problem.symbols:
        return None
    given = problem.heads[0].projections
    shared = ["X"] + (["Y"] if given.Y is not None else [])
    out: Json = {"limit": LIMIT, "editable": list(shared)}
    out |= {name: entries(getattr(given, name)) for name in shared}
    for h, head in enumerate(problem.heads, start=1):
        for name in ("W_Q", "W_K", "W_V"):
            out[f"{name}_{h}"] = entries(getattr(head.projections, name))
            out["editable"].append(f"{name}_{h}")
    out["W_O"] = entries(problem.W_O)
    out["editable"].append("W_O")
    return out
