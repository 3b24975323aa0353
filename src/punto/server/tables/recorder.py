"""The recorder of one table: its shoes, and each hand's record saved once, as its events
hold it (the result kept with the round in the ledger too)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable

import orjson

from punto.codec import result_json
from punto.ledger.store import RoundStatus
from punto.server.fanout.protocol import event_json, hand_record_json
from punto.server.features.backoffice import check_drift
from punto.server.money.bank import Settled
from punto.server.services import Services
from punto.server.store.storage import record_piece
from punto.server.tables.effects import Effect, Publish, RecordResult, SaveRecord, Settle
from punto.server.tables.history import event_at, events_from
from punto.server.tables.tablecast import TableCast
from punto.server.tables.truth import carry_amendments
from punto.table import HandFacts, Table, hand_facts, hand_records
from punto.table.events import (
    BettingClosed,
    BettingOpened,
    Event,
    HandSettled,
    ShoeClosed,
    ShoeOpened,
    SideBetsClosed,
)
from punto.table.records import GameNumber

__all__ = ["HandRecorder", "closed_bets"]

_LOG = logging.getLogger("punto.server.tables.recorder")


class HandRecorder:
    """Saves the hand records of one table: from its events, with the JSON the fan-out
    made of them (:class:`~punto.server.tables.tablecast.TableCast`), a hand with bets
    beside its settlement (in a database transaction that commits only once the
    settlement's has)."""

    def __init__(self, table: Table, services: Services, *, table_id: str, cast: TableCast) -> None:
        self._table = table
        self._s = services
        self._id = table_id
        self._cast = cast
        self._records: dict[GameNumber, asyncio.Task[bool]] = {}
        """Hand records being saved beside their settlement (:meth:`beside`)."""

    async def shoe_opened(self, event: ShoeOpened) -> None:
        """Store the new shoe and its commitment."""
        await self._s.store.shoe_opened(
            self._id,
            event.shoe,
            cards=event.cards,
            commitment=event.commitment,
            at=event.at,
            rules_version=self._table.settings.rules_version,
        )

    async def shoe_closed(self, closed: ShoeClosed) -> None:
        """Store the shoe's end and its reveal; check it against the rules' figures."""
        reveal = closed.reveal
        store = self._s.store
        await store.shoe_closed(
            self._id,
            closed.shoe,
            at=closed.at,
            hands=closed.hands,
            reason=str(closed.reason),
            order=None if reveal is None else reveal.order_text,
            salt=None if reveal is None else reveal.salt,
        )
        await check_drift(store, self._id, shoe=closed.shoe, at=closed.at)

    def opening(self, index: int) -> None:
        """A hand starts at event ``index``: what its record knows from the opening of its
        betting is kept with its round in the ledger."""
        table = self._table
        opened = event_at(table, index)
        if isinstance(opened, BettingOpened):
            facts = HandFacts(dealer=table.dealer, opened_at=opened.at)
            self._s.bank.opening(table.settings.table_id, str(opened.game), facts)

    async def result(self, effect: RecordResult) -> None:
        """The :class:`RecordResult` effect: the hand's result kept with its round in the
        ledger, with what its record knows that the ledger does not (:meth:`facts`)."""
        try:
            facts = self.facts(effect.game, first=effect.first, done=effect.done)
        except Exception:  # what a rebuilt record would show, never the money's
            _LOG.exception("hand facts not read", extra={"table": self._id})
            facts = None
        table = self._table
        await self._s.bank.record_result(
            effect.game,
            effect.outcome,
            rules=table.rules.name,
            facts=facts,
            lightning=effect.lightning,
        )

    async def beside(
        self,
        effect: Settle,
        later: Iterable[Effect],
        settle: Callable[[], Awaitable[Settled]],
    ) -> Settled:
        """Run ``settle``, the ledger's settlement of ``effect``. When the hand's record is
        the next to save among the ``later`` effects (a hand with bets, as usual), it is
        made and written meanwhile by a task: the record's work fills the time the ledger
        waits for the database, no record says *settled* of money that did not move, and
        the :class:`SaveRecord` effect waits for that task (:meth:`saved`). A settlement
        that fails withdraws it."""
        record = self._record_after(effect, later)
        settled: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if record is not None:
            self._records[record.game] = asyncio.create_task(
                self.save(record.game, first=effect.first, done=effect.done, settled=settled),
                name=f"punto-record-{self._id}",
            )
        try:
            result = await settle()
        except BaseException:
            settled.set_result(False)
            if record is not None:  # withdrawn: the effect saves it after the retry
                with contextlib.suppress(Exception):
                    await self._records.pop(record.game)
            raise
        settled.set_result(True)
        return result

    def _record_after(self, effect: Settle, later: Iterable[Effect]) -> SaveRecord | None:
        """The first save of the settled hand's record among the ``later`` effects (the
        records come before the fan-out), if the ledger holds stakes of that round (so
        the record's status will be *settled*)."""
        if not self._s.bank.round_open(effect.game):
            return None
        for next_effect in later:
            if isinstance(next_effect, Publish):
                return None
            if isinstance(next_effect, SaveRecord) and str(next_effect.game) == effect.game:
                if next_effect.resettled or next_effect.game in self._records:
                    return None
                return next_effect
        return None

    async def saved(self, effect: SaveRecord) -> None:
        """The :class:`SaveRecord` effect: the record saved beside the settlement, or now."""
        if not effect.resettled:
            self._s.metrics.hands_settled.labels(self._id).inc()
        alongside = self._records.pop(effect.game, None)
        saved = False
        if alongside is not None:
            try:
                saved = await alongside
            except Exception:  # its connection was cut, say: once more, alone
                _LOG.warning(
                    "hand record beside the settlement not saved: saving it again",
                    extra={"table": self._id, "game": str(effect.game)},
                    exc_info=True,
                )
        if not saved:
            await self.save(
                effect.game, first=effect.first, done=effect.done, resettled=effect.resettled
            )

    async def save(
        self,
        game: GameNumber,
        *,
        first: int,
        done: int,
        resettled: bool = False,
        settled: asyncio.Future[bool] | None = None,
    ) -> bool:
        """Save the record of hand ``game``, whose events start at ``first``; whether it
        was saved (``settled``: beside the settlement, saved only if that comes true)."""
        cast = self._cast
        cast.encode(done)  # the record reuses the JSON made for the fan-out
        table = self._table
        events = events_from(table, first)
        records = [r for r in hand_records(events) if r.game == game]
        if not records:
            return True
        record = records[-1]
        # the players' results as the fan-out encoded them (thousands at a busy table),
        # each once, as the record holds it (:func:`settled_views`' pieces), in the
        # settled event and the results (kept apart from the hand's pieces, which are not
        # copied to add them)
        settled_pieces: dict[int, orjson.Fragment] = {}
        encoded: dict[int, orjson.Fragment] = {}
        for n, event in enumerate(events):
            if isinstance(event, HandSettled) and (made := cast.json.get(first + n)):
                encoded.update(zip(map(id, event.results), made["results"], strict=True))
                settled_pieces[first + n] = record_piece(made)
        data = hand_record_json(record, results=lambda r: encoded.get(id(r)) or result_json(r))
        data["dealer"] = table.dealer
        data["rules_version"] = table.settings.rules_version
        pieces = cast.pieces
        data["events"] = [
            settled_pieces.get(first + n) or pieces.get(first + n) or event_json(e)
            for n, e in enumerate(events)
            if getattr(e, "game", game) == game
        ]
        if resettled:  # one truth per hand: the original facts and amendments stay
            stored = await self._s.store.hand(str(game))
            if stored is not None:
                data = carry_amendments(data, stored)
        if settled is None:
            status = await self._s.bank.status(str(game))
            status_text = "no_bets" if status is None else status.value
        else:
            status_text = RoundStatus.SETTLED.value
        players = sorted(set(record.bets) | set(record.results))
        return await self._s.store.save_hand(
            game=str(game),
            table_id=self._id,
            shoe=game.shoe,
            hand=game.hand,
            opened_at=record.opened_at,
            closed_at=record.closed_at,
            status=status_text,
            record=data,
            players=players,
            after=settled,
            closed_bets=closed_bets(events, game),
        )

    def facts(self, game: str, *, first: int, done: int) -> HandFacts | None:
        """What the hand ``game``'s record holds that the ledger does not (the dealer,
        when betting opened, the cards' times and holders), read from its events since
        its betting closed (a few, however many bets the hand holds)."""
        table = self._table
        start = max(first, table.events_forgotten)
        if start >= done:
            return None
        opened = event_at(table, start)
        if not isinstance(opened, BettingOpened) or str(opened.game) != game:
            return None
        index = done - 1
        while index > start and not isinstance(event_at(table, index), BettingClosed):
            index -= 1
        return hand_facts(
            opened.game,
            (event_at(table, i) for i in range(index, done)),
            dealer=table.dealer,
            opened_at=opened.at,
        )


def closed_bets(events: Iterable[Event], game: GameNumber) -> list[str]:
    """The side bets hand ``game`` closed for the shoe's edge [EZ-C], by wire name."""
    for event in events:
        if isinstance(event, SideBetsClosed) and event.game == game:
            return [bet.value for bet in event.closed]
    return []
