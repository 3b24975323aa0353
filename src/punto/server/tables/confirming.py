"""A table's confirm pipeline: each confirm staked in the ledger before the table takes it.

A player's confirm does not wait for the table's lock: it joins the table's group commit
(:class:`~punto.server.money.confirms.ConfirmBatcher`). Each batch is checked against the
table under its lock, at one instant of the table's clock; the good confirms are staked in
one ledger transaction with the lock let go (the next batch is checked meanwhile); then
they are confirmed on the table, at the instant they were checked and in the order the
batches were checked, and each confirm is answered with its own result or typed error.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from punto.bets import Bet
from punto.errors import BettingError, PuntoError, UnavailableError
from punto.server.money.bank import Stake
from punto.server.money.confirms import ConfirmBatcher, Pending
from punto.server.money.tablelock import TableLock
from punto.server.services import Services
from punto.server.tables.payouts import Payouts
from punto.server.tables.stakes import RoundStakes
from punto.table import Table
from punto.table.clock import HeldClock
from punto.table.events import Event

__all__ = ["CONFIRM_DEPTH", "ConfirmPipeline", "Confirming"]

_LOG = logging.getLogger("punto.server.tables.confirming")

CONFIRM_DEPTH = 3
"""Batches of one table's confirms under way at once (checked, their stakes being
written, not yet taken): while some are written the next is checked, which keeps the
server busy while writes wait for the database. A table that limits its Banker–Player
difference [M14] has one."""


@dataclass(frozen=True, slots=True)
class Confirming:
    """A confirm on its way to the ledger: its round, its stakes and (seamless) the
    wallet balance the operator's debit left."""

    round_id: str
    stake: Stake
    wallet: int | None = None
    placed: bool = False
    """The bets were put down with the confirm (they are not the unconfirmed chips)."""
    standing: bool = False
    """The main bets a tie left standing, already on the table, staked again by the house
    after the operator's debit (:meth:`punto.table.Table.stake_standing`) [M12]."""

    @property
    def bets_placed(self) -> Mapping[Bet, int] | None:
        """The bets to put down and confirm at once, or ``None``: the unconfirmed chips."""
        return self.stake.bets if self.placed else None


_Batch = list[Pending[Confirming, tuple[Event, ...]]]


