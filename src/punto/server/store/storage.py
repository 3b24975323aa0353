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


class ServerStore:
    """The server's tables on an engine shared with the ledger: a facade over one store a
    concept (:mod:`~punto.server.store.users`, :mod:`~punto.server.store.tables`,
    :mod:`~punto.server.store.hands`…), each of whose methods it offers under the same
    name (``store.hand(game)`` is :meth:`HandStore.hand <punto.server.store.hands.HandStore.hand>`).

    ``clock``: the wall clock (epoch seconds) the rows are stamped by; leases, turns and
    wallet calls are compared across processes, so it is never a table's clock a test
    moves by hand."""

    def __init__(self, engine: AsyncEngine, *, clock: Callable[[], float] = time.time) -> None:
        db = Database(engine, clock=clock)
        # users and revoked tokens
        users = UserStore(db)
        self.create_user = users.create_user
        self.user = users.user
        self.users = users.users
        self.revoke_token = users.revoke_token
        self.token_revoked = users.token_revoked
        # table configurations and rules versions
        tables = TableStore(db)
        self.create_table = tables.create_table
        self.update_table = tables.update_table
        self.tables = tables.tables
        self.table = tables.table
        self.last_shoe = tables.last_shoe
        self.rules_versions = tables.rules_versions
        # ownership leases
        leases = LeaseStore(db)
        self.acquire_lease = leases.acquire_lease
        self.renew_leases = leases.renew_leases
        self.release_leases = leases.release_leases
        self.owners = leases.owners
        # shoes
        shoes = ShoeStore(db)
        self.shoe_opened = shoes.shoe_opened
        self.shoe_closed = shoes.shoe_closed
        self.shoes = shoes.shoes
        self.shoe = shoes.shoe
        # hand records
        hands = HandStore(db)
        self.save_hand = hands.save_hand
        self.hand = hands.hand
        self.saved_hands = hands.saved_hands
        self.hands = hands.hands
        self.shoe_hands = hands.shoe_hands
        self.player_hands = hands.player_hands
        self.hand_records = hands.hand_records
        # amendments
        amendments = AmendmentStore(db)
        self.add_amendment = amendments.add_amendment
        self.amendments = amendments.amendments
        # presence
        presence = PresenceStore(db)
        self.enter_table = presence.enter_table
        self.leave_table = presence.leave_table
        self.clear_table = presence.clear_table
        self.tables_of = presence.tables_of
        self.tables_of_many = presence.tables_of_many
        self.table_of = presence.table_of
        # players' turns
        turns = TurnStore(db)
        self.take_turn = turns.take_turn
        self.release_turns = turns.release_turns
        self.refresh_turn = turns.refresh_turn
        self.end_turn = turns.end_turn
        self.turn = turns.turn
        # wallet outbox
        outbox = OutboxStore(db)
        self.outbox_add = outbox.outbox_add
        self.outbox_due = outbox.outbox_due
        self.outbox_items = outbox.outbox_items
        self.stakes_not_debited = outbox.stakes_not_debited
        self.ledger_last_seq = outbox.ledger_last_seq
        self.outbox_swept = outbox.outbox_swept
        self.outbox_swept_to = outbox.outbox_swept_to
        self.wallet_calls_unwritten = outbox.wallet_calls_unwritten
        self.outbox_item = outbox.outbox_item
        self.outbox_update = outbox.outbox_update
        # alarms
        alarms = AlarmStore(db)
        self.add_alarm = alarms.add_alarm
        self.alarms = alarms.alarms
        # chat
        chat = ChatStore(db)
        self.add_chat_line = chat.add_chat_line
        self.chat_lines = chat.chat_lines
        self.set_chat_muted = chat.set_chat_muted
        self.chat_muted = chat.chat_muted
        self.chat_mutes = chat.chat_mutes
        # complaints
        complaints = ComplaintStore(db)
        self.add_complaint = complaints.add_complaint
        self.complaint = complaints.complaint
        self.complaints = complaints.complaints
        self.resolve_complaint = complaints.resolve_complaint
        # lobby preferences
        lobby = LobbyPrefsStore(db)
        self.lobby_prefs = lobby.lobby_prefs
        self.set_lobby_prefs = lobby.set_lobby_prefs
        # reads of the ledger's books
        books = BookStore(db)
        self.account_balances = books.account_balances
        self.player_transactions = books.player_transactions
        self.day_books = books.day_books
