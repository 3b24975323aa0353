"""The money side of a table: every stake, settlement, refund, void and correction goes
through the ledger, and through the operator's wallet in seamless mode.

- **internal** wallet: the player's money is the ledger's ``player:<id>`` account; a
  stake moves it to the round's escrow, the settlement pays it back.
- **seamless** wallet: the operator is debited before the stake is recorded (funded by
  the ``operator`` account) and credited with what the settlement returns. Every operator
  call goes through the durable outbox (:mod:`punto.server.money.outbox`): written down first,
  retried until the operator answers; a debit whose outcome is unknown is rolled back.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from punto.bets import Bet
from punto.codec import hand_facts_from_json, hand_facts_json
from punto.errors import PuntoError
from punto.ledger.model import (
    WALLET_CALL_KINDS,
    Account,
    Transaction,
    TransactionKind,
    settle_players,
)
from punto.ledger.store import (
    ConfirmRequest,
    LedgerStore,
    Posted,
    Recovery,
    RoundInfo,
    RoundStatus,
)
from punto.ledger.wallet import Wallet
from punto.multipliers import LightningDraw
from punto.outcome import Outcome
from punto.rules import Rules
from punto.server.fanout.protocol import outcome_from_json, outcome_json
from punto.server.money.groupcommit import GroupCommit
from punto.server.money.outbox import Payment, WalletOutbox
from punto.server.operators.model import operator_of
from punto.server.store.storage import ServerStore
from punto.settlement import Settlement
from punto.table.reasons import Reason
from punto.table.records import GameNumber, HandFacts, HandRecord, recovered_record

__all__ = ["LOST_RECORDS", "Bank", "Settled", "Stake"]

_LOG = logging.getLogger("punto.server.money.bank")

LOST_RECORDS = 50
"""How many of a table's latest rounds a process starting the table looks at for hand
records its stopped predecessor owed (it stops with at most the round it was settling and
those it left open; a restart saves them before the table deals again)."""

SPARE_FROM = 20
"""Confirms waiting from which a second ledger write starts while one is under way: a
transaction costs about as much of the server's CPU as this many confirms in it."""


@dataclass(frozen=True, slots=True)
class Settled:
    """A round's settlement (:meth:`Bank.settle`): the posted transactions and the internal
    wallet balances they left, by player (the balance messages need no query)."""

    posted: tuple[Transaction, ...]
    wallets: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Stake:
    """One confirm's stakes in a group commit (:meth:`Bank.stake_many`), in the player's
    ``currency`` (``None``: the house currency)."""

    player: str
    bets: Mapping[Bet, int]
    confirmation_id: str
    currency: str | None = None
    fee: int = 0
    """[LB] A multiplier table's fee on ``bets``, to the table's house account."""


