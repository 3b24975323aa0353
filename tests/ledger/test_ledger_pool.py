"""The PostgreSQL connection pool: a fixed number of connections, kept once opened."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from ledger_support import BACKENDS, ledger_database
from sqlalchemy import event, text

from punto.errors import ServerError
from punto.ledger.store import DEFAULT_POOL, create_engine
from punto.server.config import Settings


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", BACKENDS[1:])
async def test_a_burst_beyond_the_pool_waits_for_the_connections_it_keeps(
    backend: str, tmp_path: Path
) -> None:
    """Units of work beyond the pool (hundreds of players joining at once) wait for one
    of its connections instead of opening one more that is closed again when returned:
    a new connection costs a server process, the driver's type introspection and every
    statement's preparation. The pool keeps what it opened for the next burst."""
    async with ledger_database(backend, tmp_path) as url:
        engine = create_engine(url, pool=3)
        opened = 0

        def count(*_: object) -> None:
            nonlocal opened
            opened += 1

        event.listen(engine.sync_engine, "connect", count)
        try:
            for burst in range(2):
                release = asyncio.Event()
                answers: list[int] = []

                async def unit(n: int, release: asyncio.Event, answers: list[int]) -> None:
                    async with engine.connect() as conn:
                        await release.wait()  # held until the pool is all lent
                        answers.append((await conn.execute(text(f"SELECT {n}"))).scalar_one())

                tasks = [asyncio.create_task(unit(n, release, answers)) for n in range(30)]
                while engine.pool.checkedout() < 3:  # type: ignore[attr-defined]
                    await asyncio.sleep(0.01)
                assert engine.pool.checkedout() == 3, burst  # type: ignore[attr-defined]
                assert not any(t.done() for t in tasks)  # the other 27 wait
                release.set()
                await asyncio.gather(*tasks)
                assert sorted(answers) == list(range(30))
                assert opened == 3, (burst, opened)  # none more, and none again
                assert engine.pool.checkedin() == 3  # type: ignore[attr-defined]
        finally:
            await engine.dispose()


@pytest.mark.parametrize("url", ["postgresql://postgres@127.0.0.1/test", "sqlite://"])
def test_a_pool_needs_a_connection(url: str) -> None:
    for size in (0, -1):
        with pytest.raises(ValueError, match="at least one connection"):
            create_engine(url, pool=size)


def test_the_servers_pool_is_a_setting() -> None:
    assert Settings.from_env({}).database_pool == DEFAULT_POOL
    assert Settings.from_env({"PUNTO_DATABASE_POOL": "32"}).database_pool == 32
    for bad in ("0", "-3"):
        with pytest.raises(ServerError, match="at least one connection"):
            Settings.from_env({"PUNTO_DATABASE_POOL": bad})
    with pytest.raises(ServerError, match="bad server setting"):
        Settings.from_env({"PUNTO_DATABASE_POOL": "ten"})
