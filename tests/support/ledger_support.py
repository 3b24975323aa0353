"""Databases for the ledger tests: a SQLite file, and a fresh PostgreSQL database.

Each PostgreSQL test gets its own database ``punto_test_<random>``, created through the
``test`` database and dropped afterwards, so parallel runs never collide. When no
PostgreSQL server answers, its tests are skipped and say so; nothing is mocked.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from punto.ledger.migrate import upgrade_async
from punto.ledger.store import LedgerStore

__all__ = ["BACKENDS", "POSTGRESQL", "POSTGRES_ADMIN_URL", "ledger_database", "ledger_store"]

POSTGRES_ADMIN_URL = os.environ.get(
    "PUNTO_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
"""Where the tests create (and drop) their PostgreSQL databases."""


def _postgres_answers() -> bool:
    parts = urlsplit(POSTGRES_ADMIN_URL)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 5432), 2):
            return True
    except OSError:
        return False


_NO_POSTGRES = pytest.mark.skipif(
    not _postgres_answers(),
    reason=f"no PostgreSQL server answers at {urlsplit(POSTGRES_ADMIN_URL).netloc}",
)

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=_NO_POSTGRES),
]
"""Parametrize a test with ``backend`` over SQLite and PostgreSQL."""

POSTGRESQL = [p for p in BACKENDS if p.id == "postgresql"]
"""Parametrize a test with ``backend`` on PostgreSQL alone (skipped, saying why, when no
server answers)."""


@asynccontextmanager
async def ledger_database(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """A migrated, empty ledger database of ``backend``; yields its URL."""
    if backend == "sqlite":
        tmp_path.mkdir(parents=True, exist_ok=True)
        url = f"sqlite+aiosqlite:///{tmp_path / 'ledger.sqlite3'}"
        await upgrade_async(url)
        yield url
        return
    name = f"punto_test_{secrets.token_hex(6)}"
    parts = urlsplit(POSTGRES_ADMIN_URL)
    admin = create_async_engine(
        parts._replace(scheme="postgresql+asyncpg").geturl(), isolation_level="AUTOCOMMIT"
    )
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
        url = parts._replace(scheme="postgresql+asyncpg", path=f"/{name}").geturl()
        try:
            await upgrade_async(url)
            yield url
        finally:
            async with admin.connect() as conn:
                await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()


@asynccontextmanager
async def ledger_store(backend: str, tmp_path: Path) -> AsyncIterator[LedgerStore]:
    """A :class:`LedgerStore` on a fresh database of ``backend``."""
    async with ledger_database(backend, tmp_path) as url, LedgerStore.open(url) as store:
        yield store
