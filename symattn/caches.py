"""Every process-wide memo in one table, and clear() to empty them all (benchmarks, long runs)."""

from __future__ import annotations

import sys

MEMOS: tuple[tuple[str, str], ...] = (
    ("derivation.approx", "_has_symbol"),
    ("derivation.forms", "_joined"),
    ("derivation.forms", "_radicals"),
    ("derivation.forms", "_powers"),
    ("derivation.forms", "_expands_to_itself"),
    ("exact.linear", "_basis_product"),
    ("exact.tidy", "_EVALUATORS"),
    ("numeric", "context"),
    ("numeric", "_EVALUATORS"),
    ("numeric", "_LAST_RECOMPUTED"),
    ("page.katex", "katex_script"),
    ("parse.primes", "trial_primes"),
    ("printing.measure", "width"),
    ("printing.measure", "_measured"),
    ("printing.measure", "_body_width"),
    ("printing.measure", "height"),
    ("printing.measure", "_STATES"),
    ("printing.printer", "_denominator"),
    ("printing.printer", "_PRINTED"),
    ("printing.term_order", "_FACTS"),
    ("printing.term_order", "_SORT_KEYS"),
    ("printing.term_order", "_VALUES"),
)
"""(module under symattn, name): a function under functools.lru_cache or cache, or a module-level
dict or list used as a memo. tests/test_caches.py scans the source and fails on one not named
here, or on a name here that is gone (a module renamed: change its row)."""


def clear() -> None:
    """Empty every memo of MEMOS in the modules already imported (the others hold nothing)."""
    for module_name, name in MEMOS:
        module = sys.modules.get(f"{__package__}.{module_name}")
        if module is None:
            continue
        memo = getattr(module, name)
        if hasattr(memo, "cache_clear"):
            memo.cache_clear()
        else:
            memo.clear()
