"""Statements on PostgreSQL's driver itself, in a unit's transaction and failing as
SQLAlchemy fails, and bulk inserts (``COPY`` on PostgreSQL, ``executemany`` on SQLite)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import asyncpg
import orjson
from sqlalchemy import Table, insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

__all__ = ["driver_call", "insert_rows", "on_driver", "rows_json"]


async def on_driver(conn: AsyncConnection, sql: str, args: tuple[Any, ...]) -> list[Any]:
    """Run ``sql`` on PostgreSQL's driver itself, in ``conn``'s transaction, and return its
    rows: a batch of confirms' two statements and a settlement's read of the round's bets,
    without SQLAlchemy's result layer, whose cost per statement is a large part of a small
    batch's. Nothing else changes for the statement
    (:func:`driver_call`)."""
    rows: list[Any] = await driver_call(
        conn, sql, args, lambda driver, sql, args: driver.fetch(sql, *args)
    )
    return rows


async def driver_call(
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
    :func:`~punto.ledger.engine.run_unit` runs the unit once more), any other database error a
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
    confirms would check the balances it locked and post in two statements each committed
    on its own (the locks would go with the first, and a write between them could take a
    player below zero). Begun as the adapter begins one and handed to it, so
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


def rows_json(rows: Sequence[tuple[Any, ...]]) -> str:
    """Rows (tuples of text, integers and ``None``) as one JSON array of arrays: the
    parameter of a ``jsonb_array_elements`` (one call encodes a whole set of rows)."""
    return orjson.dumps(rows).decode()


_COPY_FROM = 50
"""Rows from which PostgreSQL gets them by ``COPY`` rather than ``INSERT``."""


async def insert_rows(
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
        await driver_call(
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
