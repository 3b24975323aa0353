"""One short transaction on the server's engine: what every concept store of the package
runs its statements through, with the wall clock their rows are stamped by."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy import Table
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

__all__ = ["Database", "StorePart", "dialect_insert"]

_T = TypeVar("_T")


class StorePart:
    """One concept's queries over the shared :class:`Database` (the server's store is made
    of them: :class:`~punto.server.store.storage.ServerStore`)."""

    def __init__(self, db: Database) -> None:
        self._db = db


class Database:
    """The engine shared with the ledger, and the clock of the rows' times: epoch seconds
    of the wall, since leases, turns and wallet calls are compared across processes."""

    def __init__(self, engine: AsyncEngine, *, clock: Callable[[], float]) -> None:
        self.engine = engine
        self.clock = clock

    @property
    def postgresql(self) -> bool:
        """Whether the database is PostgreSQL (else SQLite)."""
        return self.engine.dialect.name == "postgresql"

    async def run(self, unit: Callable[[AsyncConnection], Awaitable[_T]]) -> _T:
        """Run ``unit`` in one transaction, committed when it returns."""
        async with self.engine.begin() as conn:
            return await unit(conn)

    async def read_one(self, unit: Callable[[AsyncConnection], Awaitable[_T]]) -> _T:
        """Run ``unit``, which reads with **one** statement: on PostgreSQL outside a
        transaction block (the statement is its own transaction, with the same snapshot),
        one round trip instead of three (``BEGIN``, the query, ``COMMIT``); elsewhere as
        :meth:`run`."""
        if not self.postgresql:
            return await self.run(unit)
        async with self.engine.connect() as conn:
            return await unit(await conn.execution_options(isolation_level="AUTOCOMMIT"))


def dialect_insert(conn: AsyncConnection, table: Table) -> Any:
    """An ``INSERT`` of the connection's dialect (with ``ON CONFLICT`` clauses)."""
    return (pg_insert if conn.dialect.name == "postgresql" else sqlite_insert)(table)
