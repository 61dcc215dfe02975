"""Logarithms of rationals reduced to prime logarithms, by bounded trial division."""

from __future__ import annotations

import functools

import sympy as sp

from ..limits import MAX_TRIAL_FACTOR_BITS


def log_reduced(value: sp.Expr) -> sp.Expr:
    """ln of a product of rational powers of rationals, as a sum over prime logs."""
    powers = sp.Mul.make_args(value)
    if not all(_rational_power(p) for p in powers):
        return sp.log(value)
    total = sp.S.Zero
    for factor in powers:
        base, exponent = factor.as_base_exp()
        base = sp.Rational(base)
        for prime, count in _factor(base.p).items():
            total += exponent * count * sp.log(prime)
        for prime, count in _factor(base.q).items():
            total -= exponent * count * sp.log(prime)
    return total


def _rational_power(factor: sp.Expr) -> bool:
    base, exponent = factor.as_base_exp()
    return bool(base.is_Rational and base.is_positive and exponent.is_Rational)


TRIAL_LIMIT = 2**15


@functools.lru_cache(maxsize=1)
def trial_primes() -> tuple[int, ...]:
    """The primes below TRIAL_LIMIT, sieved on first use (a millisecond; not at import)."""
    sieve = bytearray([1]) * TRIAL_LIMIT
    sieve[0:2] = b"\x00\x00"
    for p in range(2, int(TRIAL_LIMIT ** 0.5) + 1):
        if sieve[p]:
            sieve[p * p::p] = bytes(len(range(p * p, TRIAL_LIMIT, p)))
    return tuple(i for i, is_prime in enumerate(sieve) if is_prime)


def _factor(n: int) -> dict[int, int]:
    """Prime factors below 2**15 by trial division; the cofactor is kept whole (as a perfect
    power if it is one). No primality test or rho: their cost on a large cofactor is unbounded."""
    factors: dict[int, int] = {}
    if n.bit_length() > MAX_TRIAL_FACTOR_BITS:
        return {n: 1} if n > 1 else {}
    for p in trial_primes():
        if p * p > n:
            break
        count = 0
        while n % p == 0:
            n //= p
            count += 1
        if count:
            factors[p] = count
    if n > 1:
        root, power = sp.perfect_power(n) or (n, 1)
        factors[int(root)] = factors.get(int(root), 0) + int(power)
    return factors
