"""Complaints [L]: a player files one about their hand within 24 hours (the server fills
date, time, table, dealer and game number), a supervisor resolves it by correction, void
or rejection with a reason, and the player sees the outcome; every step is kept."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from server_support import server_on
from test_server_corrections import _play_one_hand

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]


async def test_a_complaint_is_filed_resolved_and_seen(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path) as server:
        node = server.node
        game, wallet = await _play_one_hand(server, "ann")
        ann = await server.headers("ann")
        bob = await server.headers("bob")
        sam = await server.headers("sam")
        url = "/api/me/complaints"
        filed = await server.http.post(url, json={"game": game, "text": "wrong card"}, headers=ann)
        assert filed.status_code == 201, filed.text
        complaint = filed.json()
        record = await node.store.hand(game)
        assert record is not None
        assert complaint["table"] == "nocomm-1"
        assert complaint["dealer"] == record["dealer"]
        assert complaint["hand_at"] == record["closed_at"]
        assert complaint["state"] == "open"
        again = await server.http.post(url, json={"game": game, "text": "again"}, headers=ann)
        assert again.status_code == 409
        not_mine = await server.http.post(url, json={"game": game, "text": "x"}, headers=bob)
        assert not_mine.status_code == 404
        bad = await server.http.post(url, json={"game": game, "text": ""}, headers=ann)
        assert bad.status_code == 400
        staff = await server.http.post(url, json={"game": game, "text": "x"}, headers=sam)
        assert staff.status_code == 403

        queue = (await server.http.get("/api/supervisor/complaints", headers=sam)).json()
        assert [c["id"] for c in queue["complaints"]] == [complaint["id"]]
        assert (await server.http.get("/api/supervisor/complaints", headers=ann)).status_code == 403
        resolve = f"/api/supervisor/complaints/{complaint['id']}/resolve"
        no_cards = await server.http.post(
            resolve, json={"action": "correct", "reason": "video"}, headers=sam
        )
        assert no_cards.status_code == 400
        done = await server.http.post(
            resolve, json={"action": "void", "reason": "the video shows a misdeal"}, headers=sam
        )
        assert done.status_code == 200, done.text
        assert done.json()["state"] == "voided"
        assert await node.bank.balance("ann") == wallet
        twice = await server.http.post(
            resolve, json={"action": "reject", "reason": "x"}, headers=sam
        )
        assert twice.status_code == 409
        mine = (await server.http.get(url, headers=ann)).json()["complaints"]
        assert mine[0]["state"] == "voided"
        assert mine[0]["resolution"] == "the video shows a misdeal"
        assert [s["step"] for s in mine[0]["steps"]] == ["filed", "voided"]
        hand = (await server.http.get(f"/api/hands/{game}", headers=sam)).json()
        assert hand["amendments"][0]["reason"].startswith(f"complaint {complaint['id']}:")
        assert (await server.http.get("/api/supervisor/complaints", headers=sam)).json()[
            "complaints"
        ] == []

        # a rejection, and a hand past the 24 hours [L]
        game2, _ = await _play_one_hand(server, "ann")
        second = await server.http.post(url, json={"game": game2, "text": "slow"}, headers=ann)
        rejected = await server.http.post(
            f"/api/supervisor/complaints/{second.json()['id']}/resolve",
            json={"action": "reject", "reason": "the video shows the cards as dealt"},
            headers=sam,
        )
        assert rejected.json()["state"] == "rejected"
        record2 = await node.store.hand(game2)
        assert record2 is not None
        record2["closed_at"] = time.time() - 25 * 3600
        status = record2.pop("status")
        await node.store.save_hand(
            game=game2,
            table_id="nocomm-1",
            shoe=int(game2.split("-")[2]),
            hand=int(game2.split("-")[3]),
            opened_at=record2["opened_at"] - 25 * 3600,
            closed_at=record2["closed_at"],
            status=status,
            record=record2,
            players=["ann"],
        )
        late = await server.http.post(url, json={"game": game2, "text": "late"}, headers=ann)
        assert late.status_code == 409
        assert "24 hours" in late.json()["message"]
