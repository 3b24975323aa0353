"""Game recall (GLI-19): a player opens any of their last hands and sees it as it was
shown — cards per side in order, totals, their bets, result, the roads of that moment —
and the amendments made since; nobody else's hands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_support import RunningServer, TableClient, server_on

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]


async def _play_hands(server: RunningServer, player: str, count: int) -> list[str]:
    """``player`` bets 1000 on Banker on ``count`` hands of nocomm-1."""
    games: list[str] = []
    token = await server.token(player)
    async with TableClient.connect(server, "nocomm-1", token) as client:
        await client.take_seat(2, chip=1000)
        while len(games) < count:
            game = await client.betting_open()
            await client.request({"type": "add_chip", "bet": "banker"})
            if (await client.request({"type": "confirm"}))["type"] != "ok":
                continue
            settled = await client.next_of("hand_settled", timeout=30)
            while settled["event"]["game"] != game:
                settled = await client.next_of("hand_settled", timeout=30)
            games.append(game)
        await client.ok({"type": "stand"})
        await client.ok({"type": "leave"})
    return games


async def test_a_player_recalls_each_of_their_last_ten_hands(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path, betting_seconds=0.6) as server:
        ann = await server.headers("ann")
        bob = await server.headers("bob")
        sam = await server.headers("sam")
        games = await _play_hands(server, "ann", 10)
        listed = (await server.http.get("/api/me/bets?limit=10", headers=ann)).json()["records"]
        assert {r["game"] for r in listed} == set(games)
        for game in games:
            answer = await server.http.get(f"/api/me/recall/{game}", headers=ann)
            assert answer.status_code == 200, answer.text
            recall: dict[str, Any] = answer.json()
            record = await server.node.store.hand(game)
            assert record is not None
            shown = recall["shown"]
            order = [code for _pos, code in record["cards"]]
            assert shown["player"]["cards"] == [c for p, c in record["cards"] if p[0] == "P"]
            assert shown["banker"]["cards"] == [c for p, c in record["cards"] if p[0] == "B"]
            assert sorted(shown["player"]["cards"] + shown["banker"]["cards"]) == sorted(order)
            assert shown["player"]["total"] == record["outcome"]["player_total"]
            assert shown["banker"]["total"] == record["outcome"]["banker_total"]
            assert recall["bets"] == {"ann": {"banker": 1000}}
            assert recall["video"]["state"] == "off"  # this server keeps no recordings
            net = record["results"]["ann"]["settlement"]["total_net"]
            assert recall["net"] == {"ann": net}
            # the roads of that moment: every hand of the shoe up to this one
            shoe = await server.node.store.shoe_hands("nocomm-1", recall["shoe"])
            marks = [
                r
                for r in shoe
                if int(r["game"].rsplit("-", 1)[1]) <= recall["hand"]
                and not (r.get("void") or r.get("blank") or not r.get("outcome"))
            ]
            assert len(recall["roads"]["bead_plate"]) == len(marks)
            winner = {"player": "P", "banker": "B", "tie": "T"}[record["outcome"]["winner"]]
            assert recall["roads"]["bead_plate"][-1]["result"] == winner
        assert (await server.http.get(f"/api/me/recall/{games[0]}", headers=bob)).status_code == 404
        assert (
            await server.http.get("/api/me/recall/nocomm-1-999-001", headers=ann)
        ).status_code == 404
        assert (await server.http.get(f"/api/me/recall/{games[0]}")).status_code == 401

        # after a correction the recall still shows what was dealt, and the amendment
        game = games[-1]
        before = (await server.http.get(f"/api/me/recall/{game}", headers=ann)).json()
        fixed = await server.http.post(
            f"/api/supervisor/hands/{game}/correct",
            json={"player": ["9S", "KH"], "banker": ["7H", "8C"], "reason": "video"},
            headers=sam,
        )
        assert fixed.status_code == 200, fixed.text
        after = (await server.http.get(f"/api/me/recall/{game}", headers=ann)).json()
        assert after["shown"] == before["shown"]
        assert after["roads"] == before["roads"]
        assert after["net_at_the_time"] == before["net"]
        assert after["corrected"]["player"] == {"cards": ["9S", "KH"], "total": 9}
        assert after["net"] == {"ann": -1000}  # Banker lost to a Player natural
        assert [a["kind"] for a in after["amendments"]] == ["correction"]
        assert after["amendments"][0]["reason"] == "video"
