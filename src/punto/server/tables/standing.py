"""The main bets a tie left standing [M12], staked again on the next round.

The ledger paid them back with the tie's push. With the internal wallet every standing
player's stake is one ledger transaction. With the operator's wallet each player's debit is
made by a task of its own, outside the table's lock (a slow operator delays only that
player's bets, never the table), and then staked with the next batch of confirms. A player
whose stake is refused has the bets taken back. Idempotent: a retry stakes nothing twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping

from punto.bets import Bet
from punto.errors import PuntoError, UnavailableError
from punto.ledger.model import Transaction
from punto.server.money.bank import Stake as BankStake
from punto.server.money.tablelock import TableLock
from punto.server.services import Services
from punto.server.tables.confirming import Confirming, ConfirmPipeline
from punto.server.tables.effects import Stake
from punto.server.tables.payouts import Payouts, forget
from punto.server.tables.stakes import RoundStakes
from punto.table import Table
from punto.table.reasons import Reason, Why

__all__ = ["StandingStakes"]

_LOG = logging.getLogger("punto.server.tables.standing")


class StandingStakes:
    """One table's standing bets [M12] on their way to the operator and the ledger: each
    (round, player)'s task, with the operator's wallet. Handed the table, its lock, the
    round's stakes, the payouts (whose wallet tasks these join) and the confirm pipeline
    (which stakes them); ``process`` runs the new events' effects, ``wake`` wakes the
    table's loop."""

    def __init__(
        self,
        table: Table,
        services: Services,
        *,
        table_id: str,
        lock: TableLock,
        stakes: RoundStakes,
        payouts: Payouts,
        confirms: ConfirmPipeline,
        process: Callable[[], Awaitable[None]],
        wake: Callable[[], None],
    ) -> None:
        self._table = table
        self._s = services
        self._id = table_id
        self._lock = lock
        self._stakes = stakes
        self._payouts = payouts
        self._confirms = confirms
        self._process = process
        self._wake = wake
        self._tasks: dict[tuple[str, str], asyncio.Task[None]] = {}

    async def wait(self, game: str, player: str) -> None:
        """Until ``player``'s standing bets on ``game`` are staked (or given back)."""
        if mine := self._tasks.get((game, player)):
            await asyncio.wait({mine})

    async def stake(self, stake: Stake) -> None:
        """The :class:`Stake` effect: with the internal wallet, every standing player's in
        **one** ledger transaction (after a tie at a table of thousands, one commit, not
        one each with the table held); with the operator's wallet, each player's by a task
        of its own (:meth:`_stake_later`)."""
        bank = self._s.bank
        if bank.seamless:  # each player's debit outside the lock; the table goes on
            for player, bets in stake.stakes:
                if (stake.game, player) in self._tasks:  # (a retry of this effect)
                    continue
                task = asyncio.create_task(
                    self._stake_later(stake.game, player, bets, stake.confirmation_id(player)),
                    name=f"punto-standing-{self._id}",
                )
                self._track(stake.game, player, task)
            return
        answers = await bank.stake_many(
            stake.game,
            table_id=self._table.settings.table_id,
            stakes=[
                BankStake(
                    player, bets, stake.confirmation_id(player), self._table.currency_of(player)
                )
                for player, bets in stake.stakes
            ],
        )
        for (player, _bets), answer in zip(stake.stakes, answers, strict=True):
            if isinstance(answer, PuntoError):
                self._refused(player, answer)
                continue
            self._stakes.add(player, stake.confirmation_id(player))
            if answer is not None:
                self._payouts.learnt(player, answer)

    def restake_changed(
        self, p: str, game: str, credits: tuple[Transaction, ...], bets: Mapping[Bet, int]
    ) -> None:
        """Seamless [M12]: a player changed their standing bets; the ledger gave their old
        stakes back under the table's lock. A task of the player's own, outside it, makes
        the operator's credits of those stakes and then the debit and stake of the changed
        bets, after this player's earlier wallet calls and before their next balance
        message (a message never shows the credit without the debit that follows it)."""
        confirmation_id = self._stakes.new_id(p, "tie")
        payouts = self._payouts
        task = asyncio.create_task(
            self._restake_later(p, game, credits, bets, confirmation_id, payouts.last_call(p)),
            name=f"punto-restake-{self._id}",
        )
        self._track(game, p, task)
        payouts.chain(p, task)

    def _track(self, game: str, player: str, task: asyncio.Task[None]) -> None:
        self._tasks[(game, player)] = task
        self._payouts.keep(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        forget(task, self._tasks)
        if not task.cancelled() and task.exception() is not None:
            _LOG.error(
                "standing bets not staked", exc_info=task.exception(), extra={"table": self._id}
            )

    def _refused(self, player: str, exc: BaseException) -> None:
        """The standing bets of ``player`` could not be staked again: they go back to
        the player (whatever the tie option lets a player do) [M12]."""
        _LOG.warning(
            "standing bets could not be staked",
            extra={"table": self._id, "player": player, "error": str(exc)},
        )
        if self._table.can_return_standing(player):
            self._table.return_standing(player, Why(Reason.STANDING_NOT_STAKED))

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
                async with self._payouts.operator_calls:
                    await self._s.bank.pay_out(credits, game)
            except BaseException as exc:  # not written down: no debit without it before
                await asyncio.shield(self._not_staked(game, player, confirmation_id, exc, False))
                raise
        if bets:
            await self._stake_later(game, player, bets, confirmation_id)

    async def _stake_later(
        self, game: str, player: str, bets: Mapping[Bet, int], confirmation_id: str
    ) -> None:
        """Seamless [M12]: the operator's debit of ``player``'s standing bets (or the bets
        they changed them into), outside the table's lock; then their stake in the ledger
        with the next batch of confirms, and on the table
        (:meth:`punto.table.Table.stake_standing`). Refused, or too late (betting closed,
        the player gone, the table stopped): a debit made is given back and the bets go
        back to the player if they still wait (the table returns those still waiting when
        betting closes)."""
        staked = debited = False
        currency = self._table.currency_of(player)
        refused: BaseException = UnavailableError("the table stopped")
        try:
            async with self._payouts.operator_calls:
                wallet = await self._s.bank.debit(
                    game,
                    player=player,
                    amount=sum(bets.values()),
                    confirmation_id=confirmation_id,
                    currency=currency,
                )
            debited = True
            confirming = Confirming(
                game, BankStake(player, bets, confirmation_id, currency), wallet, standing=True
            )
            await self._confirms.submit(player, confirming)
            staked = True
        except Exception as exc:
            refused = exc
        finally:
            if not staked:
                await asyncio.shield(
                    self._not_staked(game, player, confirmation_id, refused, debited)
                )

    async def _not_staked(
        self, game: str, player: str, confirmation_id: str, exc: BaseException, debited: bool
    ) -> None:
        """A standing stake that did not happen: its debit given back, the bets returned.
        A debit the operator made and then gave back brings the player a new ``balance``
        (``refunded``): one told meanwhile may have shown the wallet without it."""
        if debited:
            await self._s.bank.undo_debit(
                confirmation_id=confirmation_id, error=f"standing stake not recorded: {exc}"
            )
        table = self._table
        async with self._lock:
            if str(table.game) == game and table.can_return_standing(player):
                self._refused(player, exc)
                await self._process()
            elif debited and player in table.seats.participants:
                await self._payouts.send({player: "refunded"}, None)
        self._wake()
