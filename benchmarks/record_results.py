"""Record each input family's exact A and O (SymPy srepr) at small n, from the symattn on
PYTHONPATH: python benchmarks/record_results.py OUT.json

tests/fixtures/family_results.json was written this way from the code before the whole-job
work (commit bddfbc8); tests/test_family_results.py asserts that the code still gives exactly
these expressions."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from jobs import FAMILIES, problem_toml  # noqa: E402

SIZES = (3, 6)


def record() -> dict[str, dict[str, list[str]]]:
    import sympy as sp
    from symattn.exact.attention import attend
    from symattn.parse.spec import load_problem
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        for family in FAMILIES:
            for n in SIZES:
                path = Path(folder) / f"{family}-{n}.toml"
                path.write_text(problem_toml(family, n), encoding="utf-8")
                trace = attend(load_problem(path))
                out[f"{family}-{n}"] = {name: [sp.srepr(x) for x in trace.stage(name)]
                                        for name in ("A", "O")}
    return out


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(record(), indent=0) + "\n", encoding="utf-8")
