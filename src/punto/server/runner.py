"""One table owned by this process: a :class:`punto.table.Table` driven with a real clock.

The runner is the table's imperative shell. Every change goes through :meth:`TableRunner.execute`
(a client's command) or the runner's own loop (an RNG table deals by itself; a live table's
countdown closes betting), one at a time under a lock. After each action the runner maps the
new events to their effects — stakes, settlements, voids and corrections in the ledger, shoe
commitments and hand records in the database — and only then fans them out to clients, so no
client sees a result whose money has not moved.

Money goes through the ledger *before* the table accepts it: a confirm stakes the chips in the
ledger (and debits a seamless wallet) and only then confirms them on the table; if the table
refuses after all (the countdown ended meanwhile), the stake is cancelled. Settlement uses the
ledger's own record of the bets, so the books never depend on memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from punto.bets import Bet
from punto.errors import PuntoError, UnavailableError
from punto.ledger.model import Transaction, settle_players
from punto.limits import LimitTier
from punto.outcome import Outcome, Side
from punto.roads import RoadBoard, RoadResult
from punto.roads_render import render_svg, roads_dict
from punto.server.auth import Actor, Role
from punto.server.backoffice import check_drift, rules_of_hand
from punto.server.commands import BETWEEN, Confirming, TableCommands
from punto.server.confirms import ConfirmBatcher, Pending
from punto.server.hub import event_texts
from punto.server.protocol import (
    Command,
    Confirm,
    event_json,
    event_views,
    hand_record_json,
    tier_json,
)
from punto.server.services import DEALER_ROSTER, Services, WallClock
from punto.server.snapshot import snapshot_state, table_json, you_json
from punto.server.tables import TableConfig
from punto.server.truth import carry_amendments, roads_of
from punto.table import Dealing, Fault, Phase, Table, Viewer, hand_records
from punto.table.events import (
    BalanceTransferred,
    BetsConfirmed,
    BetsRefunded,
    BettingClosed,
    BettingExtended,
    BettingOpened,
    BlankHandStarted,
    CardPlaced,
    CardsHeld,
    ChipChosen,
    Event,
    HandResettled,
    HandRestarted,
    HandResult,
    HandSettled,
    HandVoided,
    OpenCardsRequested,
    PlayerJoined,
    PlayerLeft,
    RulesChanged,
    ShoeClosed,
    ShoeOpened,
    TableClosed,
    TieBetsChanged,
)
from punto.table.records import GameNumber

__all__ = ["TableRunner"]


_LOG = logging.getLogger("punto.server.runner")


class TableRunner(TableCommands):
    """One owned table: its state machine, its lock, its loop and its effects (its client
    commands are :class:`~punto.server.commands.TableCommands`)."""

    def __init__(
        self,
        config: TableConfig,
        services: Services,
        *,
        first_shoe: int = 0,
        rng: random.Random | None = None,
        dealer: str | None = None,
    ) -> None:
        self.config = config
        self._s = services
        settings = config.settings(betting_seconds=services.settings.betting_seconds)
        roster = list(services.roster()) or list(DEALER_ROSTER)
        self.table = Table(settings, clock=WallClock(), rng=rng, dealer=dealer or roster[0])
        self.table.shoe_number = first_shoe  # game numbers stay unique across restarts
        self.roads = RoadBoard()
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._done = 0
        self._hand_start = 0
        self._outcome: Outcome | None = None
        self._commitment: str | None = None
        self._chips: dict[str, int] = {}
        self._confirmations: dict[str, list[tuple[str, int]]] = {}
        self._holders: dict[tuple[GameNumber, Side], str] = {}
        self._resnap: set[str] = set()
        self._pending_money: _PendingMoney | None = None
        self._money_tries = 0
        self._payouts: list[tuple[tuple[Transaction, ...], str]] = []
        """Posted settlements and refunds whose seamless wallet calls are still to make."""
        self._paying: set[asyncio.Task[None]] = set()
        """Set while a money effect failed and waits for its retry (settlement pending)."""
        self._records: list[tuple[GameNumber, bool]] = []
        """Hands whose record is saved once this step's effects ran and before its events
        go out (the JSON made for the fan-out is reused for the record), and whether the
        table re-settled them (their amendments are carried over)."""
        self._json: dict[int, dict[str, Any]] = {}
        """The hand's events as JSON by number (made once for the fan-out, kept for the
        hand's record)."""
        self._wallets: dict[str, int] = {}
        """Wallet balances just learnt from a stake (spares a query per confirm)."""
        self._author = "system"
        self._squeeze_deadline: float | None = None
        self._next_countdown = 0.0
        self._pending_limits: tuple[LimitTier, ...] | None = None
        self._pending_betting_seconds: float | None = None
        self._pending_rules: TableConfig | None = None
        self._pause_after_hand: str | None = None
        self._stopping = False
        self._closing_reason: str | None = None
        self.stopped = asyncio.Event()
        self._confirms = ConfirmBatcher(
            self._flush_confirms,
            window=services.settings.confirm_window,
            size=services.settings.confirm_batch,
        )

    # -- reading ---------------------------------------------------------------------

    @property
    def id(self) -> str:
        """The table id."""
        return self.config.id

    @property
    def seq(self) -> int:
        """The number of the last event (``-1``: none)."""
        return self.table.event_count - 1

    def status(self) -> dict[str, Any]:
        """The table's entry in the lobby (live part)."""
        table = self.table
        seated = watching = 0
        for who in table.seats.participants.values():
            if who.role.value == "seated":
                seated += 1
            elif who.role.value == "watching":
                watching += 1
        tiers = table.rules.limit_tiers
        return {
            "phase": table.phase.value,
            "game": None if table.game is None else str(table.game),
            "closes_at": table.closes_at,
            "dealer": table.dealer,
            "seated": seated,
            "watching": watching,
            "owner": table.owner,
            "password": table.vip.password_digest is not None,
            "min_bet": min(t.min_bet for t in tiers),
            "max_bet": max(t.max_bet for t in tiers),
            "tiers": [tier_json(t) for t in tiers],
            "last_results": "".join(r.code[0] for r in self.roads.results),
            "hands_dealt": 0 if table.shoe is None else table.shoe.hands_dealt,
            "shoe": table.shoe_number,
        }

    def describe(self) -> dict[str, Any]:
        """``GET /api/tables/{id}``: the static description and the live status."""
        out = table_json(self.config, self.table.settings)
        out.update(self.status())
        return out

    def snapshot(self, actor: Actor, *, wallet: int | None) -> dict[str, Any]:
        """The ``snapshot`` message for ``actor`` (no await: one consistent moment)."""
        viewer = actor.viewer
        player = actor.user_id if viewer is Viewer.PLAYER else None
        state, recent = snapshot_state(
            self.table,
            hand_events=self._hand_events(),
            viewer=viewer,
            player=player,
            commitment=self._commitment,
            squeeze_closes_at=self._squeeze_deadline,
        )
        chip = None if player is None else self._chips.get(player)
        return {
            "type": "snapshot",
            "seq": self.seq,
            "table": self.describe(),
            "you": you_json(self.table, actor, chip=chip, wallet=wallet),
            "state": state,
            "roads": roads_dict(self.roads),
            "recent": recent,
            "settlement_pending": self._pending_message()
            if self._pending_money is not None
            else None,
        }

    def _events_from(self, number: int) -> list[Event]:
        """The events from event ``number`` on (numbers count forgotten events too)."""
        return self.table.events[max(0, number - self.table.events_forgotten) :]

    def _hand_events(self) -> list[Event]:
        """The events of the hand in progress, or of the last one."""
        return self._events_from(self._hand_start)

    def _forget(self) -> None:
        """Keep memory bounded on a long-running table: events before the current hand
        are in the database already (hand records, shoes), so the table forgets them."""
        before = self._hand_start - self.table.events_forgotten
        if before > _KEEP_EVENTS:
            self.table.forget_events(before)

    def roads_message(self, *, svg: bool = False) -> dict[str, Any]:
        """The ``roads`` message."""
        out: dict[str, Any] = {"type": "roads", "table": self.id, "roads": roads_dict(self.roads)}
        if svg:
            out["svg"] = render_svg(self.roads)
        return out

    def at_table(self, player: str) -> bool:
        """Whether ``player`` is at this table."""
        return player in self.table.seats.participants

    # -- the loop --------------------------------------------------------------------

    def start(self) -> None:
        """Start the table's loop."""
        self._task = asyncio.create_task(self._loop(), name=f"punto-table-{self.id}")

    async def stop(
        self, *, reason: str = "the server is shutting down", timeout: float = 30.0
    ) -> None:
        """Stop gracefully: an RNG hand in play is finished and settled (quickly), a live
        hand is void and refunded; then the table closes (everyone's balance goes back)."""
        self._stopping = True
        self._closing_reason = reason
        self._wake.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), timeout)
            except TimeoutError:
                _LOG.warning("table did not stop in time", extra={"table": self.id})
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
        async with self._lock:
            if self.table.phase is not Phase.CLOSED:
                self._author = "system"
                try:
                    self.table.close_table(reason)
                finally:
                    await self._process()
        await self._confirms.close()
        await self._wallet_calls_done()
        self.stopped.set()

    async def abandon(self) -> None:
        """Stop at once without touching the table (its lease went to another process,
        which recovers the ledger)."""
        self._stopping = True
        if self._task is not None:
            async with self._lock:  # not in the middle of a step's database transaction
                self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._confirms.close()
        await self._wallet_calls_done()
        self.stopped.set()

    async def _wallet_calls_done(self) -> None:
        """Let the operator's wallet calls under way finish (a call cut off would be
        neither made nor queued)."""
        if self._paying:
            await asyncio.wait(set(self._paying), timeout=60)

    async def _loop(self) -> None:
        while True:
            try:
                async with self._lock:
                    delay = await self._step()
            except asyncio.CancelledError:
                raise
            except Exception:
                _LOG.exception("table step failed", extra={"table": self.id})
                delay = 1.0
            if self._pending_money is not None:  # a money effect failed: its retry is due
                delay = max(0.0, self._pending_money.retry_at - time.monotonic())
            elif delay is not None and delay < 0:
                return
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)

    async def _step(self) -> float | None:
        """One step of the house: returns how long to wait before the next (``None``:
        until woken; negative: stop)."""
        if self._pending_money is not None:  # nothing moves on before the money
            return await self._retry_money()
        table = self.table
        phase = table.phase
        if phase is Phase.CLOSED:
            return -1.0
        self._author = "system"
        rng = table.settings.dealing is Dealing.RNG
        s = self._s.settings
        fast = self._stopping
        try:
            if phase is Phase.BETTING_OPEN:
                closes_at = table.closes_at or 0.0
                now = time.time()
                if now >= closes_at or fast:
                    table.close_betting()
                    return 0.0 if fast else s.card_delay
                await self._countdown(now)
                return min(1.0, closes_at - now)
            if self._stopping and (phase in BETWEEN or phase is Phase.PAUSED or not rng):
                return -1.0
            if not rng:
                return self._live_step()
            if phase in BETWEEN:
                self._apply_between_hands()
                if table.phase is Phase.PAUSED:
                    return None
            if phase in (Phase.WAITING, Phase.SHOE_END):
                table.start_shoe()
                return 0.0
            if phase is Phase.SHOE_START and table.can_deal_demo_hand():
                table.deal_demo_hand()  # the rules' demonstration hands, unbet [M2]
                return 0.0 if fast else s.card_delay
            if phase in (Phase.SHOE_START, Phase.SETTLED):
                if table.blank_owed:
                    table.start_blank_hand()
                else:
                    table.open_betting()
                    await self._countdown(time.time(), force=True)
                    return min(1.0, table.settings.betting_seconds)
                return s.card_delay
            if phase in (Phase.BETTING_CLOSED, Phase.DEALING):
                self._squeeze_deadline = None
                table.deal_card()
                return 0.0 if fast else s.card_delay
            if phase is Phase.SQUEEZE:
                now = time.time()
                if self._squeeze_deadline is None:
                    self._squeeze_deadline = now + s.squeeze_seconds
                    await self._squeeze_countdown(now)
                if fast or now >= self._squeeze_deadline:
                    self._squeeze_deadline = None
                    table.reveal_cards()
                    return 0.0 if fast else s.card_delay
                return self._squeeze_deadline - now
            if phase is Phase.RESULT:
                table.settle()
                return 0.0 if fast else s.result_seconds
            return None  # paused: until resumed
        finally:
            await self._process()

    def _live_step(self) -> float | None:
        """A live table: the dealer drives; the server settles when nothing is needed."""
        table = self.table
        if table.phase is Phase.RESULT and table.can_settle():
            table.settle()
        if table.phase in BETWEEN:
            self._apply_between_hands()
        return None

    async def _countdown(self, now: float, *, force: bool = False) -> None:
        """The once-a-second ``countdown`` message while betting is open."""
        closes_at = self.table.closes_at
        if closes_at is None or (not force and now < self._next_countdown):
            return
        self._next_countdown = now + 0.95
        await self._s.bus.publish(
            {
                "table": self.id,
                "message": {
                    "type": "countdown",
                    "table": self.id,
                    "game": None if self.table.game is None else str(self.table.game),
                    "closes_at": closes_at,
                    "closes_in": max(0.0, round(closes_at - now, 3)),
                },
            }
        )

    async def _squeeze_countdown(self, now: float) -> None:
        """The ``squeeze_countdown`` message: how long the squeeze may last before the
        table turns the cards itself (sent once, when the squeeze starts)."""
        closes_at = self._squeeze_deadline
        if closes_at is None:
            return
        await self._s.bus.publish(
            {
                "table": self.id,
                "message": {
                    "type": "squeeze_countdown",
                    "table": self.id,
                    "game": None if self.table.game is None else str(self.table.game),
                    "closes_at": closes_at,
                    "closes_in": max(0.0, round(closes_at - now, 3)),
                },
            }
        )

    # -- commands --------------------------------------------------------------------

    async def execute(self, actor: Actor, command: Command) -> tuple[Event, ...]:
        """Apply one client command; returns the table events it produced. A refused
        command raises its typed error and changes nothing. A player's confirm goes to the
        table's group commit, without the lock (:meth:`_confirm`)."""
        self._verify_money_settled()
        if isinstance(command, Confirm) and actor.role is Role.PLAYER:
            if self.table.phase is Phase.CLOSED or self._stopping:
                raise UnavailableError(f"table {self.id} is closed")
            produced = await self._confirm(actor.player)
            self._wake.set()
            return produced
        async with self._lock:
            if self.table.phase is Phase.CLOSED or self._stopping:
                raise UnavailableError(f"table {self.id} is closed")
            self._verify_money_settled()
            start = self.table.event_count
            self._author = actor.user_id or "anonymous"
            try:
                await self._dispatch(actor, command)
            finally:
                await self._process()
            produced = tuple(self._events_from(start))
        self._wake.set()
        return produced

    def _verify_money_settled(self) -> None:
        """Refuse commands while the last hand's money is pending (money first)."""
        if self._pending_money is not None:
            raise UnavailableError(
                f"table {self.id} is settling hand {self._pending_money.game}: its money "
                "has not moved yet (the ledger or the wallet did not answer); the table "
                "resumes by itself"
            )

    async def set_connected(self, player: str, connected: bool) -> None:
        """A player's last connection closed, or a first one opened [L], [O]."""
        async with self._lock:
            table = self.table
            if self.table.phase is Phase.CLOSED or player not in table.seats.participants:
                return
            if connected and table.can_reconnect(player):
                table.reconnect(player)
            elif not connected and table.can_disconnect(player):
                table.disconnect(player)
            await self._process()
        self._wake.set()

    async def _flush_confirms(self, batch: list[Pending[Confirming, tuple[Event, ...]]]) -> None:
        """One batch of the group commit, under the table's lock."""
        async with self._lock:
            await self._stake_batch(batch)
        self._wake.set()

    # -- money, records and fan-out -------------------------------------------------------

    async def _process(self) -> None:
        """The effects of the events not yet processed, then their fan-out.

        Money first: when an event's money effect fails (the ledger or the operator's
        wallet did not answer), that event and those after it are neither fanned out nor
        forgotten: the table is *settlement pending* (:meth:`_money_failed`) until the
        loop retries them with success."""
        while self._pending_money is None and self._done < self.table.event_count:
            start = self._done
            new = self._events_from(start)
            notes: dict[str, str] = {}
            roads_changed = False
            game: GameNumber | None = None
            for offset, event in enumerate(new):
                before = dict(notes)
                try:
                    changed = await self._effect(start + offset, event, notes)
                except Exception as exc:
                    if not isinstance(event, _MONEY_EVENTS):
                        _LOG.exception(
                            "event effect failed",
                            extra={"table": self.id, "kind": type(event).__name__},
                        )
                        changed = False
                    else:
                        notes = before  # no word of money that has not moved
                        new = new[:offset]
                        self._money_failed(event, exc)
                        break
                roads_changed = roads_changed or changed
                game = getattr(event, "game", None) or game
            self._done = start + len(new)
            envelopes: list[dict[str, Any]] = []
            for offset, event in enumerate(new):
                holder = (
                    self._holders.get((event.game, event.position.side))
                    if isinstance(event, CardPlaced)
                    else None
                )
                views = event_views(event, holder=holder)
                if views.get("auditor") is not None:
                    self._json[start + offset] = views["auditor"]
                envelopes.append(
                    {"table": self.id, "seq": start + offset}
                    | event_texts(self.id, start + offset, views)
                )
            records, self._records = self._records, []
            for record, resettled in records:  # in the players' history before they hear of it
                try:
                    await self._save_hand(record, resettled=resettled)
                except Exception:  # a record, not money: the table goes on
                    _LOG.exception("hand record not saved", extra={"table": self.id})
            started = time.perf_counter()
            for envelope in envelopes:
                await self._s.bus.publish(envelope)
            for player in self._resnap:  # a takeover: the new holder sees the held cards
                snapshot = self.snapshot(Actor(player, Role.PLAYER), wallet=None)
                await self._s.bus.publish({"table": self.id, "to": player, "message": snapshot})
            self._resnap.clear()
            self._s.metrics.broadcast_seconds.observe(time.perf_counter() - started)
            if notes or self._payouts:
                await self._send_balances(notes, game)
            if roads_changed:
                await self._s.bus.publish({"table": self.id, "message": self.roads_message()})
            if self._pending_money is not None:
                await self._s.bus.publish({"table": self.id, "message": self._pending_message()})
        if self._pending_money is None:
            self._forget()

    def _money_failed(self, event: Event, exc: Exception) -> None:
        """The table stops in *settlement pending*: no new hand, no command, until the
        loop's retry (with backoff) has moved the money."""
        tries = self._money_tries
        delay = min(_RETRY_MAX, _RETRY_FIRST * 2**tries)
        game = getattr(event, "game", None)
        self._pending_money = _PendingMoney(
            game=None if game is None else str(game),
            reason=str(exc) if isinstance(exc, PuntoError) else "the ledger did not answer",
            tries=tries + 1,
            retry_at=time.monotonic() + delay,
        )
        self._wake.set()
        _LOG.error(
            "settlement pending: money effect failed",
            exc_info=exc,
            extra={"table": self.id, "kind": type(event).__name__, "retry_in": delay},
        )

    def _pending_message(self) -> dict[str, Any]:
        """The ``settlement_pending`` message: whether the last hand's money is still on
        its way (and why, and when it is tried again)."""
        pending = self._pending_money
        return {
            "type": "settlement_pending",
            "table": self.id,
            "pending": pending is not None,
            "game": None if pending is None else pending.game,
            "reason": None if pending is None else pending.reason,
            "retry_in": None
            if pending is None
            else round(max(0.0, pending.retry_at - time.monotonic()), 3),
        }

    async def _retry_money(self) -> float:
        """Try the failed money effect again; the delay before the next step."""
        pending = self._pending_money
        assert pending is not None
        now = time.monotonic()
        if now < pending.retry_at:
            return pending.retry_at - now
        self._pending_money = None
        self._money_tries = pending.tries
        await self._process()
        if self._pending_money is not None:
            return max(0.0, self._pending_money.retry_at - time.monotonic())
        self._money_tries = 0
        _LOG.info("settlement done after all", extra={"table": self.id, "game": pending.game})
        message = self._pending_message()
        message["game"] = pending.game
        await self._s.bus.publish({"table": self.id, "message": message})
        return 0.0

    async def _effect(self, index: int, event: Event, notes: dict[str, str]) -> bool:
        """Apply one event's effect; ``True`` when the roads changed."""
        s = self._s
        match event:
            case ShoeOpened():
                self._commitment = event.commitment
                self.roads = RoadBoard()
                await s.store.shoe_opened(
                    self.id,
                    event.shoe,
                    cards=event.cards,
                    commitment=event.commitment,
                    at=event.at,
                    rules_version=self.table.settings.rules_version,
                )
                return True
            case ShoeClosed():
                reveal = event.reveal
                await s.store.shoe_closed(
                    self.id,
                    event.shoe,
                    at=event.at,
                    hands=event.hands,
                    reason=event.reason,
                    order=None if reveal is None else reveal.order_text,
                    salt=None if reveal is None else reveal.salt,
                )
                await check_drift(s.store, self.id, shoe=event.shoe, at=event.at)
            case RulesChanged():
                self._resnap.update(self.table.seats.participants)
            case BettingOpened():
                self._hand_start = index
                self._json = {}
                self._holders.clear()
                self._outcome = None
                self._confirmations = {}
                for player, bets in event.standing:
                    await self._stake_standing(str(event.game), player, bets)
            case BlankHandStarted():
                self._hand_start = index
                self._json = {}
                self._holders.clear()
                self._outcome = None
                self._confirmations = {}
            case ChipChosen():
                self._chips[event.player] = event.chip
            case CardsHeld():
                self._holders[(event.game, event.side)] = event.player
                if event.side in self.table.awaiting_squeeze:
                    self._resnap.add(event.player)
            case BetsConfirmed() | TieBetsChanged():
                notes[event.player] = (
                    "confirmed" if isinstance(event, BetsConfirmed) else "tie_bets_changed"
                )
            case BettingExtended() | BettingClosed():
                await self._countdown(time.time(), force=True)
            case OpenCardsRequested():
                self._maybe_open_cards()
            case HandRestarted():
                self._outcome = None
            case HandResult():
                self._outcome = event.outcome
                await s.bank.record_result(
                    str(event.game), event.outcome, rules=self.table.rules.name
                )
            case HandSettled():
                return await self._settled(event, notes)
            case BetsRefunded():
                for result in event.refunds:
                    notes[result.player] = "refunded"
                if event.game is not None and s.bank.round_open(str(event.game)):
                    await self._void(str(event.game), reason=event.reason)
            case HandVoided():
                if s.bank.round_open(str(event.game)):
                    await self._void(str(event.game), reason=event.reason)
                self._records.append((event.game, False))
                s.metrics.hands_settled.labels(self.id).inc()
            case HandResettled():
                for player, _delta in event.corrections:
                    notes[player] = "corrected"
                self._records.append((event.game, True))
            case PlayerJoined():
                notes[event.player] = "joined"
            case BalanceTransferred():
                notes[event.player] = "transferred"
            case PlayerLeft():
                self._chips.pop(event.player, None)
                await s.store.leave_table(event.player, self.id)
                notes[event.player] = "left"
            case TableClosed():
                self._stopping = True
            case _:
                pass
        return False

    async def _settled(self, event: HandSettled, notes: dict[str, str]) -> bool:
        s = self._s
        round_id = str(event.game)
        started = time.perf_counter()
        if event.void_reason:
            if s.bank.round_open(round_id):
                self._author = "system"
                await self._void(round_id, reason=event.void_reason)
        elif self._outcome is not None:
            posted = await s.bank.settle(
                round_id, rules=self.table.rules, outcome=self._outcome, pay=False
            )
            self._payouts.append((posted, round_id))
        s.metrics.settle_seconds.observe(time.perf_counter() - started)
        s.metrics.hands_settled.labels(self.id).inc()
        for result in event.results:
            notes[result.player] = "settled"
        self._records.append((event.game, False))
        blank = any(isinstance(e, BlankHandStarted) for e in self._hand_events())
        if event.void_reason or blank or self._outcome is None:
            return False
        self.roads.add(RoadResult.from_outcome(self._outcome))
        return True

    async def _void(self, round_id: str, *, reason: str) -> None:
        """Void the round in the ledger; the seamless wallet's refunds wait for
        :meth:`_send_balances` (outside the lock)."""
        posted = await self._s.bank.void_round(round_id, author=self._author, reason=reason)
        self._payouts.append((posted, round_id))

    async def _stake_standing(self, round_id: str, player: str, bets: Mapping[Bet, int]) -> None:
        """Main bets a tie left standing [M12] are staked again on the new round (the
        ledger paid them back with the tie's push)."""
        confirmation_id = f"standing:{round_id}:{player}"
        try:
            await self._stake(player, dict(bets), confirmation_id)
        except PuntoError as exc:  # the wallet moved meanwhile (seamless): take them back
            _LOG.warning(
                "standing bets could not be staked",
                extra={"table": self.id, "player": player, "error": str(exc)},
            )
            if self.table.can_change_tie_bets(player, {}):
                self.table.change_tie_bets(player, {})

    def _maybe_open_cards(self) -> None:
        """[O] Seated players asked to open the cards: when every seated bettor asked, the
        dealer closes betting at once."""
        table = self.table
        if table.phase is not Phase.BETTING_OPEN:
            return
        asked = {e.player for e in self._hand_events() if isinstance(e, OpenCardsRequested)}
        seated = {p for p, who in table.seats.participants.items() if who.role.value == "seated"}
        if seated and seated <= asked:
            table.close_betting()

    async def _save_hand(self, game: GameNumber, *, resettled: bool = False) -> None:
        events = self._hand_events()
        records = [r for r in hand_records(events) if r.game == game]
        if not records:
            return
        record = records[-1]
        data = hand_record_json(record)
        data["dealer"] = self.table.dealer
        data["rules_version"] = self.table.settings.rules_version
        first = self._hand_start
        data["events"] = [
            self._json.get(first + n) or event_json(e)
            for n, e in enumerate(events)
            if getattr(e, "game", game) == game
        ]
        if resettled:  # one truth per hand: the original facts and amendments stay
            stored = await self._s.store.hand(str(game))
            if stored is not None:
                data = carry_amendments(data, stored)
        status = await self._s.bank.status(str(game))
        players = sorted(set(record.bets) | set(record.results))
        await self._s.store.save_hand(
            game=str(game),
            table_id=self.id,
            shoe=game.shoe,
            hand=game.hand,
            opened_at=record.opened_at,
            closed_at=record.closed_at,
            status="no_bets" if status is None else status.value,
            record=data,
            players=players,
        )

    async def _send_balances(self, notes: Mapping[str, str], game: GameNumber | None) -> None:
        """The ``balance`` messages of the players whose money moved. With the internal
        wallet, now (the ledger is the wallet). With the operator's wallet, its credits
        and balance calls are made by a task of their own, outside the table's lock: a
        slow operator delays only its players' messages, never the table; each message
        goes once the operator has the money."""
        payouts, self._payouts = self._payouts, []
        known, self._wallets = self._wallets, {}
        tables = {p: self.table.balance(p) if self.at_table(p) else None for p in notes}
        bank = self._s.bank
        if not bank.seamless:
            unknown = [p for p in notes if p not in known]
            wallets = {**known, **(await bank.balances(unknown) if unknown else {})}
            await self._publish_balances(notes, tables, wallets, game)
            return

        async def pay_then_tell() -> None:
            for posted, round_id in payouts:
                await bank.pay_out(posted, round_id)
            unknown = [p for p in notes if p not in known]
            wallets = {**known, **(await bank.balances(unknown) if unknown else {})}
            await self._publish_balances(notes, tables, wallets, game)

        task = asyncio.create_task(pay_then_tell(), name=f"punto-payout-{self.id}")
        self._paying.add(task)
        task.add_done_callback(self._paid)

    def _paid(self, task: asyncio.Task[None]) -> None:
        self._paying.discard(task)
        if not task.cancelled() and task.exception() is not None:
            _LOG.error(
                "balance messages not sent", exc_info=task.exception(), extra={"table": self.id}
            )

    async def _publish_balances(
        self,
        notes: Mapping[str, str],
        tables: Mapping[str, int | None],
        wallets: Mapping[str, int],
        game: GameNumber | None,
    ) -> None:
        for player, reason in notes.items():
            await self._s.bus.publish(
                {
                    "table": self.id,
                    "to": player,
                    "message": {
                        "type": "balance",
                        "table": self.id,
                        "table_balance": tables.get(player),
                        "wallet_balance": wallets.get(player),
                        "game": None if game is None else str(game),
                        "reason": reason,
                    },
                }
            )

    # -- administration and supervision ---------------------------------------------------

    async def reconfigure(self, config: TableConfig) -> None:
        """New limits or betting time take effect between hands [S14]; new rules (a new
        rules version) from the next shoe."""
        async with self._lock:
            self.config = config
            if config.rules_version != self.table.settings.rules_version:
                self._pending_rules = config
            limits = config.limits or config.settings(betting_seconds=None).rules.limit_tiers
            if tuple(limits) != tuple(self.table.rules.limit_tiers):
                self._pending_limits = tuple(limits)
            seconds = self._s.settings.betting_seconds or config.betting_seconds
            if seconds != self.table.settings.betting_seconds:
                self._pending_betting_seconds = seconds
            if self.table.phase in BETWEEN | {Phase.PAUSED}:
                self._apply_between_hands()
                await self._process()
        self._wake.set()

    async def transfer(self, player: str, amount: int, *, reason: str) -> None:
        """Money moved in ``player``'s wallet outside the table (a deposit, a supervisor's
        void or correction): their table balance follows, as far as it can."""
        async with self._lock:
            table = self.table
            if table.phase is Phase.CLOSED or not self.at_table(player):
                return
            amount = max(amount, -table.balance(player))
            if amount and table.can_transfer(player, amount):
                table.transfer(player, amount, reason=reason)
                await self._process()

    async def correct(
        self,
        game: GameNumber,
        outcome: Outcome,
        *,
        author: str,
        reason: str,
        correction_id: str,
    ) -> dict[str, Any]:
        """A supervisor's correction of a settled hand [O]: the ledger moves the difference,
        and, when the table still holds the hand and its players, the table records a
        ``hand_resettled`` (so table balances follow)."""
        async with self._lock:
            bank = self._s.bank
            if await bank.status(str(game)) is None:  # nobody bet: the record alone
                return {"corrections": {}, "transactions": (), "on_table": False}
            bets = await bank.round_bets(str(game))
            rules = await rules_of_hand(self._s.store, str(game), self.id)
            settlements = settle_players(rules, outcome, bets)
            on_table = self.table.can_report_fault(
                Fault.O_SETTLEMENT_ERROR, game=game, outcome=outcome, detail=reason
            )
            moved, posted = await bank.correct(
                str(game), settlements, correction_id=correction_id, author=author, reason=reason
            )
            self._author = author
            if on_table and any(moved.values()):
                self.table.report_fault(
                    Fault.O_SETTLEMENT_ERROR, game=game, outcome=outcome, detail=reason
                )
            await self._process()
            return {"corrections": moved, "transactions": posted, "on_table": on_table}

    async def refresh_roads(self) -> None:
        """Build the current shoe's roads again from its hand records (after a
        correction or a void: one truth per hand) and send them to everyone."""
        async with self._lock:
            shoe = self.table.shoe_number
            records = await self._s.store.shoe_hands(self.id, shoe)
            self.roads = roads_of(records)
            await self._s.bus.publish({"table": self.id, "message": self.roads_message()})


_MONEY_EVENTS = (HandResult, HandSettled, BetsRefunded, HandVoided)
"""Events whose effect moves (or records for recovery) money: a failure stops the table."""
_RETRY_FIRST = 0.5
_RETRY_MAX = 10.0
"""Backoff of a failed money effect's retries (seconds): 0.5, 1, 2 … up to 10."""


@dataclass(slots=True)
class _PendingMoney:
    game: str | None
    reason: str
    tries: int
    retry_at: float


_KEEP_EVENTS = 2000
"""Events before the current hand a table keeps in memory before forgetting them."""
