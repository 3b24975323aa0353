"""Names are compared byte by byte: on PostgreSQL the ledger's and the hands' name columns
carry ``COLLATE "C"`` (ledger migration 0005, server migration s0013) exactly where the
table declarations say so; SQLite's schema gets no collation at all (its strings compare
byte by byte already)."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from ledger_support import BACKENDS, ledger_database
from sqlalchemy import MetaData, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.ledger import migrate as ledger_migrate
from punto.ledger.store import create_engine
from punto.ledger.tables import Base as LedgerBase
from punto.server.store import schema
from punto.server.store.migrate import upgrade_async

pytestmark = [pytest.mark.asyncio, pytest.mark.parametrize("backend", BACKENDS)]


def _declared(metadata: MetaData) -> dict[tuple[str, str], str | None]:
    """Each string column's collation on PostgreSQL, as the declarations give it."""
    dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
    return {
        (table.name, column.name): getattr(column.type.dialect_impl(dialect), "collation", None)
        for table in metadata.tables.values()
        for column in table.columns
        if column.type.python_type is str
    }


async def test_name_columns_compare_byte_by_byte(backend: str, tmp_path: Path) -> None:
    declared = _declared(LedgerBase.metadata) | _declared(schema.Base.metadata)
    byte_order = {column for column, collation in declared.items() if collation == "C"}
    assert ("ledger_entries", "account_code") in byte_order
    assert ("server_hand_players", "player_id") in byte_order
    async with ledger_database(backend, tmp_path) as url:
        await upgrade_async(url)  # the server's tables too
        engine = create_engine(url)
        try:
            async with engine.connect() as conn:
                if backend == "sqlite":
                    ddl = await conn.execute(text("SELECT sql FROM sqlite_master"))
                    assert not [sql for (sql,) in ddl if sql and "COLLATE" in sql.upper()]
                    return
                assert await _collations(conn, declared) == declared
            # the ledger's downgrade gives its columns the database's collation back
            async with engine.begin() as conn:
                await conn.run_sync(_ledger_to, "0004")
            async with engine.connect() as conn:
                found = await _collations(conn, declared)
            assert not {c for c in byte_order if c[0].startswith("ledger_") and found[c]}
            assert found[("server_hand_players", "player_id")] == "C"
            async with engine.begin() as conn:
                await conn.run_sync(_ledger_to, "head")
            async with engine.connect() as conn:
                assert await _collations(conn, declared) == declared
        finally:
            await engine.dispose()


async def _collations(
    conn: AsyncConnection, declared: dict[tuple[str, str], str | None]
) -> dict[tuple[str, str], str | None]:
    """The collation PostgreSQL gives each declared column (``None``: the database's)."""
    rows = await conn.execute(
        text(
            "SELECT table_name, column_name, collation_name FROM information_schema.columns "
            "WHERE table_schema = current_schema()"
        )
    )
    found = {(table, column): collation for table, column, collation in rows}
    return {column: found[column] for column in declared}


def _ledger_to(connection: Connection, revision: str) -> None:
    config = ledger_migrate.alembic_config(connection)
    if revision == "head":
        command.upgrade(config, revision)
    else:
        command.downgrade(config, revision)
