"""symattn's times under one SymPy ground type, as JSON (run by the main benchmark).

    SYMPY_GROUND_TYPES=flint python -m benchmarks.ground --n 32 64 128 --d-k 2 4 8

SymPy picks its ground types (python, gmpy or flint) when it is first imported, so each
ground type needs its own interpreter; the main benchmark starts one per ground type. The
digest of A and O (SHA-256 of their srepr) shows that both give the same expressions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from typing import Any

from .cases import random_case
from .methods import symattn_attention, warm_up
from .timing import measure


def digest(result: tuple[Any, Any]) -> dict[str, Any]:
    """SHA-256 of srepr(A) + srepr(O), to compare results across ground types."""
    from sympy import srepr

    A, O = result
    return {"digest": hashlib.sha256((srepr(A) + srepr(O)).encode()).hexdigest()[:16]}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ground", description=__doc__)
    parser.add_argument("--n", type=int, nargs="+", default=[32, 64, 128])
    parser.add_argument("--d-k", type=int, nargs="+", default=[2, 4, 8])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cap", type=float, default=60.0)
    args = parser.parse_args(argv)
    from sympy.external.gmpy import GROUND_TYPES

    try:
        import flint
        flint_version = flint.__version__
    except ImportError:
        flint_version = None
    warm_up()
    rows = []
    for d_k in args.d_k:
        for n in args.n:
            case = random_case(n, d_k)
            m = measure(lambda case=case: symattn_attention(case), args.repeats, args.cap, digest)
            rows.append({"n": n, "d_k": d_k, "status": m.status, "median": m.median,
                         "runs": len(m.times), "digest": (m.summary or {}).get("digest")})
    json.dump({"ground_types": GROUND_TYPES, "flint": flint_version, "rows": rows}, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
