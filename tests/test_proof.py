"""The ring proof of answers/proof.py: zero where it holds, never where it does not."""

from __future__ import annotations

import sympy as sp

from symattn.answers.judge import proved_zero
from symattn.answers.proof import ring_zero

E = sp.exp
R = sp.Rational


def test_powers_of_exponentials_with_different_denominators_cancel():
    s = E(R(1, 2)) + E(R(1, 3)) + E(R(1, 5)) + 1
    square = (sp.E + E(R(2, 3)) + E(R(2, 5)) + 1 + 2 * E(R(5, 6)) + 2 * E(R(7, 10))
              + 2 * E(R(1, 2)) + 2 * E(R(8, 15)) + 2 * E(R(1, 3)) + 2 * E(R(1, 5)))
    assert ring_zero(s ** 12 - square ** 6)
    assert not ring_zero(s ** 12 - square ** 6 + R(1, 10 ** 90))


def test_exponents_with_irrational_and_symbolic_cores():
    a = sp.Symbol("a", real=True)
    r = sp.sqrt(2)
    assert ring_zero((E(R(1, 3) + r / 4) + 1) ** 2 - E(R(2, 3) + r / 2) - 2 * E(R(1, 3) + r / 4) - 1)
    assert not ring_zero((E(R(1, 3) + r / 4) + 1) ** 2 - E(R(2, 3) + r / 2) - 1)
    assert ring_zero((1 + E(a / 2)) ** 2 - 1 - 2 * E(a / 2) - E(a))
    assert not ring_zero((1 + E(a / 2)) ** 2 - 1 - E(a))


def test_what_the_ring_cannot_see_is_left_to_expand():
    assert not ring_zero((1 + sp.sqrt(2)) * (1 + sp.sqrt(3)) - 1 - sp.sqrt(2) - sp.sqrt(3) - sp.sqrt(6))
    assert proved_zero((1 + sp.sqrt(2)) * (1 + sp.sqrt(3)) - 1 - sp.sqrt(2) - sp.sqrt(3) - sp.sqrt(6))


def test_infinities_and_inverse_sums_prove_nothing():
    a = sp.Symbol("a")
    assert not ring_zero(sp.Add(sp.oo, -sp.oo, evaluate=False))
    assert not ring_zero(1 / (1 + E(a)) - 1 / (1 + E(a)) + sp.Pow(1 + a, -1))
