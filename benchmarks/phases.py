"""One command's phases in one process: python benchmarks/phases.py COMMAND FILE -> JSON seconds.

Run as a script (not -m) so that PYTHONPATH alone chooses which symattn checkout is measured.
Phases: imports (SymPy, then symattn), parse (the problem file), compute (every stage of the
exact trace), check (invariants and mpmath), derive (the derivation), print (the output text).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def main(command: str, file: str) -> dict[str, float | int]:
    """Seconds of each phase of `symattn COMMAND FILE`, and the output's bytes."""
    out: dict[str, float | int] = {}
    t = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal t
        now = time.perf_counter()
        out[name] = now - t
        t = now

    import sympy  # noqa: F401
    lap("import sympy")
    from symattn.api import render
    from symattn.checks.invariants import check
    from symattn.derivation import Options, derive
    from symattn.exact.attention import attend
    from symattn.parse.spec import load_problem
    from symattn.targets import render_derivation
    from symattn.targets.text import render_report
    lap("import symattn")
    problem = load_problem(Path(file))
    lap("parse")
    trace = attend(problem)
    trace.complete()
    lap("compute")
    if command in ("solve-text", "solve-json"):
        text = render(trace, command[len("solve-"):])
        lap("print")
    else:
        report = check(trace, digits=50)
        lap("check")
        if command == "check":
            text = render_report(report, "en")
        else:
            summary = command == "solve-summary"
            detail = "summary" if summary else "textbook"
            derivation = derive(trace, report, Options(lang="en", detail=detail))
            lap("derive")
            text = render_derivation(derivation, "latex" if summary else command[len("solve-"):])
        lap("print")
    out["bytes"] = len(text.encode("utf-8"))
    return out


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2])))
