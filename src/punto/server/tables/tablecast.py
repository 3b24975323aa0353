"""The fan-out of one table: its events, countdowns, bet totals and legal actions to clients.

Each event's envelopes (one text a kind of viewer) are made once, when its effects have run;
the JSON the auditor's view holds is kept for the hand's record
(:class:`~punto.server.tables.recorder.HandRecorder`), which reuses it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import orjson

from punto.outcome import Side
from punto.server.fanout.envelopes import EventEnvelope, MessageEnvelope
from punto.server.fanout.hub import event_texts
from punto.server.fanout.protocol import COALESCED, bet_totals_json, event_views
from punto.server.money.tablelock import TableLock
from punto.server.services import Services
from punto.server.store.storage import record_piece
from punto.server.tables.history import event_at
from punto.server.tables.legalcast import LegalCast
from punto.table import Table
from punto.table.events import (
    BetsConfirmed,
    BetsRefunded,
    BettingOpened,
    CardPlaced,
    Event,
    HandSettled,
    HandVoided,
    TieBetsChanged,
)
from punto.table.records import GameNumber

__all__ = ["TableCast"]

_LOG = logging.getLogger("punto.server.tables.tablecast")

_TOTALS_EVENTS = (BettingOpened, BetsConfirmed, TieBetsChanged, BetsRefunded, HandVoided)
"""Events that change the players' totals per bet area (a ``bet_totals`` follows)."""


