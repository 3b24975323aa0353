"""Run the server's and the ledger's Alembic migrations (two branches, two version
tables, one database).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

from punto.ledger import migrate as ledger_migrate
from punto.ledger.store import create_engine

__all__ = ["alembic_config", "upgrade_async"]

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(connection: Connection | None = None) -> Config:
    """The Alembic configuration of the server's migrations (on ``connection``)."""
    return ledger_migrate.alembic_config(connection, scripts=MIGRATIONS)


_LOCK = 7_340_001
"""PostgreSQL advisory lock key: processes starting together migrate one at a time."""


def _upgrade(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK})")
    command.upgrade(ledger_migrate.alembic_config(connection), "head")
    command.upgrade(alembic_config(connection), "head")


async def upgrade_async(url: str) -> None:
    """Bring the ledger's and the server's tables at ``url`` to their newest revision, in
    one transaction."""
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade)
    finally:
        await engine.dispose()
