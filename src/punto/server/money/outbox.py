"""The durable wallet outbox: every seamless-wallet call that can leave money at the
operator (a confirm's debit, a rollback, a credit, a correction's debit) is written to
``server_wallet_outbox`` *before* it is made, and retried in the background, with growing
waits, until the operator answers.

- A confirm's debit is a ``stake`` row. If the operator does not answer (or the stake
  cannot be recorded after it), the row becomes a ``rollback`` and stays pending until the
  operator takes the rollback: the player's money never stays at the operator unknown to
  Punto. A ``stake`` row the process lost track of (it stopped mid-call) is settled by the
  ledger: a stake recorded there is debited again (a replay); else a tombstone takes the
  stake's key (a stake arriving after it is refused) and the debit is rolled back.
- Credits and debits a settlement, refund, cancel, void or correction owes are ``credit``
  and ``debit`` rows, keyed by the ledger transaction's id, sent until answered. One the
  process never wrote down (it stopped between the ledger's commit and the row) is found
  in the ledger and written then (:meth:`WalletOutbox.write_owed`, at start and by the
  retry loop).
- An answer ends a row: ``done``; ``refused`` (the operator refused a debit: nothing moved);
  ``failed`` (the operator refused a call Punto owes it: an operator must look).

:func:`reconcile` compares every row with what the operator holds (the punto dialect's
``GET /transactions/{id}``, the hub88 dialect's ``/transaction/info`` extension; a wallet
without a look-up leaves its rows unverified); ``punto ledger check --operator`` prints it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from punto.errors import IdempotencyConflictError, PuntoError, WalletError, WalletUnavailableError
from punto.ledger import model
from punto.ledger.store import LedgerStore
from punto.ledger.wallet import LookupUnsupportedError, Reconciles, Wallet, WalletReceipt
from punto.server.store.storage import (
    OUTBOX_DONE,
    OUTBOX_FAILED,
    OUTBOX_PENDING,
    OUTBOX_REFUSED,
    Outbox,
    ServerStore,
)

__all__ = ["Payment", "Reconciliation", "WalletOutbox", "reconcile"]

_LOG = logging.getLogger("punto.server.money.outbox")


@dataclass(frozen=True, slots=True)
class Payment:
    """A credit (``amount`` > 0) or debit (< 0) of a player's operator wallet."""

    player: str
    amount: int
    transaction_id: str
    round_id: str | None = None
    currency: str | None = None
    """ISO 4217 (``None``: the house currency)."""


