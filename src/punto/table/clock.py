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
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

__all__ = ["Clock", "HeldClock", "ManualClock", "SystemClock"]


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


class HeldClock:
    """Another clock, that can be held still for a moment: a server holds its table's
    clock while it decides a batch of confirms, so that each is checked and taken at the
    same instant (a confirm checked before the countdown ended is not refused after its
    stake was written because the write took past the end).

    >>> clock = ManualClock(); held = HeldClock(clock)
    >>> with held.held():
    ...     clock.advance(3.0)
    ...     held.now()
    0.0
    >>> held.now()
    3.0
    """

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._held: float | None = None

    def now(self) -> float:
        """The time it was held at, or the other clock's."""
        return self._clock.now() if self._held is None else self._held

    @contextmanager
    def held(self, at: float | None = None) -> Iterator[float]:
        """Hold the time still (it was not held already) until the block ends: now, or
        at ``at``, an instant it was held at before (a batch of confirms is taken at the
        instant it was checked)."""
        if self._held is not None:
            raise RuntimeError("the clock is held already")
        self._held = self._clock.now() if at is None else at
        try:
            yield self._held
        finally:
            self._held = None


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
