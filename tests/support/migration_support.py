"""What a test of one server migration needs: a fresh database at head, and a step of
the server's schema to a revision."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from alembic import command
from ledger_support import ledger_database
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from punto.cli.database import server_database
from punto.server.store.migrate import alembic_config


def server_to(connection: Connection, revision: str) -> None:
    """Move the server's schema to ``revision`` in ``connection`` (``head``: up, else down)."""
    config = alembic_config(connection)
    if revision == "head":
        command.upgrade(config, revision)
    else:
        command.downgrade(config, revision)


@asynccontextmanager
async def migrated_engine(backend: str, tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """An engine on a fresh ``backend`` database with every migration applied."""
    async with ledger_database(backend, tmp_path) as url, server_database(url) as engine:
        yield engine
