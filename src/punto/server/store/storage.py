"""The one object the server is handed for its records in the database
(:class:`ServerStore`): users, table configurations, leases, shoes, hand records,
amendments, presence, turns, the wallet outbox, alarms, chat, complaints and lobby
preferences, each kept by its own module of this package; the records' types the server
uses are named here too.

Money is not here: it lives in the ledger (:mod:`punto.ledger.store`), in the same
database. Every method is one short transaction.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncEngine

from punto.server.store.alarms import AlarmStore
from punto.server.store.amendments import AmendmentStore
from punto.server.store.books import BookStore
from punto.server.store.chat import ChatStore
from punto.server.store.complaints import ComplaintStore
from punto.server.store.database import Database
from punto.server.store.hands import HandStore, record_piece
from punto.server.store.leases import LeaseStore
from punto.server.store.lobbyprefs import LobbyPrefsStore
from punto.server.store.outbox import (
    OUTBOX_DONE,
    OUTBOX_FAILED,
    OUTBOX_PENDING,
    OUTBOX_REFUSED,
    Outbox,
    OutboxStore,
    Unwritten,
)
from punto.server.store.presence import PresenceStore
from punto.server.store.shoes import ShoeStore
from punto.server.store.tables import TableStore
from punto.server.store.turns import TURN_REFRESH, TURN_STALE, TurnStore
from punto.server.store.users import User, UserStore

__all__ = [
    "OUTBOX_DONE",
    "OUTBOX_FAILED",
    "OUTBOX_PENDING",
    "OUTBOX_REFUSED",
    "TURN_REFRESH",
    "TURN_STALE",
    "Outbox",
    "ServerStore",
    "Unwritten",
    "User",
    "record_piece",
]


class ServerStore(
    UserStore,
    TableStore,
    LeaseStore,
    ShoeStore,
    HandStore,
    AmendmentStore,
    PresenceStore,
    TurnStore,
    OutboxStore,
    AlarmStore,
    ChatStore,
    ComplaintStore,
    LobbyPrefsStore,
    BookStore,
):
    """The server's tables on an engine shared with the ledger: one store a concept
    (:mod:`~punto.server.store.users`, :mod:`~punto.server.store.tables`,
    :mod:`~punto.server.store.hands`…) over one :class:`Database`, each offering its own
    methods (``store.hand(game)`` is :meth:`HandStore.hand
    <punto.server.store.hands.HandStore.hand>`); no two of them share a method name.

    ``clock``: the wall clock (epoch seconds) the rows are stamped by; leases, turns and
    wallet calls are compared across processes, so it is never a table's clock a test
    moves by hand."""

    def __init__(self, engine: AsyncEngine, *, clock: Callable[[], float] = time.time) -> None:
        self._db = Database(engine, clock=clock)
