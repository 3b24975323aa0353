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
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from punto.bets import Bet
from punto.codec import result_json
from punto.errors import PuntoError, UnavailableError
from punto.ledger.model import Transaction, settle_players
from punto.ledger.store import RoundStatus
from punto.outcome import Outcome, Side
from punto.roads import RoadBoard, RoadResult
from punto.roads_render import render_svg, roads_dict
from punto.server import collector
from punto.server.auth import Actor, Role
from punto.server.fanout.envelopes import EventEnvelope, MessageEnvelope
from punto.server.fanout.hub import event_texts
from punto.server.fanout.protocol import (
    COALESCED,
    AddChip,
    ChangeTieBets,
    ChooseChip,
    Clear,
    Command,
    Confirm,
    Double,
    Join,
    Rebet,
    Undo,
    bet_totals_json,
    event_json,
    event_views,
    hand_record_json,
    streak_json,
    tier_json,
)
from punto.server.features.backoffice import check_drift, rules_of_hand
from punto.server.money.bank import Stake as BankStake
from punto.server.money.confirms import ConfirmBatcher, Pending
from punto.server.money.tablelock import TableLock
from punto.server.services import DEALER_ROSTER, Services
from punto.server.store.storage import record_piece
from punto.server.tables.commands import Confirming, TableCommands
from punto.server.tables.configs import TableConfig
from punto.server.tables.effects import (
    AddRoad,
    CancelStakes,
    CloseShoe,
    Countdown,
    Effect,
    Failure,
    Forget,
    Hand,
    HoldCards,
    LeaveTable,
    OpenShoe,
    Publish,
    PublishBalances,
    PublishRoads,
    RecordResult,
    Refund,
    RememberChip,
    SaveRecord,
    SendSnapshots,
    Settle,
    Stake,
    StartHand,
    Stop,
    effects_of,
)
from punto.server.tables.legalcast import LegalCast
from punto.server.tables.snapshot import Snapshot, snapshot_state, table_json, you_json
from punto.server.tables.truth import carry_amendments, roads_of
from punto.table import Fault, HandFacts, Phase, Table, Viewer, hand_facts, hand_records
from punto.table.automation import Automation
from punto.table.clock import Clock, HeldClock
from punto.table.events import (
    BetsConfirmed,
    BetsRefunded,
    BettingClosed,
    BettingOpened,
    CardPlaced,
    Event,
    HandSettled,
    HandVoided,
    TieBetsChanged,
)
from punto.table.reasons import SHUTDOWN, Reason, Why
from punto.table.records import GameNumber

__all__ = ["CONFIRM_DEPTH", "TableRunner"]


_LOG = logging.getLogger("punto.server.tables.runner")

CONFIRM_DEPTH = 3
"""Batches of one table's confirms under way at once (checked, their stakes being
written, not yet taken): while some are written the next is checked, so the server
keeps working while writes wait for the database. A table that limits its Banker–Player
difference [M14] has one."""


