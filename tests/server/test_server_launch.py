"""Signed game launch against a production server (``punto serve`` with ``PUNTO_SECRET``,
no demo data), as an operator runs it: operators registered with ``punto operators add``,
their players launched with signed calls, every bad call refused with a 4xx and nothing
changed."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlencode

import httpx
import pytest
from ledger_support import BACKENDS, POSTGRESQL, ledger_database
from server_support import Process, TableClient, http_client
from sqlalchemy import func, select

from punto.ledger.signing import signature
from punto.ledger.store import create_engine
from punto.server.operators.framing import REFRESH
from punto.server.store.schema import UserRow

if TYPE_CHECKING:
    from server_support import RunningServer

pytestmark = pytest.mark.asyncio


def _operators(url: str, *args: str) -> dict[str, Any]:
    """``punto operators … --json`` on the server's database."""
    done = subprocess.run(
        [sys.executable, "-m", "punto", "operators", *args, "--json", "--database-url", url],
        capture_output=True,
        text=True,
        check=True,
    )
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@dataclass
class Operator:
    """An operator's server, as it calls ours."""

    id: str
    secret: str
    http: httpx.AsyncClient

    def body(self, **changes: object) -> bytes:
        fields: dict[str, object] = {
            "player_id": "p-1",
            "display_name": "Ann",
            "currency": "EUR",
            "language": "en",
            "timestamp": int(time.time()),
        }
        fields.update(changes)
        return json.dumps({k: v for k, v in fields.items() if v is not None}).encode()

    async def launch(
        self, body: bytes, *, sign: str | None = None, operator: str | None = None
    ) -> httpx.Response:
        headers = {
            "Content-Type": "application/json",
            "X-Punto-Operator": operator or self.id,
            "X-Punto-Signature": sign if sign is not None else signature(self.secret, body),
        }
        return await self.http.post("/api/operator/v1/launch", content=body, headers=headers)


@asynccontextmanager
async def production(
    backend: str, tmp_path: Path
) -> AsyncIterator[tuple[str, Process, httpx.AsyncClient]]:
    async with ledger_database(backend, tmp_path) as url:
        server = Process(
            url,
            name="prod",
            env={
                "PUNTO_SECRET": "s" * 40,
                "PUNTO_DEMO": "",
                "PUNTO_ENV": "production",
                "PUNTO_CARD_DELAY": "0.02",
                "PUNTO_SQUEEZE_SECONDS": "0.5",
                "PUNTO_RESULT_SECONDS": "0.1",
                "PUNTO_PASSWORD_COST": "1024",
            },
            log=tmp_path / "server.log",
        )
        http = http_client(server.url)
        try:
            await server.ready(http)
            yield url, server, http
        finally:
            server.stop()
            await http.aclose()


async def _users(url: str) -> int:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(UserRow))).scalar_one())
    finally:
        await engine.dispose()


