"""The REST API: health, metrics, accounts, roles, lobby, tables, shoes, reports,
administration — and bad input answered by typed errors that change nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on

from punto.cards import parse_cards
from punto.server.tables.configs import DEMO_TABLES
from punto.shoe import ShoeReveal, verify_commitment

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("backend", BACKENDS)
async def test_health_metrics_accounts_and_roles(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        health = (await http.get("/healthz")).json()
        assert health["status"] == "ok"
        assert health["tables_owned"] == len(DEMO_TABLES)
        assert health["database"] == backend
        metrics = (await http.get("/metrics")).text
        assert f"punto_tables_owned {len(DEMO_TABLES)}.0" in metrics
        assert "punto_bet_confirm_seconds_bucket" in metrics
        openapi = (await http.get("/openapi.json")).json()
        assert "/api/lobby" in openapi["paths"]

        bad = await http.post("/api/auth/login", json={"username": "ann", "password": "nope"})
        unknown = await http.post("/api/auth/login", json={"username": "zed", "password": "nope"})
        assert bad.status_code == unknown.status_code == 401
        assert bad.json()["message"] == unknown.json()["message"]
        assert (await http.get("/api/me")).status_code == 401
        forged = {"Authorization": "Bearer abc.def"}
        assert (await http.get("/api/me", headers=forged)).json()["error"] == "unauthorized"

        new = await http.post(
            "/api/auth/register", json={"username": "new-player", "password": "secret-1"}
        )
        assert new.status_code == 201
        me = await http.get("/api/me", headers={"Authorization": f"Bearer {new.json()['token']}"})
        assert me.json()["balance"] == server.node.settings.demo_balance
        taken = await http.post(
            "/api/auth/register", json={"username": "new-player", "password": "secret-1"}
        )
        assert taken.status_code == 409
        for body in (
            {"username": "UPPER", "password": "secret-1"},
            {"username": "ok-name", "password": "123"},
            {"username": "ok-name"},
            {"username": "ok-name", "password": "secret-1", "extra": 1},
        ):
            answer = await http.post("/api/auth/register", json=body)
            assert answer.status_code == 400, body
            assert answer.json()["error"] == "bad_message"

        player = await server.headers("ann")
        dealer = await server.headers("dana")
        admin = await server.headers("admin")
        for path in ("/api/admin/tables", "/api/admin/users", "/api/reports/daily"):
            assert (await http.get(path, headers=player)).status_code == 403
            assert (await http.get(path, headers=dealer)).status_code == 403
        assert (await http.get("/api/admin/users", headers=admin)).status_code == 200
        assert (await http.get("/api/me/bets", headers=dealer)).status_code == 403
        pause = await http.post(
            "/api/supervisor/tables/macau-1/pause", json={"reason": "x"}, headers=admin
        )
        assert pause.status_code == 403


@pytest.mark.parametrize("backend", BACKENDS)
async def test_lobby_tables_roads_history_and_shoes(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        async with TableClient.connect(server, "macau-1") as watcher:
            await watcher.next_of("hand_settled", timeout=30)
            await watcher.next_of("roads")
        lobby = (await http.get("/api/lobby")).json()["tables"]
        macau = next(t for t in lobby if t["id"] == "macau-1")
        assert macau["rules"] == "macau"
        assert macau["last_results"]
        assert set(macau["last_results"]) <= set("BPT")
        # each table's own limit tiers, as its detail has them; the overall range from them
        table = (await http.get("/api/tables/macau-1")).json()
        assert macau["tiers"] == table["limits"]
        assert macau["min_bet"] == min(t["min_bet"] for t in macau["tiers"])
        assert macau["max_bet"] == max(t["max_bet"] for t in macau["tiers"])
        table = (await http.get("/api/tables/macau-1")).json()
        assert table["bets"][:3] == ["player", "banker", "tie"]
        assert table["process"] == server.node.id
        roads = (await http.get("/api/tables/macau-1/roads")).json()
        assert set(roads) >= {"bead_plate", "big_road", "big_eye_boy", "ask"}
        svg = await http.get("/api/tables/macau-1/roads?format=svg")
        assert svg.headers["content-type"].startswith("image/svg+xml")
        assert svg.text.lstrip().startswith("<svg")
        history = (await http.get("/api/tables/macau-1/history")).json()["hands"]
        assert history
        assert "bets" not in history[0]
        assert (await http.get("/api/tables/nope/history")).status_code == 404
        assert (await http.get("/api/tables/nope")).status_code == 404

        sam = await server.headers("sam")
        closed = await http.post(
            "/api/supervisor/tables/tiger-1/close", json={"reason": "end of day"}, headers=sam
        )
        assert closed.status_code == 200, closed.text
        assert any(e["kind"] == "table_closed" for e in closed.json()["events"])
        shoes = (await http.get("/api/tables/tiger-1/shoes")).json()["shoes"]
        shoe = shoes[0]
        assert shoe["reveal"] is not None
        assert shoe["verified"] is True
        reveal = ShoeReveal(tuple(parse_cards(shoe["reveal"]["order"])), shoe["reveal"]["salt"])
        assert verify_commitment(shoe["commitment"], reveal)
        again = await http.post(
            "/api/supervisor/tables/tiger-1/pause", json={"reason": "x"}, headers=sam
        )
        assert again.status_code in (409, 503)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_tables_live_video_whep_and_hls(backend: str, tmp_path: Path) -> None:
    """An administrator sets a table's video (a WHEP endpoint, an HLS fallback, a lower
    quality), changes one key, refuses bad ones and clears it; the older ``stream_url`` is
    the HLS URL; the table's description (what the table page reads) carries it, and it
    survives in the store."""
    async with server_on(backend, tmp_path) as server:
        http = server.http
        admin = await server.headers("admin")
        whep = "https://media.example/macau-1/whep"
        hls = "https://media.example/macau-1/live.m3u8"
        low = {"name": "360p", "whep_url": whep + "/360p", "hls_url": None}
        described = (await http.get("/api/tables/macau-1")).json()["video"]
        assert described == {"whep_url": None, "hls_url": None, "qualities": [], "still_url": None}
        still = "https://media.example/macau-1/still.jpg"
        video = {"whep_url": whep, "hls_url": hls, "qualities": [low], "still_url": still}
        patched = await http.patch(
            "/api/admin/tables/macau-1", json={"video": video}, headers=admin
        )
        assert patched.status_code == 200, patched.text
        assert patched.json()["video"] == video
        assert (await http.get("/api/tables/macau-1")).json()["video"] == video
        stored = (await server.node.store.table("macau-1")).video
        assert (stored.whep_url, stored.hls_url, stored.qualities[0].name) == (whep, hls, "360p")
        assert stored.still_url == still
        # the lobby's tile shows the still and knows the table has video
        tiles = {t["id"]: t for t in (await http.get("/api/lobby")).json()["tables"]}
        assert (tiles["macau-1"]["still_url"], tiles["macau-1"]["video"]) == (still, True)
        assert (tiles["nocomm-1"]["still_url"], tiles["nocomm-1"]["video"]) == (None, False)
        older = await http.patch(
            "/api/admin/tables/macau-1", json={"stream_url": hls + "?v=2"}, headers=admin
        )
        assert older.json()["video"] == {**video, "hls_url": hls + "?v=2"}
        for bad in (
            {"stream_url": "javascript:alert(1)"},
            {"video": {"whep_url": "ftp://x/whep"}},
            {"video": {"hls_url": "http://a b"}},
            {"video": {"whep_url": "x" * 501}},
            {"video": {"hls_url": 7}},
            {"video": {"rtmp_url": hls}},
            {"video": {"qualities": [{"name": "360p"}]}},
            {"video": {"qualities": [low, low]}},
            {"video": {"qualities": [{**low, "name": "<b>"}]}},
            {"video": {"still_url": "data:image/png;base64,AAAA"}},
            {"video": {"still_url": "https://x/\u0000.jpg"}},
        ):
            answer = await http.patch("/api/admin/tables/macau-1", json=bad, headers=admin)
            assert answer.status_code in (400, 422), (bad, answer.text)
        player = await server.headers("ann")
        refused = await http.patch(
            "/api/admin/tables/macau-1", json={"video": {"whep_url": ""}}, headers=player
        )
        assert refused.status_code == 403
        one_off = await http.patch(
            "/api/admin/tables/macau-1", json={"video": {"whep_url": ""}}, headers=admin
        )
        assert one_off.json()["video"]["whep_url"] is None
        assert one_off.json()["video"]["hls_url"] == hls + "?v=2"
        cleared = await http.patch(
            "/api/admin/tables/macau-1",
            json={"video": {"hls_url": "", "qualities": []}},
            headers=admin,
        )
        assert cleared.json()["video"] == {
            "whep_url": None,
            "hls_url": None,
            "qualities": [],
            "still_url": still,
        }
        made = await http.post(
            "/api/admin/tables",
            json={"id": "live-9", "name": "Live 9", "rules": "macau", "stream_url": hls},
            headers=admin,
        )
        assert made.status_code == 201, made.text
        assert made.json()["video"]["hls_url"] == hls


@pytest.mark.parametrize("backend", BACKENDS)
async def test_administration_and_reports(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        admin = await server.headers("admin")
        presets = (await http.get("/api/admin/presets", headers=admin)).json()["presets"]
        assert {p["name"] for p in presets} >= {"macau", "super_punto_banco", "online_8deck"}

        body: dict[str, Any] = {"id": "new-1", "name": "New", "rules": "no_commission"}
        created = await http.post("/api/admin/tables", json=body, headers=admin)
        assert created.status_code == 201, created.text
        assert "new-1" in server.node.runners
        assert (await http.post("/api/admin/tables", json=body, headers=admin)).status_code == 409
        for bad in (
            {**body, "id": "Bad Id!"},
            {**body, "id": "x-2", "rules": "no_such_preset"},
            {**body, "id": "x-3", "kind": "vip", "reading": "dealer"},
            {**body, "id": "x-4", "seats": 0},
        ):
            answer = await http.post("/api/admin/tables", json=bad, headers=admin)
            assert answer.status_code == 400, (bad, answer.text)
        tiers = [
            {"name": "low", "min_bet": 2000, "max_bet": 40000, "side_min": 1000, "side_max": 5000}
        ]
        patched = await http.patch("/api/admin/tables/new-1", json={"limits": tiers}, headers=admin)
        assert patched.status_code == 200, patched.text
        assert patched.json()["limits"][0]["min_bet"] == 2000
        closed = await http.patch("/api/admin/tables/new-1", json={"enabled": False}, headers=admin)
        assert closed.json()["enabled"] is False
        assert "new-1" not in server.node.runners
        lobby = (await http.get("/api/lobby")).json()["tables"]
        assert "new-1" not in {t["id"] for t in lobby}

        user = {"username": "rosa", "password": "rosa-pass", "role": "dealer"}
        assert (await http.post("/api/admin/users", json=user, headers=admin)).status_code == 201
        deposit = {"amount": 50_000, "transaction_id": "dep-1"}
        first = await http.post("/api/admin/players/bob/deposit", json=deposit, headers=admin)
        replay = await http.post("/api/admin/players/bob/deposit", json=deposit, headers=admin)
        assert first.json()["balance"] == replay.json()["balance"] == 1_050_000
        negative = {"amount": -5, "transaction_id": "dep-2"}
        answer = await http.post("/api/admin/players/bob/deposit", json=negative, headers=admin)
        assert answer.status_code == 400
        too_much = {"amount": 10**9, "transaction_id": "w-1"}
        answer = await http.post("/api/admin/players/bob/withdraw", json=too_much, headers=admin)
        assert answer.status_code == 409
        assert answer.json()["error"] == "insufficient_funds"
        assert await server.node.bank.balance("bob") == 1_050_000
        missing = await http.post("/api/admin/players/rosa/deposit", json=deposit, headers=admin)
        assert missing.status_code == 404

        report = (await http.get("/api/reports/daily", headers=admin)).json()["days"]
        assert isinstance(report, list)
        bad_date = await http.get("/api/reports/daily?date=yesterday", headers=admin)
        assert bad_date.status_code == 400
        assert (await server.node.ledger.check()).ok


@pytest.mark.parametrize("backend", BACKENDS)
async def test_s14_a_pause_asked_for_during_a_hand_is_taken_when_it_ends(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path, betting_seconds=2.0) as server:
        sam = await server.headers("sam")
        async with TableClient.connect(server, "online-1") as watcher:
            await watcher.next_of("betting_opened", timeout=30)
            asked = await server.http.post(
                "/api/supervisor/tables/online-1/pause", json={"reason": "count"}, headers=sam
            )
            assert asked.status_code == 200, asked.text
            # mid-hand: the table records the request [S14]
            assert [e["kind"] for e in asked.json()["events"]] == ["pause_requested"]
            paused = await watcher.next_of("table_paused", timeout=30)
            assert paused["event"]["reason"] == "typed"  # the supervisor's words
            assert paused["event"]["reason_params"] == {"text": "count"}
            settled = [m for m in watcher.received if m.get("type") == "event"]
            assert settled[-2]["event"]["kind"] == "hand_settled"  # the hand ended first
            resumed = await server.http.post(
                "/api/supervisor/tables/online-1/resume", json={}, headers=sam
            )
            assert [e["kind"] for e in resumed.json()["events"]] == ["table_resumed"]
            await watcher.next_of("betting_opened", timeout=30)
