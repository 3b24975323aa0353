"""One truth per hand [O]: after a correction or a void, every view of the hand — its
record, the player's records and net, the public history, the roads [R] and the daily
report — tells the corrected story, and open clients are told to refresh."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ledger_support import BACKENDS
from server_support import RunningServer, TableClient, server_on
from test_server_corrections import _play_one_hand

from punto.server.tables.truth import roads_of

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]

PLAYER_NATURAL = {"player": ["9S", "KH"], "banker": ["7H", "8C"]}  # Player 9 beats 5
BANKER_NATURAL = {"player": ["7H", "8C"], "banker": ["9S", "KH"]}  # Banker 9 beats 5


def _bead_index(records: list[dict[str, Any]], game: str) -> int:
    """Where ``game`` is on the bead plate: the hands before it that left a mark."""
    index = 0
    for record in records:
        if record["game"] == game:
            return index
        if not (record.get("void") or record.get("blank") or not record.get("outcome")):
            index += 1
    raise AssertionError(f"{game} is not in its shoe")


async def _roads(server: RunningServer) -> dict[str, Any]:
    answer = await server.http.get("/api/tables/nocomm-1/roads")
    assert answer.status_code == 200
    return dict(answer.json())


@pytest.mark.parametrize("backend", BACKENDS)
async def test_corrections_and_voids_reach_every_derived_view(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path) as server:
        node = server.node
        sam = await server.headers("sam")
        ann = await server.headers("ann")
        game, wallet = await _play_one_hand(server, "ann")
        async with TableClient.connect(server, "nocomm-1") as watcher:
            # a hand on which nobody bets settles after ann's
            quiet = await watcher.betting_open()
            await watcher.next_of("hand_settled", lambda m: m["event"]["game"] == quiet)
            await watcher.next_of("roads")
            # the RNG table would go on dealing: paused [S14], no other hand can land in
            # the roads between two of the reads below
            paused = await server.http.post(
                "/api/supervisor/tables/nocomm-1/pause",
                json={"reason": "checking a correction"},
                headers=sam,
            )
            assert paused.status_code == 200, paused.text
            await watcher.next_of("table_paused")
            if [e["kind"] for e in paused.json()["events"]] == ["pause_requested"]:
                # asked for mid-hand: the table paused as that hand ended, and the
                # hand's roads are pushed after the events that ended it
                ended = [
                    m["event"]
                    for m in watcher.received
                    if m.get("type") == "event" and m["event"]["kind"] == "hand_settled"
                ]
                if not ended[-1]["void_reason"]:
                    await watcher.next_of("roads")
            report_before = (await server.http.get("/api/reports/daily", headers=sam)).json()
            original = await node.store.hand(game)
            assert original is not None
            won = original["outcome"]["winner"]
            target = BANKER_NATURAL if won == "player" else PLAYER_NATURAL
            letter = "B" if won == "player" else "P"
            shoe = int(game.rsplit("-", 2)[1])
            index = _bead_index(await node.store.shoe_hands("nocomm-1", shoe), game)

            watcher.skip_to_end()
            answer = await server.http.post(
                f"/api/supervisor/hands/{game}/correct",
                json={**target, "reason": "the video shows a natural"},
                headers=sam,
            )
            assert answer.status_code == 200, answer.text
            delta = answer.json()["corrections"]["ann"]
            # the roads are rebuilt and pushed, then the records refresh is sent
            pushed = await watcher.next_of("roads")
            await watcher.next_of("records", lambda m: m["game"] == game)
            roads = await _roads(server)
            assert pushed["roads"] == roads
            assert roads["bead_plate"][index]["result"] == letter
            records = await node.store.shoe_hands("nocomm-1", shoe)
            assert roads == (await node.roads("nocomm-1"))["roads"]
            assert len(roads["bead_plate"]) == len(roads_of(records).bead_plate)

            full = (await server.http.get(f"/api/hands/{game}", headers=sam)).json()
            assert [c for _p, c in full["cards"]] == [
                target["player"][0],
                target["banker"][0],
                target["player"][1],
                target["banker"][1],
            ]
            assert full["original"]["cards"] == original["cards"]  # nothing overwritten
            assert full["original"]["outcome"] == original["outcome"]
            own = (await server.http.get(f"/api/hands/{game}", headers=ann)).json()
            assert "original" not in own
            corrected_net = 2000 if letter == "P" else -2000  # 1:1 on Player [M17]
            assert own["net"] == corrected_net
            assert own["results"]["ann"]["settlement"]["total_net"] == corrected_net
            mine = (await server.http.get("/api/me/bets", headers=ann)).json()["records"]
            row = next(r for r in mine if r["game"] == game)
            assert row["net"] == corrected_net
            assert row["correction"] == delta
            assert await node.bank.balance("ann") == wallet + corrected_net
            history = (await server.http.get("/api/tables/nocomm-1/history?limit=50")).json()
            public = next(h for h in history["hands"] if h["game"] == game)
            assert public["outcome"]["winner"] == ("banker" if letter == "B" else "player")
            assert public["amended"] is True
            report = (await server.http.get("/api/reports/daily", headers=sam)).json()
            (day_before,) = [d for d in report_before["days"] if d["table"] == "nocomm-1"]
            (day,) = [d for d in report["days"] if d["table"] == "nocomm-1"]
            assert day["house_result"] == day_before["house_result"] - delta

            # a hand without bets can be corrected too: only its record and the roads move
            quiet_record = await node.store.hand(quiet)
            assert quiet_record is not None
            quiet_won = quiet_record["outcome"]["winner"]
            quiet_target = BANKER_NATURAL if quiet_won == "player" else PLAYER_NATURAL
            quiet_index = _bead_index(await node.store.shoe_hands("nocomm-1", shoe), quiet)
            fixed = await server.http.post(
                f"/api/supervisor/hands/{quiet}/correct",
                json={**quiet_target, "reason": "misread card"},
                headers=sam,
            )
            assert fixed.status_code == 200, fixed.text
            assert fixed.json()["corrections"] == {}
            await watcher.next_of("records", lambda m: m["game"] == quiet)
            roads = await _roads(server)
            assert roads["bead_plate"][quiet_index]["result"] == (
                "B" if quiet_won == "player" else "P"
            )

            # a void takes the hand off the roads and the player's net back to nothing
            beads = len(roads["bead_plate"])
            void = await server.http.post(
                f"/api/supervisor/hands/{game}/void", json={"reason": "dealer error"}, headers=sam
            )
            assert void.status_code == 200, void.text
            await watcher.next_of("records", lambda m: m["game"] == game and m["kind"] == "void")
            roads = await _roads(server)
            assert len(roads["bead_plate"]) == beads - 1
            mine = (await server.http.get("/api/me/bets", headers=ann)).json()["records"]
            row = next(r for r in mine if r["game"] == game)
            assert row["net"] == 0
            assert row["void"] is True
            assert await node.bank.balance("ann") == wallet
            void_quiet = await server.http.post(
                f"/api/supervisor/hands/{quiet}/void", json={"reason": "dealer error"}, headers=sam
            )
            assert void_quiet.status_code == 200, void_quiet.text
            again = await server.http.post(
                f"/api/supervisor/hands/{quiet}/void", json={"reason": "dealer error"}, headers=sam
            )
            assert again.status_code == 200
            assert len((await _roads(server))["bead_plate"]) == beads - 2
            kinds = [a["kind"] for a in await node.store.amendments(game=quiet)]
            assert sorted(kinds) == ["correction", "void"]  # the void once
        report_check = await node.ledger.check()
        assert report_check.ok, report_check.problems