def _token(launch_url: str) -> str:
    return launch_url.split("launch=")[1].split("#")[0]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_production_server_launches_a_signed_player_and_refuses_every_bad_call(
    backend: str, tmp_path: Path
) -> None:
    async with production(backend, tmp_path) as (url, server, http):
        acme = _operators(
            url,
            "add",
            "acme",
            "--name",
            "Acme Casino",
            "--currencies",
            "EUR,JPY",
            "--origin",
            "https://casino.example",
        )
        beta = _operators(url, "add", "beta", "--name", "Beta", "--currencies", "USD")
        a = Operator("acme", acme["secret"], http)
        b = Operator("beta", beta["secret"], http)
        assert await _users(url) == 0

        refusals: list[tuple[httpx.Response, int, str]] = []
        body = a.body()
        refusals += [
            (await a.launch(body, sign=""), 401, "unauthorized"),  # unsigned
            (await a.launch(body, sign=signature("wrong", body)), 401, "unauthorized"),
            (await a.launch(body, sign=signature(b.secret, body)), 401, "unauthorized"),
            (await a.launch(body, operator="nobody"), 401, "unauthorized"),
            (await a.launch(a.body(timestamp=int(time.time()) - 3600)), 401, "unauthorized"),
            (await a.launch(a.body(currency="USD")), 400, "bad_message"),  # not acme's
            (await a.launch(a.body(currency="EURO")), 400, "bad_message"),
            (await a.launch(a.body(language="fr")), 400, "bad_message"),
            (await a.launch(a.body(limit_group="vip")), 400, "bad_message"),
            (await a.launch(a.body(player_id="p\x00")), 400, "bad_message"),
            (await a.launch(a.body(amount=-1)), 400, "bad_message"),
            (await a.launch(b"{not json"), 400, "bad_message"),
            (await a.launch(a.body(table="no-such-table")), 404, "not_found"),
        ]
        for answer, status, code in refusals:
            assert answer.status_code == status, answer.text
            assert answer.json()["error"] == code
        assert await _users(url) == 0  # nothing was made

        answer = await a.launch(body)
        assert answer.status_code == 200, answer.text
        granted = answer.json()
        assert granted["url"].startswith(f"{server.url}/app/?launch=")
        assert granted["url"].endswith("#/")
        assert granted["expires_at"] > time.time()
        replay = await a.launch(body)  # the same signed call again
        assert (replay.status_code, replay.json()["error"]) == (409, "conflict")

        session = await http.post("/api/auth/launch", json={"launch": _token(granted["url"])})
        assert session.status_code == 200, session.text
        assert session.json()["currency"] == "EUR"
        token = session.json()["token"]
        me = (await http.get("/api/me", headers={"Authorization": f"Bearer {token}"})).json()
        assert (me["user_id"], me["role"], me["display_name"]) == ("acme.p-1", "player", "Ann")
        assert (me["operator"], me["currency"], me["language"]) == ("acme", "EUR", "en")
        assert me["balance"] == 0  # a production server gives a launched player nothing
        again = await http.post("/api/auth/launch", json={"launch": _token(granted["url"])})
        assert again.status_code == 401
        forged = await http.post("/api/auth/launch", json={"launch": "A" * 32})
        assert forged.status_code == 401
        bad = await http.post("/api/auth/launch", json={"launch": "x\x00" * 10})
        assert bad.status_code == 400
        login = await http.post("/api/auth/login", json={"username": "acme.p-1", "password": "x"})
        assert login.status_code == 401  # a launched player has no password here

        # the same player id at another operator is another player; a later launch of the
        # same player updates its name and language, never a second account
        other = await b.launch(b.body(currency="USD", display_name="Bo", language="zh"))
        assert other.status_code == 200, other.text
        relaunch = await a.launch(a.body(display_name="Ann B.", language="zh", currency="JPY"))
        assert relaunch.status_code == 200
        second = await http.post(
            "/api/auth/launch", json={"launch": _token(relaunch.json()["url"])}
        )
        me = (
            await http.get("/api/me", headers={"Authorization": f"Bearer {second.json()['token']}"})
        ).json()
        assert (me["display_name"], me["language"], me["currency"]) == ("Ann B.", "zh", "JPY")
        assert await _users(url) == 2

        # the operators' pages may frame the game, nobody else's: every process reads the
        # origins again within REFRESH seconds of the operator's registration
        deadline = time.monotonic() + REFRESH + 30
        while True:
            page = await http.get("/app/")
            if "https://casino.example" in page.headers["content-security-policy"]:
                break
            assert time.monotonic() < deadline, page.headers
            await asyncio.sleep(0.2)
        policy = page.headers["content-security-policy"]
        assert "frame-ancestors https://casino.example" in policy
        assert "x-frame-options" not in page.headers

        # a rotated secret: the old one signs nothing; a disabled operator launches no one
        rotated = _operators(url, "rotate-secret", "acme")
        assert rotated["secret_version"] == 2
        assert (await a.launch(a.body(player_id="p-2"))).status_code == 401
        a.secret = rotated["secret"]
        assert (await a.launch(a.body(player_id="p-2"))).status_code == 200
        _operators(url, "disable", "acme")
        assert (await a.launch(a.body(player_id="p-3"))).status_code == 403
        assert await _users(url) == 3
        log = (tmp_path / "server.log").read_text()
        assert "Traceback" not in log
        assert " ERROR " not in log


