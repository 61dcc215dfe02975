"""The classic mistakes of a multi-head problem: every head mistaken the same way, then
concatenated and projected by W_O as the right answer is, so a claimed O, C or head's stage can
be matched to the mistake that gives it."""

from __future__ import annotations

import sympy as sp

from ..exact.heads import projected
from ..model import MultiHeadTrace
from .mistakes import MISTAKES, Mistakes
from .results import Mistake

REASONS = ("over_budget", "not_applicable", "same_result")
"""Why no head gives a result of its own, the first that any head gives winning."""


class HeadMistakes:
    """Each mistake of every head, computed when first asked for, and what it makes of MHA(X)."""

    names = MISTAKES

    def __init__(self, trace: MultiHeadTrace) -> None:
        self.trace = trace
        self.heads = tuple(Mistakes(t.problem, t) for t in trace.heads)
        self._stages: dict[str, dict[str, sp.ImmutableMatrix] | None] = {}

    def __getitem__(self, name: str) -> Mistake:
        """The mistake's result on the output (A is left None: each head has its own)."""
        found = [head[name] for head in self.heads]
        if any(m.applies for m in found):
            stages = self.stages(name)
            return Mistake(name, None, None if stages is None else stages["O"], "")
        reason = next((r for r in REASONS if any(m.reason == r for m in found)), "not_applicable")
        return Mistake(name, None, None, reason)

    def stages(self, name: str) -> dict[str, sp.ImmutableMatrix] | None:
        """Every head's A and O, C and O = C W_O under the mistake, where at least one head's
        result changes (a head the mistake leaves alone keeps its own)."""
        if name not in self._stages:
            self._stages[name] = self._mistaken(name)
        return self._stages[name]

    def _mistaken(self, name: str) -> dict[str, sp.ImmutableMatrix] | None:
        found = [head[name] for head in self.heads]
        if not any(m.applies for m in found):
            return None
        out: dict[str, sp.ImmutableMatrix] = {}
        outputs = []
        for h, (m, t) in enumerate(zip(found, self.trace.heads), start=1):
            A, O = (m.A, m.O) if m.applies else (t.A, t.O)
            out[f"heads[{h}].A"], out[f"heads[{h}].O"] = A, O
            if m.applies and m.logits is not None:
                out[f"heads[{h}].L"] = m.logits
            outputs.append(O)
        concat = sp.ImmutableMatrix.hstack(*outputs)
        out["concat"] = concat
        out["O"] = projected(concat, self.trace.problem)
        return out

    def all(self) -> tuple[Mistake, ...]:
        """Every mistake, in MISTAKES order."""
        return tuple(self[name] for name in MISTAKES)
