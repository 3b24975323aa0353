"""The ledger store: transactions kept in SQLite or PostgreSQL through SQLAlchemy (async).

Every method is one database transaction: it commits whole or not at all, so a crash at
any point leaves no half-posted transaction and no half-settled round. Postings are
idempotent by their unique idempotency key: a replay of the same transaction returns the
one already posted; the same key with a different content is refused.

On SQLite every unit of work starts with ``BEGIN IMMEDIATE`` (writers queue); on
PostgreSQL a round's row is locked (``SELECT … FOR UPDATE``) while its money moves, and
balances are updated in one fixed order of accounts so concurrent postings cannot
deadlock. The schema comes from :func:`punto.ledger.migrate.upgrade`.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import os
import sqlite3
from collections import defaultdict
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Iterable,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

import asyncpg
import orjson
from sqlalchemy import (
    Row,
    Table,
    and_,
    bindparam,
    event,
    func,
    insert,
    select,
    text,
    true,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from punto.bets import Bet
from punto.errors import (
    IdempotencyConflictError,
    InsufficientFundsError,
    LedgerError,
    PuntoError,
    RoundStateError,
    UnavailableError,
)
from punto.ledger import model
from punto.ledger.model import Account, AccountKind, Line, Transaction, TransactionKind
from punto.ledger.tables import AccountRow, EntryRow, RoundBetRow, RoundRow, TransactionRow
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

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///punto.sqlite3"
"""The database when neither ``--database-url`` nor ``PUNTO_DATABASE_URL`` is given."""

_T = TypeVar("_T")
_CONFIRMED = "confirmed"
_CANCELLED = "cancelled"
_A = cast(Table, AccountRow.__table__)
_TX = cast(Table, TransactionRow.__table__)
_E = cast(Table, EntryRow.__table__)
_R = cast(Table, RoundRow.__table__)
_RB = cast(Table, RoundBetRow.__table__)


class RoundStatus(enum.Enum):
    """Where a round's money is."""

    OPEN = "open"
    """Bets may be confirmed; the stakes are in escrow."""
    SETTLED = "settled"
    """Paid by the result; may still be corrected or voided."""
    VOIDED = "voided"
    """Every stake refunded (before or after settlement)."""


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """A round as the ledger knows it; ``result`` is what the server kept with it (the
    outcome recorded for it, if any, and its record's facts)."""

    id: str
    table_id: str
    status: RoundStatus
    result: Mapping[str, Any] | None = None
    opened_at: datetime | None = None
    """When the ledger opened the round (its first confirmed bet)."""
    closed_at: datetime | None = None
    """When it was settled or voided."""


@dataclass(frozen=True, slots=True)
class PlayerBets:
    """One player's confirmed bets in a round and the account that funded them."""

    funding: Account
    bets: Mapping[Bet, int]


@dataclass(frozen=True, slots=True)
class Posted:
    """A posted transaction; ``replayed`` when it had been posted before (nothing moved).
    ``balances`` are the new balances of the accounts it moved (empty for a replay)."""

    transaction: Transaction
    replayed: bool = False
    balances: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConfirmRequest:
    """One confirm in a group commit (:meth:`LedgerStore.confirm_many`): ``bets`` move
    from ``funding`` (default the player's wallet) to the round's escrow, idempotently by
    ``confirmation_id``."""

    round_id: str
    player_id: str
    bets: Mapping[Bet, int]
    confirmation_id: str
    funding: Account | None = None


@dataclass(frozen=True, slots=True)
class Recovery:
    """What :meth:`LedgerStore.recover` did with the rounds it found open."""

    settled: tuple[str, ...] = ()
    voided: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The result of :meth:`LedgerStore.check`; the books balance when ``ok``."""

    problems: tuple[str, ...]
    accounts: int = 0
    transactions: int = 0
    entries_total: int = 0
    open_rounds: int = 0
    balances: Mapping[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """No problem found."""
        return not self.problems


ResumeRound = Callable[
    [RoundInfo, Mapping[str, Mapping[Bet, int]]], Mapping[str, Settlement] | None
]
"""Decides, at recovery, each open round's settlements (resume) or ``None`` (void)."""


def database_url(url: str | None = None) -> str:
    """The async database URL: ``url``, else ``$PUNTO_DATABASE_URL``, else a SQLite file
    ``punto.sqlite3``; plain ``sqlite://`` and ``postgresql://`` URLs get their async
    drivers.

    >>> database_url("postgresql://postgres@127.0.0.1/test")
    'postgresql+asyncpg://postgres@127.0.0.1/test'
    >>> database_url("sqlite:////tmp/x.db")
    'sqlite+aiosqlite:////tmp/x.db'
    """
    chosen = url or os.environ.get("PUNTO_DATABASE_URL") or DEFAULT_DATABASE_URL
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if chosen.startswith(plain):
            return driver + chosen[len(plain) :]
    return chosen


DEFAULT_POOL = 30
"""PostgreSQL connections an engine keeps (:func:`create_engine`): as many as it could
open before (10 kept, 20 more on demand). A table settling on PostgreSQL uses two at once
(the ledger's settlement and the hand's record, whose transaction waits for the
settlement's), so the pool is kept well above twice the tables that may settle together."""


def create_engine(url: str | None = None, *, pool: int = DEFAULT_POOL) -> AsyncEngine:
    """An async engine for :func:`database_url` ``(url)``.

    On PostgreSQL, a pool of at most ``pool`` connections, each kept once opened: units
    of work beyond that many at once wait for one to come back (a few milliseconds each)
    rather than open a connection that is closed again as soon as it is returned — a burst
    (hundreds of players joining together) would otherwise pay a new server process, the
    driver's type introspection and every statement's preparation for each unit beyond the
    pool.

    On SQLite, foreign keys on, write-ahead logging, every transaction ``BEGIN
    IMMEDIATE``, and one connection per engine: SQLite has one writer at a time anyway,
    and tasks queueing for the connection wait far less than connections polling the file
    lock."""
    if pool < 1:
        raise ValueError(f"a connection pool needs at least one connection, not {pool}")
    resolved = database_url(url)
    if not resolved.startswith("sqlite"):
        engine = create_async_engine(resolved, pool_size=pool, max_overflow=0)

        @event.listens_for(engine.sync_engine, "checkout")
        def _checkout(dbapi_connection: Any, _record: ConnectionPoolEntry, _proxy: Any) -> None:
            # A connection the server cut (a restart, pg_terminate_backend) is replaced
            # before use: PostgreSQL says so and closes the socket, which the driver has
            # seen by the time the pool lends the connection again. SQLAlchemy's pre-ping
            # asked the same with three round trips (BEGIN, a query, ROLLBACK) before every
            # unit of work; a cut the driver has not seen yet fails the unit, which
            # :meth:`LedgerStore._run` runs again on a new connection.
            if _driver_closed(dbapi_connection):
                raise DisconnectionError("the database closed this connection")

        return engine
    engine = create_async_engine(
        resolved, connect_args={"timeout": 30}, pool_size=1, max_overflow=0, pool_timeout=60
    )

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        # SQLAlchemy emits BEGIN itself (below), so the driver must not.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if ":memory:" not in resolved:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


