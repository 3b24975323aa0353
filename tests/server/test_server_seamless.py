"""The seamless wallet end to end: the operator keeps the balances; a confirm debits it
before the stake is recorded, the settlement credits it; a refused debit changes nothing."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from ledger_support import BACKENDS
from server_support import TableClient, seamless_live_table, server_on

from punto.ledger.model import Account
from punto.ledger.operator_ref import ReferenceOperator, create_app
from punto.ledger.wallet import RetryPolicy, SeamlessWallet

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("backend", BACKENDS)
async def test_seamless_wallet_debits_then_credits_the_operator(
    backend: str, tmp_path: Path
) -> None:
    operator = ReferenceOperator({"ann": 100_000, "bob": 100_000})
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(operator)))
    wallet = SeamlessWallet(
        "http://operator/wallet", client=client, retry=RetryPolicy(attempts=2, base_delay=0.01)
    )
    async with server_on(
        backend,
        tmp_path,
        wallet_of=wallet,
        wallet="seamless",
        wallet_url="http://operator/wallet",
        betting_seconds=2.5,
    ) as server:
        token = await server.token("ann")
        async with TableClient.connect(server, "online-1", token) as table:
            await table.ok({"type": "join"})
            joined = await table.next_of("balance", lambda m: m["reason"] == "joined")
            assert joined["table_balance"] == 100_000
            await table.ok({"type": "sit", "seat": 1, "tier": "low"})
            await table.ok({"type": "choose_chip", "chip": 1000})
            game = await table.confirm_in_a_round("player", "player")
            assert operator.balances["ann"] == 98_000  # debited before the stake
            settled = await table.next_of("hand_settled", lambda m: m["event"]["game"] == game)
            (result,) = settled["event"]["results"]
            await table.next_of("balance", lambda m: m["reason"] == "settled")
            assert operator.balances["ann"] == 98_000 + result["returned"]

            operator.balances["ann"] = 500  # spent elsewhere meanwhile
            while True:
                await table.betting_open()
                await table.request({"type": "add_chip", "bet": "player"})
                answer = await table.request({"type": "confirm"})
                if answer["type"] == "error" and answer["error"] == "betting":
                    continue
                break
            assert answer["error"] == "insufficient_funds", answer
            assert operator.balances["ann"] == 500
            assert server.node.runners["online-1"].table.bets("ann") == {}
        report = await server.node.ledger.check()
        assert report.ok, report.problems
        assert report.balances.get(Account.player("ann").code, 0) == 0
    await client.aclose()


@pytest.mark.parametrize("backend", BACKENDS[:1])
async def test_a_confirm_the_table_refuses_calls_no_operator(backend: str, tmp_path: Path) -> None:
    """With the operator's wallet a confirm is checked on arrival, before the debit: one
    the table would refuse (not made of its chips, over the tier's maximum, betting
    closed) is refused with its typed error and no call reaches the operator."""
    operator = ReferenceOperator({"ann": 100_000_000, "bob": 100_000})
    transport = httpx.ASGITransport(app=create_app(operator))
    retry = RetryPolicy(attempts=2, base_delay=0.01)
    async with seamless_live_table(backend, tmp_path, transport, retry=retry) as t:
        calls = operator.requests
        for bets, code in (({"player": 600}, "amount"), ({"player": 90_000_000}, "bet_limit")):
            answer = await t.ann.request({"type": "confirm", "bets": bets})
            assert (answer["type"], answer["error"]) == ("error", code), answer
        await t.console.ok({"type": "close_betting"})
        answer = await t.ann.request({"type": "confirm", "bets": {"player": 1000}})
        assert (answer["type"], answer["error"]) == ("error", "phase"), answer
        assert operator.requests == calls
        assert operator.balances["ann"] == 100_000_000
