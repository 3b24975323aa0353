"""A table's payouts: the money its events move in the ledger, on its way to the players.

Settlements, refunds and cancelled stakes are posted in the ledger under the table's lock;
the seamless wallet's calls of what was posted wait for the balance messages. With the
internal wallet the ledger is the wallet, and each player whose money moved gets a
``balance`` message at once. With the operator's wallet, each player's credits and balance
call are made by a task of that player's own, outside the table's lock: a slow operator
answer delays only that player's message, never the table or another player; each message
goes once the operator has the money, and a player's messages go in the order their money
moved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

from punto.ledger.model import Transaction
from punto.rules import Rules
from punto.server.services import Services
from punto.server.tables.effects import CancelStakes, Effect, PublishBalances, Refund, Settle
from punto.server.tables.recorder import HandRecorder
from punto.server.tables.stakes import RoundStakes
from punto.table import Table
from punto.table.records import GameNumber

__all__ = ["Payouts", "forget"]

_LOG = logging.getLogger("punto.server.tables.payouts")

_OPERATOR_CALLS = 32
"""Players' payouts and balance calls one table has at the operator at once."""

_Owed = list[tuple[tuple[Transaction, ...], str]]


class Payouts:
    """The payouts of one table: posted settlements, refunds and cancels whose seamless
    wallet calls are still to make, the wallet balances a stake or settlement left (they
    spare a query), the ``balance`` messages, and the wallet tasks under way."""

    def __init__(
        self,
        table: Table,
        services: Services,
        *,
        table_id: str,
        stakes: RoundStakes,
        recorder: HandRecorder,
    ) -> None:
        self._table = table
        self._s = services
        self._id = table_id
        self._stakes = stakes
        self._recorder = recorder
        self._owed: _Owed = []
        self._wallets: dict[str, int] = {}
        self._known: dict[str, int] = {}
        """Each player's table balance when it was last told (multi-table play)."""
        self._tasks: set[asyncio.Task[None]] = set()
        """The wallet tasks at the operator (a stop waits for them)."""
        self._player_calls: dict[str, asyncio.Task[None]] = {}
        """Each player's latest wallet task (the next one waits for it: their balance
        messages go in order)."""
        self.operator_calls = asyncio.Semaphore(_OPERATOR_CALLS)
        """Calls this table has at the operator at once."""

    async def settle(self, effect: Settle, later: Iterable[Effect], *, rules: Rules) -> None:
        """The :class:`Settle` effect: the round settled in the ledger, the hand's record
        saved beside it (:meth:`HandRecorder.beside`; ``later``: the effects after it)."""
        bank = self._s.bank
        started = time.perf_counter()
        settled = await self._recorder.beside(
            effect,
            later,
            lambda: bank.settle(
                effect.game,
                rules=rules,
                outcome=effect.outcome,
                pay=False,
                lightning=effect.lightning,
            ),
        )
        self._owed.append((settled.posted, effect.game))
        self._wallets.update(settled.wallets)
        self._s.metrics.settle_seconds.observe(time.perf_counter() - started)

    async def refund(self, effect: Refund, *, author: str) -> None:
        """The :class:`Refund` effect: the round voided in the ledger, if it is open."""
        bank = self._s.bank
        if bank.round_open(effect.game):
            posted = await bank.void_round(effect.game, author=author, reason=effect.reason)
            self._owed.append((posted, effect.game))

    async def cancel_stakes(self, effect: CancelStakes) -> None:
        """The :class:`CancelStakes` effect: every stake of each player removed from the
        round taken back, the other players' staying (idempotent: a retry after a failure
        cancels nothing twice)."""
        stakes = self._stakes
        for player in effect.players:
            for confirmation_id in stakes.of(player):
                posted = await self._s.bank.cancel_stake(confirmation_id, reason=effect.reason)
                if not posted.replayed:
                    self._owed.append(((posted.transaction,), effect.game))
            stakes.forget(player)

    def learnt(self, player: str, wallet: int) -> None:
        """``player``'s wallet balance, just learnt from a stake."""
        self._wallets[player] = wallet

    def keep(self, task: asyncio.Task[None]) -> None:
        """A wallet task this table waits for when it stops."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def last_call(self, player: str) -> asyncio.Task[None] | None:
        """``player``'s latest wallet task (the next one waits for it)."""
        return self._player_calls.get(player)

    def chain(self, player: str, task: asyncio.Task[None]) -> None:
        """``task`` is ``player``'s latest wallet task."""
        self._player_calls[player] = task
        task.add_done_callback(lambda done: forget(done, self._player_calls))

    async def done(self) -> None:
        """Let the wallet calls under way finish (a call cut off would be neither made
        nor queued)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=60)

    async def publish(self, effect: PublishBalances) -> None:
        """The :class:`PublishBalances` effect: the players' other tables follow
        (:meth:`follow`), then the balance messages and wallet calls (:meth:`send`)."""
        self.follow(effect.notes, dict(effect.outside))
        if effect.notes or self._owed:
            await self.send(dict(effect.notes), effect.game)

    def follow(self, notes: tuple[tuple[str, str], ...], outside: Mapping[str, int]) -> None:
        """Multi-table play: what play here moved of a player's table balance (not what
        came in from outside: a deposit, another table) is told to their other tables."""
        table = self._table
        for player, _why in notes:
            if player not in table.seats.participants:
                self._known.pop(player, None)
                continue
            now = table.balance(player)
            before = self._known.get(player)
            self._known[player] = now
            if before is None:
                continue
            moved = now - before - outside.get(player, 0)
            if moved:
                self._s.moved(player, moved, self._id)

    async def send(self, notes: Mapping[str, str], game: GameNumber | None) -> None:
        """The ``balance`` messages of the players whose money moved, and the seamless
        wallet's calls of what was posted (each player's by a task of their own)."""
        payouts, self._owed = self._owed, []
        known, self._wallets = self._wallets, {}
        table = self._table
        seated = table.seats.participants
        tables = {p: table.balance(p) if p in seated else None for p in notes}
        bank = self._s.bank
        if not bank.seamless:
            unknown = [p for p in notes if p not in known]
            currencies = {p: c for p in unknown if (c := table.currency_of(p)) is not None}
            wallets = {**known, **(await bank.balances(unknown, currencies) if unknown else {})}
            await self._publish(notes, tables, wallets, game)
            return
        owed: dict[str, _Owed] = {}
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
                name=f"punto-payout-{self._id}",
            )
            self.chain(player, task)
            self.keep(task)
            task.add_done_callback(self._paid)

    async def _pay_then_tell(
        self,
        player: str,
        owed: _Owed,
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
        async with self.operator_calls:
            for txs, round_id in owed:
                await bank.pay_out(txs, round_id)
            if reason is not None and wallet is None:
                wallet = (await bank.balances([player])).get(player)
        if reason is not None:
            await self._publish(
                {player: reason}, {player: table}, {} if wallet is None else {player: wallet}, game
            )

    def _paid(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            _LOG.error(
                "balance messages not sent", exc_info=task.exception(), extra={"table": self._id}
            )

    async def _publish(
        self,
        notes: Mapping[str, str],
        tables: Mapping[str, int | None],
        wallets: Mapping[str, int],
        game: GameNumber | None,
    ) -> None:
        for player, reason in notes.items():
            await self._s.bus.publish(
                {
                    "table": self._id,
                    "to": player,
                    "message": {
                        "type": "balance",
                        "table": self._id,
                        "table_balance": tables.get(player),
                        "wallet_balance": wallets.get(player),
                        "game": None if game is None else str(game),
                        "reason": reason,
                    },
                }
            )


def forget(task: asyncio.Task[None], tasks: dict[Any, asyncio.Task[None]]) -> None:
    """Take ``task`` out of ``tasks`` (which maps whose it was)."""
    for key, mine in list(tasks.items()):
        if mine is task:
            del tasks[key]
