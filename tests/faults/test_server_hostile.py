"""Hostile input gets a typed 4xx (REST) or a typed error (WebSocket) and changes nothing:
NUL and other control characters in every text field (PostgreSQL refuses 0x00), JSON
nested thousands deep, oversized bodies and frames, loose money types; the documented
close codes and statuses; the security headers; WebSockets from foreign origins; a
production server without a secret."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import websockets
from ledger_support import BACKENDS
from server_support import RunningServer, TableClient, server_on, server_settings
from websockets.exceptions import ConnectionClosed

from punto.cli import main
from punto.errors import ServerError
from punto.server.fanout.protocol import MAX_MESSAGE
from punto.server.node import Node

pytestmark = pytest.mark.asyncio


async def _refused(server: RunningServer, path: str, **headers: str) -> tuple[int, str]:
    """Connect to ``path``; the error message sent and the close code."""
    url = f"{server.ws_url}{path}"
    async with websockets.connect(url, additional_headers=headers) as ws:
        message = json.loads(await ws.recv())
        with pytest.raises(ConnectionClosed):
            await ws.recv()
        assert ws.close_code is not None
        assert message["type"] == "error"
        return ws.close_code, str(message["error"])


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
async def test_control_characters_are_refused_in_every_text_field(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        admin = await server.headers("admin")
        sam = await server.headers("sam")
        users_before = (await http.get("/api/admin/users", headers=admin)).json()
        refusals = [
            await http.get("/api/tables/macau%00-1"),
            await http.get("/api/tables/macau-1/history?limit=%00"),
            await http.get("/api/hands/macau-1-001-001%1b", headers=sam),
            await http.post("/api/auth/login", json={"username": "ann\x00", "password": "x"}),
            await http.post(
                "/api/auth/register", json={"username": "eve\x00x", "password": "secret-1"}
            ),
            await http.post(
                "/api/auth/register",
                json={"username": "evex", "password": "secret-1", "display_name": "E\x00ve"},
            ),
            await http.post(
                "/api/admin/tables",
                json={"id": "t-1", "name": "Nul\x00Table", "rules": "macau"},
                headers=admin,
            ),
            await http.post(
                "/api/admin/users",
                json={
                    "username": "ned",
                    "password": "secret-1",
                    "role": "dealer",
                    "display_name": "N\u0085d",
                },
                headers=admin,
            ),
            await http.post(
                "/api/supervisor/tables/macau-1/pause", json={"reason": "a\x07b"}, headers=sam
            ),
        ]
        for answer in refusals:
            assert answer.status_code == 400, (answer.request.url, answer.text)
            assert answer.json()["error"] == "bad_message"
        assert (await http.get("/api/admin/users", headers=admin)).json() == users_before
        assert (await http.get("/api/tables/t-1")).status_code == 404

        code, error = await _refused(server, "/ws/tables/macau%00-1")
        assert (code, error) == (4404, "not_found")
        token = await server.token("ann")
        async with TableClient.connect(server, "macau-1", token) as client:
            said = await client.request({"type": "sit", "seat": 1, "tier": "lo\x00w"})
            assert said["error"] == "bad_message"
            said = await client.request({"type": "vip_settings", "password": "\x1b[31m"})
            assert said["error"] == "bad_message"
            await client.ws.send(json.dumps({"type": "ping", "request_id": "p"}))
            assert (await client.next_of("pong"))["request_id"] == "p"
        report = await server.node.ledger.check()
        assert report.ok, report.problems


async def test_deep_nesting_huge_frames_and_binary_frames_get_typed_errors(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path) as server:
        async with TableClient.connect(server, "macau-1") as client:
            await client.ws.send("[" * 5000 + "]" * 5000)
            said = await client.next_of("error")
            assert said["error"] == "bad_message"
            assert "nest" in said["message"]
            await client.ws.send(
                '{"type": "ping", "request_id": "p", "x": ' + "[" * 100 + "]" * 100 + "}"
            )
            assert (await client.next_of("error"))["error"] == "bad_message"
            await client.ws.send(b'{"type": "ping"}')
            assert (await client.next_of("error"))["error"] == "bad_message"
            filler = "x" * (MAX_MESSAGE - 100)
            await client.ws.send(json.dumps({"type": "ping", "request_id": "big", "p": filler}))
            assert (await client.next_of("error"))["request_id"] == "big"  # under the limit
            await client.ws.send(json.dumps({"type": "ping", "request_id": "p"}))
            assert (await client.next_of("pong"))["request_id"] == "p"
            await client.ws.send("[" + " " * MAX_MESSAGE + "]")  # one frame over the limit
            with pytest.raises(ConnectionClosed):
                await client.next_of("never")
            assert client.ws.close_code == 1009
        http = server.http
        deep = '{"username": ' + "[" * 5000 + "]" * 5000 + ', "password": "x"}'
        answer = await http.post(
            "/api/auth/login", content=deep, headers={"content-type": "application/json"}
        )
        assert answer.status_code == 400
        assert answer.json()["error"] == "bad_message"
        big = json.dumps({"username": "ann", "password": "x" * 70_000})
        answer = await http.post(
            "/api/auth/login", content=big, headers={"content-type": "application/json"}
        )
        assert answer.status_code == 413
        assert answer.json()["error"] == "bad_message"


async def test_money_fields_take_integers_only(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path) as server:
        admin = await server.headers("admin")
        before = await server.node.bank.balance("bob")
        loose: list[Any] = ["100", " 100 ", True, 1e2, 100.0, None, [100], {"v": 100}]
        for n, amount in enumerate(loose):
            body = {"amount": amount, "transaction_id": f"loose-{n}"}
            for action in ("deposit", "withdraw"):
                answer = await server.http.post(
                    f"/api/admin/players/bob/{action}", json=body, headers=admin
                )
                assert answer.status_code == 400, (action, amount, answer.text)
                assert answer.json()["error"] == "bad_message"
        assert await server.node.bank.balance("bob") == before
        token = await server.token("bob")
        async with TableClient.connect(server, "macau-1", token) as client:
            await client.ok({"type": "join"})
            for chip in ("1000", True, 1e3, 1000.0):
                said = await client.request({"type": "choose_chip", "chip": chip})
                assert said["error"] == "bad_message", (chip, said)
            said = await client.request({"type": "sit", "seat": "1", "tier": "low"})
            assert said["error"] == "bad_message"
            said = await client.request({"type": "stand", "mark": "true"})
            assert said["error"] == "bad_message"
            await client.ok({"type": "choose_chip", "chip": 1000})


async def test_documented_statuses_close_codes_headers_and_origins(tmp_path: Path) -> None:
    async with server_on(
        "sqlite", tmp_path, allowed_origins=("https://partner.example",)
    ) as server:
        http = server.http
        assert (await http.get("/api/me/bets")).status_code == 401
        assert (await http.get("/api/me/transactions")).status_code == 401
        dana = await server.headers("dana")
        assert (await http.get("/api/me/bets", headers=dana)).status_code == 403

        assert await _refused(server, "/ws/tables/macau-1?token=forged.token") == (
            4401,
            "unauthorized",
        )
        assert await _refused(server, "/ws/tables/no-such-table") == (4404, "not_found")
        host = server.url.removeprefix("http://")
        assert await _refused(server, "/ws/tables/macau-1", Origin="https://evil.example") == (
            4403,
            "forbidden",
        )
        for origin in (f"http://{host}", "https://partner.example"):
            url = f"{server.ws_url}/ws/tables/macau-1"
            async with websockets.connect(url, additional_headers={"Origin": origin}) as ws:
                assert json.loads(await ws.recv())["type"] == "snapshot"

        async with TableClient.connect(server, "macau-1") as client:
            await client.ws.send(json.dumps({"type": "resync", "request_id": "again"}))
            snapshot = await client.next_of("snapshot")
            assert snapshot["request_id"] == "again"

        page = await http.get("/app/")
        assert page.status_code == 200
        csp = page.headers["content-security-policy"]
        assert "default-src 'self'" in csp
        assert "frame-ancestors 'none'" in csp
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["referrer-policy"] == "no-referrer"
        assert page.headers["x-frame-options"] == "DENY"
        assert "content-security-policy" in (await http.get("/api/lobby")).headers


async def test_production_mode_needs_a_secret_and_keeps_demo_data_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'prod.sqlite3'}"
    node = Node(server_settings(url, demo=False, secret=None))
    with pytest.raises(ServerError, match="PUNTO_SECRET"):
        await node.start()
    await node.close()
    for name in ("PUNTO_SECRET", "PUNTO_DEMO", "PUNTO_ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PUNTO_DATABASE_URL", url)
    assert main(["serve", "--port", "1"]) == 2
    assert "PUNTO_SECRET" in capsys.readouterr().err
    monkeypatch.setenv("PUNTO_ENV", "production")
    monkeypatch.setenv("PUNTO_SECRET", "s" * 40)
    assert main(["serve", "--demo", "--port", "1"]) == 2
    assert "demo" in capsys.readouterr().err
    async with server_on("sqlite", tmp_path / "real", demo=False) as server:
        assert await server.node.store.users() == []
        assert await server.node.store.tables() == []
        answer = await server.http.post(
            "/api/auth/register", json={"username": "eve", "password": "secret-1"}
        )
        assert answer.status_code == 403
