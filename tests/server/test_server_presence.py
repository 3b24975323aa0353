"""Where players are (``server_presence``): the look-up of many players at once that a
settlement's thousands of players and every batch of confirms make (their other tables
follow their balance)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from ledger_support import BACKENDS, ledger_database
from sqlalchemy import event, insert, select

from punto.errors import ConflictError, TooManyTablesError
from punto.ledger.store import create_engine
from punto.server.store import storage
from punto.server.store.migrate import upgrade_async
from punto.server.store.schema import PlayerTurnRow, PresenceRow
from punto.server.store.storage import ServerStore

pytestmark = [pytest.mark.asyncio, pytest.mark.parametrize("backend", BACKENDS)]


async def test_many_players_tables_are_found_in_the_order_they_joined(
    backend: str, tmp_path: Path
) -> None:
    players = [f"p{n:04d}" for n in range(1_500)]  # more than SQLite's chunk of 1,000
    async with ledger_database(backend, tmp_path) as url:
        await upgrade_async(url)
        engine = create_engine(url)
        statements: list[str] = []
        in_block: list[tuple[str, bool]] = []

        @event.listens_for(engine.sync_engine, "after_cursor_execute")
        def _seen(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            # after: the driver begins a transaction block as it runs the first statement
            if "server_presence" in statement and statement.lstrip().startswith("SELECT"):
                statements.append(statement)
                if backend == "postgresql":
                    driver = conn.connection.driver_connection
                    in_block.append((statement, driver.is_in_transaction()))

        try:
            store = ServerStore(engine)
            # most players written at once (the look-up is what is tested), a few joined
            rows = [{"player_id": p, "table_id": "macau-1", "since": 1.0} for p in players]
            rows += [  # a third at a second table, joined later
                {"player_id": p, "table_id": "baccarat-2", "since": 2.0} for p in players[3::3]
            ]
            async with engine.begin() as conn:
                await conn.execute(insert(PresenceRow), rows)
            await store.enter_table("p0000", "baccarat-2", limit=4)
            with pytest.raises(TooManyTablesError):
                await store.enter_table("p0000", "vip-3", limit=2)
            statements.clear()
            in_block.clear()

            found = await store.tables_of_many([*players, "nobody", players[0]])
            assert set(found) == set(players)  # a player at no table is left out
            for n, player in enumerate(players):
                expected = ["macau-1", "baccarat-2"] if n % 3 == 0 else ["macau-1"]
                assert found[player] == expected, player
            many = list(statements)
            assert found[players[3]] == await store.tables_of(players[3])
            statements.clear()
            assert await store.tables_of_many(["p0001", "p0003"]) == {
                "p0001": ["macau-1"],
                "p0003": ["macau-1", "baccarat-2"],
            }
            few = list(statements)
            assert await store.tables_of_many([]) == {}
            if backend == "postgresql":
                # one statement whatever the number of players: the server prepares it
                # once per connection, not once for each size of batch
                assert len(many) == len(few) == 1
                assert many == few
                # and on its own, outside a transaction block: one round trip, no BEGIN
                # and COMMIT around it (asked after every batch of confirms)
                blocks = [inside for statement, inside in in_block if statement == many[0]]
                assert len(blocks) == 2, in_block
                assert not any(blocks), in_block
        finally:
            await engine.dispose()


async def test_a_join_takes_the_turn_and_the_place_in_one_commit(
    backend: str, tmp_path: Path
) -> None:
    """A join's turn and the player's place among their tables are one transaction (one
    commit, not two); a place beyond the limit is refused and leaves no turn taken."""
    async with ledger_database(backend, tmp_path) as url:
        await upgrade_async(url)
        engine = create_engine(url)
        commits: list[int] = []
        event.listen(engine.sync_engine, "commit", lambda _conn: commits.append(1))
        try:
            store = ServerStore(engine)
            async with store.turn("ann", entering="macau-1", limit=2):
                assert len(commits) == 1  # the turn and the place together
                assert await store.tables_of("ann") == ["macau-1"]
                with pytest.raises(ConflictError):  # held: no second move of ann's
                    async with store.turn("ann"):
                        pass
            async with store.turn("ann", entering="macau-1", limit=2):  # there already
                pass
            await store.enter_table("ann", "bid-1", limit=2)
            with pytest.raises(TooManyTablesError):
                async with store.turn("ann", entering="vip-1", limit=2):
                    pytest.fail("the turn was taken beyond the limit")
            assert await store.tables_of("ann") == ["macau-1", "bid-1"]
            async with store.turn("ann"):  # nothing was left held by the refusal
                pass
        finally:
            await engine.dispose()


async def test_a_held_turn_stays_held_and_a_stopped_holders_goes_stale(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn's holder notes every ``TURN_REFRESH`` seconds that it is alive, so a move
    that takes long (an operator slow to answer a deposit) keeps its turn; a holder that
    stopped (a killed process) notes nothing, and its turn is taken over once
    ``TURN_STALE`` seconds old — with several processes, where no start gives it back."""
    monkeypatch.setattr(storage, "TURN_REFRESH", 0.01)
    async with ledger_database(backend, tmp_path) as url:
        await upgrade_async(url)
        engine = create_engine(url)
        try:
            store = ServerStore(engine)

            async def since(player: str) -> float:
                async with engine.connect() as conn:
                    found = await conn.scalar(
                        select(PlayerTurnRow.since).where(PlayerTurnRow.player_id == player)
                    )
                assert found is not None
                return float(found)

            # a holder that stopped: taken over only once its turn is stale
            assert await store.take_turn("bob", "killed", now=1_000.0)
            assert not await store.take_turn("bob", "next", now=1_000.0 + storage.TURN_STALE - 1)
            assert await store.take_turn("bob", "next", now=1_000.0 + storage.TURN_STALE + 1)
            # a holder that is alive: its turn noted again while held, never stale
            async with store.turn("ann"):
                taken = await since("ann")
                async with asyncio.timeout(30):  # (never noted again before: it failed)
                    while (noted := await since("ann")) <= taken + 0.005:
                        await asyncio.sleep(0.01)
                # stale by the time it was taken, not by the time it was last noted
                later = noted + storage.TURN_STALE - 0.001
                assert taken < later - storage.TURN_STALE
                assert not await store.take_turn("ann", "another", now=later)
            assert await store.take_turn("ann", "after")  # given back at the end
        finally:
            await engine.dispose()
