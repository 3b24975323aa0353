"""Logins: failed attempts throttle the client that makes them (per client, and per client
and account), never the account (429 with Retry-After); the password hash off the event
loop and as much work for an unknown name as for a known one; logout and renewal revoke
tokens; a one-hour default token lifetime."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import httpx
import pytest
from ledger_support import BACKENDS
from server_support import RunningServer, TableClient, server_on
from websockets.exceptions import ConnectionClosed

import punto.server.auth
import punto.server.node.accounts
from punto.server.config import Settings

pytestmark = pytest.mark.asyncio


def _body(user: str, password: str) -> dict[str, str]:
    return {"username": user, "password": password}


class MovedClock:
    """The wall clock, with monotonic time a test moves forward by hand (a cool-down
    passes at once)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        """Epoch seconds."""
        return time.time()

    def monotonic(self) -> float:
        """Monotonic seconds plus what the test added."""
        return time.monotonic() + self.offset


def _client_at(server: RunningServer, address: str) -> httpx.AsyncClient:
    """An HTTP client of ``server`` whose connections come from ``address`` (another
    loopback address: another client to the server)."""
    return httpx.AsyncClient(
        base_url=server.url,
        timeout=20,
        transport=httpx.AsyncHTTPTransport(local_address=address),
    )


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_wrong_password_flood_never_stops_the_owner_on_another_client(
    backend: str, tmp_path: Path
) -> None:
    """One client floods ``ann`` with wrong passwords while ``ann`` logs in from another,
    all at once: every login of the owner succeeds; the flooder gets 401 for its free
    failures, then only 429 with ``Retry-After`` and a translated reason (never a 5xx),
    and a growing cool-down; once it has waited, the right password from it works too."""
    clock = MovedClock()
    async with (
        server_on(
            backend,
            tmp_path,
            clock=clock,
            login_attempts=3,
            login_address_attempts=50,
            login_delay=30,
            login_window=600,
        ) as server,
        _client_at(server, "127.0.0.2") as flooder,
        _client_at(server, "127.0.0.1") as owner,
    ):

        async def owner_logs_in() -> list[httpx.Response]:
            return [
                await owner.post("/api/auth/login", json=_body("ann", "ann-demo")) for _ in range(5)
            ]

        floods = [
            flooder.post("/api/auth/login", json=_body("ann", f"guess-{n}")) for n in range(40)
        ]
        own, flood = await asyncio.gather(owner_logs_in(), asyncio.gather(*floods))
        assert [r.status_code for r in own] == [200] * 5
        assert all(r.json()["user_id"] == "ann" for r in own)
        codes = [r.status_code for r in flood]
        assert codes.count(401) == 3, codes
        assert codes.count(429) == 37, codes
        refused = next(r for r in flood if r.status_code == 429)
        assert refused.json()["error"] == "rate_limited"
        assert refused.json()["params"] == {"retry_after": int(refused.headers["Retry-After"])}
        assert 0 < int(refused.headers["Retry-After"]) <= 30
        assert refused.json()["message"].startswith("too many failed logins: try again in")
        # The cool-down over, one more wrong password doubles the next one (60 s) ...
        clock.offset += 30
        assert (await flooder.post("/api/auth/login", json=_body("ann", "x"))).status_code == 401
        longer = await flooder.post("/api/auth/login", json=_body("ann", "ann-demo"))
        assert longer.status_code == 429
        assert 30 < int(longer.headers["Retry-After"]) <= 60
        # ... and once that has passed, the right password from the flooding client works.
        clock.offset += 60
        again = await flooder.post("/api/auth/login", json=_body("ann", "ann-demo"))
        assert again.status_code == 200, again.text


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_client_failing_on_many_accounts_waits_whatever_it_tries_next(
    backend: str, tmp_path: Path
) -> None:
    """Past its free failures over all accounts, a client waits before any login (429),
    while the accounts it tried stay open to other clients."""
    async with (
        server_on(
            backend, tmp_path, login_attempts=3, login_address_attempts=4, login_delay=60
        ) as server,
        _client_at(server, "127.0.0.3") as scanner,
    ):
        for name in ("ann", "bob", "x1", "x2"):
            answer = await scanner.post("/api/auth/login", json=_body(name, "nope"))
            assert answer.status_code == 401
        limited = await scanner.post("/api/auth/login", json=_body("cleo", "cleo-demo"))
        assert limited.status_code == 429
        assert 0 < int(limited.headers["Retry-After"]) <= 60
        for name in ("ann", "bob", "cleo"):
            answer = await server.http.post("/api/auth/login", json=_body(name, f"{name}-demo"))
            assert answer.status_code == 200, answer.text


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
