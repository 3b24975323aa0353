"""Operators' look-ups against a production server: two operators' players at one table in
one hand, each operator seeing only its own players' bets and transactions."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast
from urllib.parse import urlencode

import httpx
import pytest
from ledger_support import POSTGRESQL
from operator_support import (
    Operator,
    RemoteServer,
    launched_session,
    operators_cli,
    production,
)
from server_support import TableClient

from punto.ledger.signing import signature

if TYPE_CHECKING:
    from server_support import RunningServer

pytestmark = pytest.mark.asyncio


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
        acme = operators_cli(url, "add", "acme", "--name", "Acme", "--currencies", "EUR")
        beta = operators_cli(url, "add", "beta", "--name", "Beta", "--currencies", "EUR")
        a = Operator("acme", acme["secret"], http)
        b = Operator("beta", beta["secret"], http)
        tokens = {"acme": await launched_session(http, a), "beta": await launched_session(http, b)}
        for user in ("acme.p-1", "beta.p-1"):
            deposit = await http.post(
                f"/api/admin/players/{user}/deposit",
                json={"amount": 10_000, "transaction_id": f"dep-{user}"},
                headers=as_admin,
            )
            assert deposit.status_code == 200, deposit.text
        remote = cast("RunningServer", RemoteServer(server.url))
        async with (
            TableClient.connect(remote, "t-1", tokens["acme"]) as ann,
            TableClient.connect(remote, "t-1", tokens["beta"]) as bo,
        ):
            for seat, (client, chip) in enumerate(((ann, 1000), (bo, 1000)), start=1):
                await client.take_seat(seat, chip=chip)

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
