"""A player at an RNG table over the real protocol, on SQLite and PostgreSQL: join, sit,
chips, confirm, the coup, the settlement, the balance, the records, the books [L], [O]."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on

pytestmark = pytest.mark.asyncio


async def _bet(client: TableClient, bets: dict[str, int]) -> dict[str, Any]:
    """Wait for betting to open, put ``bets`` down with 1000-chips and confirm."""
    opened = await client.next_of("betting_opened")
    for bet, amount in bets.items():
        for _ in range(amount // 1000):
            await client.ok({"type": "add_chip", "bet": bet})
    answer = await client.request({"type": "confirm"})
    if answer["type"] == "error" and answer["error"] == "betting":  # the countdown ended
        return await _bet(client, bets)
    assert answer["type"] == "ok", answer
    return opened


@pytest.mark.parametrize("backend", BACKENDS)
async def test_player_bets_and_is_paid_exactly(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path, betting_seconds=2.5) as server:
        token = await server.token("ann")
        headers = {"Authorization": f"Bearer {token}"}
        before = (await server.http.get("/api/me", headers=headers)).json()["balance"]
        async with TableClient.connect(server, "macau-1", token) as client:
            assert client.snapshot["table"]["id"] == "macau-1"
            assert client.snapshot["you"]["at_table"] is False
            await client.ok({"type": "join"})
            joined = await client.next_of("balance", lambda m: m["reason"] == "joined")
            assert joined["table_balance"] == before
            sat = await client.ok({"type": "sit", "seat": 3, "tier": "low"})
            assert sat["events"] == 1  # how many events the command produced: a seat taken
            await client.ok({"type": "choose_chip", "chip": 1000})
            opened = await _bet(client, {"banker": 2000, "player_pair": 1000})
            game = opened["event"]["game"]
            confirmed = await client.next_of("balance", lambda m: m["reason"] == "confirmed")
            assert confirmed["wallet_balance"] == before - 3000
            assert confirmed["table_balance"] == before - 3000
            settled = await client.next_of("hand_settled", lambda m: m["event"]["game"] == game)
            (result,) = settled["event"]["results"]
            paid = await client.next_of("balance", lambda m: m["reason"] == "settled")
            returned = result["returned"] + sum(result["standing"].values())
            assert paid["wallet_balance"] == before - 3000 + returned
            await client.next_of("roads")
        me = (await server.http.get("/api/me", headers=headers)).json()
        # Main bets a tie left standing [M12] are staked again when the next hand opens,
        # which may already have happened.
        standing = sum(result["standing"].values())
        assert me["balance"] in (paid["wallet_balance"], paid["wallet_balance"] - standing)
        assert me["table"] == "macau-1"  # still at the table after a disconnect [L]
        records = (await server.http.get("/api/me/bets", headers=headers)).json()["records"]
        record = next(r for r in records if r["game"] == game)
        assert record["bets"] == {"ann": {"banker": 2000, "player_pair": 1000}}
        assert record["result"]["returned"] == result["returned"]
        hand = (await server.http.get(f"/api/hands/{game}", headers=headers)).json()
        assert hand["status"] == "settled"
        assert [t["kind"] for t in hand["ledger"]] == ["stake", "settle"]
        admin = await server.headers("admin")
        days = (await server.http.get("/api/reports/daily?table=macau-1", headers=admin)).json()
        (day,) = days["days"]
        assert day["turnover"] == 3000
        assert day["bets"] == 2
        assert day["payouts"] == returned
        assert day["house_result"] == 3000 - returned
        assert day["hands"] >= 1
        report = await server.node.ledger.check()
        assert report.ok, report.problems


@pytest.mark.parametrize("backend", BACKENDS)
async def test_refused_commands_change_nothing(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path, betting_seconds=3.0) as server:
        token = await server.token("bob")
        async with TableClient.connect(server, "nocomm-1", token) as client:
            await client.ok({"type": "join"})
            await client.ok({"type": "sit", "seat": 1, "tier": "low"})
            wallet = await server.node.bank.balance("bob")
            await client.next_of("betting_opened")
            bad = [
                ("not json", "bad_message"),
                ('{"type": "fly_away"}', "bad_message"),
                ('{"type": "add_chip"}', "bad_message"),
                ('{"type": "add_chip", "bet": "banker", "extra": 1}', "bad_message"),
                ('{"type": "choose_chip", "chip": -5}', "bad_message"),
                ('{"type": "choose_chip", "chip": 777}', "betting"),
                ('{"type": "deal_card", "card": "9S"}', "forbidden"),
                ('{"type": "sit", "seat": 99}', "seat"),
                ('{"type": "confirm"}', "betting"),
            ]
            for n, (text, code) in enumerate(bad):
                if text.startswith("not"):
                    await client.ws.send(text)
                    answer = await client.next_of("error")
                else:
                    await client.ws.send(text[:-1] + f', "request_id": "x{n}"}}')
                    answer = await client.answer(f"x{n}")
                assert answer["type"] == "error", (text, answer)
                assert answer["error"] == code, (text, answer)
            await client.ok({"type": "choose_chip", "chip": 100000})
            answers = [await client.request({"type": "add_chip", "bet": "banker"})]
            while answers[-1]["type"] == "ok":  # chips go down up to the table limit [L]
                answers.append(await client.request({"type": "add_chip", "bet": "banker"}))
            assert answers[-1]["error"] == "bet_limit", answers[-1]
            # the refusal's figures, for the client's own language [L]
            params = answers[-1]["params"]
            assert params["limit"] == "max", params
            assert params["bet"] == "banker", params
            placed = 100000 * (len(answers) - 1)  # the maximum lies between the last two totals
            assert placed <= params["value"] < placed + 100000, params
            await client.ok({"type": "clear"})
            answer = await client.request({"type": "confirm"})
            assert answer["error"] == "betting", answer  # nothing left to confirm
            assert await server.node.bank.balance("bob") == wallet
            runner = server.node.runners["nocomm-1"]
            assert runner.table.bets("bob") == {}
        assert (await server.node.ledger.check()).ok


@pytest.mark.parametrize("backend", BACKENDS)
async def test_anonymous_watcher_sees_the_table_but_cannot_act(
    backend: str, tmp_path: Path
) -> None:
    async with (
        server_on(backend, tmp_path) as server,
        TableClient.connect(server, "online-1") as client,
    ):
        assert client.snapshot["you"]["viewer"] == "watcher"
        answer = await client.request({"type": "join"})
        assert answer["error"] == "unauthorized"
        await client.ws.send('{"type": "ping", "request_id": "p1"}')
        pong = await client.next_of("pong")
        assert pong["request_id"] == "p1"
        await client.next_of("card_placed")
