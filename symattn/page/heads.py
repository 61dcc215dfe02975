"""Page data of a multi-head problem: each head's page data, their concatenation, W_O and the output.

Each head is collected as a one-head page (every state of its controls, computed exactly), at the
same list of temperatures, so one temperature control serves every head; the page swaps in the
chosen head's data. The concatenation C and the output C W_O are those of the file's own settings
(each head at its temperature and mask), as `symattn solve` gives them.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..exact.heads import attend_heads
from ..kinds import refuse_kind
from ..model import MultiHeadProblem
from .data import MathStore, collect, grid, temperature_choices
from .lesson import lesson_data
from ..words.page import page_phrases
from .data import key as url_key
from .edit_heads import heads_edit

Json = dict[str, Any]
SHARED = ("lang", "title", "source", "places", "rowLabels", "colLabels", "phrases", "words",
          "stepMath", "rowMath", "kind", "lesson")


def heads_data(problem: MultiHeadProblem, temperatures: list[sp.Expr], lang: str,
               store: MathStore) -> Json:
    """The first head's data as the page's own, every head's in "heads", the combination in
    "combine" (C, W_O and the output, exact, with decimals beside); a problem the page does not
    take (laid out in columns, with biases) is refused."""
    refuse_kind(problem, "page")
    taus = list(temperatures)
    for head in problem.heads:
        taus = temperature_choices(head, taus)
    collected = [collect(head, taus, lang, store) for head in problem.heads]
    places = collected[0]["places"]
    trace = attend_heads(problem)
    h = len(problem.heads)
    concat = r"C = \left[\, " + r" \;\; ".join(f"O^{{({k})}}" for k in range(1, h + 1)) + r" \,\right]"
    combine = {
        "tables": {"C": grid(store, trace.concat, None, places), "W_O": grid(store, problem.W_O, None, places),
                   "MHA": grid(store, trace.output, None, places)},
        "headings": {"C": store.add(concat), "W_O": store.add("W_O"),
                     "MHA": store.add(r"\operatorname{MultiHead}(X) = C\,W_O")},
        "settings": [{"tau": url_key(head.temperature), "mask": head.mask} for head in problem.heads],
        "edit": heads_edit(problem),
        "formula": store.add(r"\operatorname{MultiHead}(X) = \operatorname{Concat}("
                             + ", ".join(f"\\mathrm{{head}}_{{{k}}}" for k in range(1, h + 1))
                             + r")\,W_O"),
    }
    title = (lang == "zh" and problem.title_zh) or problem.title or collected[0]["title"]
    heads = [{name: value for name, value in data.items() if name not in SHARED} for data in collected]
    for h, (head, given) in enumerate(zip(heads, problem.heads), start=1):
        head["headings"] = {**head["headings"], "O": store.add(f"O^{{({h})}} = AV")}  # a block of C
        head["edit"] = head["edit"] and {"scale": head["edit"]["scale"]}  # entries: combine["edit"]
        if head["projections"] is not None:
            head["projections"]["headings"] |= head_headings(store, h, given.projections.Y is not None)
    return {**collected[0], "title": title, "heads": heads, "combine": combine, "edit": heads[0]["edit"],
            "phrases": page_phrases(lang, heads=True, script=True),
            "lesson": lesson_data(problem.page, lang),
            "defaults": {**collected[0]["defaults"], "head": 1}}


def head_headings(store: MathStore, h: int, cross: bool) -> Json:
    """Head h's own projections by name: W_Q^{(h)}, and Q^{(h)} = X W_Q^{(h)}."""
    source = "Y" if cross else "X"
    out = {f"W_{n}": store.add(f"W_{n}^{{({h})}}") for n in "QKV"}
    return out | {n: store.add(f"{n}^{{({h})}} = {source if n != 'Q' else 'X'}W_{n}^{{({h})}}")
                  for n in "QKV"}
