"""The server's time: the one place a process reads the system's clocks.

Everything in the server that needs the time is handed a :class:`ServerClock` (the
tables through :class:`~punto.server.services.Services`), so a test can move time by
hand and the code never reads the system time itself.

>>> clock = WallClock()
>>> clock.now() > 1_600_000_000
True
>>> clock.monotonic() <= clock.monotonic()
True
"""

from __future__ import annotations

import time
from typing import Protocol, runtime_checkable

from punto.table.clock import Clock

__all__ = ["GivenClock", "ServerClock", "WallClock", "server_clock"]


@runtime_checkable
class ServerClock(Protocol):
    """Wall time (epoch seconds, what events and expiries name) and monotonic time
    (seconds for intervals: it never jumps when the wall clock is set)."""

    def now(self) -> float:
        """Epoch seconds."""
        ...

    def monotonic(self) -> float:
        """Seconds that only ever increase (only differences matter)."""
        ...


class WallClock:
    """Epoch seconds: a server's events carry the time a complaint will name [L]."""

    def now(self) -> float:
        """:func:`time.time`."""
        return time.time()

    def monotonic(self) -> float:
        """:func:`time.monotonic`."""
        return time.monotonic()


class GivenClock:
    """A test's wall clock (``now()`` only, moved by hand) with the process's own
    monotonic time for intervals.

    >>> from punto.table.clock import ManualClock
    >>> clock = GivenClock(ManualClock())
    >>> clock.now()
    0.0
    """

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._system = WallClock()

    def now(self) -> float:
        """The test's clock's time."""
        return self._clock.now()

    def monotonic(self) -> float:
        """:func:`time.monotonic`."""
        return self._system.monotonic()


def server_clock(clock: Clock | None) -> ServerClock:
    """``clock`` as a :class:`ServerClock`: the wall clock when there is none, a test's
    ``now()``-only clock with the process's monotonic time."""
    if clock is None:
        return WallClock()
    if isinstance(clock, ServerClock):
        return clock
    return GivenClock(clock)
