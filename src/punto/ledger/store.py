"""The ledger store: transactions kept in SQLite or PostgreSQL through SQLAlchemy (async).

Every method is one database transaction: it commits whole or not at all, so a crash at
any point leaves no half-posted transaction and no half-settled round. Postings are
idempotent by their unique idempotency key: a replay of the same transaction returns the
one already posted; the same key with a different content is refused.

On SQLite every unit of work starts with ``BEGIN IMMEDIATE`` (writers queue); on
PostgreSQL a round's row is locked (``SELECT … FOR UPDATE``) while its money moves, and
balances are updated in one fixed order of accounts so concurrent postings cannot
deadlock. The schema comes from :func:`punto.ledger.migrate.upgrade`.

:class:`LedgerStore` is the one public face; each method hands a unit of work of its
concept's module to :func:`~punto.ledger.engine.run_unit`:

- :mod:`punto.ledger.engine` — the URL, the engine, a kept connection, the retry of a unit;
- :mod:`punto.ledger.records` — what the store answers (rounds, postings, reports);
- :mod:`punto.ledger.rows` — the tables' rows read back as the model's objects;
- :mod:`punto.ledger.posting` — locking accounts, checking funds, posting in bulk;
- :mod:`punto.ledger.confirms` — the group commit of confirms and their cancels;
- :mod:`punto.ledger.rounds` — a round's settlement, void and correction;
- :mod:`punto.ledger.audit` — the books check;
- :mod:`punto.ledger.driver` — statements on PostgreSQL's driver itself, bulk inserts.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from punto.bets import Bet
from punto.errors import LedgerError, PuntoError
from punto.ledger import audit, confirms, model, rounds, rows
from punto.ledger.engine import (
    DEFAULT_DATABASE_URL,
    DEFAULT_POOL,
    KeptConnection,
    create_engine,
    database_url,
    reach,
    run_snapshot,
    run_unit,
)
from punto.ledger.model import Account, Transaction
from punto.ledger.posting import post_all
from punto.ledger.records import (
    CheckReport,
    ConfirmRequest,
    PlayerBets,
    Posted,
    Recovery,
    ResumeRound,
    RoundInfo,
    RoundStatus,
)
from punto.ledger.rounds import Settlements
from punto.settlement import Settlement

__all__ = [
    "DEFAULT_DATABASE_URL",
    "DEFAULT_POOL",
    "CheckReport",
    "ConfirmRequest",
    "KeptConnection",
    "LedgerStore",
    "PlayerBets",
    "Posted",
    "Recovery",
    "ResumeRound",
    "RoundInfo",
    "RoundStatus",
    "create_engine",
    "database_url",
    "reach",
]

_T = TypeVar("_T")


class LedgerStore:
    """The ledger's transactions, accounts and rounds in one database.

    Create with :meth:`open` (a URL) or from an engine; use as an async context manager
    or call :meth:`close`.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    @classmethod
    def open(cls, url: str | None = None) -> LedgerStore:
        """A store on :func:`database_url` ``(url)`` (migrate it first)."""
        return cls(create_engine(url))

    @property
    def engine(self) -> AsyncEngine:
        """The store's engine."""
        return self._engine

    async def close(self) -> None:
        """Close the engine's connections."""
        await self._engine.dispose()

    async def __aenter__(self) -> LedgerStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @contextlib.asynccontextmanager
    async def kept_connection(self) -> AsyncIterator[KeptConnection | None]:
        """A connection of the pool kept from one unit of work to the next, for a writer
        that makes many in a row (:meth:`confirm_many`'s ``kept``); given back to the pool
        on leaving. ``None`` on SQLite, whose engine has one connection: kept, it would
        hold every other unit of work back."""
        if self._engine.dialect.name == "sqlite":
            yield None
            return
        kept = KeptConnection(self._engine)
        try:
            yield kept
        finally:
            await kept.give_back()

    async def _run(
        self,
        unit: Callable[[AsyncConnection], Awaitable[_T]],
        kept: KeptConnection | None = None,
    ) -> _T:
        """``unit`` in one database transaction, retried as :func:`run_unit` says."""
        return await run_unit(self._engine, unit, kept)

    # -- accounts and transactions ------------------------------------------------------

    async def balance(self, account: Account) -> int:
        """The account's balance in minor units (0 for an account never used)."""
        return await self._run(lambda conn: rows.balance_of(conn, account.code))

    async def balances(self) -> dict[str, int]:
        """Every account's balance, by account code."""
        return await self._run(rows.all_balances)

    async def post(self, transaction: Transaction) -> Posted:
        """Post one transaction, idempotently by its idempotency key.

        Raises :class:`IdempotencyConflictError` if the key was used for a different
        transaction and :class:`InsufficientFundsError` if a player, escrow or unclaimed
        account would go below zero (nothing is posted then).
        """

        async def unit(conn: AsyncConnection) -> Posted:
            return (await post_all(conn, [transaction]))[0]

        return await self._run(unit)

    async def transaction(
        self, *, key: str | None = None, id: str | None = None
    ) -> Transaction | None:
        """The transaction with this idempotency key or id, if posted."""
        if (key is None) == (id is None):
            raise LedgerError("give exactly one of key and id")
        return await self._run(lambda conn: rows.transaction_by(conn, key=key, id=id))

    async def transactions(
        self, *, round_id: str | None = None, player_id: str | None = None
    ) -> list[Transaction]:
        """Posted transactions in posting order, optionally of one round and/or player."""
        return await self._run(
            lambda conn: rows.transactions_of(conn, round_id=round_id, player_id=player_id)
        )

    # -- rounds ---------------------------------------------------------------------------

    async def open_round(
        self, round_id: str, *, table_id: str, result: Mapping[str, Any] | None = None
    ) -> RoundInfo:
        """Open a round for bets (idempotent: an existing round is returned as it is).
        ``result``: what the round keeps from its opening until :meth:`record_result`
        replaces it (JSON-able; without an ``outcome`` a restart voids the round)."""
        return await self._run(
            lambda conn: rounds.open_round(conn, round_id, table_id=table_id, result=result)
        )

    async def round(self, round_id: str) -> RoundInfo:
        """The round ``round_id``."""
        return await self._run(lambda conn: rows.need_round(conn, round_id))

    async def rounds(
        self,
        *,
        status: RoundStatus | None = None,
        table_id: str | None = None,
        latest: int | None = None,
    ) -> list[RoundInfo]:
        """Every round in the order they opened; only those in ``status``, of
        ``table_id``, or the ``latest`` few (of the table: by its index)."""
        return await self._run(
            lambda conn: rows.list_rounds(conn, status=status, table_id=table_id, latest=latest)
        )

    async def record_result(self, round_id: str, result: Mapping[str, Any]) -> None:
        """Record the round's outcome (JSON-able), so recovery can resume its settlement."""
        await self._run(lambda conn: rounds.record_result(conn, round_id, result))

    async def round_bets(self, round_id: str) -> dict[str, PlayerBets]:
        """The round's confirmed bets by player."""
        return await self._run(lambda conn: rows.round_bets(conn, round_id))

    async def confirm_bets(
        self,
        round_id: str,
        player_id: str,
        bets: Mapping[Bet, int],
        *,
        confirmation_id: str,
        funding: Account | None = None,
    ) -> Posted:
        """A player's confirm: the stakes move from ``funding`` (default the player's
        wallet) to the round's escrow, and the bets are recorded — atomically,
        idempotently by ``confirmation_id``. Raises :class:`InsufficientFundsError` when
        the wallet is short, :class:`RoundStateError` when the round is not open."""
        request = ConfirmRequest(round_id, player_id, bets, confirmation_id, funding)
        (answer,) = await self.confirm_many([request])
        if isinstance(answer, PuntoError):
            raise answer
        return answer

    async def confirm_many(
        self, requests: Sequence[ConfirmRequest], *, kept: KeptConnection | None = None
    ) -> list[Posted | PuntoError]:
        """Group commit: many players' confirms checked and posted in **one** database
        transaction, with bulk statements. Each request gets its own answer, in order: the
        :class:`Posted` stake (``replayed`` for a confirmation id already posted) or the
        typed error that refused it alone (:class:`InsufficientFundsError`,
        :class:`RoundStateError`, :class:`IdempotencyConflictError`, …) with nothing of
        it moved. Funds are checked request by request against the locked balances, so
        two confirms of one player in one batch never take the wallet below zero.
        A database failure raises for the whole batch (nothing of it is posted).
        ``kept``: the connection to write on (:meth:`kept_connection`), as a group
        commit's writer keeps one while batches wait for it."""
        built: list[Transaction | PuntoError] = []
        for r in requests:
            try:
                built.append(_stake(r))
            except PuntoError as exc:
                built.append(exc)
        if not any(isinstance(t, Transaction) for t in built):
            return [t for t in built if isinstance(t, PuntoError)]
        return await self._run(lambda conn: confirms.confirm_many(conn, requests, built), kept)

    async def cancel_confirmation(self, confirmation_id: str, *, reason: str) -> Posted:
        """Undo a confirm whose seamless debit failed: the stakes go back from escrow to
        the account that funded them and the bets are marked cancelled (idempotent)."""
        return await self._run(lambda conn: confirms.cancel(conn, confirmation_id, reason=reason))

    async def change_stakes(
        self,
        confirmation_ids: Sequence[str],
        *,
        reason: str,
        stake: ConfirmRequest | None = None,
    ) -> tuple[tuple[Posted, ...], Posted | None]:
        """A player's change of their bets on an open round (a tie's standing bets
        [M12]) in **one** transaction: each confirm of ``confirmation_ids`` undone (its
        stakes back to the account that funded them) and, with ``stake``, the new bets
        staked — funded by what the cancels gave back, so a raise never needs the money
        twice. Whole or nothing: the stake's typed error is raised with nothing moved.
        Idempotent by the keys of its parts (a replay moves nothing)."""
        built = None if stake is None else _stake(stake)

        async def unit(conn: AsyncConnection) -> tuple[tuple[Posted, ...], Posted | None]:
            cancels = tuple(
                [await confirms.cancel(conn, c, reason=reason) for c in confirmation_ids]
            )
            if stake is None or built is None:
                return cancels, None
            (answer,) = await confirms.confirm_many(conn, [stake], [built])
            if isinstance(answer, PuntoError):
                raise answer  # the cancels are rolled back with it
            return cancels, answer

        return await self._run(unit)

    async def settle_round(
        self,
        round_id: str,
        settlements: Settlements,
        *,
        balances: dict[str, int] | None = None,
    ) -> tuple[Transaction, ...]:
        """Settle a round: one ``SETTLE`` transaction per player with confirmed bets, all
        in one database transaction with the round's new status, with bulk statements.
        ``settlements`` may be a function of the round's bets (read once, in the same
        transaction), so the caller need not read them first. ``balances``, if given, is
        filled with every account's balance just after the settlement (by code; nothing
        on a replay), which spares the caller a query for the players' new balances.

        Idempotent: settling a settled round with the same settlements returns the
        transactions already posted (nothing is paid twice); different settlements are
        refused with :class:`IdempotencyConflictError` — that is a correction.
        """
        return await self._run(lambda conn: rounds.settle(conn, round_id, settlements, balances))

    async def void_round(
        self, round_id: str, *, author: str, reason: str
    ) -> tuple[Transaction, ...]:
        """Void a round: an open one refunds every stake; a settled one is re-settled as
        a full refund (``VOID`` transactions of the difference, referencing the original
        settlements). Idempotent: a voided round returns its refunds or voids."""
        return await self._run(
            lambda conn: rounds.void(conn, round_id, author=author, reason=reason)
        )

    async def correct_round(
        self,
        round_id: str,
        settlements: Mapping[str, Settlement],
        *,
        correction_id: str,
        author: str,
        reason: str,
    ) -> tuple[Transaction, ...]:
        """Re-settle a settled round from a corrected result [O]: per player, only the
        difference to what was paid moves, as a ``CORRECTION`` referencing the original
        settlement and naming ``author`` and ``reason``. Idempotent by ``correction_id``."""
        return await self._run(
            lambda conn: rounds.correct(
                conn,
                round_id,
                settlements,
                correction_id=correction_id,
                author=author,
                reason=reason,
            )
        )

    async def recover(
        self,
        *,
        resume: ResumeRound | None = None,
        table_id: str | None = None,
        author: str = "recovery",
        reason: str = "round left unsettled when the table stopped",
    ) -> Recovery:
        """At restart, close every round left open (of ``table_id``, or all): settle it
        when ``resume`` returns its settlements (say, from the recorded result), else void
        it and refund every stake ([L]: a fault of the operator's system voids the hand)."""
        settled: list[str] = []
        voided: list[str] = []
        for info in await self.rounds(status=RoundStatus.OPEN):
            if table_id is not None and info.table_id != table_id:
                continue
            settlements = None
            if resume is not None:
                bets = {p: b.bets for p, b in (await self.round_bets(info.id)).items()}
                try:
                    settlements = resume(info, bets)
                except PuntoError:
                    settlements = None
            if settlements is not None:
                await self.settle_round(info.id, settlements)
                settled.append(info.id)
            else:
                await self.void_round(info.id, author=author, reason=reason)
                voided.append(info.id)
        return Recovery(tuple(settled), tuple(voided))

    # -- the books --------------------------------------------------------------------------

    async def check(self) -> CheckReport:
        """Prove the books: every transaction balances and matches its fingerprint, every
        entry belongs to a posted transaction and an existing account, the sum of all
        accounts is zero, every cached balance equals its entries, no player,
        escrow or unclaimed account is negative, and every confirmed bet is settled,
        refunded or still open in a live round; all as of one moment, while tables
        write."""
        return await run_snapshot(self._engine, audit.check_books)


def _stake(request: ConfirmRequest) -> Transaction:
    """The stake transaction of a confirm (its typed error if the bets are refused)."""
    return model.stake(
        request.round_id,
        request.player_id,
        request.bets,
        confirmation_id=request.confirmation_id,
        funding=request.funding,
        fee=request.fee,
        house=request.house,
    )
