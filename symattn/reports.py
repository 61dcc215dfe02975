"""The outcome of the checks: one result per check by its identifier, a report per trace (a failed
check is data here, not an exception), and a multi-head report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import mpmath

CHECKS = ("shapes", "row_sums", "masked_zero", "nonnegative", "output_bounds", "numeric",
          "permutation")
"""Every check by its stable identifier, in the order a report lists them; the words for each
(English, Chinese) are in symattn.words. With mask_bias, "masked_small" (each masked weight
below a bound) takes the place of "masked_zero"."""


@dataclass(frozen=True)
class CheckResult:
    """One invariant or cross-check: its identifier (CHECKS), passed True, False or None (could
    not be decided), and what it found: a detail key with the values that detail names."""

    check: str
    passed: bool | None
    detail: str
    values: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Report:
    """The outcome of all checks on one trace; a failed check is data, not an exception."""

    results: tuple[CheckResult, ...]
    digits: int
    max_difference: object = field(default=None)  # an mpmath mpf, or None

    @property
    def passed(self) -> bool:
        return all(result.passed is True for result in self.results)


@dataclass(frozen=True)
class HeadsReport:
    """Each head's check report and the output's agreement with mpmath."""

    reports: tuple[Report, ...]
    difference: mpmath.mpf
    digits: int

    @property
    def passed(self) -> bool:
        limit = mpmath.mpf(10) ** (-(self.digits - 5))
        return all(r.passed for r in self.reports) and self.difference <= limit
