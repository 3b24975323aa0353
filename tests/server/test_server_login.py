"""Logins: failed attempts limited per account and per address (429 with Retry-After),
the password hash off the event loop and as much work for an unknown name as for a known
one, logout and renewal revoke tokens, a one-hour default token lifetime."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on
from websockets.exceptions import ConnectionClosed

import punto.server.auth
import punto.server.node.accounts
from punto.server.config import Settings

pytestmark = pytest.mark.asyncio


def _body(user: str, password: str) -> dict[str, str]:
    return {"username": user, "password": password}


@pytest.mark.parametrize("backend", BACKENDS)
async def test_failed_logins_are_limited_per_account_and_per_address(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(
        backend, tmp_path, login_attempts=3, login_address_attempts=6, login_window=600
    ) as server:
        http = server.http
        for _ in range(3):
            assert (
                await http.post("/api/auth/login", json=_body("ann", "nope"))
            ).status_code == 401
        limited = await http.post("/api/auth/login", json=_body("ann", "ann-demo"))
        assert limited.status_code == 429, limited.text
        assert limited.json()["error"] == "rate_limited"
        assert 0 < int(limited.headers["Retry-After"]) <= 600
        # Another account from the same address is not limited yet ...
        assert (
            await http.post("/api/auth/login", json=_body("bob", "bob-demo"))
        ).status_code == 200
        for name in ("x1", "x2", "x3"):
            await http.post("/api/auth/login", json=_body(name, "nope"))
        # ... until the address has failed too often.
        limited = await http.post("/api/auth/login", json=_body("cleo", "cleo-demo"))
        assert limited.status_code == 429
        assert "Retry-After" in limited.headers


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_hash_runs_off_the_event_loop_and_unknown_names_cost_the_same(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[bool] = []
    original = punto.server.auth.check_password

    def spy(password: str, stored: str) -> bool:
        calls.append(threading.current_thread() is threading.main_thread())
        return original(password, stored)

    monkeypatch.setattr(punto.server.node.accounts, "check_password", spy)
    async with server_on(backend, tmp_path) as server:
        known = await server.http.post("/api/auth/login", json=_body("ann", "wrong"))
        unknown = await server.http.post("/api/auth/login", json=_body("nobody", "wrong"))
        assert known.status_code == unknown.status_code == 401
        assert known.json()["message"] == unknown.json()["message"]
        assert calls == [False, False]  # one hash each, neither on the event loop's thread


@pytest.mark.parametrize("backend", BACKENDS)
async def test_logout_and_renewal_revoke_the_token(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        session = (await http.post("/api/auth/login", json=_body("ann", "ann-demo"))).json()
        assert session["expires_at"] - time.time() <= server.node.settings.token_ttl
        old = {"Authorization": f"Bearer {session['token']}"}
        renewed = await http.post("/api/auth/renew", headers=old)
        assert renewed.status_code == 200, renewed.text
        new = {"Authorization": f"Bearer {renewed.json()['token']}"}
        assert (await http.get("/api/me", headers=old)).status_code == 401
        assert (await http.get("/api/me", headers=new)).status_code == 200
        async with TableClient.connect(server, "macau-1", renewed.json()["token"]) as client:
            assert (await http.post("/api/auth/logout", headers=new)).status_code == 200
            with pytest.raises(ConnectionClosed):
                await client.next_of("never")
            assert client.ws.close_code == 4401
        gone = await http.get("/api/me", headers=new)
        assert gone.status_code == 401
        assert gone.json()["error"] == "unauthorized"
        assert (await http.post("/api/auth/logout")).status_code == 401


async def test_a_session_that_expires_on_an_open_socket_is_told_and_closed(
    tmp_path: Path,
) -> None:
    """The socket of a session whose token expires, idle or not, gets the typed error and
    is closed with 4401; what it sent before the expiry was answered."""
    async with server_on("sqlite", tmp_path, token_ttl=2.0) as server:
        token = await server.token("ann")
        async with TableClient.connect(server, "macau-1", token) as client:
            assert (await client.request({"type": "join"}))["type"] == "ok"
            with pytest.raises(ConnectionClosed):
                await client.next_of("never", timeout=30)
            assert client.ws.close_code == 4401
            told = [m for m in client.received if m.get("type") == "error"]
            assert [m["error"] for m in told] == ["unauthorized"]
            assert told[0]["message"] == "the session token has expired"


async def test_the_default_token_lifetime_is_one_hour() -> None:
    assert Settings(secret="s" * 32).token_ttl == 3600.0
