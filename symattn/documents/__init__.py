"""Documents: the closed union of blocks (blocks.py) and the builders that make them from a
derivation or a result; nothing here computes (values are prepared by derivation/ and exact/)."""

from __future__ import annotations

from ..model import Trace


def laid_out(trace: Trace) -> Trace:
    """The trace, refused when a stage is still to be built: a renderer never computes."""
    if not trace.is_complete:
        raise ValueError("a renderer was given a trace whose stages are not built yet; "
                         "call trace.complete() (or derive()) first")
    return trace
