"""What every table runner of a process shares, and the clock a server's tables run on."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from punto.server.config import Settings
from punto.server.fanout.bus import Bus
from punto.server.metrics import Metrics
from punto.server.money.bank import Bank
from punto.server.store.storage import ServerStore
from punto.table.clock import Clock

__all__ = ["DEALER_ROSTER", "ServerClock", "Services", "WallClock"]


DEALER_ROSTER: tuple[str, ...] = ("Dana", "Lin", "Mei", "Kai", "Rosa")
"""The dealers' names an RNG table rotates through (a VIP owner's "change dealer" [O])."""


class ServerClock(Clock, Protocol):
    """A table's clock, and the monotonic one the server's own timers (retries, intervals)
    run on."""

    def monotonic(self) -> float:
        """Seconds that only go forward (only differences matter)."""
        ...


class WallClock:
    """Epoch seconds: a server's events carry the time a complaint will name [L]."""

    def now(self) -> float:
        """:func:`time.time`."""
        return time.time()

    def monotonic(self) -> float:
        """:func:`time.monotonic`."""
        return time.monotonic()


@dataclass(frozen=True, slots=True)
class Services:
    """What every runner of a process shares."""

    settings: Settings
    store: ServerStore
    bank: Bank
    bus: Bus
    metrics: Metrics
    roster: Callable[[], Sequence[str]] = lambda: DEALER_ROSTER
    clock: ServerClock = field(default_factory=WallClock)
    """The tables' clock (epoch seconds; a test passes one it moves by hand) and the
    server's timers'."""
    moved: Callable[[str, int, str], None] = lambda player, amount, table_id: None
    """Play at a table moved a player's wallet: ``(player, amount, table_id)``; their
    other tables follow (multi-table play)."""