class TableRunner(TableCommands):
    """One owned table: its state machine, its lock, its loop and its effects (its client
    commands are :class:`~punto.server.tables.commands.TableCommands`)."""

    def __init__(
        self,
        config: TableConfig,
        services: Services,
        *,
        first_shoe: int = 0,
        rng: random.Random | None = None,
        dealer: str | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.config = config
        self._s = services
        settings = config.settings(betting_seconds=services.settings.betting_seconds).replace(
            pace=services.settings.pace,
            # the operator's debits of standing bets are made without the table [M12]
            standing_awaits_stake=services.bank.seamless,
        )
        roster = list(services.roster()) or list(DEALER_ROSTER)
        self._clock: Clock = clock or services.clock
        self._table_clock = HeldClock(self._clock)
        """The table's clock: held still while a batch of confirms is decided."""
        self.table = Table(settings, clock=self._table_clock, rng=rng, dealer=dealer or roster[0])
        self.table.shoe_number = first_shoe  # game numbers stay unique across restarts
        self.roads = RoadBoard()
        self._lock = TableLock()
        self._checked_last: asyncio.Future[None] | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._done = 0
        self._hand_start = 0
        self._outcome: Outcome | None = None
        self._commitment: str | None = None
        self._chips: dict[str, int] = {}
        self._confirmations: dict[str, dict[str, None]] = {}
        self._holders: dict[tuple[GameNumber, Side], str] = {}
        self._resnap: set[str] = set()
        self._pending_money: _PendingMoney | None = None
        self._money_tries = 0
        self._payouts: list[tuple[tuple[Transaction, ...], str]] = []
        """Posted settlements and refunds whose seamless wallet calls are still to make."""
        self._paying: set[asyncio.Task[None]] = set()
        """The payout tasks at the operator (a stop waits for them)."""
        self._player_calls: dict[str, asyncio.Task[None]] = {}
        """Each player's latest payout task (the next one waits for it: their balance
        messages go in order)."""
        self._operator_calls = asyncio.Semaphore(_OPERATOR_CALLS)
        self._standing: dict[tuple[str, str], asyncio.Task[None]] = {}
        """Seamless: each (round, player)'s standing bets [M12] on their way to the
        operator and the ledger (:meth:`_stake_standing_later`)."""
        self._todo: deque[Effect] = deque()
        """The effects still to run, in order (:func:`effects_of`); the first is the one
        that failed while the table is settlement pending."""
        self._legal = LegalCast()
        self._legal_events: list[Event] = []  # published, their legal_actions not yet sent
        self._legal_seq = 0
        """What each viewer was last told it may do; sends what events change."""
        self._encoded = 0
        """Events before this one have their fan-out envelopes made (:meth:`_encode`)."""
        self._envelopes: dict[int, EventEnvelope] = {}
        """Envelopes made and not yet published, by event number."""
        self._blank = False
        """The hand in play is a blank hand (no road)."""
        self._json: dict[int, dict[str, Any]] = {}
        """The hand's events as JSON by number (made once for the fan-out, kept for the
        hand's record)."""
        self._pieces: dict[int, orjson.Fragment] = {}
        """The hand's events' JSON as its record holds it, encoded as they were published."""
        self._wallets: dict[str, int] = {}
        """Wallet balances just learnt from a stake (spares a query per confirm)."""
        self._known: dict[str, int] = {}
        """Each player's table balance when it was last told (multi-table play)."""
        self._records: dict[GameNumber, asyncio.Task[bool]] = {}
        """Hand records being saved alongside their settlement (:meth:`_settle`)."""
        self._author = "system"
        self._next_countdown = 0.0
        self._stopping = False
        self._closing_reason: Why | None = None
        self.stopped = asyncio.Event()
        self._totals_next = 0.0
        """The event loop's time before which no ``bet_totals`` is sent (then one is owed)."""
        self._totals_owed: int | None = None
        """The last event a ``bet_totals`` owed follows (``None``: none is owed)."""
        self._totals_timer: asyncio.TimerHandle | None = None
        self._totals_tasks: set[asyncio.Task[None]] = set()
        self._confirms = ConfirmBatcher(
            self._flush_confirms,
            window=services.settings.confirm_window,
            size=services.settings.confirm_batch,
            depth=self.confirm_depth,
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
            if who.place.value == "seated":
                seated += 1
            elif who.place.value == "watching":
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
            "streak": streak_json(self.roads.streak),
        }

    def describe(self) -> dict[str, Any]:
        """``GET /api/tables/{id}``: the static description and the live status."""
        out = table_json(self.config, self.table.settings)
        out.update(self.status())
        return out

    def snapshot(self, actor: Actor, *, wallet: int | None) -> Snapshot:
        """The ``snapshot`` message for ``actor`` (no await: one consistent moment)."""
        viewer = actor.viewer
        player = actor.user_id if viewer is Viewer.PLAYER else None
        state, recent = snapshot_state(
            self.table,
            hand_events=self._hand_events(),
            viewer=viewer,
            player=player,
            commitment=self._commitment,
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

    def _event_at(self, number: int) -> Event:
        """Event ``number`` (not forgotten yet)."""
        return self.table.events[number - self.table.events_forgotten]

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

    async def stop(self, *, reason: Why = SHUTDOWN, timeout: float = 30.0) -> None:
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
        self._forget_totals()
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
        self._forget_totals()
        await self._confirms.close()
        await self._wallet_calls_done()
        self.stopped.set()

    async def _wallet_calls_done(self) -> None:
        """Let the operator's wallet calls under way finish (a call cut off would be
        neither made nor queued)."""
        if self._paying:
            await asyncio.wait(set(self._paying), timeout=60)

    async def _loop(self) -> None:
        # A table opened by this process numbers its events from 0: every process's
        # clients of it (connected before a restart or a takeover) ask for a new snapshot.
        try:
            await self._s.bus.publish(
                {
                    "table": self.id,
                    "renumber": True,
                    "message": {"type": "table_opened", "table": self.id},
                }
            )
        except Exception:  # without the bus nobody else is connected: nothing to tell
            _LOG.warning("could not announce the table", extra={"table": self.id})
        due = True  # by the clock: the step goes before the confirms waiting to be checked
        while True:
            try:
                async with self._lock if due else self._lock.politely():
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
            else:
                delay = self._until_release(delay)
            self._wake.clear()
            due = False
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except TimeoutError:
                due = True

    def _until_release(self, delay: float | None) -> float | None:
        """``delay``, shortened to wake up when the grace of a player who has gone ends
        (one whose grace ended already waits for the hand: every step tries again)."""
        due = self.table.next_release_at(grace=self._s.settings.seat_grace)
        if due is None:
            return delay
        left = due - self._clock.now()
        if left <= 0:
            return delay
        return left if delay is None else min(delay, left)

    def wake(self) -> None:
        """Let the loop look at the table now (a test that moved the clock)."""
        self._wake.set()

    async def release_gone(self) -> tuple[str, ...]:
        """Release now the players whose grace is over and who may go (the loop does it
        at every step too) [S13]; who left."""
        async with self._lock:
            if self.table.phase is Phase.CLOSED or self._pending_money is not None:
                return ()
            left = self.table.release_due(grace=self._s.settings.seat_grace)
            await self._process()
        self._wake.set()
        return tuple(event.player for event in left)

    async def _step(self) -> float | None:
        """One step of the house: the table takes what it automates
        (:meth:`~punto.table.Table.advance`); returns how long to wait before the next
        (``None``: until woken; negative: stop)."""
        if self._pending_money is not None:  # nothing moves on before the money
            return await self._retry_money()
        table = self.table
        phase = table.phase
        if phase is Phase.CLOSED:
            return -1.0
        self._author = "system"
        fast = self._stopping
        try:
            if not fast:
                table.release_due(grace=self._s.settings.seat_grace)  # gone for good [S13]
            elif not table.hand_in_play or (
                phase is not Phase.BETTING_OPEN
                and Automation.DEAL_CARD not in table.settings.automated
            ):
                return -1.0  # closing: the hand in play is finished, none is opened
            squeeze = table.squeeze_closes_at
            delay = table.advance(hurry=fast)
            now = self._clock.now()
            if table.phase is Phase.BETTING_OPEN:
                await self._countdown(now, force=phase is not Phase.BETTING_OPEN)
                return 1.0 if delay is None else min(1.0, delay)
            if table.squeeze_closes_at is not None and table.squeeze_closes_at != squeeze:
                await self._squeeze_countdown(now)
            return delay
        finally:
            await self._process()

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
        closes_at = self.table.squeeze_closes_at
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
        if actor.role is Role.PLAYER and isinstance(command, Confirm):
            self._verify_open()
            # the loop was woken once for the confirm's whole batch (_flush_confirms)
            return await self._confirm(actor.player, command.bets)
        if actor.role is Role.PLAYER and isinstance(command, Join):
            self._verify_open()
            produced = await self._join(actor)
        else:
            if isinstance(command, ChangeTieBets) and (
                mine := self._standing.get((str(self.table.game), actor.player))
            ):
                await asyncio.wait({mine})  # their standing bets' stake first [M12]
            own = actor.role is Role.PLAYER and isinstance(command, _OWN_CHIPS)
            produced = await self._locked(
                actor, lambda: self._dispatch(actor, command), own_chips=own
            )
        self._wake.set()
        return produced

    async def _locked(
        self, actor: Actor, change: Callable[[], Awaitable[None]], *, own_chips: bool = False
    ) -> tuple[Event, ...]:
        """Make ``change`` to the table under its lock, then run the effects of the events
        it produced (also when it raised after producing some); returns those events.
        ``own_chips``: a player's change of their own chips on the layout, which does not
        wait for the batches of confirms being written (:meth:`TableLock.for_player`)."""
        async with self._lock.for_player(actor.player) if own_chips else self._lock:
            self._verify_open()
            self._verify_money_settled()
            start = self.table.event_count
            self._author = actor.user_id or "anonymous"
            try:
                await change()
            finally:
                await self._process()
            return tuple(self._events_from(start))

    def _verify_money_settled(self) -> None:
        """Refuse commands while the last hand's money is pending (money first)."""
        if self._pending_money is not None:
            raise UnavailableError(
                f"table {self.id} is settling hand {self._pending_money.game}: its money "
                "has not moved yet (the ledger or the wallet did not answer); the table "
                "resumes by itself"
            )

    async def set_connected(self, player: str, connected: bool) -> None:
        """A player's last connection closed, or a first one opened [L], [O]; a player
        gone for ``seat_grace`` seconds is released by the loop [S13]."""
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
        """One batch of the group commit (:meth:`_stake_batch`): each confirm is checked
        and then taken at the instant the batch was checked (the countdown may end while
        its stakes are written; closing waits until the batch is taken)."""
        await self._stake_batch(batch)
        self._wake.set()

    def confirm_depth(self) -> int:
        """How many batches of confirms may be under way at once: :data:`CONFIRM_DEPTH`
        — the next ones checked while others are written — unless the table limits the
        difference between its Banker and Player totals [M14], which every confirm is
        checked against: then each batch is checked once the one before it is on the
        table."""
        return 1 if self.table.rules.max_imbalance is not None else CONFIRM_DEPTH

    # -- money, records and fan-out -------------------------------------------------------

    async def _process(self, *, retry: bool = False) -> None:
        """Run the effects of the events not yet processed, in order (:mod:`effects`).

        Money first: when a money effect fails (the ledger or the operator's wallet did
        not answer), it and every effect after it — the fan-out of those events among
        them — wait: the table is *settlement pending* (:meth:`_money_failed`) until the
        loop's retry has moved the money, and then the list goes on where it stopped
        (``retry``: that retry; the table shows *settlement pending* until it succeeds)."""
        with contextlib.ExitStack() as hold:
            await self._process_effects(retry, hold)

    async def _process_effects(self, retry: bool, hold: contextlib.ExitStack) -> None:
        """:meth:`_process`'s loop; from a settlement on, the cycle collector is ``hold``'s
        until the pass ends (its balances and what each player may do next sent:
        :mod:`punto.server.collector`)."""
        retrying = retry
        held = False
        while self._pending_money is None or retrying:
            if not self._todo:
                if self._done >= self.table.event_count:
                    break
                start, new = self._done, self._events_from(self._done)
                self._done = start + len(new)
                hand = Hand(start=self._hand_start, outcome=self._outcome, blank=self._blank)
                self._todo.extend(effects_of(new, first=start, hand=hand, now=self._clock.now()))
                continue
            effect = self._todo[0]
            if isinstance(effect, Settle) and not held:
                held = True
                hold.enter_context(collector.held())
            try:
                await self._run(effect)
            except Exception as exc:
                if effect.failure is Failure.PAUSE:
                    self._money_failed(effect, exc)
                    break
                self._todo.popleft()
                if effect.failure is Failure.RAISE:
                    raise
                _LOG.exception(
                    "effect failed", extra={"table": self.id, "effect": type(effect).__name__}
                )
                continue
            self._todo.popleft()
            if retrying:  # the money moved: the table goes on
                retrying = False
                self._pending_money = None
        if self._pending_money is not None:
            await self._s.bus.publish({"table": self.id, "message": self._pending_message()})
        else:
            await self._publish_legal()
            self._forget()

    async def _publish_legal(self) -> None:
        """The ``legal_actions`` of the viewers whose value the events published since the
        last call changed: after the pass's events, balances and roads (at thousands of
        players the values of a table-wide event take tens of milliseconds to work out,
        which no balance message waits for)."""
        events, self._legal_events = self._legal_events, []
        if not events:
            return
        legal = self._legal.envelope(self.table, events, table_id=self.id, seq=self._legal_seq)
        if legal is not None:
            await self._s.bus.publish(legal)

    async def _run(self, effect: Effect) -> None:
        """Carry one effect out."""
        s = self._s
        match effect:
            case Stake():
                await self._stake_standing(effect)
            case RecordResult():
                try:
                    facts = self._facts(effect.game)
                except Exception:  # what a rebuilt record would show, never the money's
                    _LOG.exception("hand facts not read", extra={"table": self.id})
                    facts = None
                await s.bank.record_result(
                    effect.game, effect.outcome, rules=self.table.rules.name, facts=facts
                )
                self._outcome = effect.outcome
            case Settle():
                await self._settle(effect)
            case CancelStakes():
                for player in effect.players:
                    await self._cancel_stakes(effect.game, player, reason=effect.reason)
            case Refund():
                if s.bank.round_open(effect.game):
                    if effect.by_table:
                        self._author = "system"
                    await self._void(effect.game, reason=effect.reason)
            case OpenShoe():
                event = effect.event
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
            case CloseShoe():
                closed = effect.event
                reveal = closed.reveal
                await s.store.shoe_closed(
                    self.id,
                    closed.shoe,
                    at=closed.at,
                    hands=closed.hands,
                    reason=str(closed.reason),
                    order=None if reveal is None else reveal.order_text,
                    salt=None if reveal is None else reveal.salt,
                )
                await check_drift(s.store, self.id, shoe=closed.shoe, at=closed.at)
            case StartHand():
                self._hand_start = effect.index
                self._blank = effect.blank
                opened = self._event_at(effect.index)
                if isinstance(opened, BettingOpened):  # kept with the round in the ledger
                    s.bank.opening(
                        self.table.settings.table_id,
                        str(opened.game),
                        HandFacts(dealer=self.table.dealer, opened_at=opened.at),
                    )
                self._json = {}
                self._pieces = {}
                self._holders.clear()
                self._outcome = None
                self._confirmations = {}
            case Forget():
                self._outcome = None
            case RememberChip():
                self._chips[effect.player] = effect.chip
            case HoldCards():
                self._holders[(effect.game, effect.side)] = effect.player
                if effect.side in self.table.awaiting_squeeze:
                    self._resnap.add(effect.player)
            case LeaveTable():
                self._chips.pop(effect.player, None)
                await s.store.leave_table(effect.player, self.id)
            case AddRoad():
                self.roads.add(RoadResult.from_outcome(effect.outcome))
            case Stop():
                self._stopping = True
            case SaveRecord():
                if not effect.resettled:
                    s.metrics.hands_settled.labels(self.id).inc()
                alongside = self._records.pop(effect.game, None)
                saved = False
                if alongside is not None:
                    try:
                        saved = await alongside
                    except Exception:  # its connection was cut, say: once more, alone
                        _LOG.warning(
                            "hand record beside the settlement not saved: saving it again",
                            extra={"table": self.id, "game": str(effect.game)},
                            exc_info=True,
                        )
                if not saved:
                    await self._save_hand(effect.game, resettled=effect.resettled)
            case Countdown():
                await self._countdown(effect.now, force=True)
            case Publish():
                await self._publish(effect.first, effect.count)
            case SendSnapshots():
                if effect.everyone:
                    self._resnap.update(self.table.seats.participants)
                resnap, self._resnap = self._resnap, set()
                for player in resnap:  # a takeover: the new holder sees the held cards
                    snapshot = self.snapshot(Actor(player, Role.PLAYER), wallet=None)
                    await s.bus.publish({"table": self.id, "to": player, "message": snapshot})
            case PublishBalances():
                self._follow_elsewhere(effect.notes, dict(effect.outside))
                if effect.notes or self._payouts:
                    await self._send_balances(dict(effect.notes), effect.game)
            case PublishRoads():
                await s.bus.publish({"table": self.id, "message": self.roads_message()})
            case _:  # pragma: no cover - every effect has its case
                raise TypeError(f"no runner for {type(effect).__name__}")

    async def _settle(self, effect: Settle) -> None:
        """Settle the round in the ledger. When the hand's record is the next to save (a
        hand with bets, as usual), it is made and written meanwhile by a task, in a
        database transaction of its own that commits only once the settlement's has
        (``ServerStore.save_hand``'s ``after``): the record's work fills the time the
        ledger waits for the database, no record says *settled* of money that did not
        move, and the :class:`SaveRecord` effect waits for that task (the record is
        saved before anyone hears of the hand). A settlement that fails withdraws it."""
        s = self._s
        started = time.perf_counter()
        record = self._record_after(effect)
        settled: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if record is not None:
            self._records[record.game] = asyncio.create_task(
                self._save_hand(record.game, settled=settled), name=f"punto-record-{self.id}"
            )
        try:
            posted = await s.bank.settle(
                effect.game,
                rules=self.table.rules,
                outcome=effect.outcome,
                pay=False,
                wallets=self._wallets,
            )
        except BaseException:
            settled.set_result(False)
            if record is not None:  # withdrawn: the effect saves it after the retry
                with contextlib.suppress(Exception):
                    await self._records.pop(record.game)
            raise
        settled.set_result(True)
        self._payouts.append((posted, effect.game))
        s.metrics.settle_seconds.observe(time.perf_counter() - started)

    def _facts(self, game: str) -> HandFacts | None:
        """What the hand ``game``'s record holds that the ledger does not (the dealer,
        when betting opened, the cards' times and holders), read from its events since
        its betting closed (a few, however many bets the hand holds)."""
        start = max(self._hand_start, self.table.events_forgotten)
        if start >= self._done:
            return None
        opened = self._event_at(start)
        if not isinstance(opened, BettingOpened) or str(opened.game) != game:
            return None
        index = self._done - 1
        while index > start and not isinstance(self._event_at(index), BettingClosed):
            index -= 1
        return hand_facts(
            opened.game,
            (self._event_at(i) for i in range(index, self._done)),
            dealer=self.table.dealer,
            opened_at=opened.at,
        )

    def _record_after(self, effect: Settle) -> SaveRecord | None:
        """The first save of the settled hand's record among the effects to run after
        ``effect`` (the records come before the fan-out), if the ledger holds stakes of
        that round (so the record's status will be *settled*)."""
        if not self._s.bank.round_open(effect.game):
            return None
        for later in self._todo:
            if isinstance(later, Publish):
                return None
            if isinstance(later, SaveRecord) and str(later.game) == effect.game:
                return None if later.resettled or later.game in self._records else later
        return None

    def _encode(self) -> None:
        """Make the fan-out's envelopes of the events processed and not yet published,
        once each (each kind of viewer's text)."""
        for index in range(self._encoded, self._done):
            event = self._event_at(index)
            holder = (
                self._holders.get((event.game, event.position.side))
                if isinstance(event, CardPlaced)
                else None
            )
            views = event_views(event, holder=holder, piece=record_piece)
            if views.get("auditor") is not None:
                self._json[index] = views["auditor"]
                if not isinstance(event, HandSettled):  # settled hands: by the record's task
                    self._pieces[index] = record_piece(views["auditor"])
            if isinstance(event, COALESCED):
                # the player who confirmed gets the event, the dealer and auditors every
                # one; the others one ``bet_totals`` for the whole pass
                views = {**views, "watcher": None}
            self._envelopes[index] = event_texts(self.id, index, views)
        self._encoded = max(self._encoded, self._done)

    async def _publish(self, first: int, count: int) -> None:
        """Fan out the events ``first`` … ``first + count - 1``; when they changed the
        players' totals per bet area, a ``bet_totals`` message after them (or at the end
        of ``PUNTO_TOTALS_INTERVAL``: :meth:`_publish_totals`)."""
        self._encode()
        started = time.perf_counter()
        totals = any(
            isinstance(self._event_at(index), _TOTALS_EVENTS)
            for index in range(first, first + count)
        )
        try:
            for index in range(first, first + count):
                envelope = self._envelopes.pop(index, None)
                if envelope is not None:
                    await self._s.bus.publish(envelope)
            if totals:
                await self._publish_totals(first + count - 1)
            # what each viewer may do now: sent once the pass's money messages are out
            self._legal_events.extend(self._event_at(i) for i in range(first, first + count))
            self._legal_seq = first + count - 1
        finally:  # the bus gave up: these events are not sent again
            for index in range(first, first + count):
                self._envelopes.pop(index, None)
        self._s.metrics.broadcast_seconds.observe(time.perf_counter() - started)

    async def _publish_totals(self, seq: int) -> None:
        """A ``bet_totals`` after event ``seq``: now, unless one went out less than
        ``PUNTO_TOTALS_INTERVAL`` ago; then one is owed, sent when the interval ends with
        the totals as they are then (one frame per client for every batch in between)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        if now >= self._totals_next:
            self._totals_next = now + self._s.settings.totals_interval
            self._totals_owed = None
            await self._s.bus.publish(self._totals_envelope(seq))
            return
        self._totals_owed = seq
        if self._totals_timer is None:
            self._totals_timer = loop.call_at(self._totals_next, self._totals_due)

    def _totals_due(self) -> None:
        self._totals_timer = None
        task = asyncio.create_task(self._send_owed_totals(), name=f"punto-totals-{self.id}")
        self._totals_tasks.add(task)
        task.add_done_callback(self._totals_tasks.discard)

    async def _send_owed_totals(self) -> None:
        """The owed ``bet_totals``, under the table's lock (after the events it follows)."""
        async with self._lock:
            seq = self._totals_owed
            if seq is None or self._stopping:
                return
            try:
                await self._publish_totals(seq)
            except Exception:  # the bus is down: the next change or a resync tells
                _LOG.warning("bet totals not sent", extra={"table": self.id}, exc_info=True)

    def _forget_totals(self) -> None:
        """Send no owed ``bet_totals`` (the table stops here)."""
        self._totals_owed = None
        if self._totals_timer is not None:
            self._totals_timer.cancel()
            self._totals_timer = None
        for task in self._totals_tasks:
            task.cancel()

    def _totals_envelope(self, seq: int) -> MessageEnvelope:
        """The ``bet_totals`` message after event ``seq``: every player's confirmed stakes
        per bet area as they are now (at most one every ``PUNTO_TOTALS_INTERVAL``:
        :meth:`_publish_totals`)."""
        table = self.table
        return {
            "table": self.id,
            "seq": seq,
            "message": {
                "type": "bet_totals",
                "table": self.id,
                "game": None if table.game is None else str(table.game),
                "seq": seq,
                **bet_totals_json(table.bet_totals()),
            },
        }

    def _money_failed(self, effect: Effect, exc: Exception) -> None:
        """The table stops in *settlement pending*: no new hand, no command, until the
        loop's retry (with backoff) has moved the money."""
        tries = self._money_tries
        delay = min(_RETRY_MAX, _RETRY_FIRST * 2**tries)
        game = getattr(effect, "game", None)
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
            extra={"table": self.id, "effect": type(effect).__name__, "retry_in": delay},
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
        self._money_tries = pending.tries
        await self._process(retry=True)
        if self._pending_money is not None:
            return max(0.0, self._pending_money.retry_at - time.monotonic())
        self._money_tries = 0
        _LOG.info("settlement done after all", extra={"table": self.id, "game": pending.game})
        message = self._pending_message()
        message["game"] = pending.game
        await self._s.bus.publish({"table": self.id, "message": message})
        return 0.0

    async def _void(self, round_id: str, *, reason: str) -> None:
        """Void the round in the ledger; the seamless wallet's refunds wait for
        :meth:`_send_balances` (outside the lock)."""
        posted = await self._s.bank.void_round(round_id, author=self._author, reason=reason)
        self._payouts.append((posted, round_id))

    async def _cancel_stakes(self, game: str, player: str, *, reason: str) -> None:
        """Take back in the ledger every stake ``player`` made on round ``game``, the
        other players' staying (idempotent: a retry after a failure cancels nothing
        twice). The seamless wallet's credits are made outside the lock, with the balance
        messages (:meth:`_send_balances`)."""
        for confirmation_id in self._confirmations.get(player, {}):
            posted = await self._s.bank.cancel_stake(confirmation_id, reason=reason)
            if not posted.replayed:
                self._payouts.append(((posted.transaction,), game))
        self._confirmations.pop(player, None)

    async def _stake_standing(self, stake: Stake) -> None:
        """Main bets a tie left standing [M12] are staked again on the new round (the
        ledger paid them back with the tie's push): with the internal wallet, every
        standing player's in **one** ledger transaction (after a tie at a table of
        thousands, one commit, not one each with the table held); with the operator's
        wallet, each player's debit is made by a task of its own, outside the table's
        lock (:meth:`_stake_standing_later`). A player whose stake is refused (their
        wallet moved meanwhile) has them taken back. Idempotent: a retry after a failure
        stakes nothing twice."""
        bank = self._s.bank
        if bank.seamless:  # each player's debit outside the lock; the table goes on
            for player, bets in stake.stakes:
                if (stake.game, player) in self._standing:  # (a retry of this effect)
                    continue
                task = asyncio.create_task(
                    self._stake_standing_later(
                        stake.game, player, bets, stake.confirmation_id(player)
                    ),
                    name=f"punto-standing-{self.id}",
                )
                self._standing[(stake.game, player)] = task
                self._paying.add(task)
                task.add_done_callback(self._standing_done)
            return
        answers = await bank.stake_many(
            stake.game,
            table_id=self.table.settings.table_id,
            stakes=[
                BankStake(player, bets, stake.confirmation_id(player))
                for player, bets in stake.stakes
            ],
        )
        for (player, _bets), answer in zip(stake.stakes, answers, strict=True):
            if isinstance(answer, PuntoError):
                self._standing_refused(player, answer)
                continue
            self._staked(player, stake.confirmation_id(player), answer)

    def _standing_refused(self, player: str, exc: BaseException) -> None:
        """The standing bets of ``player`` could not be staked again: they go back to
        the player (whatever the tie option lets a player do) [M12]."""
        _LOG.warning(
            "standing bets could not be staked",
            extra={"table": self.id, "player": player, "error": str(exc)},
        )
        if self.table.can_return_standing(player):
            self.table.return_standing(player, Why(Reason.STANDING_NOT_STAKED))

    def _restake_changed(
        self, p: str, game: str, credits: tuple[Transaction, ...], bets: Mapping[Bet, int]
    ) -> None:
        """Seamless [M12]: a player changed their standing bets; the ledger gave their old
        stakes back under the table's lock. A task of the player's own, outside it, makes
        the operator's credits of those stakes and then the debit and stake of the changed
        bets (:meth:`_stake_standing_later`), after this player's earlier wallet calls and
        before their next balance message (a message never shows the credit without the
        debit that follows it)."""
        confirmation_id = self._confirmation_id(p, "tie")
        task = asyncio.create_task(
            self._restake_later(p, game, credits, bets, confirmation_id, self._player_calls.get(p)),
            name=f"punto-restake-{self.id}",
        )
        self._standing[(game, p)] = task
        self._player_calls[p] = task
        self._paying.add(task)
        task.add_done_callback(self._standing_done)
        task.add_done_callback(self._restaked)

    def _restaked(self, task: asyncio.Task[None]) -> None:
        _forget(task, self._player_calls)

    async def _restake_later(
        self,
        player: str,
        game: str,
        credits: tuple[Transaction, ...],
        bets: Mapping[Bet, int],
        confirmation_id: str,
        after: asyncio.Task[None] | None,
    ) -> None:
        if after is not None and not after.done():  # this player's earlier calls first
            with contextlib.suppress(Exception):
                await asyncio.shield(after)
        if credits:
            try:
                async with self._operator_calls:
                    await self._s.bank.pay_out(credits, game)
            except BaseException as exc:  # not written down: no debit without it before
                await asyncio.shield(
                    self._standing_not_staked(game, player, confirmation_id, exc, False)
                )
                raise
        if bets:
            await self._stake_standing_later(game, player, bets, confirmation_id)

    async def _stake_standing_later(
        self, game: str, player: str, bets: Mapping[Bet, int], confirmation_id: str
    ) -> None:
        """Seamless [M12]: the operator's debit of ``player``'s standing bets (or the bets
        they changed them into), outside the table's lock (a slow operator delays only
        this player's bets, never the table); then their stake in the ledger with the
        next batch of confirms, and on the table
        (:meth:`punto.table.Table.stake_standing`). Refused, or too late (betting closed,
        the player gone, the table stopped): a debit made is given back and the bets go
        back to the player if they still wait (the table returns those still waiting when
        betting closes)."""
        staked = debited = False
        refused: BaseException = UnavailableError("the table stopped")
        try:
            async with self._operator_calls:
                wallet = await self._s.bank.debit(
                    game,
                    player=player,
                    amount=sum(bets.values()),
                    confirmation_id=confirmation_id,
                )
            debited = True
            confirming = Confirming(
                game, BankStake(player, bets, confirmation_id), wallet, standing=True
            )
            await self._confirms.submit(player, confirming)
            staked = True
        except Exception as exc:
            refused = exc
        finally:
            if not staked:
                await asyncio.shield(
                    self._standing_not_staked(game, player, confirmation_id, refused, debited)
                )

    async def _standing_not_staked(
        self, game: str, player: str, confirmation_id: str, exc: BaseException, debited: bool
    ) -> None:
        """A standing stake that did not happen: its debit given back, the bets returned.
        A debit the operator made and then gave back brings the player a new ``balance``
        (``refunded``): one told meanwhile may have shown the wallet without it."""
        if debited:
            await self._s.bank.undo_debit(
                confirmation_id=confirmation_id, error=f"standing stake not recorded: {exc}"
            )
        async with self._lock:
            if str(self.table.game) == game and self.table.can_return_standing(player):
                self._standing_refused(player, exc)
                await self._process()
            elif debited and self.at_table(player):
                await self._send_balances({player: "refunded"}, None)
        self._wake.set()

    def _standing_done(self, task: asyncio.Task[None]) -> None:
        self._task_done(task, self._standing, "standing bets not staked")

    def _follow_elsewhere(
        self, notes: tuple[tuple[str, str], ...], outside: Mapping[str, int]
    ) -> None:
        """Multi-table play: what play here moved of a player's table balance (not what
        came in from outside: a deposit, another table) is told to their other tables."""
        for player, _why in notes:
            if not self.at_table(player):
                self._known.pop(player, None)
                continue
            now = self.table.balance(player)
            before = self._known.get(player)
            self._known[player] = now
            if before is None:
                continue
            moved = now - before - outside.get(player, 0)
            if moved:
                self._s.moved(player, moved, self.id)

    async def _save_hand(
        self,
        game: GameNumber,
        *,
        resettled: bool = False,
        settled: asyncio.Future[bool] | None = None,
    ) -> bool:
        """Save the hand's record; whether it was saved (``settled``: alongside the
        settlement, :meth:`_settle`, saved only if that comes true)."""
        self._encode()  # the record reuses the JSON made for the fan-out
        events = self._hand_events()
        records = [r for r in hand_records(events) if r.game == game]
        if not records:
            return True
        record = records[-1]
        first = self._hand_start
        # the players' results as the fan-out encoded them (thousands at a busy table),
        # each once, as the record holds it (:func:`settled_views`' pieces), in the
        # settled event and the results (kept apart from the hand's pieces, which are not
        # copied to add them)
        settled_pieces: dict[int, orjson.Fragment] = {}
        encoded: dict[int, orjson.Fragment] = {}
        for n, event in enumerate(events):
            if isinstance(event, HandSettled) and (done := self._json.get(first + n)):
                encoded.update(zip(map(id, event.results), done["results"], strict=True))
                settled_pieces[first + n] = record_piece(done)
        data = hand_record_json(record, results=lambda r: encoded.get(id(r)) or result_json(r))
        data["dealer"] = self.table.dealer
        data["rules_version"] = self.table.settings.rules_version
        data["events"] = [
            settled_pieces.get(first + n) or self._pieces.get(first + n) or event_json(e)
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
            table_id=self.id,
            shoe=game.shoe,
            hand=game.hand,
            opened_at=record.opened_at,
            closed_at=record.closed_at,
            status=status_text,
            record=data,
            players=players,
            after=settled,
        )

    async def _send_balances(self, notes: Mapping[str, str], game: GameNumber | None) -> None:
        """The ``balance`` messages of the players whose money moved. With the internal
        wallet, now (the ledger is the wallet). With the operator's wallet, each player's
        credits and balance call are made by a task of that player's own, outside the
        table's lock: a slow operator answer delays only that player's message, never the
        table or another player; each message goes once the operator has the money, and
        a player's messages go in the order their money moved."""
        payouts, self._payouts = self._payouts, []
        known, self._wallets = self._wallets, {}
        tables = {p: self.table.balance(p) if self.at_table(p) else None for p in notes}
        bank = self._s.bank
        if not bank.seamless:
            unknown = [p for p in notes if p not in known]
            wallets = {**known, **(await bank.balances(unknown) if unknown else {})}
            await self._publish_balances(notes, tables, wallets, game)
            return
        owed: dict[str, list[tuple[tuple[Transaction, ...], str]]] = {}
        for posted, round_id in payouts:
            mine: dict[str, list[Transaction]] = {}
            for tx in posted:
                if tx.player_id is not None:
                    mine.setdefault(tx.player_id, []).append(tx)
            for player, txs in mine.items():
                owed.setdefault(player, []).append((tuple(txs), round_id))
        for player in {*notes, *owed}:
            before = self._player_calls.get(player)
            task = asyncio.create_task(
                self._pay_then_tell(
                    player,
                    owed.get(player, []),
                    notes.get(player),
                    table=tables.get(player),
                    wallet=known.get(player),
                    game=game,
                    after=before,
                ),
                name=f"punto-payout-{self.id}",
            )
            self._player_calls[player] = task
            self._paying.add(task)
            task.add_done_callback(self._paid)

    async def _pay_then_tell(
        self,
        player: str,
        owed: list[tuple[tuple[Transaction, ...], str]],
        reason: str | None,
        *,
        table: int | None,
        wallet: int | None,
        game: GameNumber | None,
        after: asyncio.Task[None] | None,
    ) -> None:
        """One player's seamless credits, then their ``balance`` message."""
        if after is not None and not after.done():  # this player's earlier message first
            with contextlib.suppress(Exception):
                await asyncio.shield(after)
        bank = self._s.bank
        async with self._operator_calls:
            for txs, round_id in owed:
                await bank.pay_out(txs, round_id)
            if reason is not None and wallet is None:
                wallet = (await bank.balances([player])).get(player)
        if reason is not None:
            await self._publish_balances(
                {player: reason}, {player: table}, {} if wallet is None else {player: wallet}, game
            )

    def _paid(self, task: asyncio.Task[None]) -> None:
        self._task_done(task, self._player_calls, "balance messages not sent")

    def _task_done(
        self, task: asyncio.Task[None], tasks: dict[Any, asyncio.Task[None]], failed: str
    ) -> None:
        """A wallet task ended: forgotten (``tasks`` maps whose it was), its error logged."""
        self._paying.discard(task)
        _forget(task, tasks)
        if not task.cancelled() and task.exception() is not None:
            _LOG.error(failed, exc_info=task.exception(), extra={"table": self.id})

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
            table = self.table
            if table.phase is not Phase.CLOSED:  # the table makes them when it can [S14]
                if config.rules_version != table.settings.rules_version:
                    table.change_rules(config.table_rules(), version=config.rules_version)
                limits = config.limits or config.settings(betting_seconds=None).rules.limit_tiers
                if tuple(limits) != tuple(table.rules.limit_tiers):
                    table.change_limits(limits)
                seconds = self._s.settings.betting_seconds or config.betting_seconds
                if seconds != table.settings.betting_seconds:
                    table.change_betting_time(seconds)
                await self._process()
        self._wake.set()

    async def transfer(self, player: str, amount: int, *, reason: Why) -> None:
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


_OWN_CHIPS = (ChooseChip, AddChip, Undo, Clear, Double, Rebet)
"""A player's changes of their own chips on the layout (they wait for no other player's
confirms being written: :meth:`punto.server.money.tablelock.TableLock.for_player`)."""

_OPERATOR_CALLS = 32
"""Players' payouts and balance calls one table has at the operator at once."""
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


_TOTALS_EVENTS = (BettingOpened, BetsConfirmed, TieBetsChanged, BetsRefunded, HandVoided)
"""Events that change the players' totals per bet area (a ``bet_totals`` follows)."""


def _forget(task: asyncio.Task[None], tasks: dict[Any, asyncio.Task[None]]) -> None:
    """Take ``task`` out of ``tasks`` (which maps whose it was)."""
    for key, mine in list(tasks.items()):
        if mine is task:
            del tasks[key]
