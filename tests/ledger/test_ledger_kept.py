"""A connection kept from one ledger write to the next (:class:`KeptConnection`): what a
group commit's writer writes its batches of confirms on [L]. On the real PostgreSQL: the
writes share one server process; one cut between writes (``pg_terminate_backend``) or in
the middle of one is replaced and nothing is posted twice or lost; the connection goes
back to the pool when the writer leaves, also after a failure. SQLite keeps none (its one
connection would hold every other unit of work back)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from ledger_support import BACKENDS, POSTGRES_ADMIN_URL, POSTGRESQL, ledger_store
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine

from punto.bets import Bet
from punto.errors import InsufficientFundsError, LedgerError, PuntoError, RoundStateError
from punto.ledger import model
from punto.ledger.model import Account, TransactionKind
from punto.ledger.store import ConfirmRequest, KeptConnection, LedgerStore, Posted

pytestmark = pytest.mark.asyncio


async def _funded(store: LedgerStore, *players: str) -> None:
    for player in players:
        await store.post(
            model.transfer(TransactionKind.DEPOSIT, player, 5_000, transaction_id=f"d-{player}")
        )
    await store.open_round("g1", table_id="t1")


def _confirm(player: str, n: int, amount: int = 1_000) -> ConfirmRequest:
    return ConfirmRequest("g1", player, {Bet.PLAYER: amount}, f"c-{player}-{n}", None)


async def _backend_pid(kept: KeptConnection) -> int:
    async def unit(conn: AsyncConnection) -> int:
        return int((await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one())

    return await kept.run(unit)


@asynccontextmanager
async def _admin() -> AsyncIterator[AsyncConnection]:
    """A connection of its own to the test server, to cut others' with."""
    url = urlsplit(POSTGRES_ADMIN_URL)._replace(scheme="postgresql+asyncpg").geturl()
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            yield conn
    finally:
        await engine.dispose()


def _checked_out(store: LedgerStore) -> int:
    pool: Any = store.engine.pool
    return int(pool.checkedout())


@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_writes_share_one_kept_connection_given_back_on_leaving(
    backend: str, tmp_path: Path
) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await _funded(store, "ann", "bob")
        async with store.kept_connection() as kept:
            assert kept is not None
            first = await _backend_pid(kept)
            for n in range(3):
                (posted,) = await store.confirm_many([_confirm("ann", n)], kept=kept)
                assert isinstance(posted, Posted)
            assert await _backend_pid(kept) == first  # every write on the same connection
            assert _checked_out(store) == 1  # kept between writes, not given back
        assert _checked_out(store) == 0  # given back on leaving
        assert await store.balance(Account.player("ann")) == 2_000
        assert (await store.check()).ok


@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_a_kept_connection_cut_between_writes_is_replaced(
    backend: str, tmp_path: Path
) -> None:
    """Cut from outside just before the next write, again and again: whether the driver
    has read the database's notice by then (the connection is replaced before the write)
    or not (the write's first statement fails and the write is made once more on a new
    connection), every write is posted once."""
    async with ledger_store(backend, tmp_path) as store, _admin() as admin:
        await _funded(store, "ann")
        async with store.kept_connection() as kept:
            assert kept is not None
            for n in range(1, 5):
                before = await _backend_pid(kept)
                await admin.execute(text("SELECT pg_terminate_backend(:p)"), {"p": before})
                (posted,) = await store.confirm_many([_confirm("ann", n)], kept=kept)
                assert isinstance(posted, Posted)
                assert not posted.replayed
                assert await _backend_pid(kept) != before
        assert _checked_out(store) == 0
        assert await store.balance(Account.player("ann")) == 1_000
        assert (await store.check()).ok


async def _terminate(pid: int) -> bool:
    async with _admin() as admin:
        return bool(await admin.scalar(text("SELECT pg_terminate_backend(:p, 5000)"), {"p": pid}))


