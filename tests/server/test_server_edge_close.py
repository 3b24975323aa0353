"""[EZ-C] Side bets closed when the shoe turns, on a real server (SQLite and PostgreSQL):
a live EZ table whose operator closes side bets below a 0% house edge is fed thirteen
naturals without a seven, after which the cards left favour Dragon 7. The next hand closes
it: every client is told (with the edge), a player's areas say why, a bet on it is refused
with the typed reason, the closing is in the hand's stored record and the daily report
counts it; a new shoe reopens it."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from ledger_support import BACKENDS
from server_support import RunningServer, TableClient, a_hand, server_on

pytestmark = pytest.mark.asyncio

NATURALS = (
    ("9S", "8H", "KD", "KC"),
    ("4S", "5H", "4D", "3C"),
    ("2S", "6H", "6D", "2C"),
    ("AS", "QH", "8D", "8C"),
    ("JS", "9H", "8D", "QC"),
    ("TS", "9H", "9D", "TC"),
    ("KS", "QH", "8D", "9C"),
)
"""Two-card naturals without a seven (shoe order P1 B1 P2 B2)."""
TURNS_AFTER = 13
"""Hands of them after which Dragon 7's house edge is below zero."""


async def _ez_table(server: RunningServer, **overrides: Any) -> tuple[int, dict[str, Any]]:
    admin = await server.headers("admin")
    table = {
        "id": "ez-live",
        "name": "EZ live",
        "rules": "ez",
        "dealing": "live",
        "overrides": overrides,
    }
    answer = await server.http.post("/api/admin/tables", json=table, headers=admin)
    return answer.status_code, answer.json()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_ez_c_a_live_ez_table_closes_dragon7_when_the_shoe_turns(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path, betting_seconds=60.0) as server:
        status, body = await _ez_table(server, close_below_edge="none")
        assert status == 400, body
        assert body["error"] == "rules"
        status, body = await _ez_table(server, close_below_edge=0)
        assert status == 201, body
        async with contextlib.AsyncExitStack() as stack:
            dealer = await stack.enter_async_context(
                TableClient.connect(server, "ez-live", await server.token("dana"))
            )
            ann = await stack.enter_async_context(
                TableClient.connect(server, "ez-live", await server.token("ann"))
            )
            await dealer.ok({"type": "start_shoe"})
            await ann.ok({"type": "join"})
            await ann.ok({"type": "sit", "seat": 1, "tier": "low"})
            for i in range(TURNS_AFTER):
                bets = [(ann, {"banker": 1000, "dragon7": 500})] if i == 0 else []
                await a_hand(dealer, bets, NATURALS[i % len(NATURALS)])
            assert not any(
                m.get("type") == "event" and m["event"]["kind"] == "side_bets_closed"
                for m in ann.received
            )

            await dealer.ok({"type": "open_betting"})
            game = str((await dealer.next_of("betting_opened"))["event"]["game"])
            closing = (await ann.next_of("side_bets_closed"))["event"]
            assert closing["game"] == game
            assert closing["closed"] == ["dragon7"]
            assert closing["reopened"] == []
            assert closing["threshold"] == 0.0
            assert closing["edges"][0] < 0
            told = await ann.next_of(
                "legal_actions", lambda m: "dragon7" in m["legal"].get("bets", {})
            )
            rooms = told["legal"]["bets"]
            assert rooms["dragon7"]["limit"] == "edge_closed"
            assert rooms["dragon7"]["room"] == 0
            assert rooms["panda8"]["limit"] == "max"

            refused = await ann.request({"type": "confirm", "bets": {"dragon7": 500}})
            assert refused["type"] == "error"
            assert refused["error"] == "bet_closed"
            assert refused["params"]["limit"] == "edge_closed"
            assert refused["params"]["bet"] == "dragon7"
            assert "[EZ-C]" in refused["message"]
            await ann.ok({"type": "choose_chip", "chip": 500})
            chip = await ann.request({"type": "add_chip", "bet": "dragon7"})
            assert chip["error"] == "bet_closed"
            await ann.ok({"type": "confirm", "bets": {"panda8": 500}})  # Panda 8 deals on

            async with TableClient.connect(server, "ez-live") as late:  # a spectator joining
                assert late.snapshot["state"]["edge_closed"] == {"dragon7": closing["edges"][0]}

            await dealer.ok({"type": "close_betting"})
            for card in NATURALS[TURNS_AFTER % len(NATURALS)]:
                await dealer.ok({"type": "deal_card", "card": card})
            await dealer.next_of("hand_settled", lambda m: m["event"]["game"] == game)

            stored = await server.node.store.hand(game)
            assert stored is not None
            logged = [e for e in stored["events"] if e["kind"] == "side_bets_closed"]
            assert [e["closed"] for e in logged] == [["dragon7"]]

            await dealer.ok({"type": "change_shoe"})
            await dealer.ok({"type": "start_shoe"})
            await dealer.ok({"type": "open_betting"})
            reopened = (await ann.next_of("side_bets_closed", lambda m: m["event"]["reopened"]))[
                "event"
            ]
            assert reopened["closed"] == []
            assert reopened["reopened"] == ["dragon7"]
            await ann.ok({"type": "confirm", "bets": {"dragon7": 500}})  # open again

        supervisor = await server.headers("admin")
        today = datetime.fromtimestamp(server.node.clock.now(), UTC).date().isoformat()
        asked = {"date": today, "table": "ez-live"}
        report = await server.http.get("/api/reports/daily", params=asked, headers=supervisor)
        assert report.status_code == 200, report.text
        (row,) = report.json()["days"]
        assert row["hands"] == TURNS_AFTER + 1
        assert row["side_bets_closed"] == {
            "dragon7": {"hands": 1, "share": f"{1 / (TURNS_AFTER + 1):.5f}"}
        }
        csv_text = await server.http.get("/api/reports/daily.csv", params=asked, headers=supervisor)
        assert f"dragon7=1/{TURNS_AFTER + 1}" in csv_text.text
