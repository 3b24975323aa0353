"""Every WebSocket connection's keepalive ping from one timer.

uvicorn pings each connection from a timer of its own (every ``ws_ping_interval``, and a
second timer for the pong it waits for): ten thousand watchers mean ten thousand timers
in the event loop's heap, each firing at its own moment. :class:`Keepalive` holds the
connections of one server instead and, once every interval, pings each whose last ping was
answered and closes (1011, as uvicorn does) each whose ping is still unanswered after the
timeout — the same rule, from one timer.

>>> import asyncio
>>> class Conn:
...     pending_ping_payload = None
...     ping_sent_at = 0.0
...     def ping(self, now: float) -> None:
...         self.pending_ping_payload, self.ping_sent_at = b"ping", now
...     def keepalive_timeout(self) -> None:
...         print("closed")
>>> async def two_ticks() -> None:
...     keepalive = Keepalive(asyncio.get_running_loop(), interval=20.0, timeout=20.0)
...     conn = Conn()
...     keepalive.add(conn)
...     keepalive.tick(now=100.0)  # pinged
...     keepalive.tick(now=120.0)  # no pong in 20 s
...     keepalive.close()
>>> asyncio.run(two_ticks())
closed
"""

from __future__ import annotations

import asyncio
from typing import Protocol

__all__ = ["Keepalive", "Pinged"]


class Pinged(Protocol):
    """A connection the keepalive pings (uvicorn's WebSocket protocol names)."""

    pending_ping_payload: bytes | None
    """The payload of the ping awaiting its pong (``None``: none awaits)."""
    ping_sent_at: float

    def ping(self, now: float) -> None:
        """Send a ping now (``now``: the loop's time)."""

    def keepalive_timeout(self) -> None:
        """No pong came in time: fail the connection."""


class Keepalive:
    """The keepalive pings of one server's WebSocket connections, from one timer."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, *, interval: float, timeout: float | None
    ) -> None:
        self._loop = loop
        self._interval = interval
        self._timeout = timeout
        self._conns: set[Pinged] = set()
        self._timer: asyncio.TimerHandle | None = None

    def __len__(self) -> int:
        return len(self._conns)

    def on(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether it runs on ``loop``."""
        return self._loop is loop

    def add(self, conn: Pinged) -> None:
        """Keep ``conn`` alive from now on (its first ping within one interval)."""
        self._conns.add(conn)
        if self._timer is None:
            self._timer = self._loop.call_later(self._interval, self._fire)

    def discard(self, conn: Pinged) -> None:
        """``conn`` closed: no more pings."""
        self._conns.discard(conn)

    def _fire(self) -> None:
        self._timer = None
        self.tick(now=self._loop.time())
        if self._conns:
            self._timer = self._loop.call_later(self._interval, self._fire)

    def tick(self, *, now: float) -> None:
        """One round: close the connections whose ping went unanswered for the timeout,
        ping the others."""
        timeout = self._timeout
        for conn in list(self._conns):
            if conn.pending_ping_payload is None:
                conn.ping(now)
            elif timeout is not None and now - conn.ping_sent_at >= timeout:
                self._conns.discard(conn)
                conn.keepalive_timeout()

    def close(self) -> None:
        """Stop the timer (the server is gone)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._conns.clear()
