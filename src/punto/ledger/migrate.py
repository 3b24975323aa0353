"""Run the ledger's Alembic migrations from Python or ``punto ledger migrate``.

No ``alembic.ini`` is needed: the configuration is built here and the migration scripts
ship inside the package, so this works from an installed wheel too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path

from alembic import command, context, op
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData
from sqlalchemy.engine import Connection

from punto.ledger.store import create_engine
from punto.ledger.tables import VERSION_TABLE

__all__ = [
    "alembic_config",
    "collate",
    "current",
    "head",
    "run_environment",
    "upgrade",
    "upgrade_async",
]

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(connection: Connection | None = None, *, scripts: Path = MIGRATIONS) -> Config:
    """The Alembic configuration of the migrations in ``scripts`` (default the ledger's)
    on ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(scripts))
    config.set_main_option("path_separator", "os")
    config.attributes["connection"] = connection
    return config


def run_environment(metadata: MetaData, version_table: str, *, upgrade: str) -> None:
    """The body of an ``env.py``: run the pending migrations on the connection the
    configuration carries, in its transaction (``upgrade`` names the function to call
    instead when Alembic is run without one)."""
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError(f"run these migrations with {upgrade}")
    context.configure(
        connection=connection,
        target_metadata=metadata,
        version_table=version_table,
        transaction_per_migration=False,
    )
    with context.begin_transaction():
        context.run_migrations()


def collate(columns: Mapping[str, Sequence[tuple[str, int]]], collation: str | None) -> None:
    """In a migration: give the ``varchar`` columns (by table: name and length) the
    ``collation`` (``None``: the database's own) on PostgreSQL, their indexes rebuilt and
    their rows kept; nothing on SQLite, whose strings compare byte by byte."""
    if op.get_bind().dialect.name != "postgresql":
        return
    clause = "" if collation is None else f' COLLATE "{collation}"'
    for table, named in columns.items():
        changes = ", ".join(
            f"ALTER COLUMN {name} TYPE varchar({length}){clause}" for name, length in named
        )
        op.execute(f"ALTER TABLE {table} {changes}")


def head() -> str:
    """The newest revision of the ledger's schema."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if revision is None:  # pragma: no cover - the package ships its revisions
        raise RuntimeError("the ledger's migrations have no head revision")
    return revision


async def upgrade_async(url: str | None = None, revision: str = "head") -> None:
    """Bring the database at ``url`` (see :func:`punto.ledger.store.database_url`) up to
    ``revision``, in one transaction."""
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade, revision)
    finally:
        await engine.dispose()


def _upgrade(connection: Connection, revision: str) -> None:
    command.upgrade(alembic_config(connection), revision)


def upgrade(url: str | None = None, revision: str = "head") -> None:
    """:func:`upgrade_async` for synchronous callers (the command line)."""
    asyncio.run(upgrade_async(url, revision))


async def current(url: str | None = None) -> str | None:
    """The database's revision of the ledger schema (``None``: not migrated)."""
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(_current)
    finally:
        await engine.dispose()


def _current(connection: Connection) -> str | None:
    context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
    return context.get_current_revision()
