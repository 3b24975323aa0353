"""Signed game launch against a production server (``punto serve`` with ``PUNTO_SECRET``,
no demo data), as an operator runs it: operators registered with ``punto operators add``,
their players launched with signed calls, every bad call refused with a 4xx and nothing
changed."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from ledger_support import BACKENDS
from operator_support import Operator, launch_token, operators_cli, production, users_count

from punto.ledger.signing import signature
from punto.server.operators.framing import REFRESH

if TYPE_CHECKING:
    pass

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_production_server_launches_a_signed_player_and_refuses_every_bad_call(
    backend: str, tmp_path: Path
) -> None:
    async with production(backend, tmp_path) as (url, server, http):
        acme = operators_cli(
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
        beta = operators_cli(url, "add", "beta", "--name", "Beta", "--currencies", "USD")
        a = Operator("acme", acme["secret"], http)
        b = Operator("beta", beta["secret"], http)
        assert await users_count(url) == 0

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
        assert await users_count(url) == 0  # nothing was made

        answer = await a.launch(body)
        assert answer.status_code == 200, answer.text
        granted = answer.json()
        assert granted["url"].startswith(f"{server.url}/app/?launch=")
        assert granted["url"].endswith("#/")
        assert granted["expires_at"] > time.time()
        replay = await a.launch(body)  # the same signed call again
        assert (replay.status_code, replay.json()["error"]) == (409, "conflict")

        session = await http.post("/api/auth/launch", json={"launch": launch_token(granted["url"])})
        assert session.status_code == 200, session.text
        assert session.json()["currency"] == "EUR"
        token = session.json()["token"]
        me = (await http.get("/api/me", headers={"Authorization": f"Bearer {token}"})).json()
        assert (me["user_id"], me["role"], me["display_name"]) == ("acme.p-1", "player", "Ann")
        assert (me["operator"], me["currency"], me["language"]) == ("acme", "EUR", "en")
        assert me["balance"] == 0  # a production server gives a launched player nothing
        again = await http.post("/api/auth/launch", json={"launch": launch_token(granted["url"])})
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
            "/api/auth/launch", json={"launch": launch_token(relaunch.json()["url"])}
        )
        me = (
            await http.get("/api/me", headers={"Authorization": f"Bearer {second.json()['token']}"})
        ).json()
        assert (me["display_name"], me["language"], me["currency"]) == ("Ann B.", "zh", "JPY")
        assert await users_count(url) == 2

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
        rotated = operators_cli(url, "rotate-secret", "acme")
        assert rotated["secret_version"] == 2
        assert (await a.launch(a.body(player_id="p-2"))).status_code == 401
        a.secret = rotated["secret"]
        assert (await a.launch(a.body(player_id="p-2"))).status_code == 200
        operators_cli(url, "disable", "acme")
        assert (await a.launch(a.body(player_id="p-3"))).status_code == 403
        assert await users_count(url) == 3
        log = (tmp_path / "server.log").read_text()
        assert "Traceback" not in log
        assert " ERROR " not in log
