"""What `symattn solve` and `check` load at start: no analyses, no prime table until a
logarithm needs it (start-up time itself is measured in benchmarks/, not here)."""

from __future__ import annotations

import subprocess
import sys

import sympy as sp

from symattn.parse.primes import trial_primes


def test_the_sieved_primes_are_sympys():
    assert trial_primes() == tuple(int(p) for p in sp.primerange(2, 2**15))


def test_solve_and_check_start_without_the_analyses():
    probe = ("import sys, symattn.cli.solve, symattn.parse.primes as p; "
             "print(sorted(m for m in sys.modules if m.startswith('symattn.analyses.'))); "
             "print(p.trial_primes.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == "[]"
    assert out[1] == "0"