class TableCast:
    """What one table sends its clients, through the bus: each event once per kind of
    viewer, the ``countdown``, the ``bet_totals`` (at most one an interval) and each
    viewer's ``legal_actions`` when the events changed them."""

    def __init__(self, table: Table, services: Services, *, table_id: str, lock: TableLock) -> None:
        self._table = table
        self._s = services
        self._id = table_id
        self._lock = lock
        self._encoded = 0
        """Events before this one have their envelopes made (:meth:`encode`)."""
        self._envelopes: dict[int, EventEnvelope] = {}
        """Envelopes made and not yet published, by event number."""
        self._holders: dict[tuple[GameNumber, Side], str] = {}
        self.json: dict[int, dict[str, Any]] = {}
        """The hand's events as JSON by number (made once for the fan-out, kept for the
        hand's record)."""
        self.pieces: dict[int, orjson.Fragment] = {}
        """The hand's events' JSON as its record holds it, encoded as they were published."""
        self._legal = LegalCast()
        self._legal_events: list[Event] = []  # published, their legal_actions not yet sent
        self._legal_seq = 0
        self._next_countdown = 0.0
        self._totals_next = 0.0
        """The monotonic time before which no ``bet_totals`` is sent (then one is owed)."""
        self._totals_owed: int | None = None
        """The last event a ``bet_totals`` owed follows (``None``: none is owed)."""
        self._totals_timer: asyncio.TimerHandle | None = None
        self._totals_tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    def new_hand(self) -> None:
        """A new hand starts: the last one's JSON and card holders go."""
        self.json = {}
        self.pieces = {}
        self._holders.clear()

    def hold(self, game: GameNumber, side: Side, player: str) -> None:
        """``player`` holds ``side``'s face-down cards (only they see them dealt)."""
        self._holders[(game, side)] = player

    def encode(self, done: int) -> None:
        """Make the envelopes of the events before ``done`` not yet made, once each (each
        kind of viewer's text)."""
        table = self._table
        for index in range(self._encoded, done):
            event = event_at(table, index)
            holder = (
                self._holders.get((event.game, event.position.side))
                if isinstance(event, CardPlaced)
                else None
            )
            views = event_views(event, holder=holder, piece=record_piece)
            if views.get("auditor") is not None:
                self.json[index] = views["auditor"]
                if not isinstance(event, HandSettled):  # settled hands: by the record's task
                    self.pieces[index] = record_piece(views["auditor"])
            if isinstance(event, COALESCED):
                # the player who confirmed gets the event, the dealer and auditors every
                # one; the others one ``bet_totals`` for the whole pass
                views = {**views, "watcher": None}
            self._envelopes[index] = event_texts(self._id, index, views)
        self._encoded = max(self._encoded, done)

    async def publish(self, first: int, count: int) -> None:
        """Fan out the events ``first`` … ``first + count - 1``; when they changed the
        players' totals per bet area, a ``bet_totals`` after them (or at the end of
        ``PUNTO_TOTALS_INTERVAL``)."""
        self.encode(first + count)
        table = self._table
        started = time.perf_counter()
        span = range(first, first + count)
        totals = any(isinstance(event_at(table, index), _TOTALS_EVENTS) for index in span)
        try:
            for index in span:
                envelope = self._envelopes.pop(index, None)
                if envelope is not None:
                    await self._s.bus.publish(envelope)
            if totals:
                await self._publish_totals(first + count - 1)
            # what each viewer may do now: sent once the pass's money messages are out
            self._legal_events.extend(event_at(table, i) for i in span)
            self._legal_seq = first + count - 1
        finally:  # the bus gave up: these events are not sent again
            for index in span:
                self._envelopes.pop(index, None)
        self._s.metrics.broadcast_seconds.observe(time.perf_counter() - started)

    def offer_side_bets(self, player: str, offered: bool) -> None:
        """Whether ``player``'s ``legal_actions`` name the side-bet areas (their
        jurisdiction may turn side bets off)."""
        if offered:
            self._legal.no_side_bets.discard(player)
        else:
            self._legal.no_side_bets.add(player)

    def side_bets_offered(self, player: str) -> bool:
        """Whether ``player`` is offered side bets (:meth:`offer_side_bets`)."""
        return player not in self._legal.no_side_bets

    async def publish_legal(self) -> None:
        """The ``legal_actions`` of the viewers whose value the events published since the
        last call changed: after the pass's events, balances and roads (at thousands of
        players a table-wide event's values take long to work out, and no balance message
        waits for them)."""
        events, self._legal_events = self._legal_events, []
        if not events:
            return
        legal = self._legal.envelope(self._table, events, table_id=self._id, seq=self._legal_seq)
        if legal is not None:
            await self._s.bus.publish(legal)

    async def message(self, message: dict[str, Any], *, to: str | None = None) -> None:
        """One message of the table's, to everyone or to player ``to``."""
        if to is None:
            await self._s.bus.publish({"table": self._id, "message": message})
        else:
            await self._s.bus.publish({"table": self._id, "to": to, "message": message})

    async def countdown(self, now: float, *, force: bool = False) -> None:
        """The once-a-second ``countdown`` message while betting is open."""
        closes_at = self._table.closes_at
        if closes_at is None or (not force and now < self._next_countdown):
            return
        self._next_countdown = now + 0.95
        await self.message(self._closing("countdown", closes_at, now))

    async def squeeze_countdown(self, now: float) -> None:
        """The ``squeeze_countdown`` message: how long the squeeze may last before the
        table turns the cards itself (sent once, when the squeeze starts)."""
        closes_at = self._table.squeeze_closes_at
        if closes_at is not None:
            await self.message(self._closing("squeeze_countdown", closes_at, now))

    def _closing(self, kind: str, closes_at: float, now: float) -> dict[str, Any]:
        game = self._table.game
        return {
            "type": kind,
            "table": self._id,
            "game": None if game is None else str(game),
            "closes_at": closes_at,
            "closes_in": max(0.0, round(closes_at - now, 3)),
        }

    async def _publish_totals(self, seq: int) -> None:
        """A ``bet_totals`` after event ``seq``: now, unless one went out less than
        ``PUNTO_TOTALS_INTERVAL`` ago; then one is owed, sent when the interval ends with
        the totals as they are then (one frame per client for every batch in between)."""
        now = self._s.clock.monotonic()
        if now >= self._totals_next:
            self._totals_next = now + self._s.settings.totals_interval
            self._totals_owed = None
            await self._s.bus.publish(self._totals_envelope(seq))
            return
        self._totals_owed = seq
        if self._totals_timer is None:
            self._totals_timer = asyncio.get_running_loop().call_later(
                self._totals_next - now, self._totals_due
            )

    def _totals_due(self) -> None:
        self._totals_timer = None
        task = asyncio.create_task(self._send_owed_totals(), name=f"punto-totals-{self._id}")
        self._totals_tasks.add(task)
        task.add_done_callback(self._totals_tasks.discard)

    async def _send_owed_totals(self) -> None:
        """The owed ``bet_totals``, under the table's lock (after the events it follows)."""
        async with self._lock:
            seq = self._totals_owed
            if seq is None or self._closed:
                return
            try:
                await self._publish_totals(seq)
            except Exception:  # the bus is down: the next change or a resync tells
                _LOG.warning("bet totals not sent", extra={"table": self._id}, exc_info=True)

    def closing(self) -> None:
        """The table is closing: no owed ``bet_totals`` is sent any more."""
        self._closed = True

    def close(self) -> None:
        """Send no owed ``bet_totals`` (the table stops here)."""
        self._closed = True
        self._totals_owed = None
        if self._totals_timer is not None:
            self._totals_timer.cancel()
            self._totals_timer = None
        for task in self._totals_tasks:
            task.cancel()

    def _totals_envelope(self, seq: int) -> MessageEnvelope:
        """The ``bet_totals`` message after event ``seq``: every player's confirmed stakes
        per bet area as they are now."""
        table = self._table
        return {
            "table": self._id,
            "seq": seq,
            "message": {
                "type": "bet_totals",
                "table": self._id,
                "game": None if table.game is None else str(table.game),
                "seq": seq,
                **bet_totals_json(table.bet_totals()),
            },
        }