def _get_target(path: str, **query: str) -> str:
    """``path`` with ``query`` and the call's ``timestamp`` (signed with them)."""
    fields = {**query, "timestamp": query.get("timestamp", str(int(time.time())))}
    return f"{path}?{urlencode(fields)}"


async def _signed_get(
    http: httpx.AsyncClient, operator: Operator, target: str, *, secret: str | None = None
) -> httpx.Response:
    headers = {
        "X-Punto-Operator": operator.id,
        "X-Punto-Signature": signature(secret or operator.secret, target.encode()),
    }
    return await http.get(target, headers=headers)


@dataclass
class _Remote:
    """A server in another process, as a :class:`TableClient` reaches it."""

    url: str

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")


async def _session(http: httpx.AsyncClient, operator: Operator, **fields: object) -> str:
    answer = await operator.launch(operator.body(**fields))
    assert answer.status_code == 200, answer.text
    redeemed = await http.post("/api/auth/launch", json={"launch": _token(answer.json()["url"])})
    return str(redeemed.json()["token"])


@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_two_operators_players_at_one_table_each_see_only_their_own(
    backend: str, tmp_path: Path
) -> None:
    """Two operators' players, both ``p-1`` to their operator, bet in one hand at one
    table (whose rules return Player and Banker bets on a tie [L], so no bet stands into
    the next hand); each operator's look-ups show its own player's bets and transactions, and a
    round or a player of the other operator is a 404. The books balance."""
    async with production(backend, tmp_path) as (url, server, http):
        staff = subprocess.run(
            [
                sys.executable,
                "-m",
                "punto",
                "users",
                "add",
                "boss",
                "--role",
                "admin",
                "--password-stdin",
                "--database-url",
                url,
            ],
            input="boss-password\n",
            capture_output=True,
            text=True,
            check=True,
        )
        assert "made" in staff.stdout
        admin = (
            await http.post(
                "/api/auth/login", json={"username": "boss", "password": "boss-password"}
            )
        ).json()["token"]
        as_admin = {"Authorization": f"Bearer {admin}"}
        made = await http.post(
            "/api/admin/tables",
            json={"id": "t-1", "name": "One", "rules": "online_8deck", "betting_seconds": 4.0},
            headers=as_admin,
        )
        assert made.status_code == 201, made.text
        acme = _operators(url, "add", "acme", "--name", "Acme", "--currencies", "EUR")
        beta = _operators(url, "add", "beta", "--name", "Beta", "--currencies", "EUR")
        a = Operator("acme", acme["secret"], http)
        b = Operator("beta", beta["secret"], http)
        tokens = {"acme": await _session(http, a), "beta": await _session(http, b)}
        for user in ("acme.p-1", "beta.p-1"):
            deposit = await http.post(
                f"/api/admin/players/{user}/deposit",
                json={"amount": 10_000, "transaction_id": f"dep-{user}"},
                headers=as_admin,
            )
            assert deposit.status_code == 200, deposit.text
        remote = cast("RunningServer", _Remote(server.url))
        async with (
            TableClient.connect(remote, "t-1", tokens["acme"]) as ann,
            TableClient.connect(remote, "t-1", tokens["beta"]) as bo,
        ):
            for seat, (client, chip) in enumerate(((ann, 1000), (bo, 1000)), start=1):
                await client.ok({"type": "join"})
                await client.ok({"type": "sit", "seat": seat, "tier": "low"})
                await client.ok({"type": "choose_chip", "chip": chip})

            async def bet_in_one_round(bets: list[tuple[TableClient, str]]) -> str:
                # a round that closes before every bet is in: all of them in the next
                while True:
                    for client, _ in bets:
                        client.skip_to_end()
                    game = await bets[0][0].betting_open()
                    answers = []
                    for client, bet in bets:
                        await client.request({"type": "add_chip", "bet": bet})
                        answers.append(await client.request({"type": "confirm"}))
                    if all(x["type"] == "ok" for x in answers):
                        return game
                    refused = [x["error"] for x in answers if x["type"] == "error"]
                    assert set(refused) <= {"betting", "phase"}, answers

            both = await bet_in_one_round([(ann, "banker"), (bo, "player")])
            await ann.next_of("hand_settled", lambda m: m["event"]["game"] == both, timeout=60)
            only_beta = await bet_in_one_round([(bo, "player")])
            await bo.next_of("hand_settled", lambda m: m["event"]["game"] == only_beta, timeout=60)

        seen = await _signed_get(http, a, _get_target(f"/api/operator/v1/rounds/{both}"))
        assert seen.status_code == 200, seen.text
        round_a = seen.json()
        assert list(round_a["bets"]) == ["p-1"]
        assert round_a["bets"]["p-1"] == {"banker": 1000}
        assert "beta" not in json.dumps(round_a)  # nothing of the other operator's
        assert round_a["cards"]
        round_b = (
            await _signed_get(http, b, _get_target(f"/api/operator/v1/rounds/{both}"))
        ).json()
        assert round_b["bets"] == {"p-1": {"player": 1000}}
        assert "acme" not in json.dumps(round_b)
        for target, who in (
            (f"/api/operator/v1/rounds/{only_beta}", a),  # a round only beta's player played
            ("/api/operator/v1/rounds/no-such-round", a),
            ("/api/operator/v1/players/p-9/transactions", a),  # never launched by acme
        ):
            missing = await _signed_get(http, who, _get_target(target))
            assert missing.status_code == 404, missing.text
        mine = await _signed_get(
            http, a, _get_target("/api/operator/v1/players/p-1/transactions", limit="50")
        )
        assert mine.status_code == 200, mine.text
        kinds = [t["kind"] for t in mine.json()["transactions"]]
        assert "deposit" in kinds
        assert both in {t["round_id"] for t in mine.json()["transactions"]}
        assert only_beta not in {t["round_id"] for t in mine.json()["transactions"]}
        later = await _signed_get(
            http,
            a,
            _get_target("/api/operator/v1/players/p-1/transactions", **{"from": "2999-01-01"}),
        )
        assert later.json()["transactions"] == []
        theirs = (
            await _signed_get(http, b, _get_target("/api/operator/v1/players/p-1/transactions"))
        ).json()["transactions"]
        assert {t["round_id"] for t in theirs} >= {both, only_beta}
        for answer, status in (
            (
                await _signed_get(
                    http, a, _get_target(f"/api/operator/v1/rounds/{both}"), secret="x"
                ),
                401,
            ),
            (
                await _signed_get(
                    http, a, _get_target(f"/api/operator/v1/rounds/{both}", timestamp="1")
                ),
                401,
            ),
            (await _signed_get(http, a, f"/api/operator/v1/rounds/{both}"), 400),  # no timestamp
            (
                await _signed_get(
                    http, a, _get_target("/api/operator/v1/players/p-1/transactions", limit="0")
                ),
                400,
            ),
            (
                await _signed_get(
                    http, a, _get_target("/api/operator/v1/players/p-1/transactions", to="soon")
                ),
                400,
            ),
            (await http.get(_get_target(f"/api/operator/v1/rounds/{both}")), 401),  # unsigned
        ):
            assert answer.status_code == status, answer.text
        check = subprocess.run(
            [sys.executable, "-m", "punto", "ledger", "check", "--database-url", url],
            capture_output=True,
            text=True,
        )
        assert check.returncode == 0, check.stdout + check.stderr
