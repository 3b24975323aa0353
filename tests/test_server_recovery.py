"""Crashes, restarts and graceful shutdowns never leave a half-settled round: the ledger's
open rounds are settled from their recorded result or voided and refunded [L]."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from ledger_support import BACKENDS, ledger_database
from punto.cards import parse_cards
from punto.ledger.store import RoundStatus
from punto.outcome import Outcome
from server_support import TableClient, crash, running_server, server_settings

pytestmark = pytest.mark.asyncio


async def _confirm_a_bet(client: TableClient, bet: str, chips: int) -> str:
    while True:
        game = await client.betting_open()
        answers = [await client.request({"type": "add_chip", "bet": bet}) for _ in range(chips)]
        answer = await client.request({"type": "confirm"})
        if answer["type"] == "ok" and all(a["type"] == "ok" for a in answers):
            return game


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
                await client.ok({"type": "join"})
                await client.ok({"type": "sit", "seat": 1, "tier": "low"})
                await client.ok({"type": "choose_chip", "chip": 1000})
                game = await _confirm_a_bet(client, "player", 5)
                assert await server.node.bank.balance("ann") == wallet - 5000
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


@pytest.mark.parametrize("backend", BACKENDS)
async def test_graceful_shutdown_finishes_the_rng_hand_and_closes_sockets(
    backend: str, tmp_path: Path
) -> None:
    async with ledger_database(backend, tmp_path) as url:
        settings = server_settings(url, betting_seconds=30.0)
        async with running_server(settings) as server:
            token = await server.token("dev")
            async with TableClient.connect(server, "tiger-1", token) as client:
                await client.ok({"type": "join"})
                await client.ok({"type": "sit", "seat": 4, "tier": "low"})
                await client.ok({"type": "choose_chip", "chip": 1000})
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
            await p.ok({"type": "join"})
            await p.ok({"type": "sit", "seat": 1, "tier": "low"})
            await p.ok({"type": "choose_chip", "chip": 1000})
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
