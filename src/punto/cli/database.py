"""The options and the opening of the server's database that the commands on it share
(``punto ledger``, ``punto operators``, ``punto users``)."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

__all__ = ["add_database_options", "server_database"]


def add_database_options(
    actions: Iterable[argparse.ArgumentParser], *, answers_json: bool = True
) -> None:
    """Give each action ``--database-url`` (and ``--json`` when ``answers_json``)."""
    for action in actions:
        if answers_json:
            action.add_argument("--json", action="store_true", help="answer in JSON")
        action.add_argument(
            "--database-url",
            metavar="URL",
            help="e.g. sqlite:///punto.sqlite3 or postgresql://user@host/db "
            "(default: $PUNTO_DATABASE_URL, else punto.sqlite3)",
        )


@asynccontextmanager
async def server_database(url: str) -> AsyncIterator[AsyncEngine]:
    """The server's database at ``url``, migrated to the newest revision (the ``server``
    extra), closed after."""
    from punto.ledger.store import create_engine
    from punto.server.store.migrate import upgrade_async

    await upgrade_async(url)
    engine = create_engine(url)
    try:
        yield engine
    finally:
        await engine.dispose()
