"""Tables of the ``ez`` [EZ] and ``speed`` presets opened in the back office of a real
server: the EZ table offers Dragon 7 and Panda 8 with their pays, the speed table counts
its rules' betting time down, and the back office says where that time is set."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]


@pytest.mark.parametrize("backend", BACKENDS[:1])
async def test_ez_and_speed_tables_opened_in_the_back_office(backend: str, tmp_path: Path) -> None:
    # no server-wide betting time: each table's own (or its rules') counts down
    async with server_on(backend, tmp_path, betting_seconds=None) as server:
        http = server.http
        admin = await server.headers("admin")
        for table_id, preset in (("ez-1", "ez"), ("speed-1", "speed")):
            body = {"id": table_id, "name": preset, "preset": preset}
            created = await http.post("/api/admin/tables", json=body, headers=admin)
            assert created.status_code == 201, created.text

        ez = (await http.get("/api/tables/ez-1")).json()
        assert ez["bets"] == ["player", "banker", "tie", "dragon7", "panda8"]
        assert ez["paytables"]["banker"] == "banker_ez"
        assert (ez["pays"]["dragon7"], ez["pays"]["panda8"]) == ({"win": "40"}, {"win": "25"})

        speed = (await http.get("/api/tables/speed-1")).json()
        assert speed["betting_seconds"] == 10.0
        tables = (await http.get("/api/admin/tables", headers=admin)).json()["tables"]
        assert next(t for t in tables if t["id"] == "speed-1")["betting_seconds"] == 10.0
        refused = await http.patch(
            "/api/admin/tables/speed-1", json={"betting_seconds": 20.0}, headers=admin
        )
        assert refused.status_code == 400
        assert "rules set the betting time (10 s)" in refused.text
        async with TableClient.connect(server, "speed-1") as watcher:
            opened = await watcher.next_of("betting_opened", timeout=60)
        event = opened["event"]
        assert event["closes_at"] - event["at"] == pytest.approx(10.0)
