"""A slow operator delays only its own player (seamless wallet): the wallet's debit of a
confirm and the credits of a settlement are made outside the table's lock, so another
player's commands, and the table's dealing, never wait behind them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest

from ledger_support import BACKENDS
from punto.ledger.operator_ref import ReferenceOperator, create_app
from punto.ledger.wallet import RetryPolicy, SeamlessWallet
from server_support import TableClient, server_on

pytestmark = pytest.mark.asyncio


class _Stalling(httpx.AsyncBaseTransport):
    """The reference operator, holding every call about ``player`` until released."""

    def __init__(self, operator: ReferenceOperator, player: str) -> None:
        self._inner = httpx.ASGITransport(app=create_app(operator))
        self.player = player
        self.release = asyncio.Event()
        self.held = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content or b"{}") if request.method == "POST" else {}
        if body.get("player_id") == self.player or request.url.path.endswith(self.player):
            self.held += 1
            await self.release.wait()
        return await self._inner.handle_async_request(request)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
async def test_a_slow_operator_delays_only_its_own_players_confirm(
    backend: str, tmp_path: Path
) -> None:
    operator = ReferenceOperator({"ann": 100_000, "bob": 100_000})
    transport = _Stalling(operator, "bob")
    transport.release.set()  # until bob's confirm
    client = httpx.AsyncClient(transport=transport)
    wallet = SeamlessWallet(
        "http://operator/wallet",
        client=client,
        retry=RetryPolicy(attempts=1, base_delay=0.01, timeout=120),
    )
    async with server_on(
        backend,
        tmp_path,
        wallet_of=wallet,
        wallet="seamless",
        wallet_url="http://operator/wallet",
        betting_seconds=600.0,
    ) as server:
        dealer = await server.token("dana")
        async with (
            TableClient.connect(server, "live-1", dealer) as console,
            TableClient.connect(server, "live-1", await server.token("ann")) as ann,
            TableClient.connect(server, "live-1", await server.token("bob")) as bob,
        ):
            await console.ok({"type": "start_shoe"})
            for player in (ann, bob):
                await player.ok({"type": "join"})
                await player.ok({"type": "watch", "tier": "low"})
                await player.ok({"type": "choose_chip", "chip": 1000})
            await console.ok({"type": "open_betting"})
            transport.release.clear()
            held = transport.held
            await bob.ok({"type": "add_chip", "bet": "banker"})
            await ann.ok({"type": "add_chip", "bet": "player"})
            await bob.ws.send(json.dumps({"type": "confirm", "request_id": "slow"}))
            while transport.held == held:  # bob's debit is at the operator, held
                await asyncio.sleep(0.01)
            assert (await ann.request({"type": "confirm"}, timeout=30))["type"] == "ok"
            assert operator.balances["ann"] == 99_000
            assert (await console.request({"type": "close_betting"}))["type"] == "ok"
            assert not any(m.get("request_id") == "slow" for m in bob.received)
            transport.release.set()
            late = await bob.answer("slow", timeout=30)
            assert late["type"] == "error"  # betting closed while the operator thought
            assert late["error"] in ("betting", "bet_closed", "phase"), late
            for _ in range(10):  # the refused confirm's debit is rolled back
                if operator.balances["bob"] == 100_000:
                    break
                await asyncio.sleep(0.1)
            assert operator.balances["bob"] == 100_000
        report = await server.node.ledger.check()
        assert report.ok, report.problems
    await client.aclose()
