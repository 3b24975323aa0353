"""Supervisors correct and void settled hands [O]: only the difference moves, as new
ledger transactions that reference the originals; every amendment names who and why."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import RunningServer, TableClient, server_on

from punto.bets import Bet
from punto.cards import parse_cards
from punto.ledger.model import settle_players
from punto.outcome import Outcome
from punto.rules import preset

pytestmark = pytest.mark.asyncio


async def _play_one_hand(server: RunningServer, player: str) -> tuple[str, int]:
    """``player`` bets 2000 on Player at nocomm-1; the game and the wallet before it."""
    token = await server.token(player)
    async with TableClient.connect(server, "nocomm-1", token) as client:
        await client.take_seat(5, chip=1000)
        wallet = await server.node.bank.balance(player)
        while True:
            game = await client.betting_open()
            a = await client.request({"type": "add_chip", "bet": "player"})
            b = await client.request({"type": "add_chip", "bet": "player"})
            if (await client.request({"type": "confirm"}))["type"] == "ok":
                break
            assert a
            assert b
        await client.settled(game)
        await client.ok({"type": "stand"})
        await client.ok({"type": "leave"})
    return game, wallet


@pytest.mark.parametrize("backend", BACKENDS)
async def test_o_correction_moves_only_the_difference(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path) as server:
        game, wallet = await _play_one_hand(server, "ann")
        paid = await server.node.bank.balance("ann")
        sam = await server.headers("sam")
        ann = await server.headers("ann")
        body = {
            "player": ["9S", "KH"],
            "banker": ["7H", "8C"],
            "reason": "the video shows a 9",
            "correction_id": "c-1",
        }
        refused = await server.http.post(
            f"/api/supervisor/hands/{game}/correct", json=body, headers=ann
        )
        assert refused.status_code == 403
        assert refused.json()["error"] == "forbidden"
        answer = await server.http.post(
            f"/api/supervisor/hands/{game}/correct", json=body, headers=sam
        )
        assert answer.status_code == 200, answer.text
        outcome = Outcome.from_hands(parse_cards("9S KH"), parse_cards("7H 8C"))
        bets = {"ann": {Bet.PLAYER: 2000}}
        (result,) = settle_players(preset("no_commission"), outcome, bets).values()
        corrected = wallet + result.total_net  # Player 9 beats Banker 5: +2000 [M17]
        delta = corrected - paid
        assert answer.json()["corrections"] == {"ann": delta}
        assert await server.node.bank.balance("ann") == corrected
        replay = await server.http.post(
            f"/api/supervisor/hands/{game}/correct", json=body, headers=sam
        )
        assert replay.status_code == 200
        assert await server.node.bank.balance("ann") == corrected  # a retry pays once
        hand = (await server.http.get(f"/api/hands/{game}", headers=sam)).json()
        kinds = [t["kind"] for t in hand["ledger"]]
        assert kinds[:2] == ["stake", "settle"]
        assert "correction" in kinds
        correction = next(t for t in hand["ledger"] if t["kind"] == "correction")
        settle = next(t for t in hand["ledger"] if t["kind"] == "settle")
        assert correction["reference"] == settle["id"]
        assert correction["author"] == "sam"
        assert correction["reason"] == "the video shows a 9"
        assert hand["outcome"]["player_total"] == 9
        amendments = (await server.http.get("/api/supervisor/amendments", headers=sam)).json()
        assert amendments["amendments"][0]["author"] == "sam"
        mine = (await server.http.get("/api/me/bets", headers=ann)).json()["records"]
        assert next(r for r in mine if r["game"] == game)["correction"] == delta

        void = await server.http.post(
            f"/api/supervisor/hands/{game}/void", json={"reason": "dealer error"}, headers=sam
        )
        assert void.status_code == 200, void.text
        assert await server.node.bank.balance("ann") == wallet  # a full refund
        report = await server.node.ledger.check()
        assert report.ok, report.problems


@pytest.mark.parametrize("backend", BACKENDS)
async def test_bad_corrections_are_refused_and_change_nothing(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path) as server:
        game, _ = await _play_one_hand(server, "bob")
        before = await server.node.bank.balance("bob")
        sam = await server.headers("sam")
        dana = await server.headers("dana")
        url = f"/api/supervisor/hands/{game}/correct"
        cases = [
            ({"player": ["9S", "KH"], "banker": ["7H", "8C"], "reason": "x"}, dana, 403),
            ({"player": ["9S", "KH"], "banker": ["7H", "8C"]}, sam, 400),
            ({"player": ["9S", "KH"], "banker": ["7H", "8C"], "reason": ""}, sam, 400),
            ({"player": ["ZZ", "KH"], "banker": ["7H", "8C"], "reason": "x"}, sam, 400),
            ({"player": ["9S"], "banker": ["7H", "8C"], "reason": "x"}, sam, 400),
            # the tableau cannot deal these: Player 4 must draw a third card [M9]
            ({"player": ["2S", "2H"], "banker": ["7H", "KC"], "reason": "x"}, sam, 400),
        ]
        for body, headers, status in cases:
            answer = await server.http.post(url, json=body, headers=headers)
            assert answer.status_code == status, (body, answer.text)
            assert answer.json()["type"] == "error"
        missing = await server.http.post(
            "/api/supervisor/hands/macau-1-999-001/correct",
            json={"player": ["9S", "KH"], "banker": ["7H", "8C"], "reason": "x"},
            headers=sam,
        )
        assert missing.status_code == 404
        assert await server.node.bank.balance("bob") == before
        assert (await server.node.store.amendments()) == []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_seated_players_table_balance_follows_corrections_voids_and_deposits(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path) as server:
        token = await server.token("cleo")
        sam = await server.headers("sam")
        admin = await server.headers("admin")
        runner = server.node.runners["nocomm-1"]
        async with TableClient.connect(server, "nocomm-1", token) as client:
            await client.take_seat(2, chip=1000)
            game = await client.confirm_in_a_round("player")
            await client.settled(game)

            async def follows() -> None:
                assert runner.table.balance("cleo") == await server.node.bank.balance("cleo")

            await follows()
            dealt = await server.node.store.hand(game)
            assert dealt is not None
            body = {"player": ["9S", "KH"], "banker": ["7H", "8C"], "reason": "video"}
            corrected = await server.http.post(
                f"/api/supervisor/hands/{game}/correct", json=body, headers=sam
            )
            assert corrected.status_code == 200, corrected.text
            await follows()  # the table re-settled the hand itself [O]
            record = (await server.http.get(f"/api/hands/{game}", headers=sam)).json()
            # one truth per hand: the table's own re-settlement keeps the original facts
            assert record["original"]["outcome"] == dealt["outcome"]
            assert record["original"]["cards"] == dealt["cards"]
            assert [c for _p, c in record["cards"]] == ["9S", "7H", "KH", "8C"]
            assert record["net"]["cleo"] == 1000  # Player 9 beats 5: 1:1 on 1000
            voided = await server.http.post(
                f"/api/supervisor/hands/{game}/void", json={"reason": "misdeal"}, headers=sam
            )
            assert voided.status_code == 200, voided.text
            await follows()
            record = (await server.node.store.hand(game)) or {}
            assert [a["kind"] for a in record["amendments"]] == ["correction", "void"]
            assert record["original"]["outcome"] == dealt["outcome"]
            assert record["net"]["cleo"] == 0
            deposit = {"amount": 30_000, "transaction_id": "d-cleo"}
            await server.http.post("/api/admin/players/cleo/deposit", json=deposit, headers=admin)
            moved = await client.next_of("balance", lambda m: m["reason"] == "transferred")
            assert moved["table_balance"] == moved["wallet_balance"]
            await follows()
            assert runner.table.money_check()
        assert (await server.node.ledger.check()).ok
