"""What every table runner of a process shares, and the clock a server's tables run on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from punto.server.clock import ServerClock, WallClock
from punto.server.config import Settings
from punto.server.fanout.bus import Bus
from punto.server.metrics import Metrics
from punto.server.money.bank import Bank
from punto.server.store.storage import ServerStore
from punto.table.purses import Purse

__all__ = ["DEALER_ROSTER", "ServerClock", "Services", "WallClock"]


DEALER_ROSTER: tuple[str, ...] = ("Dana", "Lin", "Mei", "Kai", "Rosa")
"""The dealers' names an RNG table rotates through (a VIP owner's "change dealer" [O])."""


async def _no_purse(player: str) -> Purse | None:
    return None


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
    """The process's clock: the tables' wall time (epoch seconds; a test passes one it
    moves by hand) and monotonic time for intervals."""
    purse: Callable[[str], Awaitable[Purse | None]] = _no_purse
    """The currency a player brings to a table (``None``: the house currency's)."""
    moved: Callable[[str, int, str], None] = lambda player, amount, table_id: None
    """Play at a table moved a player's wallet: ``(player, amount, table_id)``; their
    other tables follow (multi-table play)."""