async def reach(url: str | None = None, *, timeout: float = 15.0) -> None:
    """Open one connection to :func:`database_url` ``(url)`` and close it again, or raise
    :class:`~punto.errors.UnavailableError` saying which database and why (a SQLite file
    in a folder that does not exist or cannot be written, a PostgreSQL server that
    refuses, does not answer within ``timeout`` seconds, or has no such database or
    user): the one line an operator needs, where the driver's traceback said it in forty.

    >>> asyncio.run(reach("sqlite:////no/x.db"))
    Traceback (most recent call last):
    ...
    punto.errors.UnavailableError: cannot open the database sqlite+aiosqlite:////no/x.db: ...
    """
    resolved = database_url(url)
    parsed = make_url(resolved)
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() == "sqlite":
        # the standard library's driver, in this thread: the async driver's thread
        # outlives a failed connect and answers into a closed event loop
        path = parsed.database or ":memory:"
        try:
            with contextlib.closing(sqlite3.connect(path)) as conn:
                conn.execute("PRAGMA user_version")
        except sqlite3.Error as exc:
            raise UnavailableError(f"cannot open the database {shown}: {exc}") from None
        return
    engine = create_engine(resolved, pool=1)
    try:
        async with asyncio.timeout(timeout):
            async with engine.connect():
                pass
    except TimeoutError:
        raise UnavailableError(
            f"cannot open the database {shown}: no answer within {timeout:g} s"
        ) from None
    except (SQLAlchemyError, OSError) as exc:
        cause = getattr(exc, "orig", None) or exc
        reason = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
        raise UnavailableError(f"cannot open the database {shown}: {reason}") from None
    finally:
        await engine.dispose()


class KeptConnection:
    """One connection of an engine's pool kept for many units of work in a row
    (:meth:`LedgerStore.kept_connection`): each unit is its own transaction on it, without
    the pool's lending and taking back around it (their checks, events and turns of the
    event loop: 120–220 µs of CPU a group commit's write of 8 confirms on this project's
    2-core machine, `benchmarks/bench_ledger_write.py`). A connection the database cut is
    replaced before the next unit, as the pool replaces one it lends; a unit that fails in
    any way gives it back to the pool (which rolls it back or throws it away) and the next
    unit takes another."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._conn: AsyncConnection | None = None

    async def run(self, unit: Callable[[AsyncConnection], Awaitable[_T]]) -> _T:
        """``unit`` in one transaction on the kept connection (taken from the pool first
        if none is kept, or the one kept was cut)."""
        conn = self._conn
        if conn is not None and (conn.invalidated or _cut(conn)):
            await self.give_back()
            conn = None
        if conn is None:
            conn = self._conn = await self._engine.connect()
        try:
            async with conn.begin():
                return await unit(conn)
        except BaseException:
            await self.give_back()
            raise

    async def give_back(self) -> None:
        """The connection back to the pool (nothing if none is kept; never raises: a
        connection that cannot be given back cleanly is thrown away by the pool)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(conn.close())


def _driver_closed(connection: Any) -> bool:
    """Whether the database closed the socket of ``connection`` (the pool's connection,
    adapted or proxied) as far as PostgreSQL's driver has seen: a restart or
    ``pg_terminate_backend``. The pool asks it before it lends a connection
    (:func:`create_engine`), a kept connection before each unit (:class:`KeptConnection`)."""
    return bool(connection.driver_connection.is_closed())