@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_a_kept_connection_cut_during_a_write_posts_the_batch_once(
    backend: str, tmp_path: Path
) -> None:
    """The database cuts the kept connection in the middle of a batch's write (just
    before its second statement, from another connection): the write is made again on a
    new connection and every confirm in it is posted once; one refused (short of money)
    stays refused alone."""
    async with ledger_store(backend, tmp_path) as store:
        await _funded(store, "ann", "bob")
        async with store.kept_connection() as kept:
            assert kept is not None
            victim = await _backend_pid(kept)
            statements = 0
            cuts: list[bool] = []

            def cut(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
                nonlocal statements
                statements += 1
                if statements == 2:  # the test's loop waits: the write is mid-statement
                    with ThreadPoolExecutor(1) as pool:
                        cuts.append(pool.submit(asyncio.run, _terminate(victim)).result())

            sync = store.engine.sync_engine
            event.listen(sync, "before_cursor_execute", cut)
            try:
                answers = await store.confirm_many(
                    [_confirm("ann", 1), _confirm("bob", 1, 9_000), _confirm("bob", 2)],
                    kept=kept,
                )
            finally:
                event.remove(sync, "before_cursor_execute", cut)
            assert cuts == [True]  # cut for real, in the middle of the write
            assert isinstance(answers[0], Posted)
            assert isinstance(answers[2], Posted)
            assert not answers[0].replayed  # the first try's statements were rolled back
            assert isinstance(answers[1], InsufficientFundsError)
            assert await _backend_pid(kept) != victim
            again = await store.confirm_many([_confirm("ann", 1)], kept=kept)
            assert isinstance(again[0], Posted)
            assert again[0].replayed
        assert await store.balance(Account.player("ann")) == 4_000
        assert await store.balance(Account.player("bob")) == 4_000
        assert (await store.check()).ok


@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_a_unit_cut_in_the_middle_runs_again_on_a_new_connection(
    backend: str, tmp_path: Path
) -> None:
    """A unit whose own server process is terminated while it runs fails with the
    connection invalidated; the store runs it once more, on a new kept connection."""
    async with ledger_store(backend, tmp_path) as store:
        async with store.kept_connection() as kept:
            assert kept is not None
            pids: list[int] = []

            async def unit(conn: AsyncConnection) -> int:
                pid = int((await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one())
                pids.append(pid)
                if len(pids) == 1:
                    await conn.execute(text("SELECT pg_terminate_backend(pg_backend_pid())"))
                return pid

            assert await store._run(unit, kept) == pids[-1]
            assert len(pids) == 2
            assert pids[0] != pids[1]
            assert _checked_out(store) == 1
        assert _checked_out(store) == 0


@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_a_failed_write_gives_the_kept_connection_back(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        async with store.kept_connection() as kept:
            assert kept is not None

            async def broken(conn: AsyncConnection) -> None:
                await conn.execute(text("SELECT 1"))
                raise RuntimeError("the unit failed")

            with pytest.raises(RuntimeError, match="the unit failed"):
                await kept.run(broken)
            assert _checked_out(store) == 0  # back to the pool, rolled back
            await _funded(store, "ann")
            (posted,) = await store.confirm_many([_confirm("ann", 1)], kept=kept)
            assert isinstance(posted, Posted)
        assert _checked_out(store) == 0
        assert (await store.check()).ok


@pytest.mark.parametrize("backend", BACKENDS)
async def test_bad_confirms_on_a_kept_connection_change_nothing(
    backend: str, tmp_path: Path
) -> None:
    """Typed errors, each alone, whether a connection is kept (PostgreSQL) or not
    (SQLite keeps none)."""
    async with ledger_store(backend, tmp_path) as store:
        await _funded(store, "ann")
        async with store.kept_connection() as kept:
            assert (kept is None) == (backend == "sqlite")
            answers: list[Posted | PuntoError] = await store.confirm_many(
                [
                    _confirm("ann", 1, 6_000),  # more than ann has
                    ConfirmRequest("g1", "ann", {Bet.PLAYER: -5}, "c-neg", None),
                    ConfirmRequest("nope", "ann", {Bet.PLAYER: 1_000}, "c-nope", None),
                ],
                kept=kept,
            )
            assert [type(a) for a in answers] == [
                InsufficientFundsError,
                LedgerError,
                RoundStateError,
            ]
            assert "positive whole number" in str(answers[1])
        assert await store.balance(Account.player("ann")) == 5_000
        assert (await store.check()).ok
