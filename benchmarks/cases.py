"""Input generation for the attention benchmarks (fixed seeds, small integers).

Two families, both causal with d_v = 2:

- ``random_case(n, d_k)``: Q, K, V random integers in -3..3, tau = 17/20 (logits irrational
  for d_k = 2 and 8, rational multiples of one generator for d_k = 4);
- ``log_case(n)``: the seed example's construction, d_k = 1, Q random integers in -3..3,
  K entries ln(c) with c in 1..7 and tau = 1, so that exp(q ln c) = c^q and every weight is a
  rational number.

Entries are ints or strings "ln(c)"; ``entry_sympy`` / ``entry_mpmath`` turn them into values
for the naive baselines (the strings are ours, never user text).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

VALUE_MIN, VALUE_MAX = -3, 3
LOG_MIN, LOG_MAX = 1, 7
D_V = 2
TEMPERATURE = "17/20"
BASE_SEED = 20_240_000
LOG_SEED = 20_250_000
_LOG = re.compile(r"ln\((\d+)\)")

Grid = list[list[Any]]


@dataclass(frozen=True)
class Case:
    """One attention problem: Q (n x d_k), K (n x d_k), V (n x d_v), mask, temperature."""

    name: str
    n: int
    d_k: int
    d_v: int
    Q: Grid
    K: Grid
    V: Grid
    mask: str = "causal"
    temperature: str = TEMPERATURE
    family: str = "random"

    def allowed(self, i: int, j: int) -> bool:
        """Return True if query i may read key j under this case's mask."""
        if self.mask == "causal":
            return j <= i
        if self.mask == "none":
            return True
        raise ValueError(f"unknown mask {self.mask!r}")


def seed_for(n: int, d_k: int) -> int:
    """Return the fixed seed used for an (n, d_k) problem."""
    return BASE_SEED + 1000 * n + d_k


def random_grid(rng: random.Random, rows: int, cols: int) -> list[list[int]]:
    """Return a rows x cols list of random integers in VALUE_MIN..VALUE_MAX."""
    return [[rng.randint(VALUE_MIN, VALUE_MAX) for _ in range(cols)] for _ in range(rows)]


def random_case(n: int, d_k: int, d_v: int = D_V, seed: int | None = None) -> Case:
    """Return the causal random-integer case for (n, d_k) with tau = 17/20."""
    rng = random.Random(seed_for(n, d_k) if seed is None else seed)
    Q = random_grid(rng, n, d_k)
    K = random_grid(rng, n, d_k)
    V = random_grid(rng, n, d_v)
    return Case(name=f"random n={n} d_k={d_k}", n=n, d_k=d_k, d_v=d_v, Q=Q, K=K, V=V)


def log_case(n: int, d_v: int = D_V, seed: int | None = None) -> Case:
    """Return the causal log-designed case: K = ln(c), c in 1..7, tau = 1, every weight rational."""
    rng = random.Random(LOG_SEED + n if seed is None else seed)
    Q = random_grid(rng, n, 1)
    K = [[f"ln({rng.randint(LOG_MIN, LOG_MAX)})"] for _ in range(n)]
    V = random_grid(rng, n, d_v)
    return Case(name=f"log-designed n={n}", n=n, d_k=1, d_v=d_v, Q=Q, K=K, V=V,
                temperature="1", family="log")


def entry_sympy(x: Any) -> Any:
    """A case entry as a SymPy value (int, or "ln(c)" -> log(c))."""
    import sympy

    if isinstance(x, str):
        match = _LOG.fullmatch(x)
        if match is None:
            raise ValueError(f"unexpected entry {x!r}")
        return sympy.log(sympy.Integer(int(match.group(1))))
    return sympy.Integer(x)


def entry_mpmath(ctx: Any, x: Any) -> Any:
    """A case entry as an mpmath number in the private context ctx."""
    if isinstance(x, str):
        match = _LOG.fullmatch(x)
        if match is None:
            raise ValueError(f"unexpected entry {x!r}")
        return ctx.log(int(match.group(1)))
    return ctx.mpf(x)


CASE_BUILDERS = {"random": random_case, "log": log_case}
