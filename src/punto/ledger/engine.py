"""The ledger's database connections: the URL, the engine and its pool, a reachability
check, a connection kept across units of work, and the retry of a unit of work.

On SQLite every unit of work starts with ``BEGIN IMMEDIATE`` (writers queue); on
PostgreSQL the pool keeps its connections once opened and replaces one the database cut.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from punto.errors import LedgerError, UnavailableError

__all__ = [
    "DEFAULT_DATABASE_URL",
    "DEFAULT_POOL",
    "KeptConnection",
    "create_engine",
    "database_url",
    "reach",
    "run_snapshot",
    "run_unit",
]

_T = TypeVar("_T")

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///punto.sqlite3"
"""The database when neither ``--database-url`` nor ``PUNTO_DATABASE_URL`` is given."""


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
"""PostgreSQL connections an engine keeps (:func:`create_engine`). A table settling on
PostgreSQL uses two at once (the ledger's settlement and the hand's record, whose
transaction waits for the settlement's), so the pool is kept well above twice the tables
that may settle together."""


def create_engine(url: str | None = None, *, pool: int = DEFAULT_POOL) -> AsyncEngine:
    """An async engine for :func:`database_url` ``(url)``.

    On PostgreSQL, a pool of at most ``pool`` connections, each kept once opened: units
    of work beyond that many at once wait for one to come back rather than open a
    connection that is closed again as soon as it is returned — a burst (hundreds of
    players joining together) would otherwise pay a new server process, the driver's type
    introspection and every statement's preparation for each unit beyond the pool.

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
            # a cut connection is replaced before use without a pre-ping's round trips;
            # a cut not seen yet fails the unit, which run_unit runs again
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
    (:meth:`~punto.ledger.store.LedgerStore.kept_connection`): each unit is its own
    transaction on it, without the pool's lending and taking back around it (their checks,
    events and turns of the event loop). A connection the database cut is
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


def _missing_schema(exc: Exception) -> bool:
    text = str(exc).lower()
    return "no such table" in text or ("relation" in text and "does not exist" in text)


async def run_unit(
    engine: AsyncEngine,
    unit: Callable[[AsyncConnection], Awaitable[_T]],
    kept: KeptConnection | None = None,
) -> _T:
    """Run ``unit`` in one database transaction (on ``kept``'s connection if given, else
    on one the pool of ``engine`` lends for it); once more if a concurrent writer inserted
    the same key first (the second run then sees it as a replay) or the connection was cut
    under it (every unit is idempotent by its keys, so a commit whose answer was lost is
    found as a replay)."""
    for attempt in range(2):
        try:
            if kept is None:
                async with engine.begin() as conn:
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


async def run_snapshot(engine: AsyncEngine, unit: Callable[[AsyncConnection], Awaitable[_T]]) -> _T:
    """Run the reading ``unit`` in one transaction that sees the whole database as of one
    moment: PostgreSQL's REPEATABLE READ (its default isolation gives each statement a
    fresh snapshot, so a reader of several tables would see a write committed between
    them in one and not the other); SQLite's transactions are serialized already. Once
    more if the connection was cut under it; missing tables as :func:`run_unit` says."""
    for attempt in range(2):
        try:
            async with engine.connect() as conn:
                if engine.dialect.name == "postgresql":
                    conn = await conn.execution_options(isolation_level="REPEATABLE READ")
                async with conn.begin():
                    return await unit(conn)
        except DBAPIError as exc:
            if _missing_schema(exc):
                raise LedgerError(
                    "the ledger tables are missing: run `punto ledger migrate`"
                ) from exc
            if attempt or not exc.connection_invalidated:
                raise
    raise AssertionError("unreachable")  # pragma: no cover
