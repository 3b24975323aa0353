"""Multi-table play over the real protocol: one player at up to ``max_tables`` tables, a
typed refusal beyond; bets at several tables never together more than the wallet; a
player who has gone keeps their place for the grace, then leaves once their bets are
settled [S13]."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from ledger_support import BACKENDS
from server_support import SkewClock, TableClient, server_on, until
from sqlalchemy import event

pytestmark = pytest.mark.asyncio

TABLES = ("macau-1", "nocomm-1", "tiger-1", "online-1", "spb-1")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_player_joins_four_tables_and_the_fifth_is_refused(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path) as server:
        token = await server.token("ann")
        async with (
            TableClient.connect(server, TABLES[0], token) as a,
            TableClient.connect(server, TABLES[1], token) as b,
            TableClient.connect(server, TABLES[2], token) as c,
            TableClient.connect(server, TABLES[3], token) as d,
            TableClient.connect(server, TABLES[4], token) as e,
        ):
            for client in (a, b, c, d):
                await client.ok({"type": "join"})
                await client.ok({"type": "watch", "tier": "low"})
            refused = await e.request({"type": "join"})
            assert refused["error"] == "too_many_tables", refused
            assert refused["params"] == {"max_tables": 4}
            assert not server.node.runners[TABLES[4]].at_table("ann")
            me = (await server.http.get("/api/me", headers=await server.headers("ann"))).json()
            assert me["tables"] == list(TABLES[:4])
            assert me["table"] == TABLES[0]
            assert me["max_tables"] == 4
            await d.ok({"type": "leave"})  # a place is free again
            await until(lambda: not server.node.runners[TABLES[3]].at_table("ann"), timeout=20.0)
            await e.ok({"type": "join"})
            assert await server.node.store.tables_of("ann") == [*TABLES[:3], TABLES[4]]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_confirms_at_two_tables_never_stake_more_than_the_wallet(
    backend: str, tmp_path: Path
) -> None:
    # 300.00 in the wallet, 200.00 confirmed at two tables at the same moment: one stake
    # is taken, the other refused by a typed error; the books balance.
    async with server_on(backend, tmp_path, betting_seconds=600, demo_balance=30_000) as server:
        token = await server.token("ann")
        node = server.node
        async with (
            TableClient.connect(server, "macau-1", token) as a,
            TableClient.connect(server, "nocomm-1", token) as b,
        ):
            games = []
            for client in (a, b):
                await client.take_seat(1, chip=10_000)
                games.append(await client.betting_open())
            for client in (a, b):
                for _ in range(2):
                    await client.ok({"type": "add_chip", "bet": "banker"})
            answers = await asyncio.gather(
                a.request({"type": "confirm"}), b.request({"type": "confirm"})
            )
            kinds = sorted(answer["type"] for answer in answers)
            assert kinds == ["error", "ok"], answers
            (refused,) = [answer for answer in answers if answer["type"] == "error"]
            assert refused["error"] in ("insufficient_funds", "table_balance"), refused
            assert await node.bank.balance("ann") == 10_000
            staked = [await node.bank.round_bets(game) for game in games]
            assert sum(sum(bets.get("ann", {}).values()) for bets in staked) == 20_000
            # Each table's balance follows the play at the other: both show the wallet.
            runners = [node.runners["macau-1"], node.runners["nocomm-1"]]
            await until(
                lambda: all(r.table.balance("ann") == 10_000 for r in runners), timeout=20.0
            )
            report = await node.ledger.check()
            assert report.ok, report.problems


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_process_alone_follows_a_players_other_table_from_its_own_tables(
    backend: str, tmp_path: Path
) -> None:
    # ann at two tables, then bob at one: each confirm moves the other table's balance of
    # ann's (and nothing of bob's). The process is alone on its database (no Redis) and
    # owns every table, so its tables say where the players are: no batch of confirms
    # asks the database (a round trip each batch; the code before made one).
    async with server_on(backend, tmp_path, betting_seconds=600, demo_balance=30_000) as server:
        node = server.node
        assert node.alone
        asked: list[str] = []

        @event.listens_for(node.engine.sync_engine, "before_cursor_execute")
        def _seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if "server_presence" in statement and statement.lstrip().startswith("SELECT"):
                asked.append(statement)

        ann, bob = await server.token("ann"), await server.token("bob")
        async with (
            TableClient.connect(server, "macau-1", ann) as a,
            TableClient.connect(server, "nocomm-1", ann) as b,
            TableClient.connect(server, "nocomm-1", bob) as c,
        ):
            for client in (a, b, c):
                await client.ok({"type": "join"})
                await client.ok({"type": "watch", "tier": "low"})
                await client.betting_open()
            before = len(asked)
            runners = [node.runners["macau-1"], node.runners["nocomm-1"]]
            await a.ok({"type": "confirm", "bets": {"banker": 10_000}})
            await until(
                lambda: all(r.table.balance("ann") == 20_000 for r in runners), timeout=20.0
            )
            await b.ok({"type": "confirm", "bets": {"player": 5_000}})
            await c.ok({"type": "confirm", "bets": {"player": 5_000}})
            await until(
                lambda: all(r.table.balance("ann") == 15_000 for r in runners), timeout=20.0
            )
            assert runners[1].table.balance("bob") == 25_000
            assert not runners[0].at_table("bob")
            assert asked[before:] == []
            report = await node.ledger.check()
            assert report.ok, report.problems


@pytest.mark.parametrize("backend", BACKENDS)
async def test_s13_a_gone_player_keeps_the_seat_for_the_grace_then_loses_it(
    backend: str, tmp_path: Path
) -> None:
    clock = SkewClock()
    async with server_on(backend, tmp_path, clock=clock, seat_grace=60.0) as server:
        runner = server.node.runners["macau-1"]
        token = await server.token("ann")
        async with TableClient.connect(server, "macau-1", token) as client:
            await client.ok({"type": "join"})
            await client.ok({"type": "sit", "seat": 2, "tier": "low"})
        await until(lambda: not runner.table.seats.get("ann").connected, timeout=20.0)
        clock.advance(59)
        assert await runner.release_gone() == ()
        assert runner.table.seats.occupant(2) == "ann"
        # Back within the grace: the seat is still theirs, and the grace starts afresh.
        async with TableClient.connect(server, "macau-1", token) as client:
            assert client.snapshot["you"]["at_table"] is True
            await until(lambda: runner.table.seats.get("ann").connected, timeout=20.0)
            clock.advance(600)
            assert await runner.release_gone() == ()
        await until(lambda: not runner.table.seats.get("ann").connected, timeout=20.0)
        clock.advance(60)
        await runner.release_gone()  # (or the table's loop did it first)
        assert not runner.at_table("ann")
        assert runner.table.seats.occupant(2) is None
        assert await server.node.store.tables_of("ann") == []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_s13_a_gone_players_bets_stay_and_settle_before_the_seat_is_released(
    backend: str, tmp_path: Path
) -> None:
    clock = SkewClock()
    async with server_on(
        backend, tmp_path, clock=clock, seat_grace=60.0, betting_seconds=600
    ) as server:
        node = server.node
        runner = node.runners["macau-1"]
        before = await node.bank.balance("ann")
        token = await server.token("ann")
        supervisor = await server.token("sam")  # sees every player's result
        async with TableClient.connect(server, "macau-1", supervisor) as watcher:
            async with TableClient.connect(server, "macau-1", token) as client:
                await client.take_seat(2, chip=1000)
                game = await client.betting_open()
                await client.ok({"type": "add_chip", "bet": "player"})
                await client.ok({"type": "confirm"})
            await until(lambda: not runner.table.seats.get("ann").connected, timeout=20.0)
            clock.advance(600)  # the countdown is over, and so is the grace
            runner.wake()
            settled = await watcher.next_of(
                "hand_settled", lambda m: m["event"]["game"] == game, timeout=40
            )
            left = await watcher.next_of("player_left", timeout=40)
        assert left["event"]["player"] == "ann"
        assert left["event"]["reason"] == "gone"
        assert settled["seq"] < left["seq"]
        (result,) = settled["event"]["results"]
        standing = sum(result["standing"].values())  # a tie's standing bet comes back too
        assert await node.bank.balance("ann") == before - 1000 + result["returned"] + standing
        assert (await node.bank.status(game)).value == "settled"  # type: ignore[union-attr]
        assert await node.store.tables_of("ann") == []
        report = await node.ledger.check()
        assert report.ok, report.problems
