"""Time for a table: an injected clock, so every timer is deterministic under test.

The table never reads the system time itself. A server passes :class:`SystemClock`
(monotonic seconds); tests pass a :class:`ManualClock` and move it by hand.

>>> clock = ManualClock()
>>> clock.now()
0.0
>>> clock.advance(2.5)
>>> clock.now()
2.5
"""

from __future__ import annotations

import time
from typing import Protocol

__all__ = ["Clock", "ManualClock", "SystemClock"]


class Clock(Protocol):
    """Anything with ``now() -> float`` (seconds; only differences matter)."""

    def now(self) -> float:
        """The current time in seconds."""
        ...


class SystemClock:
    """The monotonic clock of the running process."""

    def now(self) -> float:
        """Seconds from :func:`time.monotonic`."""
        return time.monotonic()


class ManualClock:
    """A clock that moves only when told to (tests, replays)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        """The time set so far."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` (never backward)."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        self._now += seconds
