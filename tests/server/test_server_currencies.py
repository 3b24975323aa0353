"""Money in the player's currency, on a production server with PostgreSQL: two
operators' players in EUR (the house currency), JPY (0 digits) and USD at one table in
one hand; each bets their own currency's chips on their limit group's amounts, is paid in
it, and each currency's books balance on their own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

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

if TYPE_CHECKING:
    from server_support import RunningServer

pytestmark = pytest.mark.asyncio

_LIMITS = {
    "default": {
        "JPY": {
            "chips": [100, 500, 1000, 5000],
            "tiers": {
                "low": {"min_bet": 100, "max_bet": 100_000, "side_min": 100, "side_max": 20_000}
            },
        },
    },
    "vip": {
        "JPY": {
            "chips": [10_000],
            "tiers": {
                "low": {
                    "min_bet": 10_000,
                    "max_bet": 1_000_000,
                    "side_min": 1000,
                    "side_max": 50_000,
                }
            },
        },
    },
}
_USD = {
    "default": {
        "USD": {
            "chips": [100, 500, 1000],
            "tiers": {
                "low": {"min_bet": 500, "max_bet": 50_000, "side_min": 100, "side_max": 5000}
            },
        },
    },
}


def _cli(url: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "punto", *args, "--database-url", url],
        input=stdin,
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_three_currencies_at_one_table_in_one_hand(backend: str, tmp_path: Path) -> None:
    async with production(backend, tmp_path) as (url, server, http):
        made = _cli(
            url, "users", "add", "boss", "--role", "admin", "--password-stdin", stdin="boss-pass\n"
        )
        assert made.returncode == 0, made.stderr
        admin = (
            await http.post("/api/auth/login", json={"username": "boss", "password": "boss-pass"})
        ).json()["token"]
        as_admin = {"Authorization": f"Bearer {admin}"}
        table = await http.post(
            "/api/admin/tables",
            json={"id": "t-1", "name": "One", "rules": "online_8deck", "betting_seconds": 4.0},
            headers=as_admin,
        )
        assert table.status_code == 201, table.text
        groups = tmp_path / "acme-limits.json"
        groups.write_text(json.dumps(_LIMITS))
        acme = operators_cli(
            url,
            "add",
            "acme",
            "--name",
            "Acme",
            "--currencies",
            "EUR,JPY",
            "--limit-groups",
            str(groups),
        )
        beta = operators_cli(url, "add", "beta", "--name", "Beta", "--currencies", "USD,GBP")
        assert sorted(acme["limit_groups"]) == ["default", "vip"]
        # a limit group naming a currency beta has not enabled is refused, and changes nothing
        bad = _cli(url, "operators", "limits", "beta", "-", stdin=json.dumps(_LIMITS))
        assert bad.returncode == 2, bad.stdout
        assert "JPY" in bad.stderr
        changed = await http.put(
            "/api/admin/operators/beta/limit-groups", json=_USD, headers=as_admin
        )
        assert changed.status_code == 200, changed.text
        a = Operator("acme", acme["secret"], http)
        b = Operator("beta", beta["secret"], http)
        unknown = await a.launch(a.body(player_id="ken", currency="JPY", limit_group="gold"))
        assert unknown.status_code == 400, unknown.text
        assert "gold" in unknown.json()["message"]
        tokens = {
            "acme.ann": await launched_session(http, a, player_id="ann", currency="EUR"),
            "acme.ken": await launched_session(http, a, player_id="ken", currency="JPY"),
            "beta.bo": await launched_session(http, b, player_id="bo", currency="USD"),
            "beta.gus": await launched_session(http, b, player_id="gus", currency="GBP"),
        }
        for user in ("acme.ann", "acme.ken", "beta.bo"):
            deposit = await http.post(
                f"/api/admin/players/{user}/deposit",
                json={"amount": 100_000, "transaction_id": f"dep-{user}"},
                headers=as_admin,
            )
            assert deposit.status_code == 200, deposit.text
        me = (
            await http.get("/api/me", headers={"Authorization": f"Bearer {tokens['acme.ken']}"})
        ).json()
        assert (me["currency"], me["digits"], me["balance"]) == ("JPY", 0, 100_000)
        assert me["limits"]["chips"] == [100, 500, 1000, 5000]
        remote = cast("RunningServer", RemoteServer(server.url))
        async with (
            TableClient.connect(remote, "t-1", tokens["acme.ann"]) as ann,
            TableClient.connect(remote, "t-1", tokens["acme.ken"]) as ken,
            TableClient.connect(remote, "t-1", tokens["beta.bo"]) as bo,
            TableClient.connect(remote, "t-1", tokens["beta.gus"]) as gus,
        ):
            refused = await gus.request({"type": "join"})  # GBP: beta's group has no GBP limits
            assert refused["type"] == "error", refused
            assert "GBP" in refused["message"]
            for number, (client, chip) in enumerate(
                ((ann, 1000), (ken, 5000), (bo, 1000)), start=1
            ):
                await client.take_seat(number, chip=chip)
            wrong = await ken.request({"type": "choose_chip", "chip": 2500})
            assert wrong["type"] == "error", wrong  # not a yen chip
            await ken.ok({"type": "choose_chip", "chip": 5000})
            ken.skip_to_end()
            await ken.ws.send(json.dumps({"type": "resync"}))
            mine = await ken.next_of("snapshot")
            assert mine["you"]["purse"]["currency"] == "JPY", mine["you"]
            assert mine["you"]["purse"]["digits"] == 0

            while True:  # a round that closes before every bet is in: all in the next one
                for client in (ann, ken, bo):
                    client.skip_to_end()
                game = await ann.betting_open()
                answers = []
                for client in (ann, ken, bo):
                    await client.request({"type": "add_chip", "bet": "banker"})
                    answers.append(await client.request({"type": "confirm"}))
                if all(x["type"] == "ok" for x in answers):
                    break
                assert {x["error"] for x in answers if x["type"] == "error"} <= {"betting", "phase"}
            await ann.next_of("hand_settled", lambda m: m["event"]["game"] == game, timeout=60)
        balances = {}
        for user, token in tokens.items():
            if user == "beta.gus":
                continue
            answer = await http.get("/api/me", headers={"Authorization": f"Bearer {token}"})
            balances[user] = answer.json()["balance"]
        # one Banker bet each, settled alike in each currency: lost (0), returned on a tie
        # [L], or won at 0.95
        ratios = set()
        for user, stake in (("acme.ann", 1000), ("acme.ken", 5000), ("beta.bo", 1000)):
            returned = balances[user] - (100_000 - stake)
            assert returned in (0, stake, stake + stake * 95 // 100), (user, balances)
            ratios.add(returned * 100 // stake)
        assert len(ratios) == 1, balances
        check = _cli(url, "ledger", "check", "--json")
        assert check.returncode == 0, check.stdout + check.stderr
        report = json.loads(check.stdout)
        books = {(row["currency"], row["operator"]): row for row in report["books"]}
        for currency in ("EUR", "JPY", "USD"):
            assert books[(currency, None)]["total"] == 0, books
        assert books[("JPY", "acme")]["players"] == balances["acme.ken"]
        assert books[("USD", "beta")]["players"] == balances["beta.bo"]
        assert ("JPY", "beta") not in books
