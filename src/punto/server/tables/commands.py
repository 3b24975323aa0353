"""A table's client commands: who may send what, and the money each needs first.

:class:`TableCommands` is the part of :class:`~punto.server.tables.runner.TableRunner` that turns
a validated message into table actions: players' messages, the dealer console's and the
supervisor's, each checked against the sender's role. Money goes through the ledger *before*
the table accepts it: a confirm stakes the chips (and debits a seamless wallet) and only then
confirms them on the table; if the table refuses after all, the stake is cancelled.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from punto.bets import MAIN_BETS, Bet
from punto.cards import Card
from punto.errors import BettingError, ForbiddenError, PuntoError, UnavailableError
from punto.ledger.model import Transaction
from punto.server.auth import Actor, Role
from punto.server.fanout.protocol import (
    AddChip,
    Burn,
    ChangeDealer,
    ChangeShoe,
    ChangeTieBets,
    ChooseChip,
    Clear,
    CloseBetting,
    CloseTable,
    Command,
    Confirm,
    CutCardOut,
    DealCard,
    DealDemoHand,
    Double,
    Fly,
    Join,
    Leave,
    OpenBetting,
    OpenCards,
    Pause,
    Read,
    Rebet,
    ReportFault,
    Rescan,
    Resume,
    RevealCards,
    SettleHand,
    Sit,
    Squeeze,
    Stand,
    StartBlankHand,
    StartShoe,
    TakeTable,
    Undo,
    VipSettingsMessage,
    WaitForMe,
    Watch,
)
from punto.server.money.bank import Stake
from punto.server.money.confirms import ConfirmBatcher, Pending
from punto.server.money.tablelock import TableLock
from punto.server.services import DEALER_ROSTER, Services
from punto.table import Fault, Phase, Table
from punto.table.clock import HeldClock
from punto.table.events import Event
from punto.table.legal import STAFF_ACTIONS, house_actions
from punto.table.reasons import CLOSED_BY_SUPERVISOR

if TYPE_CHECKING:
    pass

__all__ = ["Confirming", "TableCommands"]

_LOG = logging.getLogger("punto.server.tables.commands")


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


_PLAYER_TYPES: tuple[type, ...] = (
    Join,
    Sit,
    TakeTable,
    Watch,
    Stand,
    Leave,
    ChooseChip,
    AddChip,
    Undo,
    Clear,
    Double,
    Rebet,
    Confirm,
    ChangeTieBets,
    WaitForMe,
    OpenCards,
    Fly,
    Squeeze,
    Read,
    VipSettingsMessage,
)


def _cards(codes: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes)


class TableCommands:
    """Client commands of one table (mixed into the runner, which owns the state)."""

    table: Table
    _s: Services
    _confirmations: dict[str, dict[str, None]]
    _confirms: ConfirmBatcher[Confirming, tuple[Event, ...]]
    _lock: TableLock
    _table_clock: HeldClock
    _checked_last: asyncio.Future[None] | None
    """The batch of confirms checked last (the next one is taken after it)."""
    _stopping: bool
    _wallets: dict[str, int]

    async def _countdown(self, now: float, *, force: bool = False) -> None:
        """Send the countdown (the runner does)."""
        raise NotImplementedError

    async def _process(self) -> None:
        """Run the new events' effects and fan them out (the runner does)."""
        raise NotImplementedError

    def _restake_changed(
        self, p: str, game: str, credits: tuple[Transaction, ...], bets: Mapping[Bet, int]
    ) -> None:
        """Seamless: the credits of ``p``'s given-back stakes, then the stake of their
        changed bets, outside the table's lock (the runner does)."""
        raise NotImplementedError

    def _verify_open(self) -> None:
        """Refuse once the table is closed or closing."""
        if self.table.phase is Phase.CLOSED or self._stopping:
            raise UnavailableError(f"table {self.table.settings.table_id} is closed")

    def _verify_money_settled(self) -> None:
        """Refuse while the last hand's money is pending (the runner does)."""
        raise NotImplementedError

    async def _locked(
        self, actor: Actor, change: Callable[[], Awaitable[None]]
    ) -> tuple[Event, ...]:
        """Make ``change`` under the table's lock and run its effects (the runner does)."""
        raise NotImplementedError

    async def _dispatch(self, actor: Actor, command: Command) -> None:
        role = actor.role
        if isinstance(command, _PLAYER_TYPES):
            if role is not Role.PLAYER:
                raise ForbiddenError(f"{command.type}: only a player at the table may do this")
            await self._player(actor.player, command)
            return
        if isinstance(command, ChangeShoe | ChangeDealer) and role is Role.PLAYER:
            await self._player(actor.player, command)  # a VIP owner [O]
            return
        if role is Role.DEALER or (role is Role.SUPERVISOR and command.type in STAFF_ACTIONS):
            if command.type in {a.value for a in house_actions(self.table.settings)}:
                raise ForbiddenError(
                    f"{command.type}: an RNG table deals by itself; its dealer may report "
                    "faults, pause, resume, change dealer or close it"
                )
            await self._house(command)
            return
        who = "anonymous watcher" if role is None else role.value
        raise ForbiddenError(f"{command.type}: a {who} may not do this")

    async def _player(self, p: str, command: Command) -> None:
        table = self.table
        match command:
            case Join():  # pragma: no cover - the runner sends a join to _join
                raise ForbiddenError("join: sent inside the table's lock")
            case Sit(seat=seat, tier=tier, password=password):
                table.sit(p, seat, tier=tier, password=password)
            case TakeTable(seat=seat):
                table.take_table(p, seat)
            case Watch(tier=tier, password=password):
                table.watch(p, tier=tier, password=password)
            case Stand(mark=mark):
                table.stand(p, mark=mark)
            case Leave():
                table.leave(p)
            case ChooseChip(chip=chip):
                table.choose_chip(p, chip)
            case AddChip(bet=bet, spot=spot):
                table.add_chip(p, bet, spot=spot)
            case Undo():
                table.undo(p)
            case Clear():
                table.clear(p)
            case Double():
                table.double(p)
            case Rebet():
                table.rebet(p)
            case Confirm():  # pragma: no cover - the runner sends a confirm to _confirm
                raise ForbiddenError("confirm: sent outside the table's lock")
            case ChangeTieBets(bets=bets):
                await self._change_tie_bets(p, bets)
            case WaitForMe():
                table.wait_for_me(p)
            case OpenCards():
                table.request_open_cards(p)
            case Fly():
                table.fly(p)
            case Squeeze(side=side):
                table.squeeze(p, side)
            case Read(call=call):
                table.read(p, call)
            case VipSettingsMessage():
                table.set_vip_settings(
                    p,
                    squeeze=command.squeeze,
                    vertical_squeeze=command.vertical_squeeze,
                    password=command.password,
                    clear_password=command.clear_password,
                )
            case ChangeShoe():
                table.change_shoe(by=p)
            case ChangeDealer():
                table.change_dealer(self._next_dealer(), by=p)
            case _:  # pragma: no cover - _dispatch sends only these
                raise ForbiddenError(f"{command.type}: not a player's message")

    async def _house(self, command: Command) -> None:
        table = self.table
        match command:
            case StartShoe(burned=burned):
                table.start_shoe(burned=_cards(burned))
            case DealDemoHand(cards=cards):
                table.deal_demo_hand(cards=_cards(cards))
            case OpenBetting():
                table.open_betting()
                await self._countdown(table.clock.now(), force=True)
            case CloseBetting():
                table.close_betting()
            case StartBlankHand():
                table.start_blank_hand()
            case DealCard(card=card, position=position):
                table.deal_card(Card.parse(card), position=position)
            case Rescan(card=card, position=position):
                table.rescan(Card.parse(card), position=position)
            case RevealCards(side=side):
                table.reveal_cards(side=side)
            case SettleHand(cards_left=cards_left):
                table.settle(cards_left=cards_left)
            case Burn(count=count, cards=cards):
                table.burn(count, cards=_cards(cards))
            case CutCardOut():
                table.cut_card_out()
            case ChangeShoe():
                table.change_shoe()
            case ChangeDealer(name=name):
                table.change_dealer(name or self._next_dealer())
            case ReportFault():
                if command.fault is Fault.O_SETTLEMENT_ERROR:
                    raise ForbiddenError(
                        "a settlement error is a supervisor's correction: "
                        "POST /api/supervisor/hands/{game}/correct [O]"
                    )
                table.report_fault(
                    command.fault,
                    player=command.player,
                    detail=command.detail,
                    count=command.count,
                    cards=_cards(command.cards),
                    position=command.position,
                )
            case Pause(reason=reason):
                table.request_pause(reason)  # during a hand, when it ends [S14]
            case Resume():
                table.resume()  # (or calls off the pause asked for [S14])
            case CloseTable(reason=reason):
                table.close_table(reason or CLOSED_BY_SUPERVISOR)  # [S14]
            case _:
                raise ForbiddenError(f"{command.type}: not a dealer's message")

    def _next_dealer(self) -> str:
        roster = list(self._s.roster()) or list(DEALER_ROSTER)
        if self.table.dealer in roster:
            return roster[(roster.index(self.table.dealer) + 1) % len(roster)]
        return roster[0]

    async def _join(self, actor: Actor) -> tuple[Event, ...]:
        """A player comes to the table: their place among the tables they are at and their
        wallet's balance are written and read *outside* the table's lock, which is taken
        only to put them at the table. A join waits for the database (two commits) and,
        with the seamless wallet, for the player's operator: under the lock, each join of a
        crowd arriving together would hold up every other command of the table — the
        dealer's, other players' bets — and one slow operator would freeze it."""
        p = actor.player
        table_id = self.table.settings.table_id
        self.table.verify_join(p, balance=0)
        # The player's turn: no deposit or withdrawal moves their wallet between reading
        # it and the table taking it (refused at once: a deposit or withdrawal is quick,
        # and the player may simply join again); their place among the tables they are at
        # is written in the same commit.
        async with self._s.store.turn(p, entering=table_id, limit=self._s.settings.max_tables):

            async def join() -> None:
                self.table.join(p, balance=balance)

            try:
                balance = await self._s.bank.balance(p)
                return await self._locked(actor, join)
            except BaseException:
                # refused (or cut short) before the table took them: their place goes
                # back; no other join of theirs can be in between, their turn is held
                if p not in self.table.seats.participants:
                    await self._s.store.leave_table(p, table_id)
                raise

    def _round(self) -> str:
        game = self.table.game
        if game is None:  # pragma: no cover - verify_confirm needs a hand
            raise UnavailableError("no hand in progress")
        return str(game)

    def _staked(self, p: str, confirmation_id: str, wallet: int | None) -> None:
        """Note a stake ``p`` made on this round (once: a retried one is the same) and the
        wallet balance it left, when known."""
        # the ids in the order staked (a dict's keys): a player confirming many times in a
        # round is not looked through once per confirm
        self._confirmations.setdefault(p, {})[confirmation_id] = None
        if wallet is not None:
            self._wallets[p] = wallet

    def _confirmation_id(self, p: str, what: str) -> str:
        """A new idempotency key for one stake (a retry of the same call reuses it)."""
        return f"{what}:{self._round()}:{p}:{secrets.token_hex(6)}"

    async def _confirm(self, p: str, placed: Mapping[Bet, int] | None = None) -> tuple[Event, ...]:
        """[L] A confirm, outside the table's lock: staked in the ledger together with the
        confirms that arrive with it (one transaction; see :mod:`punto.server.money.confirms`)
        and only then confirmed on the table. Answered once its batch is durable. A
        seamless debit is made first, waiting for this player's operator only, and given
        back if the stake is refused. ``placed``: bets put down and confirmed at once
        (:meth:`punto.table.Table.confirm`).

        Every confirm is checked in its batch (:meth:`_check_batch`), against the table as
        it then is, and refused there with its typed error. It is checked on arrival as
        well only where money leaves the operator before the batch (the seamless debit:
        a confirm the table would refuse calls no operator), or when there is no hand to
        name; checked twice everywhere, the first check was 6 % of a confirm's work."""
        table = self.table
        bank = self._s.bank
        if bank.seamless or table.game is None:
            table.verify_confirm(p, placed)
        bets = dict(table.pending(p) if placed is None else placed)
        round_id = self._round()
        confirmation_id = self._confirmation_id(p, "confirm")
        amount = sum(bets.values())
        wallet = None
        if bank.seamless:
            wallet = await bank.debit(
                round_id, player=p, amount=amount, confirmation_id=confirmation_id
            )
        confirming = Confirming(
            round_id, Stake(p, bets, confirmation_id), wallet, placed=placed is not None
        )
        try:
            return await self._confirms.submit(p, confirming)
        except PuntoError as exc:
            if bank.seamless:
                await bank.undo_debit(
                    confirmation_id=confirmation_id, error=f"stake not recorded: {exc}"
                )
            raise

    async def _stake_batch(self, batch: list[Pending[Confirming, tuple[Event, ...]]]) -> None:
        """One batch of confirms: each is checked against the round in memory under the
        table's lock, at one instant of the table's clock; the good ones are staked in one
        ledger transaction with the lock let go — the table's next batch is checked
        meanwhile, and no command changes the table until this one is taken
        (:mod:`punto.server.money.tablelock`) — then confirmed on the table under the lock
        again, at the instant they were checked and in the order the batches were
        checked; each is answered with its own result or typed error."""
        players = [pending.key for pending in batch]
        async with self._lock.checking(players):
            with self._table_clock.held() as at:
                good = self._check_batch(batch)
            before, mine = self._checked_last, asyncio.get_running_loop().create_future()
            self._checked_last = mine
        try:
            answers = await self._write_batch(good) if good else None
            if before is not None and not before.done():
                await asyncio.wait([before])  # the batch checked before this one goes first
            if answers is not None:
                async with self._lock.taking():
                    with self._table_clock.held(at):
                        await self._take_batch(good, answers)
        finally:
            self._lock.taken(players)
            mine.set_result(None)

    def _check_batch(
        self, batch: list[Pending[Confirming, tuple[Event, ...]]]
    ) -> list[Pending[Confirming, tuple[Event, ...]]]:
        """The confirms of ``batch`` the table would take now; the others are answered
        with their typed error."""
        table = self.table
        good: list[Pending[Confirming, tuple[Event, ...]]] = []
        for pending in batch:
            c = pending.item
            try:
                self._verify_open()
                self._verify_money_settled()
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

    async def _write_batch(
        self, good: list[Pending[Confirming, tuple[Event, ...]]]
    ) -> list[int | PuntoError | None] | None:
        """The checked confirms' stakes, in one ledger transaction: each one's answer, or
        ``None`` when the write failed as a whole (every confirm is then answered)."""
        table = self.table
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

    async def _take_batch(
        self,
        good: list[Pending[Confirming, tuple[Event, ...]]],
        answers: list[int | PuntoError | None],
    ) -> None:
        """The staked confirms confirmed on the table (under its lock) and answered."""
        table = self.table
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
                # each batch once the one before it is on the table: confirm_depth); refused
                # all the same: the stake is cancelled and credited; the confirm's rollback
                # then finds the stake in the ledger and leaves the debit standing
                await self._s.bank.cancel(c.stake.confirmation_id)
                pending.future.set_exception(exc)
                continue
            self._staked(p, c.stake.confirmation_id, c.wallet if answer is None else answer)
            if not c.standing:
                self._s.metrics.bets_confirmed.inc(len(c.stake.bets))
            done.append((pending, event))
        try:
            await self._process()
        finally:
            for pending, confirmed in done:
                pending.future.set_result((confirmed,))

    async def _change_tie_bets(self, p: str, bets: Mapping[Bet, int]) -> None:
        """[M12]: the round's stakes of ``p`` are replaced by a stake of the new bets, in
        one ledger transaction (whole, or refused with nothing moved). With the operator's
        wallet no operator call is made here, under the table's lock: the old stakes go
        back in the ledger, the table takes the change with the player's bets waiting for
        the house's stake (``TableSettings.standing_awaits_stake``), and a task of the
        player's own credits the old stakes at the operator and then debits and stakes
        the new ones (a raise never needs the money twice); a slow operator delays only
        that player's bets, refused they go back to the player."""
        table = self.table
        table.verify_change_tie_bets(p, bets)
        new = {b: a for b, a in table.bets(p).items() if b not in MAIN_BETS} | {
            b: a for b, a in bets.items() if a
        }
        bank = self._s.bank
        game = self._round()
        stake = None
        if new and not bank.seamless:
            stake = Stake(p, new, self._confirmation_id(p, "tie"))
        started = time.perf_counter()
        cancels, wallet = await bank.change_stakes(
            game,
            table_id=table.settings.table_id,
            cancel=list(self._confirmations.get(p, {})),
            stake=stake,
        )
        self._s.metrics.confirm_seconds.observe(time.perf_counter() - started)
        self._confirmations.pop(p, None)
        if stake is not None:
            self._staked(p, stake.confirmation_id, wallet)
        table.change_tie_bets(p, bets)
        if bank.seamless:
            credits = tuple(posted.transaction for posted in cancels if not posted.replayed)
            self._restake_changed(p, game, credits, new)
