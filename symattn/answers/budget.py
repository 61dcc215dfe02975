"""Work bounded by the CPU time this process spends, not by the wall clock: the same work gets the
same outcome however busy the machine is (a grading verdict must not depend on load)."""

from __future__ import annotations

import signal
import threading
import time
from types import FrameType, TracebackType

# Once a budget has run out, the timer fires again at this interval of CPU time until the block has
# left: work that catches an OverBudget and goes on (SymPy wraps many steps in `except Exception`,
# and a signal lands anywhere) gets another one, so no budget is outrun by swallowing its signal.
REPEAT_SECONDS = 0.05


class OverBudget(BaseException):
    """The CPU time given to a piece of work ran out (a BaseException, so that the `except
    Exception` of the work it bounds lets it through)."""


class cpu_budget:  # noqa: N801 - used as a function: `with cpu_budget(seconds):`
    """Raise OverBudget inside the block once this process has spent `seconds` of CPU time in it.

    Uses the profiling timer (ITIMER_PROF: user and system time of this process). Without a limit
    (None), or outside the main thread where signals cannot be handled, the block runs unbounded.
    Budgets nest: an inner block cannot outlast the outer budget, and the outer budget holds again
    once the inner block has left.
    """

    _open: list[cpu_budget] = []  # the budgets whose blocks are running, outermost first
    _previous: object = None  # the SIGPROF handler before the outermost budget

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.end: float | None = None

    def __enter__(self) -> None:
        if self.seconds is None or threading.current_thread() is not threading.main_thread():
            return
        if not cpu_budget._open:
            cpu_budget._previous = signal.signal(signal.SIGPROF, _expired)
        self.end = time.process_time() + self.seconds
        cpu_budget._open.append(self)
        _arm()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.end is None:
            return
        # _expired raises nothing while this method runs, so the bookkeeping always completes
        cpu_budget._open.remove(self)
        self.end = None
        _arm()
        if not cpu_budget._open:
            signal.signal(signal.SIGPROF, cpu_budget._previous)  # type: ignore[arg-type]


def _expired(signum: int, frame: FrameType | None) -> None:
    for _ in range(2):  # in __exit__, or in _arm called by it
        if frame is None:
            break
        if frame.f_code is cpu_budget.__exit__.__code__:
            return
        frame = frame.f_back
    now = time.process_time()
    if any(budget.end is not None and budget.end <= now + 1e-3 for budget in cpu_budget._open):
        raise OverBudget()


def _arm() -> None:
    """Set the timer to the nearest end of an open budget, then to fire every REPEAT_SECONDS."""
    if not cpu_budget._open:
        signal.setitimer(signal.ITIMER_PROF, 0)
        return
    left = min(budget.end for budget in cpu_budget._open if budget.end is not None)
    signal.setitimer(signal.ITIMER_PROF, max(left - time.process_time(), 1e-3), REPEAT_SECONDS)