def _cut(conn: AsyncConnection) -> bool:
    """:func:`_driver_closed` for a kept connection (``False`` once it is closed on our side:
    the next unit takes another anyway)."""
    sync = conn.sync_connection
    return sync is not None and not sync.closed and _driver_closed(sync.connection)


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
        """Run ``unit`` in one database transaction (on ``kept``'s connection if given, else
        on one the pool lends for it); once more if a concurrent writer inserted the same
        key first (the second run then sees it as a replay) or the connection was cut under
        it (every unit is idempotent by its keys, so a commit whose answer was lost is found
        as a replay)."""
        for attempt in range(2):
            try:
                if kept is None:
                    async with self._engine.begin() as conn:
                        return await unit(conn)
                return await kept.run(unit)
            except IntegrityError as exc:
                if attempt:
                    raise LedgerError(f"the ledger refused a write: {exc.orig}") from exc
            except DBAPIError as exc:
                if attempt or not exc.connection_invalidated:
                    if _missing_schema(exc):
                        raise LedgerError(
                            "the ledger tables are missing: run `punto ledger migrate`"
                        ) from exc
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    # -- accounts and transactions ------------------------------------------------------

    async def balance(self, account: Account) -> int:
        """The account's balance in minor units (0 for an account never used)."""

        async def unit(conn: AsyncConnection) -> int:
            return await _balance(conn, account.code)

        return await self._run(unit)

    async def balances(self) -> dict[str, int]:
        """Every account's balance, by account code."""

        async def unit(conn: AsyncConnection) -> dict[str, int]:
            rows = await conn.execute(select(_A.c.code, _A.c.balance).order_by(_A.c.code))
            return {code: int(balance) for code, balance in rows}

        return await self._run(unit)

    async def post(self, transaction: Transaction) -> Posted:
        """Post one transaction, idempotently by its idempotency key.

        Raises :class:`IdempotencyConflictError` if the key was used for a different
        transaction and :class:`InsufficientFundsError` if a player, escrow or unclaimed
        account would go below zero (nothing is posted then).
        """

        async def unit(conn: AsyncConnection) -> Posted:
            return (await _post_all(conn, [transaction]))[0]

        return await self._run(unit)

    async def transaction(
        self, *, key: str | None = None, id: str | None = None
    ) -> Transaction | None:
        """The transaction with this idempotency key or id, if posted."""
        if (key is None) == (id is None):
            raise LedgerError("give exactly one of key and id")
        where = _TX.c.idempotency_key == key if key is not None else _TX.c.id == id

        async def unit(conn: AsyncConnection) -> Transaction | None:
            found = await _load(conn, where)
            return found[0] if found else None

        return await self._run(unit)

    async def transactions(
        self, *, round_id: str | None = None, player_id: str | None = None
    ) -> list[Transaction]:
        """Posted transactions in posting order, optionally of one round and/or player."""
        conditions = []
        if round_id is not None:
            conditions.append(_TX.c.round_id == round_id)
        if player_id is not None:
            conditions.append(_TX.c.player_id == player_id)

        async def unit(conn: AsyncConnection) -> list[Transaction]:
            return await _load(conn, and_(true(), *conditions))

        return await self._run(unit)

    # -- rounds ---------------------------------------------------------------------------

    async def open_round(
        self, round_id: str, *, table_id: str, result: Mapping[str, Any] | None = None
    ) -> RoundInfo:
        """Open a round for bets (idempotent: an existing round is returned as it is).
        ``result``: what the round keeps from its opening until :meth:`record_result`
        replaces it (JSON-able; without an ``outcome`` a restart voids the round)."""
        kept = None if result is None else json.dumps(dict(result), sort_keys=True)

        async def unit(conn: AsyncConnection) -> RoundInfo:
            found = await _round(conn, round_id)
            if found is None:
                await conn.execute(
                    insert(_R).values(id=round_id, table_id=table_id, status="open", result=kept)
                )
                # its escrow made now, so no confirm has to (a batch of confirms locks the
                # escrow only as it moves it: see _confirm_many)
                await _ensure_accounts(conn, [Account.escrow(round_id)])
                return RoundInfo(
                    round_id,
                    table_id,
                    RoundStatus.OPEN,
                    result=None if result is None else dict(result),
                )
            if found.table_id != table_id:
                raise RoundStateError(f"round {round_id} belongs to table {found.table_id}")
            return found

        return await self._run(unit)

    async def round(self, round_id: str) -> RoundInfo:
        """The round ``round_id``."""

        async def unit(conn: AsyncConnection) -> RoundInfo:
            return await _need_round(conn, round_id)

        return await self._run(unit)

    async def rounds(
        self,
        *,
        status: RoundStatus | None = None,
        table_id: str | None = None,
        latest: int | None = None,
    ) -> list[RoundInfo]:
        """Every round in the order they opened; only those in ``status``, of
        ``table_id``, or the ``latest`` few (of the table: by its index)."""

        async def unit(conn: AsyncConnection) -> list[RoundInfo]:
            query = select(_R)
            if status is not None:
                query = query.where(_R.c.status == status.value)
            if table_id is not None:
                query = query.where(_R.c.table_id == table_id)
            if latest is None:
                query = query.order_by(_R.c.created_at, _R.c.id)
                return [_round_info(row) for row in await conn.execute(query)]
            query = query.order_by(_R.c.created_at.desc(), _R.c.id.desc()).limit(latest)
            return [_round_info(row) for row in reversed(list(await conn.execute(query)))]

        return await self._run(unit)

    async def record_result(self, round_id: str, result: Mapping[str, Any]) -> None:
        """Record the round's outcome (JSON-able), so recovery can resume its settlement."""
        text = json.dumps(dict(result), sort_keys=True)

        async def unit(conn: AsyncConnection) -> None:
            found = await _need_round(conn, round_id, lock=True)
            if found.status is not RoundStatus.OPEN:
                raise RoundStateError(f"round {round_id} is {found.status.value}")
            await conn.execute(update(_R).where(_R.c.id == round_id).values(result=text))

        await self._run(unit)

    async def round_bets(self, round_id: str) -> dict[str, PlayerBets]:
        """The round's confirmed bets by player."""

        async def unit(conn: AsyncConnection) -> dict[str, PlayerBets]:
            return await _round_bets(conn, round_id)

        return await self._run(unit)

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
                built.append(
                    model.stake(
                        r.round_id,
                        r.player_id,
                        r.bets,
                        confirmation_id=r.confirmation_id,
                        funding=r.funding,
                    )
                )
            except PuntoError as exc:
                built.append(exc)

        async def unit(conn: AsyncConnection) -> list[Posted | PuntoError]:
            return await _confirm_many(conn, requests, built)

        if not any(isinstance(t, Transaction) for t in built):
            return [t for t in built if isinstance(t, PuntoError)]
        return await self._run(unit, kept)

    async def cancel_confirmation(self, confirmation_id: str, *, reason: str) -> Posted:
        """Undo a confirm whose seamless debit failed: the stakes go back from escrow to
        the account that funded them and the bets are marked cancelled (idempotent)."""

        async def unit(conn: AsyncConnection) -> Posted:
            return await _cancel(conn, confirmation_id, reason=reason)

        return await self._run(unit)

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
        built = (
            None
            if stake is None
            else model.stake(
                stake.round_id,
                stake.player_id,
                stake.bets,
                confirmation_id=stake.confirmation_id,
                funding=stake.funding,
            )
        )

        async def unit(conn: AsyncConnection) -> tuple[tuple[Posted, ...], Posted | None]:
            cancels = tuple([await _cancel(conn, c, reason=reason) for c in confirmation_ids])
            if stake is None or built is None:
                return cancels, None
            (answer,) = await _confirm_many(conn, [stake], [built])
            if isinstance(answer, PuntoError):
                raise answer  # the cancels are rolled back with it
            return cancels, answer

        return await self._run(unit)

    async def settle_round(
        self,
        round_id: str,
        settlements: Mapping[str, Settlement]
        | Callable[[Mapping[str, Mapping[Bet, int]]], Mapping[str, Settlement]],
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

        async def unit(conn: AsyncConnection) -> tuple[Transaction, ...]:
            found = await _need_round(conn, round_id, lock=True)
            if found.status is RoundStatus.VOIDED:
                raise RoundStateError(f"round {round_id} was voided: it cannot be settled")
            players = await _round_bets(conn, round_id)
            results = (
                settlements({p: b.bets for p, b in players.items()})
                if callable(settlements)
                else settlements
            )
            _same_players(round_id, players, results)
            transactions = model.settlements(
                round_id,
                found.table_id,
                ((p, players[p].bets, players[p].funding) for p in sorted(players)),
                results,
            )
            if found.status is RoundStatus.SETTLED:
                replay = []
                posted = await _by_keys(conn, [t.idempotency_key for t in transactions])
                for transaction in transactions:
                    existing = posted.get(transaction.idempotency_key)
                    if existing is None or existing.fingerprint != transaction.fingerprint:
                        raise IdempotencyConflictError(
                            f"round {round_id} is already settled with another result; "
                            "a supervisor's correction changes it"
                        )
                    replay.append(existing)
                return tuple(replay)
            # An open round has no settlement yet: its keys are posted only here, with the
            # round's new status in the same transaction (no look-up of them needed).
            moved = await _post_new(conn, transactions) if transactions else {}
            await _close_round(conn, round_id, RoundStatus.SETTLED)
            if balances is not None:
                balances.update(moved)  # every account the settlement moved
            return tuple(transactions)

        return await self._run(unit)

    async def void_round(
        self, round_id: str, *, author: str, reason: str
    ) -> tuple[Transaction, ...]:
        """Void a round: an open one refunds every stake; a settled one is re-settled as
        a full refund (``VOID`` transactions of the difference, referencing the original
        settlements). Idempotent: a voided round returns its refunds or voids."""

        async def unit(conn: AsyncConnection) -> tuple[Transaction, ...]:
            found = await _need_round(conn, round_id, lock=True)
            if found.status is RoundStatus.VOIDED:
                done = await _load(conn, _TX.c.round_id == round_id)
                kinds = (TransactionKind.REFUND, TransactionKind.VOID)
                return tuple(t for t in done if t.kind in kinds)
            players = await _round_bets(conn, round_id)
            transactions: list[Transaction] = []
            for player in sorted(players):
                mine = players[player]
                if found.status is RoundStatus.OPEN:
                    transactions.append(
                        model.refund(
                            round_id,
                            player,
                            mine.bets,
                            payee=mine.funding,
                            author=author,
                            reason=reason,
                        )
                    )
                    continue
                original, current = await _effective(conn, round_id, player)
                transactions.append(
                    model.correction(
                        original,
                        current,
                        _void_lines(mine.bets),
                        correction_id="void",
                        table_id=found.table_id,
                        author=author,
                        reason=reason,
                        payee=mine.funding,
                        payee_balance=await _balance(conn, mine.funding.code),
                        void=True,
                    )
                )
            await _post_all(conn, transactions)
            await _close_round(conn, round_id, RoundStatus.VOIDED)
            return tuple(transactions)

        return await self._run(unit)

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

        async def unit(conn: AsyncConnection) -> tuple[Transaction, ...]:
            found = await _need_round(conn, round_id, lock=True)
            if found.status is not RoundStatus.SETTLED:
                raise RoundStateError(
                    f"round {round_id} is {found.status.value}: only a settled round "
                    "can be corrected"
                )
            players = await _round_bets(conn, round_id)
            _same_players(round_id, players, settlements)
            transactions: list[Transaction] = []
            for player in sorted(players):
                mine = players[player]
                model.check_stakes(player, mine.bets, settlements[player])
                lines = model.lines_of(settlements[player])
                key = f"correct:{round_id}:{player}:{correction_id}"
                existing = await _by_key(conn, key)
                if existing is not None:
                    if (existing.lines, existing.author, existing.reason) != (
                        lines,
                        author,
                        reason,
                    ):
                        raise IdempotencyConflictError(
                            f"correction {correction_id!r} of round {round_id} "
                            "was already made differently"
                        )
                    transactions.append(existing)
                    continue
                original, current = await _effective(conn, round_id, player)
                transactions.append(
                    model.correction(
                        original,
                        current,
                        lines,
                        correction_id=correction_id,
                        table_id=found.table_id,
                        author=author,
                        reason=reason,
                        payee=mine.funding,
                        payee_balance=await _balance(conn, mine.funding.code),
                    )
                )
            await _post_all(conn, transactions)
            return tuple(transactions)

        return await self._run(unit)

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
        refunded or still open in a live round."""

        async def unit(conn: AsyncConnection) -> CheckReport:
            return await _check(conn)

        return await self._run(unit)


# -- units of work (each runs inside the caller's database transaction) -----------------


def _missing_schema(exc: Exception) -> bool:
    text = str(exc).lower()
    return "no such table" in text or ("relation" in text and "does not exist" in text)


def _now() -> datetime:
    return datetime.now(UTC)


async def _balance(conn: AsyncConnection, code: str) -> int:
    value = await conn.scalar(select(_A.c.balance).where(_A.c.code == code))
    return int(value or 0)


def _round_info(row: Row[Any]) -> RoundInfo:
    result = json.loads(row.result) if row.result else None
    times = row._mapping  # (a confirm's look-up reads no times)
    opened, closed = _aware(times.get("created_at")), _aware(times.get("closed_at"))
    return RoundInfo(row.id, row.table_id, RoundStatus(row.status), result, opened, closed)


def _aware(moment: datetime | str | None) -> datetime | None:
    """A time read back (SQLite gives no zone back, and text to a textual query: the
    ledger writes UTC)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


async def _round(conn: AsyncConnection, round_id: str, *, lock: bool = False) -> RoundInfo | None:
    query = select(_R).where(_R.c.id == round_id)
    if lock:
        query = query.with_for_update()
    row = (await conn.execute(query)).first()
    return None if row is None else _round_info(row)


async def _need_round(conn: AsyncConnection, round_id: str, *, lock: bool = False) -> RoundInfo:
    found = await _round(conn, round_id, lock=lock)
    if found is None:
        raise RoundStateError(f"no round {round_id!r} in the ledger")
    return found


async def _close_round(conn: AsyncConnection, round_id: str, status: RoundStatus) -> None:
    await conn.execute(
        update(_R).where(_R.c.id == round_id).values(status=status.value, closed_at=_now())
    )


_ROUND_BETS_PG = (
    f"SELECT player_id, bet, stake, funding FROM {_RB.name} "
    "WHERE round_id = $1 AND status = $2 ORDER BY id"
)


async def _round_bets(conn: AsyncConnection, round_id: str) -> dict[str, PlayerBets]:
    """The round's confirmed bets, by player. PostgreSQL's rows come from the driver
    itself, in the caller's transaction (a settled round of 10,000 bets: a third less
    time than through the result layer; :func:`_on_driver`)."""
    rows: Iterable[Sequence[Any]]
    if conn.dialect.name == "postgresql":
        rows = await _on_driver(conn, _ROUND_BETS_PG, (round_id, _CONFIRMED))
    else:
        rows = await conn.execute(
            select(_RB.c.player_id, _RB.c.bet, _RB.c.stake, _RB.c.funding)
            .where(_RB.c.round_id == round_id, _RB.c.status == _CONFIRMED)
            .order_by(_RB.c.id)
        )
    bets: dict[str, dict[Bet, int]] = defaultdict(dict)
    funding: dict[str, str] = {}
    kinds = {b.value: b for b in Bet}
    for player, bet, stake, source in rows:
        mine = bets[player]
        kind = kinds[bet]
        mine[kind] = mine.get(kind, 0) + stake
        funding[player] = source
    accounts = {code: Account.parse(code) for code in set(funding.values())}
    return {player: PlayerBets(accounts[funding[player]], bets[player]) for player in bets}


def _same_players(
    round_id: str, players: Mapping[str, PlayerBets], settlements: Mapping[str, Settlement]
) -> None:
    missing = sorted(set(players) - set(settlements))
    extra = sorted(set(settlements) - set(players))
    if missing or extra:
        raise LedgerError(
            f"settlement of round {round_id} must cover exactly the players with bets; "
            f"missing: {', '.join(missing) or 'none'}, without bets: {', '.join(extra) or 'none'}"
        )


async def _confirm_many(
    conn: AsyncConnection,
    requests: Sequence[ConfirmRequest],
    built: Sequence[Transaction | PuntoError],
) -> list[Posted | PuntoError]:
    """The unit of :meth:`LedgerStore.confirm_many`."""
    results: list[Posted | PuntoError] = [
        t if isinstance(t, PuntoError) else Posted(t) for t in built
    ]
    todo = [(i, t) for i, t in enumerate(built) if isinstance(t, Transaction)]
    round_ids = sorted({requests[i].round_id for i, _ in todo})
    keys = [t.idempotency_key for _, t in todo]
    players = sorted({requests[i].player_id for i, _ in todo})
    # every account the batch moves (the wallets and the rounds' escrows) locked at once,
    # in the order of their codes like any posting
    sources = {requests[i].funding or Account.player(requests[i].player_id) for i, _ in todo}
    escrows = {Account.escrow(round_id) for round_id in round_ids}
    accounts = sources | escrows
    rounds: dict[str, RoundInfo] = {}
    funded: dict[tuple[str, str], str] = {}
    late: frozenset[str] = frozenset()
    if conn.dialect.name == "postgresql":
        held, existing, late = await _batch_pg(
            conn, round_ids, keys, players, sources, escrows, rounds, funded
        )
    else:
        for row in await conn.execute(_ROUNDS_SQLITE.bindparams(ids=round_ids)):
            rounds[row.id] = _round_info(row)
        existing = await _by_keys(conn, keys)
        for start in range(0, len(players), _CHUNK):
            chunk = players[start : start + _CHUNK]
            for round_id, player_id, source in await conn.execute(
                _FUNDED_SQLITE.bindparams(rounds=round_ids, players=chunk)
            ):
                funded[(round_id, player_id)] = source
        held = await _hold(conn, accounts)
    locked = dict(held)
    accepted: list[tuple[int, Transaction]] = []
    batch: dict[str, Transaction] = {}
    for i, t in todo:
        r = requests[i]
        try:
            before = existing.get(t.idempotency_key) or batch.get(t.idempotency_key)
            if before is not None:
                results[i] = Posted(_same(before, t), replayed=True)
                continue
            info = rounds.get(r.round_id)
            if info is None:
                raise RoundStateError(f"no round {r.round_id!r} in the ledger")
            if info.status is not RoundStatus.OPEN:
                raise RoundStateError(f"round {r.round_id} is {info.status.value}: no more bets")
            source = r.funding or Account.player(r.player_id)
            other = funded.get((r.round_id, r.player_id))
            if other is not None and other != source.code:
                raise LedgerError(
                    f"{r.player_id}'s bets in round {r.round_id} are funded by {other}"
                )
            amount = sum(r.bets.values())
            balance = held.get(source.code, 0)
            if balance < amount and not source.kind.may_go_negative:
                raise InsufficientFundsError(
                    f"{source.code} holds {balance}, {amount} needed: nothing was posted"
                )
        except PuntoError as exc:
            results[i] = exc
            continue
        held[source.code] = balance - amount
        funded[(r.round_id, r.player_id)] = source.code
        batch[t.idempotency_key] = t
        accepted.append((i, t))
    if not accepted:
        return results
    bets = [
        (
            requests[i].round_id,
            requests[i].player_id,
            bet.value,
            amount,
            t.id,
            (requests[i].funding or Account.player(requests[i].player_id)).code,
            _CONFIRMED,
        )
        for i, t in accepted
        for bet, amount in requests[i].bets.items()
    ]
    balances = await _post_new(conn, [t for _, t in accepted], locked=locked, bets=bets, late=late)
    for i, t in accepted:
        results[i] = Posted(
            t, balances={e.account.code: balances[e.account.code] for e in t.entries}
        )
    return results


async def _batch_pg(
    conn: AsyncConnection,
    round_ids: Sequence[str],
    keys: Sequence[str],
    players: Sequence[str],
    sources: Collection[Account],
    escrows: Collection[Account],
    rounds: dict[str, RoundInfo],
    funded: dict[tuple[str, str], str],
) -> tuple[dict[str, int], dict[str, Transaction], frozenset[str]]:
    """What a batch of confirms is checked against on PostgreSQL, in **one** statement
    (:data:`_BATCH_PG`): the rounds (share-locked), which keys are posted already, how the
    players funded their earlier bets of the rounds, the balances of the accounts the
    stakes come from (locked) and which of the rounds' escrows exist. Fills ``rounds`` and
    ``funded``; returns the balances, the transactions already posted under the keys and
    the escrows that exist, left unlocked: the statement that posts the batch locks them
    as it credits them (:data:`_POST_PG`). Accounts never used before (a player's first
    bet; the escrow of a round opened before escrows were made with their rounds) are
    created and locked after it."""
    held: dict[str, int] = {}
    posted: list[str] = []
    late: set[str] = set()
    rows = await _on_driver(
        conn,
        _BATCH_PG,
        (
            list(round_ids),
            sorted(set(keys)),
            list(players),
            sorted({a.code for a in sources}),
            sorted({a.code for a in escrows}),
        ),
    )
    for kind, first, second, third, balance in rows:
        if kind == "r":
            rounds[first] = RoundInfo(first, second, RoundStatus(third))
        elif kind == "k":
            posted.append(first)
        elif kind == "f":
            funded[(first, second)] = third
        elif kind == "e":
            late.add(first)
        else:
            held[first] = int(balance)
    # the accounts never used before
    held = await _hold(conn, [*sources, *(a for a in escrows if a.code not in late)], locked=held)
    return held, (await _by_keys(conn, posted) if posted else {}), frozenset(late)


async def _cancel(conn: AsyncConnection, confirmation_id: str, *, reason: str) -> Posted:
    """The unit of :meth:`LedgerStore.cancel_confirmation`."""
    original = await _by_key(conn, f"stake:{confirmation_id}")
    if original is None or original.round_id is None:
        raise LedgerError(f"no confirm {confirmation_id!r} to cancel")
    reversal = model.cancel(original, reason=reason)
    existing = await _by_key(conn, reversal.idempotency_key)
    if existing is not None:
        return Posted(_same(existing, reversal), replayed=True)
    found = await _need_round(conn, original.round_id, lock=True)
    if found.status is not RoundStatus.OPEN:
        raise RoundStateError(
            f"round {found.id} is {found.status.value}: its bets can no longer be cancelled"
        )
    posted = await _post_all(conn, [reversal])
    await conn.execute(
        update(_RB).where(_RB.c.transaction_id == original.id).values(status=_CANCELLED)
    )
    return posted[0]


def _void_lines(bets: Mapping[Bet, int]) -> tuple[Line, ...]:
    return tuple(
        Line(bet.value, amount, "void") for bet, amount in sorted(bets.items(), key=_bet_name)
    )


def _bet_name(item: tuple[Bet, int]) -> str:
    return item[0].value


async def _effective(
    conn: AsyncConnection, round_id: str, player_id: str
) -> tuple[Transaction, tuple[Line, ...]]:
    """The player's original settlement and the lines in force (after corrections)."""
    history = await _load(
        conn,
        and_(
            _TX.c.round_id == round_id,
            _TX.c.player_id == player_id,
            _TX.c.kind.in_([TransactionKind.SETTLE.value, TransactionKind.CORRECTION.value]),
        ),
    )
    originals = [t for t in history if t.kind is TransactionKind.SETTLE]
    if not originals:
        raise LedgerError(f"round {round_id} has no settlement for {player_id}")
    return originals[0], history[-1].lines


def _same(existing: Transaction, wanted: Transaction) -> Transaction:
    if existing.fingerprint != wanted.fingerprint:
        raise IdempotencyConflictError(
            f"idempotency key {wanted.idempotency_key!r} was already used for another "
            f"{existing.kind.value} transaction"
        )
    return existing


async def _by_key(conn: AsyncConnection, key: str) -> Transaction | None:
    found = await _load(conn, _TX.c.idempotency_key == key)
    return found[0] if found else None


async def _by_keys(conn: AsyncConnection, keys: Sequence[str]) -> dict[str, Transaction]:
    """The transactions already posted under any of ``keys`` (a few queries in all;
    PostgreSQL gets the keys as one array)."""
    wanted = sorted(set(keys))
    found: dict[str, Transaction] = {}
    if conn.dialect.name == "postgresql":
        for t in await _load(conn, _KEYS_PG.bindparams(keys=wanted)):
            found[t.idempotency_key] = t
        return found
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        for t in await _load(conn, _KEYS_SQLITE.bindparams(keys=chunk)):
            found[t.idempotency_key] = t
    return found


_KEYS_PG = text("idempotency_key IN (SELECT k FROM unnest(CAST(:keys AS varchar[])) AS k)")
"""Posted under one of many keys: a join with the array's elements (as :data:`_LOCK_PG`),
never a scan comparing every transaction with every key."""
_BATCH_PG = (
    "WITH r AS MATERIALIZED (SELECT r.id, r.table_id, r.status "
    "FROM unnest($1::varchar[]) AS v(id) JOIN ledger_rounds AS r ON r.id = v.id "
    "ORDER BY r.id FOR SHARE OF r), "
    "a AS MATERIALIZED (SELECT a.code, a.balance FROM unnest($4::varchar[]) AS v(code) "
    "JOIN ledger_accounts AS a ON a.code = v.code ORDER BY a.code FOR UPDATE OF a) "
    "SELECT 'r', id, table_id, status, NULL::bigint FROM r "
    "UNION ALL "
    "SELECT 'k', idempotency_key, NULL, NULL, NULL FROM ledger_transactions "
    "WHERE idempotency_key IN (SELECT k FROM unnest($2::varchar[]) AS k) "
    "UNION ALL "
    "SELECT 'f', r.id, p.id, f.funding, NULL FROM unnest($1::varchar[]) AS r(id) "
    "CROSS JOIN unnest($3::varchar[]) AS p(id) "
    "CROSS JOIN LATERAL (SELECT b.funding FROM ledger_round_bets AS b "
    "WHERE b.round_id = r.id AND b.player_id = p.id LIMIT 1) AS f "
    "UNION ALL "
    "SELECT 'e', a.code, NULL, NULL, NULL FROM unnest($5::varchar[]) AS v(code) "
    "JOIN ledger_accounts AS a ON a.code = v.code "
    "UNION ALL "
    "SELECT 'a', code, NULL, NULL, balance FROM a"
)
"""What a batch of confirms is checked against, in one round trip instead of three (at 1,000
bets/s offered a batch holds a confirm or two, and the socket writes of its statements were
a third of the server's samples): ``r`` its rounds, locked; ``k`` its keys posted already;
``f`` how its players funded their earlier bets of its rounds; ``a`` the balances of the
accounts it moves, locked. The parts run in that order (an ``Append`` runs its parts one
after the other; each locking part is a materialized ``WITH``, run when it is first read),
so the rounds are locked before the accounts, as by every posting. A locked row is read as
last committed; the other parts read as the statement began, so a key a writer committed
while the batch waited for a round's lock is found by its unique index when the batch posts
it (the unit then runs again and sees it as a replay). The keys are a join with the array's
elements, never a scan comparing every transaction with every key; the funding is one
look-up of the round-and-player index per player of the batch: the plain ``round_id =
ANY(…) AND player_id = ANY(…)`` was planned, whenever the round's rows were newer than the
table's statistics (a round being bet on, that is), as a scan of every bet of the round
filtered by player — each batch read the whole round so far (700 rows a batch on average in
the benchmark at 1,000 bets/s; 10,000 at the end of a round of 10,000 bets)."""
# SQLite's: made once, an IN list of as many parameters as values (an ``in_()`` built
# for each batch cost more than the queries)
_KEYS_SQLITE = text("idempotency_key IN :keys").bindparams(bindparam("keys", expanding=True))
_ROUNDS_SQLITE = text("SELECT * FROM ledger_rounds WHERE id IN :ids ORDER BY id").bindparams(
    bindparam("ids", expanding=True)
)
_FUNDED_SQLITE = text(
    "SELECT DISTINCT round_id, player_id, funding FROM ledger_round_bets "
    "WHERE round_id IN :rounds AND player_id IN :players"
).bindparams(bindparam("rounds", expanding=True), bindparam("players", expanding=True))


def _lines_json(lines: Sequence[Line]) -> str:
    return orjson.dumps([[ln.bet, ln.stake, ln.payout_class, ln.net] for ln in lines]).decode()


def _lines_of(text: str) -> tuple[Line, ...]:
    return tuple(Line(str(b), int(s), str(c), int(n)) for b, s, c, n in json.loads(text))


async def _load(conn: AsyncConnection, where: Any) -> list[Transaction]:
    rows = (await conn.execute(select(_TX).where(where).order_by(_TX.c.seq))).all()
    if not rows:
        return []
    entries: dict[str, list[model.Entry]] = defaultdict(list)
    ids = [row.id for row in rows]
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for tid, code, amount in await conn.execute(
            select(_E.c.transaction_id, _E.c.account_code, _E.c.amount)
            .where(_E.c.transaction_id.in_(chunk))
            .order_by(_E.c.transaction_id, _E.c.account_code)
        ):
            entries[tid].append(model.Entry(Account.parse(code), amount))
    return [_transaction(row, entries[row.id]) for row in rows]


def _transaction(row: Row[Any], entries: Iterable[model.Entry]) -> Transaction:
    return Transaction(
        TransactionKind(row.kind),
        row.idempotency_key,
        tuple(entries),
        round_id=row.round_id,
        player_id=row.player_id,
        reference=row.reference_id,
        author=row.author,
        reason=row.reason,
        lines=_lines_of(row.lines),
    )


async def _hold(
    conn: AsyncConnection, accounts: Iterable[Account], *, locked: Mapping[str, int] | None = None
) -> dict[str, int]:
    """The accounts' balances, their rows locked in the order of their codes; accounts
    never used before (a player's first bet, a round's escrow …) are created first.
    ``locked``: the balances of those a statement of the caller's has locked already
    (:func:`_batch_pg`); only the missing ones are created and locked here."""
    by_code = {a.code: a for a in accounts}
    codes = sorted(by_code)
    held = dict(locked) if locked is not None else await _lock_balances(conn, codes)
    if len(held) < len(codes):
        await _ensure_accounts(conn, (by_code[c] for c in codes if c not in held))
        held.update(await _lock_balances(conn, [c for c in codes if c not in held]))
    return held


async def _ensure_accounts(conn: AsyncConnection, accounts: Iterable[Account]) -> None:
    rows = [
        {"code": a.code, "kind": a.kind.value, "key": a.key, "balance": 0}
        for a in sorted(set(accounts), key=lambda a: a.code)
    ]
    if not rows:
        return
    if conn.dialect.name == "postgresql":
        await conn.execute(pg_insert(_A).on_conflict_do_nothing(), rows)
    elif conn.dialect.name == "sqlite":
        await conn.execute(sqlite_insert(_A).on_conflict_do_nothing(), rows)
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        raise LedgerError(f"unsupported database {conn.dialect.name}")


async def _post_all(conn: AsyncConnection, transactions: Sequence[Transaction]) -> list[Posted]:
    """Post the transactions (replays are returned as they are), then move the balances
    in one fixed order of accounts."""
    known = await _by_keys(conn, [t.idempotency_key for t in transactions])
    found = [known.get(t.idempotency_key) for t in transactions]
    new = [t for t, existing in zip(transactions, found, strict=True) if existing is None]
    balances = await _post_new(conn, new) if new else {}
    return [
        Posted(_same(existing, t), replayed=True)
        if existing is not None
        else Posted(t, balances={e.account.code: balances[e.account.code] for e in t.entries})
        for t, existing in zip(transactions, found, strict=True)
    ]


async def _post_new(
    conn: AsyncConnection,
    fresh: Sequence[Transaction],
    *,
    locked: Mapping[str, int] | None = None,
    bets: Sequence[tuple[Any, ...]] = (),
    late: Collection[str] = (),
) -> dict[str, int]:
    """Insert new transactions and their entries (and ``bets``, the round bets that
    stakes among them confirm: rows of :data:`_BET_COLUMNS`) and move the balances with
    bulk statements; the new balances. The accounts are locked in one fixed order (by
    code) and checked first, so nothing is written when one would go below zero
    (``locked``: the balances of accounts the caller has locked already, in this
    transaction)."""
    deltas: dict[Account, int] = defaultdict(int)
    for t in fresh:
        for e in t.entries:
            deltas[e.account] += e.amount
    held = dict(locked or {})
    if missing := [a for a in deltas if a.code not in held and a.code not in late]:
        held.update(await _hold(conn, missing))
    balances: dict[str, int] = {}
    for account in sorted(deltas, key=lambda a: a.code):
        delta = deltas[account]
        balance = held.get(account.code, 0) + delta
        if delta < 0 and balance < 0 and not account.kind.may_go_negative:
            raise InsufficientFundsError(
                f"{account.code} holds {held.get(account.code, 0)}, {-delta} needed: "
                "nothing was posted"
            )
        balances[account.code] = balance
    # a settlement's players with the same bets share their lines: encoded once each
    # (``fresh`` keeps every transaction, so their lines, alive: an id names them here)
    lines: dict[int, str] = {}
    rows = [
        (
            t.id,
            t.idempotency_key,
            t.kind.value,
            t.round_id,
            t.player_id,
            t.reference,
            t.author,
            t.reason,
            lines.get(id(t.lines)) or lines.setdefault(id(t.lines), _lines_json(t.lines)),
            fingerprint,
        )
        for t, fingerprint in zip(fresh, model.fingerprints(fresh), strict=True)
    ]
    entries = [(t.id, e.account.code, e.amount) for t in fresh for e in t.entries]
    moved = {a.code: d for a, d in deltas.items() if d}
    if conn.dialect.name == "postgresql" and len(entries) <= _ONE_STATEMENT:
        # a batch of confirms, a payout: one statement, one round trip (COPY takes three)
        after = await _on_driver(
            conn,
            _POST_PG,
            (
                _rows_json(rows),
                _rows_json(entries),
                _rows_json(sorted(moved.items())),
                _rows_json(bets),
                sorted(late),
            ),
        )
        balances.update((code, int(balance)) for code, balance in after)
        return balances
    if late:  # locked now, after the accounts the stakes come from, as the statement does
        for code, balance in (await _lock_balances(conn, sorted(late))).items():
            if code in balances:
                balances[code] = balance + moved.get(code, 0)
    await _insert(conn, _TX, _TX_COLUMNS, rows)
    await _insert(conn, _E, ("transaction_id", "account_code", "amount"), entries)
    await _insert(conn, _RB, _BET_COLUMNS, bets)
    await _add_to_balances(conn, moved)
    return balances


async def _on_driver(conn: AsyncConnection, sql: str, args: tuple[Any, ...]) -> list[Any]:
    """Run ``sql`` on PostgreSQL's driver itself, in ``conn``'s transaction, and return its
    rows: a batch of confirms' two statements and a settlement's read of the round's bets,
    without SQLAlchemy's result layer (70–145 µs of CPU a statement on this project's
    2-core machine: at 1,000 bets/s offered a batch holds a confirm or two, so the layer
    was a large part of each bet). Nothing else changes for the statement
    (:func:`_driver_call`)."""
    rows: list[Any] = await _driver_call(
        conn, sql, args, lambda driver, sql, args: driver.fetch(sql, *args)
    )
    return rows


async def _driver_call(
    conn: AsyncConnection,
    sql: str,
    args: Any,
    call: Callable[[Any, str, Any], Awaitable[Any]],
) -> Any:
    """``call(driver, sql, args)`` on PostgreSQL's driver itself (a statement, a
    ``COPY``), in ``conn``'s transaction, as if SQLAlchemy ran ``sql``: it is announced to
    the engine's ``before_cursor_execute`` listeners like any other statement (a listener
    may rewrite ``sql`` and ``args``), and it fails as SQLAlchemy fails — a unique key
    taken first is an :class:`~sqlalchemy.exc.IntegrityError`, a connection the database
    closed under it invalidates the connection and is a
    :class:`~sqlalchemy.exc.DBAPIError` marked ``connection_invalidated`` (either way
    :meth:`LedgerStore._run` runs the unit once more), any other database error a
    :class:`~sqlalchemy.exc.DBAPIError`.

    It runs in the unit's transaction, also when it is the unit's first statement
    (:func:`_in_transaction`)."""
    sync = conn.sync_connection
    if sync is not None:
        for listener in sync.dispatch.before_cursor_execute:
            sql, args = listener(sync, None, sql, args, None, False)
    raw = await conn.get_raw_connection()
    driver: Any = raw.driver_connection
    try:
        await _in_transaction(raw)
        return await call(driver, sql, args)
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise IntegrityError(sql, args, exc) from exc
    except (
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        asyncpg.InternalClientError,
        OSError,
    ) as exc:
        # InternalClientError: the driver's protocol met the database's closing in the
        # middle of its own state change ("another operation is in progress": a connection
        # cut just before this statement, its notice not yet read); it is of no more use
        cut = isinstance(exc, asyncpg.InternalClientError) or driver.is_closed()
        if cut:
            await conn.invalidate(exc)
        raise DBAPIError(sql, args, exc, connection_invalidated=cut) from exc


async def _in_transaction(raw: Any) -> None:
    """Begin the unit's transaction on PostgreSQL's driver if none is yet, before a
    statement goes to the driver itself (``raw``: the pool's connection). SQLAlchemy's
    adapter begins one only before a statement of its own: without this, a batch of
    confirms checked the balances it locked and posted in two statements each committed on
    its own (the locks went with the first, and a withdrawal or another write between them
    could take a player below zero). Begun as the adapter begins one and handed to it, so
    the unit's commit or rollback ends it (tests pin both)."""
    driver: Any = raw.driver_connection
    adapted: Any = raw.dbapi_connection
    if not driver.is_in_transaction() and adapted.isolation_level != "autocommit":
        begun = driver.transaction(
            isolation=adapted.isolation_level,
            readonly=adapted.readonly,
            deferrable=adapted.deferrable,
        )
        await begun.start()
        adapted._transaction = begun


_POST_PG = (
    "WITH l AS MATERIALIZED (SELECT a.code FROM unnest($5::varchar[]) AS v(code) "
    "JOIN ledger_accounts AS a ON a.code = v.code ORDER BY a.code FOR NO KEY UPDATE OF a), "
    "t AS (INSERT INTO ledger_transactions (id, idempotency_key, kind, round_id, "
    "player_id, reference_id, author, reason, lines, fingerprint) SELECT r->>0, r->>1, "
    "r->>2, r->>3, r->>4, r->>5, r->>6, r->>7, r->>8, r->>9 "
    "FROM jsonb_array_elements($1::jsonb) AS r), "
    "e AS (INSERT INTO ledger_entries (transaction_id, account_code, amount) "
    "SELECT r->>0, r->>1, (r->>2)::bigint FROM jsonb_array_elements($2::jsonb) AS r), "
    "b AS (INSERT INTO ledger_round_bets (round_id, player_id, bet, stake, transaction_id, "
    "funding, status) SELECT r->>0, r->>1, r->>2, (r->>3)::bigint, r->>4, r->>5, r->>6 "
    "FROM jsonb_array_elements($4::jsonb) AS r) "
    "UPDATE ledger_accounts AS a SET balance = a.balance + v.delta "
    "FROM (SELECT r->>0 AS code, (r->>1)::bigint AS delta "
    "FROM jsonb_array_elements($3::jsonb) AS r) AS v WHERE a.code = v.code "
    "AND (SELECT count(*) FROM l) >= 0 RETURNING a.code, a.balance"
)
"""A few new transactions, their entries, the round bets they confirm and the balances
they move, in one statement (PostgreSQL checks the statement's foreign keys when it
ends). Each set of rows is one JSON array of rows (:func:`_rows_json`): encoded in one
call, where an array parameter per column had the driver check every element of every
column one by one (the parameters of a batch of 50 confirms: 300–330 µs of the server's
CPU as arrays, 60–80 µs as JSON)."""


def _rows_json(rows: Sequence[tuple[Any, ...]]) -> str:
    """Rows (tuples of text, integers and ``None``) as one JSON array of arrays: the
    parameter of a ``jsonb_array_elements`` in :data:`_POST_PG`."""
    return orjson.dumps(rows).decode()


_BET_COLUMNS = ("round_id", "player_id", "bet", "stake", "transaction_id", "funding", "status")


_CHUNK = 1000
"""Keys per ``IN (…)`` list (SQLite allows 32,766 parameters; PostgreSQL 32,767)."""

_COPY_FROM = 50
"""Rows from which PostgreSQL gets them by ``COPY`` rather than ``INSERT``."""

_ONE_STATEMENT = 1000
"""Entries up to which PostgreSQL gets new transactions, their entries, the round bets
they confirm and the balances they move in one statement (a batch of 500 confirms); a
round's settlement takes COPY."""


_TX_COLUMNS = (
    "id",
    "idempotency_key",
    "kind",
    "round_id",
    "player_id",
    "reference_id",
    "author",
    "reason",
    "lines",
    "fingerprint",
)


async def _insert(
    conn: AsyncConnection,
    table: Table,
    columns: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
) -> None:
    """Insert ``rows`` (values in the order of ``columns``): by ``COPY`` on PostgreSQL
    when there are many (a round's settlement: the rows go to the driver as they are
    made, no mapping per row), else one ``executemany`` (SQLite's driver gets the tuples
    as they are); in the caller's transaction either way."""
    if not rows:
        return
    if conn.dialect.name == "postgresql" and len(rows) >= _COPY_FROM:
        # on the driver as a statement is: seen by the engine's listeners, in the unit's
        # transaction even when first, failing as SQLAlchemy fails (a cut connection runs
        # the unit again)
        await _driver_call(
            conn,
            f"COPY {table.name} ({', '.join(columns)}) FROM STDIN (FORMAT binary)",
            rows,
            lambda driver, _sql, records: driver.copy_records_to_table(
                table.name, records=records, columns=list(columns)
            ),
        )
        return
    if conn.dialect.name == "sqlite":  # the driver's own executemany, on the tuples
        marks = ", ".join("?" for _ in columns)
        sql = f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({marks})"
        await conn.exec_driver_sql(sql, list(rows))
        return
    await conn.execute(insert(table), [dict(zip(columns, row, strict=True)) for row in rows])


_LOCK_PG = text(
    "SELECT a.code, a.balance FROM unnest(CAST(:codes AS varchar[])) AS v(code) "
    "JOIN ledger_accounts AS a ON a.code = v.code ORDER BY a.code FOR UPDATE OF a"
)
"""The accounts of many codes (distinct), locked in the order of their codes. A join
with the array's elements, not ``code = ANY(…)``: once a prepared statement runs on
PostgreSQL's generic plan (from its sixth run on a connection), ``= ANY`` of a parameter
is no longer hashed, and a scan of the accounts compared every row with every code — 2,500
codes took 50–60 ms in the server, 4 ms on a plan made for the values; the join probes
the accounts' key once per code on either plan (5–7 ms)."""
_LOCK_SQLITE = text(
    "SELECT code, balance FROM ledger_accounts WHERE code IN :codes ORDER BY code"
).bindparams(bindparam("codes", expanding=True))


async def _lock_balances(conn: AsyncConnection, codes: Sequence[str]) -> dict[str, int]:
    """The accounts' balances, their rows locked (``FOR UPDATE`` on PostgreSQL; SQLite's
    ``BEGIN IMMEDIATE`` holds the whole database) in the order of ``codes``. PostgreSQL
    gets every code as one array parameter (a round's 2,500 accounts in one statement,
    not an ``IN`` list of a thousand parameters compiled three times)."""
    held: dict[str, int] = {}
    if conn.dialect.name == "postgresql":
        if codes:
            rows = await conn.execute(_LOCK_PG, {"codes": list(codes)})
            held.update({code: int(balance) for code, balance in rows})
        return held
    for start in range(0, len(codes), _CHUNK):
        chunk = list(codes[start : start + _CHUNK])
        rows = await conn.execute(_LOCK_SQLITE, {"codes": chunk})
        held.update({code: int(balance) for code, balance in rows})
    return held


_ADD_PG = text(
    "UPDATE ledger_accounts AS a SET balance = a.balance + v.delta "
    "FROM unnest(CAST(:codes AS varchar[]), CAST(:deltas AS bigint[])) AS v(code, delta) "
    "WHERE a.code = v.code"
)


async def _add_to_balances(conn: AsyncConnection, deltas: Mapping[str, int]) -> None:
    """Move every balance in one statement (PostgreSQL: ``UPDATE … FROM unnest``) or one
    prepared statement run for each account (SQLite's ``executemany``)."""
    if not deltas:
        return
    codes = sorted(deltas)
    if conn.dialect.name == "postgresql":
        await conn.execute(_ADD_PG, {"codes": codes, "deltas": [deltas[c] for c in codes]})
        return
    statement = (
        update(_A)
        .where(_A.c.code == bindparam("b_code"))
        .values(balance=_A.c.balance + bindparam("b_delta"))
    )
    await conn.execute(statement, [{"b_code": c, "b_delta": deltas[c]} for c in codes])


async def _check(conn: AsyncConnection) -> CheckReport:
    problems: list[str] = []
    entries_total = int(await conn.scalar(select(func.coalesce(func.sum(_E.c.amount), 0))) or 0)
    if entries_total:
        problems.append(f"the accounts sum to {entries_total}, not 0")
    sums = {
        code: int(total)
        for code, total in await conn.execute(
            select(_E.c.account_code, func.sum(_E.c.amount)).group_by(_E.c.account_code)
        )
    }
    balances: dict[str, int] = {}
    for code, kind, balance in await conn.execute(
        select(_A.c.code, _A.c.kind, _A.c.balance).order_by(_A.c.code)
    ):
        balances[code] = balance
        if sums.get(code, 0) != balance:
            problems.append(
                f"account {code} shows {balance} but its entries sum to {sums.get(code, 0)}"
            )
        if balance < 0 and not AccountKind(kind).may_go_negative:
            problems.append(f"account {code} is negative ({balance})")
    for code in sorted(set(sums) - set(balances)):  # no foreign key: checked here
        problems.append(f"entries name account {code}, which does not exist")
    # Every transaction: balanced, well-formed and unchanged since it was posted.
    tx_rows = (await conn.execute(select(_TX).order_by(_TX.c.seq))).all()
    legs: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for tid, code, amount in await conn.execute(
        select(_E.c.transaction_id, _E.c.account_code, _E.c.amount).order_by(
            _E.c.transaction_id, _E.c.account_code
        )
    ):
        legs[tid].append((code, amount))
    posted_ids = {row.id for row in tx_rows}
    for tid in sorted(set(legs) - posted_ids):
        problems.append(f"entries belong to transaction {tid}, which was never posted")
    settled: dict[tuple[str, str], list[Transaction]] = defaultdict(list)
    for row in tx_rows:
        try:
            transaction = _transaction(
                row, (model.Entry(Account.parse(c), a) for c, a in legs[row.id])
            )
        except PuntoError as exc:
            problems.append(f"transaction {row.id} is malformed: {exc}")
            continue
        if transaction.id != row.id or transaction.fingerprint != row.fingerprint:
            problems.append(f"transaction {row.id} was changed after it was posted")
        if transaction.round_id is not None and transaction.player_id is not None:
            settled[(transaction.round_id, transaction.player_id)].append(transaction)
    # Every confirmed bet: settled, refunded, or still open in a live round.
    rounds = {row.id: _round_info(row) for row in await conn.execute(select(_R))}
    staked: dict[tuple[str, str], int] = defaultdict(int)
    for round_id, player, stake in await conn.execute(
        select(_RB.c.round_id, _RB.c.player_id, _RB.c.stake).where(_RB.c.status == _CONFIRMED)
    ):
        staked[(round_id, player)] += stake
    escrow_due: dict[str, int] = defaultdict(int)
    for (round_id, player), stake in sorted(staked.items()):
        status = rounds[round_id].status
        kinds = {t.kind for t in settled[(round_id, player)]}
        closing = [
            t
            for t in settled[(round_id, player)]
            if t.kind in (TransactionKind.SETTLE, TransactionKind.REFUND)
        ]
        if status is RoundStatus.OPEN:
            escrow_due[round_id] += stake
            if closing:
                problems.append(f"round {round_id} is open but {player}'s bets were closed")
        elif len(closing) != 1 or sum(ln.stake for ln in closing[0].lines) != stake:
            problems.append(
                f"{player}'s confirmed bets in {status.value} round {round_id} "
                f"({stake}) are not settled or refunded exactly once"
            )
        elif status is RoundStatus.VOIDED and not (
            TransactionKind.REFUND in kinds or TransactionKind.VOID in kinds
        ):
            problems.append(f"{player}'s bets in voided round {round_id} were not refunded")
    for round_id, info in sorted(rounds.items()):
        held = balances.get(Account.escrow(round_id).code, 0)
        if held != escrow_due.get(round_id, 0):
            problems.append(
                f"escrow of {info.status.value} round {round_id} holds {held}, "
                f"its open stakes are {escrow_due.get(round_id, 0)}"
            )
    return CheckReport(
        problems=tuple(problems),
        accounts=len(balances),
        transactions=len(tx_rows),
        entries_total=entries_total,
        open_rounds=sum(1 for r in rounds.values() if r.status is RoundStatus.OPEN),
        balances=balances,
    )