class Bank:
    """Stakes, settlements and corrections of every table of this process."""

    def __init__(
        self,
        ledger: LedgerStore,
        wallet: Wallet,
        store: ServerStore,
        *,
        seamless: bool,
        operator_id: str,
        currency: str = "EUR",
        currency_of_player: Callable[[str], Awaitable[str | None]] | None = None,
        outbox: WalletOutbox | None = None,
        commit_size: int = 500,
        commit_writers: int = 1,
        commit_spare_from: int = SPARE_FROM,
    ) -> None:
        self.ledger = ledger
        self.wallet = wallet
        self._store = store
        self.outbox = outbox or WalletOutbox(store, wallet, ledger)
        """Every seamless-wallet call, written down and retried until answered."""
        self.seamless = seamless
        self.currency = currency
        """The house currency: its money is in the ledger's unqualified accounts; every
        other currency is a book of its own (:meth:`book`)."""
        self._operator_id = operator_id
        self._operator = Account.operator(operator_id)
        self._currency_of_player = currency_of_player
        """A launched player's currency, for a balance asked without one."""
        self._open: set[str] = set()
        self.commits: GroupCommit[ConfirmRequest, Posted | PuntoError] = GroupCommit(
            self.ledger.confirm_many,
            size=commit_size,
            writers=commit_writers,
            spare_from=commit_spare_from,
            hold=self._confirm_writer,
        )
        """The confirms of all tables that arrive together, in one ledger transaction
        (``commit_writers`` such transactions under way at once), each writer on a
        connection it keeps while batches wait for it."""
        self._opening: dict[str, tuple[str, HandFacts]] = {}
        """Each table's latest hand and what its record knows from the opening of its
        betting (:meth:`opening`), until its first stake opens it in the ledger."""

    @contextlib.asynccontextmanager
    async def _confirm_writer(
        self,
    ) -> AsyncIterator[Callable[[list[ConfirmRequest]], Awaitable[list[Posted | PuntoError]]]]:
        """A group-commit writer's ledger writes, on a connection kept from one to the
        next (:meth:`LedgerStore.kept_connection`)."""
        async with self.ledger.kept_connection() as kept:

            async def write(requests: list[ConfirmRequest]) -> list[Posted | PuntoError]:
                return await self.ledger.confirm_many(requests, kept=kept)

            yield write

    @property
    def funding(self) -> Account | None:
        """Where the house currency's stakes come from: the player's ledger account
        (``None``) or the operator."""
        return self._operator if self.seamless else None

    def book(self, currency: str | None) -> str:
        """The ledger book of ``currency``: ``""`` for the house currency, else its code."""
        return "" if currency is None or currency == self.currency else currency

    def currency_of(self, book: str) -> str:
        """The ISO 4217 code of a ledger book."""
        return book or self.currency

    def funding_of(self, player: str, currency: str | None = None) -> Account | None:
        """Where ``player``'s stakes in ``currency`` come from: their wallet in its book
        (``None`` for the house currency's), or in seamless mode their operator's
        account in that book."""
        book = self.book(currency)
        if self.seamless:
            operator = operator_of(player) or self._operator_id
            if not book and operator == self._operator_id:
                return self._operator
            return Account.operator(operator, book)
        return Account.player(player, book) if book else None

    def wallet_account(self, player: str, currency: str | None = None) -> Account:
        """``player``'s wallet in the ledger (the internal wallet) in ``currency``."""
        return Account.player(player, self.book(currency))

    async def _currency(self, player: str, currency: str | None) -> str | None:
        if currency is None and self._currency_of_player is not None and operator_of(player):
            return await self._currency_of_player(player)
        return currency

    async def balance(self, player: str, currency: str | None = None) -> int:
        """The player's wallet balance in ``currency`` (default: a launched player's
        currency, else the house currency)."""
        currency = await self._currency(player, currency)
        if currency is None or currency == self.currency:
            return await self.wallet.balance(player)
        return await self.wallet.balance(player, currency=currency)

    async def balances(
        self, players: Iterable[str], currencies: Mapping[str, str] | None = None
    ) -> dict[str, int]:
        """Several wallet balances, each in the player's currency of ``currencies``
        (default the house currency; one query with the internal wallet)."""
        wanted = sorted(set(players))
        if not wanted:
            return {}
        of = dict(currencies or {})
        for p in wanted:
            if p not in of and operator_of(p):
                found = await self._currency(p, None)
                if found is not None:
                    of[p] = found
        if self.seamless:
            return {p: await self.balance(p, of.get(p)) for p in wanted}
        codes = {p: self.wallet_account(p, of.get(p)).code for p in wanted}
        kept = await self._store.account_balances(list(codes.values()))
        return {p: kept.get(code, 0) for p, code in codes.items()}

    def round_open(self, round_id: str) -> bool:
        """Whether this process opened the round in the ledger (it holds stakes)."""
        return round_id in self._open

    async def debit(
        self,
        round_id: str,
        *,
        player: str,
        amount: int,
        confirmation_id: str,
        currency: str | None = None,
    ) -> int:
        """A seamless confirm's debit at the operator, made before the stake and never
        under a table's lock (a slow operator delays only this player), through the
        outbox: written down first, rolled back when the operator does not answer (the
        typed error is raised). Returns the wallet balance after it."""
        receipt = await self.outbox.stake(
            player,
            amount,
            transaction_id=confirmation_id,
            round_id=round_id,
            currency=self.currency_of(self.book(currency)),
        )
        return receipt.balance

    async def undo_debit(self, *, confirmation_id: str, error: str) -> None:
        """Give back a seamless debit whose stake the ledger or the table refused (the
        outbox retries the rollback until the operator answers)."""
        await self.outbox.roll_back(confirmation_id, error=error)

    def opening(self, table_id: str, round_id: str, facts: HandFacts) -> None:
        """Betting opened on the table's hand ``round_id``: what its record knows then (the
        dealer, the time) is kept with the round when its first stake opens it in the
        ledger, so that a record rebuilt after a crash before the coup was complete
        (:meth:`lost_records`) still names the dealer and places the hand in the table's
        video. :meth:`record_result` replaces them with the full facts."""
        self._opening[table_id] = (round_id, facts)

    async def _open_round(self, round_id: str, table_id: str) -> None:
        """The round opened in the ledger (once), with its opening's facts if known."""
        if round_id in self._open:
            return
        noted = self._opening.get(table_id)
        kept = None
        if noted is not None and noted[0] == round_id:
            kept = {"facts": hand_facts_json(noted[1])}
        await self.ledger.open_round(round_id, table_id=table_id, result=kept)
        self._open.add(round_id)

    async def stake_many(
        self, round_id: str, *, table_id: str, stakes: Sequence[Stake]
    ) -> list[int | PuntoError | None]:
        """Group commit of confirms (seamless debits made before): every stake moved to
        the round's escrow in one ledger transaction. Each answer, in order, is the
        player's wallet balance after it (``None``: not known here) or the typed error
        that refused it alone. A database failure raises for the whole batch."""
        await self._open_round(round_id, table_id)
        requests = [
            ConfirmRequest(
                round_id,
                s.player,
                s.bets,
                s.confirmation_id,
                self.funding if s.currency is None else self.funding_of(s.player, s.currency),
                fee=s.fee,
                house=Account.house(table_id, self.book(s.currency)) if s.fee else None,
            )
            for s in stakes
        ]
        answers: list[int | PuntoError | None] = []
        for stake, posted in zip(stakes, await self.commits.write(requests), strict=True):
            if isinstance(posted, PuntoError):
                answers.append(posted)
            elif self.seamless:
                await self.outbox.staked(stake.confirmation_id)
                answers.append(None)
            else:
                code = self.wallet_account(stake.player, stake.currency).code
                answers.append(posted.balances.get(code))
        return answers

    async def change_stakes(
        self,
        round_id: str,
        *,
        table_id: str,
        cancel: Sequence[str],
        stake: Stake | None,
    ) -> tuple[tuple[Posted, ...], int | None]:
        """A player's change of their stakes on a round [M12], in one ledger transaction:
        the confirms ``cancel`` given back to what funded them and, with ``stake``, the
        new bets staked (internal wallet: a seamless stake waits for its operator debit,
        made outside the table's lock). Returns the cancels and, internally, the player's
        wallet balance after it; raises the typed error with nothing moved. The seamless
        wallet's credits of the cancels are the caller's to make (:meth:`pay_out`)."""
        if stake is not None and self.seamless:
            raise ValueError("a seamless stake needs its operator debit first: stake_many")
        if stake is not None:
            await self._open_round(round_id, table_id)
        request = (
            None
            if stake is None
            else ConfirmRequest(
                round_id,
                stake.player,
                stake.bets,
                stake.confirmation_id,
                self.funding_of(stake.player, stake.currency),
            )
        )
        cancels, staked = await self.ledger.change_stakes(
            cancel, reason=Reason.STANDING_CHANGED.value, stake=request
        )
        wallet = None
        if staked is not None and stake is not None:
            wallet = staked.balances.get(self.wallet_account(stake.player, stake.currency).code)
        return cancels, wallet

    async def cancel(self, confirmation_id: str) -> None:
        """Undo a confirm the table refused after its stake: the stakes go back (and the
        seamless wallet is credited them)."""
        posted = await self.cancel_stake(confirmation_id, reason=Reason.STANDING_CHANGED.value)
        if not posted.replayed:
            await self._pay_out((posted.transaction,), posted.transaction.round_id)

    async def cancel_stake(self, confirmation_id: str, *, reason: str) -> Posted:
        """:meth:`cancel` without the seamless wallet's credit (the caller makes it with
        :meth:`pay_out`, outside the table's lock): the posted reversal, ``replayed`` when
        it had been posted before."""
        return await self.ledger.cancel_confirmation(confirmation_id, reason=reason)

    async def record_result(
        self,
        round_id: str,
        outcome: Outcome,
        *,
        rules: str,
        facts: HandFacts | None = None,
        lightning: LightningDraw | None = None,
    ) -> None:
        """Keep the round's outcome so a restart can settle it, and the ``facts`` of its
        record that the ledger does not hold (the dealer, the card times, who held the
        cards), so a record rebuilt after a crash has them (:meth:`lost_records`);
        without them (they could not be read), those of its opening (:meth:`opening`)."""
        if round_id in self._open:
            if facts is None:
                facts = next((f for r, f in self._opening.values() if r == round_id), None)
            kept: dict[str, object] = {"outcome": outcome_json(outcome), "rules": rules}
            if lightning is not None:  # a restart settles it multiplied [LB]
                kept["lightning"] = lightning.as_text()
            if facts is not None:
                kept["facts"] = hand_facts_json(facts)
            await self.ledger.record_result(round_id, kept)

    async def settle(
        self,
        round_id: str,
        *,
        rules: Rules,
        outcome: Outcome,
        pay: bool = True,
        lightning: LightningDraw | None = None,
    ) -> Settled:
        """Settle the round from the ledger's own bets (the table's exact settlement), in
        one ledger transaction; the posted settlements and, with the internal wallet, the
        balances they left. ``pay=False``: the seamless wallet's credits are left to the
        caller (:meth:`pay_out`), who makes them outside the table's lock."""
        if round_id not in self._open:
            return Settled((), {})
        balances: dict[str, int] = {}
        posted = await self.ledger.settle_round(
            round_id,
            lambda bets: settle_players(rules, outcome, bets, lightning=lightning),
            balances=balances,
        )
        wallets: dict[str, int] = {}
        if not self.seamless:
            for tx in posted:
                if tx.player_id is not None:
                    code = Account.player(tx.player_id, tx.currency).code
                    if code in balances:
                        wallets[tx.player_id] = balances[code]
        self._open.discard(round_id)
        if pay:
            await self._pay_out(posted, round_id)
        return Settled(posted, wallets)

    async def void(self, round_id: str, *, author: str, reason: str) -> dict[str, int]:
        """Void the round (refunds if open; a void of a settled round moves the
        difference); what moved to each player."""
        posted = await self.void_round(round_id, author=author, reason=reason)
        return await self._pay_out(posted, round_id)

    async def void_round(
        self, round_id: str, *, author: str, reason: str
    ) -> tuple[Transaction, ...]:
        """:meth:`void` without the seamless wallet's calls (the caller makes them with
        :meth:`pay_out`, outside the table's lock)."""
        posted = await self.ledger.void_round(round_id, author=author, reason=reason)
        self._open.discard(round_id)
        return posted

    async def pay_out(self, transactions: Iterable[Transaction], round_id: str) -> None:
        """The seamless wallet's credits (and debits) of posted transactions; a call the
        operator does not take now is queued and retried (nothing to do internally)."""
        await self._pay_out(transactions, round_id)

    async def correct(
        self,
        round_id: str,
        settlements: Mapping[str, Settlement],
        *,
        correction_id: str,
        author: str,
        reason: str,
    ) -> tuple[dict[str, int], tuple[Transaction, ...]]:
        """Re-settle a settled round: the differences only, as new transactions."""
        posted = await self.ledger.correct_round(
            round_id, settlements, correction_id=correction_id, author=author, reason=reason
        )
        return await self._pay_out(posted, round_id), posted

    async def round_bets(self, round_id: str) -> dict[str, dict[Bet, int]]:
        """The round's confirmed bets by player."""
        return {p: dict(b.bets) for p, b in (await self.ledger.round_bets(round_id)).items()}

    async def round(self, round_id: str) -> RoundInfo | None:
        """The ledger's round, if any."""
        try:
            return await self.ledger.round(round_id)
        except PuntoError:
            return None

    async def recover(self, table_id: str, *, rules: Rules) -> Recovery:
        """Close the table's rounds a stopped process left open: settle those with a
        recorded result, void and refund the rest. With the operator's wallet, the
        settlements' and refunds' credits are made (a call of the round owed from before,
        a cancel's credit never written down, is :meth:`WalletOutbox.write_owed`'s)."""

        def resume(
            info: RoundInfo, bets: Mapping[str, Mapping[Bet, int]]
        ) -> Mapping[str, Settlement] | None:
            outcome = _recorded_outcome(info)
            if outcome is None:
                return None
            return settle_players(rules, outcome, bets, lightning=_recorded_lightning(info))

        recovery = await self.ledger.recover(resume=resume, table_id=table_id)
        if self.seamless:  # what the recovery posted; a call owed before it is the sweep's
            closing = (TransactionKind.SETTLE, TransactionKind.REFUND)
            for round_id in (*recovery.settled, *recovery.voided):
                posted = await self.ledger.transactions(round_id=round_id)
                await self._pay_out((tx for tx in posted if tx.kind in closing), round_id)
        return recovery

    async def lost_records(
        self, table_id: str, *, rules: Rules, latest: int = LOST_RECORDS
    ) -> list[tuple[RoundInfo, HandRecord]]:
        """The hand records a stopped process owed of the table's ``latest`` rounds: a
        round the ledger closed (settled before the stop, or closed by :meth:`recover`)
        with no saved record, its record rebuilt from the ledger
        (:func:`~punto.table.records.recovered_record`): the result, every player's bets
        and settlement, or the void and its refunds, and the dealer, the card times and
        who held the cards as kept with the result (:meth:`record_result`) [L]."""
        rounds = await self.ledger.rounds(table_id=table_id, latest=latest)
        closed = [r for r in rounds if r.status is not RoundStatus.OPEN]
        saved = await self._store.saved_hands([r.id for r in closed])
        lost: list[tuple[RoundInfo, HandRecord]] = []
        for info in closed:
            if info.id in saved:
                continue
            outcome = _recorded_outcome(info)
            bets = await self.round_bets(info.id)
            settlements = None
            if info.status is RoundStatus.SETTLED:
                if outcome is None:  # (never: a settlement records its result)
                    continue
                settlements = settle_players(
                    rules, outcome, bets, lightning=_recorded_lightning(info)
                )
            opened = info.opened_at.timestamp() if info.opened_at else 0.0
            closed_at = info.closed_at.timestamp() if info.closed_at else opened
            record = recovered_record(
                GameNumber.parse(info.id),
                opened_at=opened,
                closed_at=closed_at,
                outcome=outcome,
                bets=bets,
                settlements=settlements,
                facts=_kept_facts(info),
            )
            lost.append((info, record))
        return lost

    def moved(self, transactions: Iterable[Transaction]) -> dict[str, int]:
        """What ``transactions`` moved to (+) or from (−) each player's money: the wallet
        (and what a correction left owing) internally, the operator's side seamlessly."""
        moved: dict[str, int] = {}
        for tx in transactions:
            if tx.player_id is None:
                continue
            book = tx.currency
            if self.seamless:
                amount = tx.amount_of(self._operator_account(tx.player_id, book))
            else:
                amount = tx.amount_of(Account.player(tx.player_id, book)) + tx.amount_of(
                    Account.receivable(tx.player_id, book)
                )
            moved[tx.player_id] = moved.get(tx.player_id, 0) + amount
        return moved

    async def amendments(self, round_id: str) -> dict[str, int]:
        """What every correction and void of a round moved, by player."""
        kinds = (TransactionKind.CORRECTION, TransactionKind.VOID)
        txs = await self.ledger.transactions(round_id=round_id)
        return self.moved(tx for tx in txs if tx.kind in kinds)

    async def _pay_out(
        self, transactions: Iterable[Transaction], round_id: str | None
    ) -> dict[str, int]:
        transactions = tuple(transactions)
        if self.seamless:  # a stake's debit is its confirm's own call, made before it
            await self.outbox.pay(
                [
                    Payment(
                        tx.player_id,
                        tx.amount_of(self._operator_account(tx.player_id, tx.currency)),
                        tx.id,
                        round_id,
                        self.currency_of(tx.currency),
                    )
                    for tx in transactions
                    if tx.player_id is not None and tx.kind in WALLET_CALL_KINDS
                ]
            )
        return self.moved(transactions)

    def _operator_account(self, player: str, book: str) -> Account:
        """The operator account that funds ``player``'s stakes in ``book`` (seamless)."""
        funding = self.funding_of(player, self.currency_of(book))
        assert funding is not None
        return funding

    async def status(self, round_id: str) -> RoundStatus | None:
        """The round's status in the ledger."""
        info = await self.round(round_id)
        return None if info is None else info.status


def _kept_facts(info: RoundInfo) -> HandFacts | None:
    """The record's facts kept with the round's result (:meth:`Bank.record_result`), if
    any; facts that cannot be read are left out (the record has its money without
    them), never a reason not to open the table."""
    kept = (info.result or {}).get("facts")
    if kept is None:
        return None
    try:
        return hand_facts_from_json(kept)
    except PuntoError:
        _LOG.warning("hand facts kept with the result unreadable", extra={"round": info.id})
        return None


def _recorded_outcome(info: RoundInfo) -> Outcome | None:
    """The coup's outcome the ledger recorded for the round, if any."""
    if not info.result or "outcome" not in info.result:
        return None
    return outcome_from_json(info.result["outcome"])


def _recorded_lightning(info: RoundInfo) -> LightningDraw | None:
    """The hand's lightning cards kept with its result (:meth:`Bank.record_result`) [LB]."""
    kept = (info.result or {}).get("lightning")
    return None if kept is None else LightningDraw.parse(str(kept))
