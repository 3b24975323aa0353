"""Crashes, restarts and graceful shutdowns never leave a half-settled round: the ledger's
open rounds are settled from their recorded result or voided and refunded [L], and every
hand whose money moved has its record (rebuilt from the ledger when the stopped process
did not save it), so a player's history and a complaint by game number find it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest
from ledger_support import BACKENDS, ledger_database
from server_support import RunningServer, TableClient, crash, running_server, server_settings
from websockets.exceptions import ConnectionClosed

from punto.bets import Bet
from punto.cards import parse_cards
from punto.ledger.store import RoundStatus
from punto.outcome import Outcome
from punto.server.fanout.protocol import outcome_from_json, outcome_json
from punto.settlement import settle
from punto.table.events import BettingOpened

pytestmark = pytest.mark.asyncio


async def _confirm_a_bet(client: TableClient, bet: str, chips: int) -> str:
    while True:
        game = await client.betting_open()
        answers = [await client.request({"type": "add_chip", "bet": bet}) for _ in range(chips)]
        answer = await client.request({"type": "confirm"})
        if answer["type"] == "ok" and all(a["type"] == "ok" for a in answers):
            return game


async def _seated(client: TableClient) -> None:
    """Join, take seat 1 at the low tier, and bet with chips of 1,000."""
    await client.take_seat(1, chip=1000)


async def _read_until_closed(client: TableClient) -> None:
    while True:
        await client.ws.recv()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("with_result", [False, True], ids=["void", "resume"])
async def test_restart_closes_rounds_a_crash_left_open(
    backend: str, with_result: bool, tmp_path: Path
) -> None:
    async with ledger_database(backend, tmp_path) as url:
        settings = server_settings(url, betting_seconds=4.0)
        async with running_server(settings) as server:
            token = await server.token("ann")
            wallet = await server.node.bank.balance("ann")
            async with TableClient.connect(server, "macau-1", token) as client:
                await _seated(client)
                game = await _confirm_a_bet(client, "player", 5)
                assert await server.node.bank.balance("ann") == wallet - 5000
                table = server.node.runners["macau-1"].table
                dealer = table.dealer
                opened_at = next(
                    e.at
                    for e in table.events
                    if isinstance(e, BettingOpened) and str(e.game) == game
                )
                await crash(server.node)
            rules = server.node.runners.get("macau-1")
            assert rules is None
            outcome = Outcome.from_hands(parse_cards("9S KH"), parse_cards("7H 8C"))
            if with_result:  # the runner had recorded the result before the crash
                await server.node.bank.ledger.record_result(
                    game, {"outcome": {"player": ["9S", "KH"], "banker": ["7H", "8C"]}}
                )
            info = await server.node.ledger.round(game)
            assert info.status is RoundStatus.OPEN
        async with running_server(settings.replace(process_id="p-restarted")) as again:
            info = await again.node.ledger.round(game)
            expected = wallet + (5000 if with_result and outcome.winner.value == "player" else 0)
            if with_result:
                assert info.status is RoundStatus.SETTLED
                assert await again.node.bank.balance("ann") == expected
            else:
                assert info.status is RoundStatus.VOIDED
                assert await again.node.bank.balance("ann") == wallet
            assert await again.node.store.table_of("ann") is None  # players join again
            report = await again.node.ledger.check()
            assert report.ok, report.problems
            assert report.open_rounds == 0
            # the hand's record, rebuilt from the ledger: the player's history has it
            record = await _my_record(again, game)
            assert record["recovered"] is True
            assert record["bets"] == {"ann": {"player": 5000}}
            if with_result:
                assert record["status"] == "settled"
                assert record["net"] == expected - wallet
                assert record["outcome"]["winner"] == "player"
                assert record["cards"] == [["P1", "9S"], ["B1", "7H"], ["P2", "KH"], ["B2", "8C"]]
            else:
                assert record["status"] == "voided"
                assert (record["void"], record["void_reason"]) == (True, "stopped")
                assert record["net"] is None  # refunded: no result
                # stopped before its coup: the dealer and when betting opened were kept
                # with the round when its first stake opened it in the ledger
                rebuilt = await again.node.store.hand(game)
                assert rebuilt is not None
                assert rebuilt["dealer"] == dealer != ""
                assert rebuilt["opened_at"] == rebuilt["times"]["start"] == opened_at


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_turn_a_killed_process_held_is_given_back_when_it_starts_again(
    backend: str, tmp_path: Path
) -> None:
    """A process killed during a player's join (or deposit, or withdrawal) leaves their
    turn held; alone on its database, the restarted process gives it back as it starts,
    so the player joins at once instead of after ``TURN_STALE`` seconds."""
    async with ledger_database(backend, tmp_path) as url:
        settings = server_settings(url)
        async with running_server(settings) as server:
            assert await server.node.store.take_turn("ann", "held-by-the-killed-process")
            async with TableClient.connect(server, "macau-1", await server.token("ann")) as c:
                answer = await c.request({"type": "join"})
                assert answer["type"] == "error", answer
                assert "money is being moved right now" in answer["message"]
        async with running_server(settings.replace(process_id="p-restarted")) as again:
            async with TableClient.connect(again, "macau-1", await again.token("ann")) as c:
                await c.ok({"type": "join"})
            # a turn taken now is this process's own, and held as before
            assert await again.node.store.take_turn("bob", "a-move-of-bob")
            assert not await again.node.store.take_turn("bob", "another-move")


async def _my_record(server: RunningServer, game: str) -> dict[str, Any]:
    """``ann``'s record of ``game`` in her bet history (``/api/me/bets``), with the stored
    record's ``status``."""
    token = await server.token("ann")
    answer = await server.http.get("/api/me/bets", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200
    mine = [r for r in answer.json()["records"] if r["game"] == game]
    assert len(mine) == 1, [r["game"] for r in answer.json()["records"]]
    stored = await server.node.store.hand(game)
    assert stored is not None
    return {**mine[0], "status": stored["status"]}


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_record_lost_between_the_settlement_and_its_save_is_rebuilt(
    backend: str, tmp_path: Path
) -> None:
    """The process stops after the ledger settled a hand and before the hand's record is
    committed (a kill: the record's transaction dies with it). The restart finds the
    settled round with no record and saves one from the ledger: the hand is in the
    player's history with its result and net, once (it was not on the code before).
    The table's own record, should it come after the look-up (an owner still alive, a
    lease taken over), is never replaced by the rebuilt one."""
    async with ledger_database(backend, tmp_path) as url:
        settings = server_settings(url, betting_seconds=2.0)
        async with running_server(settings) as server:
            store = server.node.store
            save_hand = store.save_hand
            stuck = asyncio.Event()
            unsaved: list[dict[str, Any]] = []

            async def never_saved(**kwargs: Any) -> bool:
                """The settled hand's record is not written (the books as a kill between
                the ledger's commit and the record's leaves them; the table goes on)."""
                if kwargs["status"] == "settled" or kwargs.get("after") is not None:
                    unsaved.append(kwargs)
                    stuck.set()
                    return True
                return await save_hand(**kwargs)

            store.save_hand = never_saved  # type: ignore[method-assign]
            token = await server.token("ann")
            wallet = await server.node.bank.balance("ann")
            async with TableClient.connect(server, "macau-1", token) as client:
                await _seated(client)
                while True:  # a bet and its confirm in one message: all or nothing
                    game = await client.betting_open()
                    answer = await client.request({"type": "confirm", "bets": {"banker": 2000}})
                    if answer["type"] == "ok":
                        break
                await asyncio.wait_for(stuck.wait(), 60)
                while (await server.node.bank.status(game)) is not RoundStatus.SETTLED:
                    await asyncio.sleep(0.02)  # the ledger's commit, then the record's
                await crash(server.node)
            assert await store.hand(game) is None
            info = await server.node.ledger.round(game)
            assert info is not None
            assert info.result is not None
            outcome = outcome_from_json(info.result["outcome"])
            paid = await server.node.bank.balance("ann") - wallet
        async with running_server(settings.replace(process_id="p-restarted")) as again:
            record = await _my_record(again, game)
            assert record["status"] == "settled"
            assert record["recovered"] is True
            assert record["bets"] == {"ann": {"banker": 2000}}
            assert record["outcome"] == outcome_json(outcome)
            settlement = settle(
                again.node.runners["macau-1"].table.rules, outcome, {Bet.BANKER: 2000}
            )
            assert record["net"] == settlement.total_net == paid
            assert record["result"]["returned"] == settlement.total_returned
            # what the ledger does not hold came with the result: the dealer for a
            # complaint, the card times that place the hand in the video, the holders
            rebuilt = await again.node.store.hand(game)
            assert rebuilt is not None
            full = next(k for k in unsaved if k["game"] == game)
            table_record = full["record"]
            assert rebuilt["dealer"] == table_record["dealer"] != ""
            assert rebuilt["opened_at"] == table_record["opened_at"]
            assert rebuilt["holders"] == table_record["holders"]
            cards = rebuilt["times"]["cards"]
            assert [p for p, _ in cards] == [p for p, _ in rebuilt["cards"]]
            assert cards == table_record["times"]["cards"]
            assert rebuilt["times"]["start"] == table_record["times"]["start"]
            report = await again.node.ledger.check()
            assert report.ok, report.problems
            # The old owner's full record arrives (it replaces the rebuilt one); a rebuild
            # that looked before it came then saves: the full record stays.
            await again.node.store.save_hand(**{**full, "after": None})
            assert "recovered" not in (await _my_record(again, game))
            table_saved = {**orjson.loads(orjson.dumps(full["record"])), "status": "settled"}
            assert await again.node.store.hand(game) == table_saved

            async def looked_before(games: Sequence[str]) -> set[str]:
                return set()

            again.node.store.saved_hands = looked_before  # type: ignore[method-assign]
            await again.node.leases.save_lost_records(again.node.runners["macau-1"].config)
            assert await again.node.store.hand(game) == table_saved


@pytest.mark.parametrize("backend", BACKENDS)
async def test_graceful_shutdown_finishes_the_rng_hand_and_closes_sockets(
    backend: str, tmp_path: Path
) -> None:
    async with ledger_database(backend, tmp_path) as url:
        settings = server_settings(url, betting_seconds=30.0)
        async with running_server(settings) as server:
            token = await server.token("dev")
            async with TableClient.connect(server, "tiger-1", token) as client:
                await client.take_seat(4, chip=1000)
                game = await _confirm_a_bet(client, "banker", 3)
                stopping = asyncio.create_task(server.node.stop())
                settled = await client.next_of("hand_settled", lambda m: m["event"]["game"] == game)
                assert settled["event"]["results"][0]["player"] == "dev"
                with pytest.raises(ConnectionClosed) as closed:
                    await _read_until_closed(client)
                assert closed.value.rcvd is not None
                assert closed.value.rcvd.code == 1001
                await stopping
            health = await server.http.get("/healthz")
            assert health.status_code == 503
            assert health.json()["status"] == "shutting_down"
        async with running_server(settings.replace(process_id="p-next")) as again:
            info = await again.node.ledger.round(game)
            assert info.status is RoundStatus.SETTLED
            report = await again.node.ledger.check()
            assert report.ok
            assert report.open_rounds == 0


@pytest.mark.parametrize("backend", BACKENDS)
async def test_shutdown_voids_and_refunds_a_live_hand(backend: str, tmp_path: Path) -> None:
    async with (
        ledger_database(backend, tmp_path) as url,
        running_server(server_settings(url, betting_seconds=30.0)) as server,
    ):
        dealer = await server.token("lin")
        player = await server.token("bob")
        wallet = await server.node.bank.balance("bob")
        async with (
            TableClient.connect(server, "live-1", dealer) as d,
            TableClient.connect(server, "live-1", player) as p,
        ):
            await d.ok({"type": "start_shoe"})
            await p.take_seat(1, chip=1000)
            await d.ok({"type": "open_betting"})
            await p.ok({"type": "add_chip", "bet": "tie"})
            await p.ok({"type": "confirm"})
            await d.ok({"type": "close_betting"})
            await d.ok({"type": "deal_card", "card": "3H"})
            await server.node.stop()
            voided = await p.next_of("hand_voided")
            assert voided["event"]["reason"] == "shutdown"
        assert await server.node.bank.balance("bob") == wallet
        assert (await server.node.ledger.check()).ok