class ConfirmPipeline:
    """The confirms of one table, from arrival to the table taking them. Handed the table,
    its lock and held clock, the round's stakes and the payouts (which learn the wallet
    balances a stake left); ``verify`` refuses when the table takes no confirm (closed,
    settlement pending), ``process`` runs the new events' effects, ``wake`` wakes the
    table's loop."""

    def __init__(
        self,
        table: Table,
        services: Services,
        *,
        lock: TableLock,
        clock: HeldClock,
        stakes: RoundStakes,
        payouts: Payouts,
        verify: Callable[[], None],
        process: Callable[[], Awaitable[None]],
        wake: Callable[[], None],
    ) -> None:
        self._table = table
        self._s = services
        self._lock = lock
        self._clock = clock
        self._stakes = stakes
        self._payouts = payouts
        self._verify = verify
        self._process = process
        self._wake = wake
        self._checked_last: asyncio.Future[None] | None = None
        """The batch of confirms checked last (the next one is taken after it)."""
        self._batcher: ConfirmBatcher[Confirming, tuple[Event, ...]] = ConfirmBatcher(
            self._flush,
            window=services.settings.confirm_window,
            size=services.settings.confirm_batch,
            depth=self.depth,
        )

    def depth(self) -> int:
        """How many batches of confirms may be under way at once: :data:`CONFIRM_DEPTH`
        — the next ones checked while others are written — unless the table limits the
        difference between its Banker and Player totals [M14], which every confirm is
        checked against: then each batch is checked once the one before it is on the
        table."""
        return 1 if self._table.rules.max_imbalance is not None else CONFIRM_DEPTH

    async def close(self) -> None:
        """Take no more confirms; those waiting are answered."""
        await self._batcher.close()

    async def submit(self, player: str, confirming: Confirming) -> tuple[Event, ...]:
        """``confirming`` into the next batch; its events once the table took it."""
        return await self._batcher.submit(player, confirming)

    async def confirm(self, p: str, placed: Mapping[Bet, int] | None = None) -> tuple[Event, ...]:
        """[L] A confirm, outside the table's lock: staked in the ledger together with the
        confirms that arrive with it (one transaction) and only then confirmed on the
        table. Answered once its batch is durable. A seamless debit is made first, waiting
        for this player's operator only, and given back if the stake is refused.
        ``placed``: bets put down and confirmed at once (:meth:`punto.table.Table.confirm`).

        Every confirm is checked in its batch (:meth:`_check`), against the table as it
        then is, and refused there with its typed error. It is checked on arrival as well
        only where money leaves the operator before the batch (the seamless debit: a
        confirm the table would refuse calls no operator), or when there is no hand to
        name: a check on arrival everywhere would double a confirm's checking work."""
        table = self._table
        bank = self._s.bank
        if bank.seamless or table.game is None:
            table.verify_confirm(p, placed)
        bets = dict(table.pending(p) if placed is None else placed)
        round_id = self._stakes.round()
        confirmation_id = self._stakes.new_id(p, "confirm")
        wallet = None
        currency = table.currency_of(p)
        fee = table.fee_on(sum(bets.values()))  # [LB] debited with the stakes
        if bank.seamless:
            wallet = await bank.debit(
                round_id,
                player=p,
                amount=sum(bets.values()) + fee,
                confirmation_id=confirmation_id,
                currency=currency,
            )
        confirming = Confirming(
            round_id,
            Stake(p, bets, confirmation_id, currency, fee=fee),
            wallet,
            placed=placed is not None,
        )
        try:
            return await self._batcher.submit(p, confirming)
        except PuntoError as exc:
            if bank.seamless:
                await bank.undo_debit(
                    confirmation_id=confirmation_id, error=f"stake not recorded: {exc}"
                )
            raise

    async def _flush(self, batch: _Batch) -> None:
        """One batch of the group commit: each confirm is checked and then taken at the
        instant the batch was checked (the countdown may end while its stakes are
        written; closing waits until the batch is taken)."""
        players = [pending.key for pending in batch]
        lock = self._lock
        async with lock.checking(players):
            with self._clock.held() as at:
                good = self._check(batch)
            before, mine = self._checked_last, asyncio.get_running_loop().create_future()
            self._checked_last = mine
        try:
            answers = await self._write(good) if good else None
            if before is not None and not before.done():
                await asyncio.wait([before])  # the batch checked before this one goes first
            if answers is not None:
                async with lock.taking():
                    with self._clock.held(at):
                        await self._take(good, answers)
        finally:
            lock.taken(players)
            mine.set_result(None)
        self._wake()

    def _check(self, batch: _Batch) -> _Batch:
        """The confirms of ``batch`` the table would take now; the others are answered
        with their typed error."""
        table = self._table
        good: _Batch = []
        for pending in batch:
            c = pending.item
            try:
                self._verify()
                if c.standing:
                    table.verify_stake_standing(c.stake.player)
                else:
                    table.verify_confirm(c.stake.player, c.bets_placed)
                if str(table.game) != c.round_id or (
                    not c.placed
                    and not c.standing
                    and dict(table.pending(c.stake.player)) != dict(c.stake.bets)
                ):
                    raise BettingError(
                        "the bets changed while the confirm was on its way: confirm again"
                    )
            except PuntoError as exc:
                pending.future.set_exception(exc)
                continue
            good.append(pending)
        return good

    async def _write(self, good: _Batch) -> list[int | PuntoError | None] | None:
        """The checked confirms' stakes, in one ledger transaction: each one's answer, or
        ``None`` when the write failed as a whole (every confirm is then answered)."""
        table = self._table
        started = time.perf_counter()
        try:
            answers = await self._s.bank.stake_many(
                good[0].item.round_id,
                table_id=table.settings.table_id,
                stakes=[pending.item.stake for pending in good],
            )
        except PuntoError as exc:
            for pending in good:
                pending.future.set_exception(exc)
            return None
        except Exception:
            _LOG.exception("confirm batch not written", extra={"table": table.settings.table_id})
            for pending in good:
                pending.future.set_exception(
                    UnavailableError("the ledger did not answer: nothing was staked; confirm again")
                )
            return None
        self._s.metrics.confirm_seconds.observe(time.perf_counter() - started)
        return list(answers)

    async def _take(self, good: _Batch, answers: list[int | PuntoError | None]) -> None:
        """The staked confirms confirmed on the table (under its lock) and answered."""
        table = self._table
        stakes = self._stakes
        payouts = self._payouts
        confirmed_bets = self._s.metrics.bets_confirmed
        done: list[tuple[Pending[Confirming, tuple[Event, ...]], Event]] = []
        for pending, answer in zip(good, answers, strict=True):
            c = pending.item
            p = c.stake.player
            if isinstance(answer, PuntoError):
                pending.future.set_exception(answer)
                continue
            try:
                event = table.stake_standing(p) if c.standing else table.confirm(p, c.bets_placed)
            except PuntoError as exc:  # pragma: no cover - checked, and nothing changed since
                # (a table with a limit on its whole Banker and Player totals [M14] checks
                # each batch once the one before it is on the table: depth); refused all
                # the same: the stake is cancelled and credited; the confirm's rollback
                # then finds the stake in the ledger and leaves the debit standing
                await self._s.bank.cancel(c.stake.confirmation_id)
                pending.future.set_exception(exc)
                continue
            stakes.add(p, c.stake.confirmation_id)
            wallet = c.wallet if answer is None else answer
            if wallet is not None:
                payouts.learnt(p, wallet)
            if not c.standing:
                confirmed_bets.inc(len(c.stake.bets))
            done.append((pending, event))
        try:
            await self._process()
        finally:
            for pending, confirmed in done:
                pending.future.set_result((confirmed,))
