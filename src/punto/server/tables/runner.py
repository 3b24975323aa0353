"""One table owned by this process: a :class:`punto.table.Table` driven with a real clock.

The runner is the table's imperative shell: its loop and the dispatch of its effects. Every
change goes through :meth:`TableRunner.execute` (a client's command) or the runner's own
loop (an RNG table deals by itself; a live table's countdown closes betting), one at a time
under a lock. After each action the runner maps the new events to their effects
(:func:`~punto.server.tables.effects.effects_of`) and hands each, in order, to the object
that carries it out (:class:`~punto.server.tables.parts.TableParts`): money first, then
records, then the fan-out, so no client sees a result whose money has not moved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from punto.errors import UnavailableError
from punto.outcome import Outcome
from punto.server import collector
from punto.server.auth import Actor, Role
from punto.server.fanout.protocol import ChangeTieBets, Command, Confirm, Join
from punto.server.money.tablelock import OWN_CHIPS, TableLock
from punto.server.services import Services
from punto.server.tables import effects as fx
from punto.server.tables import supervision
from punto.server.tables.configs import TableConfig
from punto.server.tables.history import events_from
from punto.server.tables.parts import TableParts, live_table
from punto.server.tables.snapshot import Snapshot
from punto.server.tables.truth import roads_of
from punto.table import Phase
from punto.table.automation import Automation
from punto.table.clock import Clock, HeldClock
from punto.table.events import Event
from punto.table.reasons import SHUTDOWN, Why
from punto.table.records import GameNumber

__all__ = ["TableRunner"]

_LOG = logging.getLogger("punto.server.tables.runner")

_KEEP_EVENTS = 2000
"""Events before the current hand a table keeps in memory before forgetting them."""


class TableRunner:
    """One owned table: its state machine, its lock, its loop and its effects."""

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
        self._clock: Clock = clock or services.clock
        held = HeldClock(self._clock)  # held still while a batch of confirms is decided
        table = self.table = live_table(
            config, services, clock=held, rng=rng, dealer=dealer, first_shoe=first_shoe
        )
        self._lock = TableLock()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._done = 0
        """Events before this one have had their effects worked out."""
        self._hand = fx.Hand()
        """What the runner knows of the hand in play (or the last one)."""
        self._todo: deque[fx.Effect] = deque()
        """The effects still to run, in order (the first: the one pending, if any)."""
        self._author = "system"
        self._stopping = False
        self.stopped = asyncio.Event()
        self._parts = parts = TableParts.build(
            table,
            services,
            table_id=config.id,
            lock=self._lock,
            clock=held,
            verify=self._verify,
            process=self._process,
            wake=self._wake.set,
            locked=self._locked,
        )
        view, cast, payouts = parts.view, parts.cast, parts.payouts
        self._pending = parts.pending
        self.confirms = parts.confirms
        self._effects: dict[type[fx.Effect], Callable[[Any], Awaitable[None] | None]] = {
            fx.Stake: parts.standing.stake,
            fx.RecordResult: self._record_result,
            fx.RememberLightning: self._remember_lightning,
            fx.Settle: lambda e: payouts.settle(e, self._todo, rules=self.table.rules),
            fx.CancelStakes: payouts.cancel_stakes,
            fx.Refund: self._refund,
            fx.OpenShoe: self._open_shoe,
            fx.CloseShoe: lambda e: self._parts.recorder.shoe_closed(e.event),
            fx.StartHand: self._start_hand,
            fx.Forget: self._forget_result,
            fx.RememberChip: lambda e: view.chose(e.player, e.chip),
            fx.HoldCards: lambda e: cast.hold(e.game, e.side, e.player),
            fx.LeaveTable: self._leave_table,
            fx.AddRoad: lambda e: view.add_road(e.outcome),
            fx.Stop: lambda e: self._closing(),
            fx.SaveRecord: parts.recorder.saved,
            fx.Countdown: lambda e: cast.countdown(e.now, force=True),
            fx.Publish: lambda e: cast.publish(e.first, e.count),
            fx.SendSnapshots: self._send_snapshots,
            fx.PublishBalances: payouts.publish,
            fx.PublishRoads: lambda e: cast.message(view.roads_message()),
        }
        """Each effect's handler, by its type (an awaitable it returns is awaited)."""

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
        return self._parts.view.status()

    def describe(self) -> dict[str, Any]:
        """``GET /api/tables/{id}``: the static description and the live status."""
        return self._parts.view.describe(self.config)

    def snapshot(self, actor: Actor, *, wallet: int | None) -> Snapshot:
        """The ``snapshot`` message for ``actor`` (no await: one consistent moment)."""
        pending = self._pending.message() if self._pending.pending else None
        player = actor.user_id
        return self._parts.view.snapshot(
            actor,
            self.config,
            wallet=wallet,
            hand_start=self._hand.start,
            pending=pending,
            side_bets=player is None or self._parts.cast.side_bets_offered(player),
        )

    def offer_side_bets(self, player: str, offered: bool) -> None:
        """Whether ``player`` is offered side bets (their jurisdiction may turn them off):
        their ``legal`` values leave the side-bet areas out when not."""
        self._parts.cast.offer_side_bets(player, offered)

    def roads_message(self, *, svg: bool = False) -> dict[str, Any]:
        """The ``roads`` message."""
        return self._parts.view.roads_message(svg=svg)

    def at_table(self, player: str) -> bool:
        """Whether ``player`` is at this table."""
        return player in self.table.seats.participants

    # -- the loop --------------------------------------------------------------------

    def start(self) -> None:
        """Start the table's loop."""
        self._task = asyncio.create_task(self._loop(), name=f"punto-table-{self.id}")

    def _closing(self) -> None:
        """The table closes: the loop finishes the hand in play and ends."""
        self._stopping = True
        self._parts.cast.closing()

    async def stop(self, *, reason: Why = SHUTDOWN, timeout: float = 30.0) -> None:
        """Stop gracefully: an RNG hand in play is finished and settled (quickly), a live
        hand is void and refunded; then the table closes (everyone's balance goes back)."""
        self._closing()
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
        await self._shut()

    async def abandon(self) -> None:
        """Stop at once without touching the table (its lease went to another process,
        which recovers the ledger)."""
        self._closing()
        if self._task is not None:
            async with self._lock:  # not in the middle of a step's database transaction
                self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._shut()

    async def _shut(self) -> None:
        """The loop has ended: no owed message, no confirm, the wallet calls under way done."""
        self._parts.cast.close()
        await self.confirms.close()
        await self._parts.payouts.done()
        self.stopped.set()

    async def _loop(self) -> None:
        # A table opened by this process numbers its events from 0: every process's
        # clients of it (connected before a restart or a takeover) ask for a new snapshot.
        try:
            message = {"type": "table_opened", "table": self.id}
            await self._s.bus.publish({"table": self.id, "renumber": True, "message": message})
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
            if self._pending.pending:  # a money effect failed: its retry is due
                delay = self._pending.retry_in()
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
            if self.table.phase is Phase.CLOSED or self._pending.pending:
                return ()
            left = self.table.release_due(grace=self._s.settings.seat_grace)
            await self._process()
        self._wake.set()
        return tuple(event.player for event in left)

    async def _step(self) -> float | None:
        """One step of the house: the table takes what it automates
        (:meth:`~punto.table.Table.advance`); returns how long to wait before the next
        (``None``: until woken; negative: stop)."""
        if self._pending.pending:  # nothing moves on before the money
            return await self._pending.retry(lambda: self._process(retry=True))
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
                await self._parts.cast.countdown(now, force=phase is not Phase.BETTING_OPEN)
                return 1.0 if delay is None else min(1.0, delay)
            if table.squeeze_closes_at is not None and table.squeeze_closes_at != squeeze:
                await self._parts.cast.squeeze_countdown(now)
            return delay
        finally:
            await self._process()

    # -- commands --------------------------------------------------------------------

    async def execute(self, actor: Actor, command: Command) -> tuple[Event, ...]:
        """Apply one client command; the table events it produced. A refused command raises
        its typed error and changes nothing. A confirm goes to the confirm pipeline."""
        self._verify()
        if actor.role is Role.PLAYER and isinstance(command, Confirm):
            # the loop was woken once for the confirm's whole batch
            return await self.confirms.confirm(actor.player, command.bets)
        if actor.role is Role.PLAYER and isinstance(command, Join):
            produced = await self._parts.commands.join(actor)
        else:
            if isinstance(command, ChangeTieBets):  # their standing bets' stake first [M12]
                await self._parts.standing.wait(str(self.table.game), actor.player)
            own = actor.role is Role.PLAYER and command.type in OWN_CHIPS
            produced = await self._locked(
                actor, lambda: self._parts.commands.run(actor, command), own_chips=own
            )
        self._wake.set()
        return produced

    async def _locked(
        self, actor: Actor, change: Callable[[], Awaitable[None]], *, own_chips: bool = False
    ) -> tuple[Event, ...]:
        """Make ``change`` under the table's lock, then run the effects of the events it
        produced (also when it raised after producing some); those events. ``own_chips``:
        a player's own chips, waiting for no confirms (:meth:`TableLock.for_player`)."""
        async with self._lock.for_player(actor.player) if own_chips else self._lock:
            self._verify()
            start = self.table.event_count
            self._author = actor.user_id or "anonymous"
            try:
                await change()
            finally:
                await self._process()
            return tuple(events_from(self.table, start))

    def _verify(self) -> None:
        """Refuse commands while the last hand's money is pending (money first), and once
        the table is closed or closing."""
        self._pending.verify()
        if self.table.phase is Phase.CLOSED or self._stopping:
            raise UnavailableError(f"table {self.table.settings.table_id} is closed")

    async def set_connected(self, player: str, connected: bool) -> None:
        """A player's last connection closed, or a first one opened [L], [O]; a player
        gone for ``seat_grace`` seconds is released by the loop [S13]."""
        async with self._lock:
            if not supervision.connect(self.table, player, connected=connected):
                return
            await self._process()
        self._wake.set()

    # -- effects ---------------------------------------------------------------------

    async def _process(self, *, retry: bool = False) -> None:
        """Run the effects of the events not yet processed, in order (:mod:`effects`).

        Money first: when a money effect fails (the ledger or the operator's wallet did
        not answer), it and every effect after it — the fan-out of those events among
        them — wait: the table is *settlement pending* (:class:`MoneyPending`) until the
        loop's retry has moved the money, and then the list goes on where it stopped
        (``retry``: that retry). From a settlement on, the cycle collector is held until
        the pass ends (:mod:`punto.server.collector`)."""
        with contextlib.ExitStack() as hold:
            await self._run_effects(retry, hold)

    async def _run_effects(self, retrying: bool, hold: contextlib.ExitStack) -> None:
        """:meth:`_process`'s pass (``hold``: the cycle collector's, from a settlement)."""
        pending = self._pending
        todo = self._todo
        effects = self._effects
        held = False
        while retrying or not pending.pending:
            if not todo:
                if self._done >= self.table.event_count:
                    break
                start, new = self._done, events_from(self.table, self._done)
                self._done = start + len(new)
                now = self._clock.now()
                todo.extend(fx.effects_of(new, first=start, hand=self._hand, now=now))
                continue
            effect = todo[0]
            if not held and type(effect) is fx.Settle:
                held = True
                hold.enter_context(collector.held())
            try:
                done = effects[type(effect)](effect)
                if done is not None:
                    await done
            except Exception as exc:
                if effect.failure is fx.Failure.PAUSE:
                    pending.failed(effect, exc)
                    self._wake.set()
                    break
                todo.popleft()
                if effect.failure is fx.Failure.RAISE:
                    raise
                _LOG.exception(
                    "effect failed", extra={"table": self.id, "effect": type(effect).__name__}
                )
                continue
            todo.popleft()
            if retrying:  # the money moved: the table goes on
                retrying = False
                pending.moved()
        if pending.pending:
            await self._parts.cast.message(pending.message())
        else:
            await self._parts.cast.publish_legal()
            before = self._hand.start - self.table.events_forgotten
            if before > _KEEP_EVENTS:  # older events are in the database already
                self.table.forget_events(before)

    async def _record_result(self, effect: fx.RecordResult) -> None:
        await self._parts.recorder.result(effect)
        self._hand = replace(self._hand, outcome=effect.outcome)

    def _remember_lightning(self, effect: fx.RememberLightning) -> None:
        self._hand = replace(self._hand, lightning=effect.draw)  # [LB]

    def _refund(self, effect: fx.Refund) -> Awaitable[None]:
        author = "system" if effect.by_table else self._author
        return self._parts.payouts.refund(effect, author=author)

    def _open_shoe(self, effect: fx.OpenShoe) -> Awaitable[None]:
        self._parts.view.open_shoe(effect.event.commitment)
        return self._parts.recorder.shoe_opened(effect.event)

    def _start_hand(self, effect: fx.StartHand) -> None:
        self._hand = fx.Hand(start=effect.index, blank=effect.blank)
        self._parts.recorder.opening(effect.index)
        self._parts.cast.new_hand()
        self._parts.stakes.clear()

    def _forget_result(self, effect: fx.Forget) -> None:
        self._hand = replace(self._hand, outcome=None)

    def _leave_table(self, effect: fx.LeaveTable) -> Awaitable[None]:
        self._parts.view.left(effect.player)
        return self._s.store.leave_table(effect.player, self.id)

    async def _send_snapshots(self, effect: fx.SendSnapshots) -> None:
        """A new snapshot to each player who must see the table afresh."""
        for player in self._parts.view.resnapped(effect):
            snapshot = self.snapshot(Actor(player, Role.PLAYER), wallet=None)
            await self._parts.cast.message(dict(snapshot), to=player)

    # -- administration and supervision ---------------------------------------------------

    async def reconfigure(self, config: TableConfig) -> None:
        """New limits or betting time take effect between hands [S14]; new rules (a new
        rules version) from the next shoe."""
        async with self._lock:
            self.config = config
            seconds = self._s.settings.betting_seconds  # the server's, over the table's
            if supervision.reconfigure(self.table, config, betting_seconds=seconds):
                await self._process()
        self._wake.set()

    async def transfer(self, player: str, amount: int, *, reason: Why) -> None:
        """Money moved in ``player``'s wallet outside the table (a deposit, a supervisor's
        void or correction): their table balance follows, as far as it can."""
        async with self._lock:
            if supervision.follow_transfer(self.table, player, amount, reason=reason):
                await self._process()

    async def correct(
        self, game: GameNumber, outcome: Outcome, *, author: str, reason: str, correction_id: str
    ) -> dict[str, Any]:
        """A supervisor's correction of a settled hand [O] (:func:`supervision.correct`)."""
        async with self._lock:
            out = await supervision.correct(
                self.table,
                self._s,
                game,
                outcome,
                table_id=self.id,
                author=author,
                reason=reason,
                correction_id=correction_id,
            )
            if out is None:  # nobody bet: the record alone
                return {"corrections": {}, "transactions": (), "on_table": False}
            self._author = author
            await self._process()
            return out

    async def refresh_roads(self) -> None:
        """Build the current shoe's roads again from its hand records (after a
        correction or a void: one truth per hand) and send them to everyone."""
        async with self._lock:
            records = await self._s.store.shoe_hands(self.id, self.table.shoe_number)
            self._parts.view.roads = roads_of(records)
            await self._parts.cast.message(self._parts.view.roads_message())
