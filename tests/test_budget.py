"""CPU budgets hold whatever the bounded work does with the signal (symattn/answers/budget.py)."""

from __future__ import annotations

import signal
import time

import pytest

from symattn.answers.budget import REPEAT_SECONDS, OverBudget, cpu_budget


def _spin(seconds: float) -> None:
    """Spend about `seconds` of CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(range(1000))


def test_an_except_exception_in_the_work_does_not_stop_the_budget():
    start = time.process_time()
    with pytest.raises(OverBudget):
        with cpu_budget(0.2):
            for _ in range(200):
                try:
                    _spin(0.05)
                except Exception:  # what SymPy does around many of its steps
                    pass
    assert 0.2 <= time.process_time() - start < 1.0


def test_work_that_swallows_the_signal_gets_another_one():
    """A one-shot timer was lost to the first `except BaseException: pass` and the block ran on."""
    swallowed = 0
    start = time.process_time()
    with pytest.raises(OverBudget):
        with cpu_budget(0.2):
            for _ in range(200):
                try:
                    _spin(0.05)
                except OverBudget:
                    swallowed += 1
                    if swallowed > 3:
                        raise
    assert swallowed == 4
    assert time.process_time() - start < 0.2 + 10 * REPEAT_SECONDS + 0.5


def test_an_inner_budget_cannot_outlast_the_outer_one():
    start = time.process_time()
    with pytest.raises(OverBudget):
        with cpu_budget(0.3):
            with cpu_budget(30):
                _spin(10)
    assert time.process_time() - start < 1.5


def test_the_outer_budget_holds_again_after_an_inner_block():
    start = time.process_time()
    with pytest.raises(OverBudget):
        with cpu_budget(0.5):
            with cpu_budget(0.1):
                pass
            _spin(10)
    assert 0.5 <= time.process_time() - start < 2.0


def test_nothing_is_left_armed_after_the_blocks():
    before = signal.getsignal(signal.SIGPROF)
    with pytest.raises(OverBudget):
        with cpu_budget(0.1):
            _spin(5)
    with cpu_budget(5):
        _spin(0.05)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) is before
    _spin(0.3)  # no stray OverBudget after the blocks


def test_no_budget_is_no_limit():
    with cpu_budget(None):
        _spin(0.3)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