class WalletOutbox:
    """Wallet calls written down first and retried until answered.

    ``hold`` is how long a call in flight is left alone by the retry loop (longer than a
    wallet call with all its retries); after the n-th unanswered attempt the next comes
    ``base_delay × 2ⁿ⁻¹`` seconds later, at most ``max_delay``.
    """

    def __init__(
        self,
        store: ServerStore,
        wallet: Wallet,
        ledger: LedgerStore,
        *,
        base_delay: float = 1.0,
        max_delay: float = 60.0,
        hold: float = 60.0,
        clock: Callable[[], float] = time.time,
        currency: str = "EUR",
    ) -> None:
        self._currency = currency
        """The house currency: what a call of no currency of its own is in."""
        self._store = store
        self._wallet = wallet
        self._ledger = ledger
        self._base = base_delay
        self._max = max_delay
        self._hold = hold
        self._clock = clock
        self._swept: int | None = None
        """The ledger's transactions up to this sequence number were looked at by
        :meth:`write_owed` (read from the database at its first call)."""
        self._in_flight: set[str] = set()
        """Confirms' debits this process made whose stake is still on its way to the
        ledger: the retry loop leaves them to it, however long they take."""

    @property
    def hold(self) -> float:
        """Seconds a call in flight is left alone by the retry loop."""
        return self._hold

    def delay(self, attempts: int) -> float:
        """Seconds before the next attempt after ``attempts`` unanswered ones.

        >>> outbox = WalletOutbox.__new__(WalletOutbox)
        >>> outbox._base, outbox._max = 1.0, 60.0
        >>> [outbox.delay(n) for n in (1, 2, 3, 8)]
        [1.0, 2.0, 4.0, 60.0]
        """
        return float(min(self._max, self._base * 2 ** max(0, attempts - 1)))

    # -- the calls ------------------------------------------------------------------

    async def stake(
        self,
        player: str,
        amount: int,
        *,
        transaction_id: str,
        round_id: str | None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """A confirm's debit, written down first. When the operator does not answer, the
        debit is rolled back (now, or later by the retry loop) and
        :class:`WalletUnavailableError` raised; a refusal is raised as it is."""
        row = Outbox(0, transaction_id, player, amount, "stake", round_id, currency=currency)
        self._in_flight.add(transaction_id)
        await self._store.outbox_add([row], hold=self._hold)
        try:
            return await self._wallet.debit(
                player,
                amount,
                transaction_id=transaction_id,
                round_id=round_id,
                currency=currency,
            )
        except WalletUnavailableError as exc:
            await self.roll_back(transaction_id, error=str(exc))
            raise
        except PuntoError as exc:
            self._in_flight.discard(transaction_id)
            await self._store.outbox_update(transaction_id, state=OUTBOX_REFUSED, error=str(exc))
            raise

    async def staked(self, transaction_id: str) -> None:
        """The confirm's stake is in the ledger: its debit is done."""
        self._in_flight.discard(transaction_id)
        await self._store.outbox_update(transaction_id, state=OUTBOX_DONE, attempted=False)

    async def roll_back(self, transaction_id: str, *, error: str | None = None) -> None:
        """Give back a confirm's debit whose stake is not in the ledger: first a tombstone
        takes the stake's key there (a stake still on its way is refused), then the debit
        turns into its rollback, tried once now (the retry loop keeps trying until the
        operator answers). A debit whose stake the ledger holds stands — that stake's
        money comes back through the ledger (its cancel's credit, a refund), never twice —
        and its row is done."""
        self._in_flight.discard(transaction_id)
        item = await self._store.outbox_item(transaction_id)
        if item is not None and item.kind == "stake" and not await self._tombstoned(item):
            await self._store.outbox_update(transaction_id, state=OUTBOX_DONE, attempted=False)
            return
        await self._rollback_now(transaction_id, error)

    async def _rollback_now(self, transaction_id: str, error: str | None) -> None:
        await self._store.outbox_update(
            transaction_id, state=OUTBOX_PENDING, kind="rollback", error=error, attempted=False
        )
        item = await self._store.outbox_item(transaction_id)
        if item is not None:
            await self._attempt(item)

    async def pay(self, payments: Sequence[Payment]) -> None:
        """Credits and debits owed to players: written down, then sent."""
        rows = [
            Outbox(
                0,
                p.transaction_id,
                p.player,
                abs(p.amount),
                "credit" if p.amount > 0 else "debit",
                p.round_id,
                currency=p.currency,
            )
            for p in payments
            if p.amount
        ]
        if not rows:
            return
        await self._store.outbox_add(rows, hold=self._hold)
        for row in rows:
            await self._attempt(row)

    async def write_owed(self, *, upto: int | None = None, advance: bool = True) -> int:
        """Write down and send every wallet call the ledger owes a player that the outbox
        never wrote down — a credit (or a correction's debit) whose process stopped
        between the ledger's commit and the outbox's row — among the ledger's
        transactions after the last ones looked at (noted in the database, for every
        process), up to sequence number ``upto`` (default: all). With ``advance`` those
        are noted as looked at: only for an ``upto`` every transaction up to which has
        committed (the retry loop's, after the outbox's hold). Idempotent: the operator
        takes each call once by its id, and a row written meanwhile by the process that
        owes it is left as it is. Returns how many were found."""
        if self._swept is None:
            self._swept = await self._store.outbox_swept()
        after = self._swept
        found = 0
        while True:
            owed = await self._store.wallet_calls_unwritten(after=after, upto=upto)
            if not owed:
                break
            for call in owed:
                _LOG.warning(
                    "a wallet call the ledger owes was never written down: writing it now",
                    extra={
                        "transaction": call.transaction_id,
                        "kind": call.kind,
                        "player": call.player_id,
                        "amount": call.amount,
                    },
                )
            await self.pay(
                [
                    Payment(
                        c.player_id,
                        c.amount,
                        c.transaction_id,
                        c.round_id,
                        c.book or self._currency,
                    )
                    for c in owed
                ]
            )
            found += len(owed)
            after = owed[-1].seq
        if advance and upto is not None and upto > self._swept:
            self._swept = upto
            await self._store.outbox_swept_to(upto)
        return found

    async def deliver(self) -> int:
        """Send every pending call whose time has come; how many the operator answered."""
        answered = 0
        due = await self._store.outbox_due(now=self._clock(), hold=self._hold)
        for item in due:
            if item.kind == "stake" and item.transaction_id in self._in_flight:
                continue  # this process's confirm, still on its way to the ledger
            if await self._attempt(item):
                answered += 1
        return answered

    async def pending(self) -> list[Outbox]:
        """Calls not answered yet."""
        return await self._store.outbox_items(states=[OUTBOX_PENDING])

    # -- one attempt ----------------------------------------------------------------

    async def _attempt(self, item: Outbox) -> bool:
        """Make the call once; ``True`` when the operator answered (the row is closed)."""
        kind = item.kind
        if kind == "stake":
            # A confirm whose process lost track of it: the ledger decides, once for all
            if await self._tombstoned(item):
                await self._rollback_now(item.transaction_id, "the stake was never recorded")
                return True
            kind = "debit"
        wallet = self._wallet
        currency = item.currency  # None: the wallet's own (the player's launch currency)
        try:
            if kind == "rollback":
                await wallet.rollback(
                    item.transaction_id,
                    player_id=item.player_id,
                    amount=item.amount,
                    currency=currency,
                )
            elif kind == "credit":
                await wallet.credit(
                    item.player_id,
                    item.amount,
                    transaction_id=item.transaction_id,
                    round_id=item.round_id,
                    currency=currency,
                )
            else:
                await wallet.debit(
                    item.player_id,
                    item.amount,
                    transaction_id=item.transaction_id,
                    round_id=item.round_id,
                    currency=currency,
                )
        except WalletUnavailableError as exc:
            return await self._later(item, str(exc))
        except (WalletError, PuntoError) as exc:
            _LOG.warning(
                "the operator refused a wallet call",
                extra={"transaction": item.transaction_id, "kind": kind, "error": str(exc)},
            )
            await self._store.outbox_update(
                item.transaction_id, state=OUTBOX_FAILED, error=str(exc)
            )
            return True
        except Exception as exc:  # an unexpected transport problem: keep trying
            return await self._later(item, f"{type(exc).__name__}: {exc}")
        await self._store.outbox_update(item.transaction_id, state=OUTBOX_DONE)
        return True

    async def _tombstoned(self, item: Outbox) -> bool:
        """Post a tombstone under the stake key of a confirm's debit; whether it took the
        key — the stake is not in the ledger, and now never will be (a stake still on its
        way, its process stalled or elsewhere, is refused, and its debit rolled back by its
        own process too) — or the ledger holds the stake. A debit is so never rolled back
        under a stake recorded after."""
        key = f"stake:{item.transaction_id}"
        try:
            await self._ledger.post(model.tombstone(key, player_id=item.player_id))
        except IdempotencyConflictError:
            return False  # the key holds the stake
        return True

    async def _later(self, item: Outbox, error: str) -> bool:
        _LOG.warning(
            "wallet call pending",
            extra={"transaction": item.transaction_id, "kind": item.kind, "error": error},
        )
        when = self._clock() + self.delay(item.attempts + 1)
        await self._store.outbox_update(
            item.transaction_id, state=OUTBOX_PENDING, error=error, next_attempt_at=when
        )
        return False


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """What :func:`reconcile` found: ``checked`` calls, and every ``problem`` (a call not
    answered yet, refused, or one the operator holds differently); ``unverified``: the
    answered calls whose operator's wallet has no look-up (only Punto's side checked)."""

    checked: int
    problems: tuple[str, ...]
    unverified: int = 0

    @property
    def ok(self) -> bool:
        """Nothing pending and the operator agrees with every call."""
        return not self.problems


async def reconcile(store: ServerStore, operator: Reconciles) -> Reconciliation:
    """Compare every wallet call Punto wrote down with what the operator holds (asked of
    the wallet of the call's player: a routing wallet asks each operator its own), and
    every operator-funded stake in the ledger with a debit the operator took."""
    problems: list[str] = []
    unverified = 0
    items = await store.outbox_items()
    for item in items:
        what = f"{item.kind} {item.transaction_id} of {item.amount} for {item.player_id}"
        if item.state == OUTBOX_PENDING:
            problems.append(
                f"pending: {what} ({item.attempts} attempts; last error: {item.last_error})"
            )
            continue
        if item.state == OUTBOX_FAILED:
            problems.append(f"refused by the operator: {what} ({item.last_error})")
            continue
        try:
            held = await operator.transaction(item.transaction_id, player_id=item.player_id)
        except LookupUnsupportedError:
            unverified += 1
            continue
        if item.kind == "rollback" or item.state == OUTBOX_REFUSED:
            if held is not None and held.kind == "debit" and held.status == "ok":
                problems.append(f"disagrees: {what}: the operator still holds the debit")
            continue
        wanted = "credit" if item.kind == "credit" else "debit"
        if held is None:
            problems.append(f"disagrees: {what}: the operator has no record of it")
        elif (held.kind, held.player_id, held.amount, held.status) != (
            wanted,
            item.player_id,
            item.amount,
            "ok",
        ):
            problems.append(
                f"disagrees: {what}: the operator holds a {held.kind} of {held.amount} "
                f"for {held.player_id} ({held.status})"
            )
    for confirmation, player, amount in await store.stakes_not_debited():
        problems.append(
            f"disagrees: the ledger holds a stake {confirmation} of {amount} for {player} "
            "funded by the operator, whose debit was never taken (or was rolled back)"
        )
    for call in await store.wallet_calls_unwritten():
        what = "credit" if call.amount > 0 else "debit"
        problems.append(
            f"not written down: the ledger's {call.kind} {call.transaction_id} owes "
            f"{call.player_id} a {what} of {abs(call.amount)} that no wallet call holds"
        )
    return Reconciliation(len(items), tuple(problems), unverified)
