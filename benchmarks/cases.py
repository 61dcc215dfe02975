"""Input generation for the attention benchmarks (fixed seeds, small integers)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

VALUE_MIN, VALUE_MAX = -3, 3
D_V = 2
TEMPERATURE = "17/20"
BASE_SEED = 20_240_000

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


# Registry of case families; later issues add e.g. "log" (K entries ln(c), tau = 1).
CASE_BUILDERS = {"random": random_case}
