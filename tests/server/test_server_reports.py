"""The reports by currency, on SQLite and PostgreSQL: two operators' players in EUR (the
house currency), JPY (no minor units) and USD at two tables over two days; the daily
report keeps a row per table and currency, the operator report a row per day, operator
and currency, each figure exact; bad input is a 400, the CSV has its header, an
operator's signed call sees only its own players, and the command line says the same."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlencode

import httpx
import pytest
from ledger_support import BACKENDS
from server_support import RunningServer, server_on
from sqlalchemy import Table, update

from punto.bets import Bet
from punto.ledger.model import Account, TransactionKind, transfer
from punto.ledger.signing import signature
from punto.ledger.tables import TransactionRow
from punto.settlement import BetResult, Settlement

pytestmark = pytest.mark.asyncio

_CURRENCY = {
    "acme.ann": "",
    "acme.al": "",
    "acme.ken": "JPY",
    "beta.bo": "USD",
    "beta.cy": "",
    "beta.dee": "GBP",
}
"""Each player's book ("": the house currency, EUR)."""

_WIN = Fraction(1)
_BANKER = Fraction(95, 100)

_ROUNDS: dict[str, dict[str, list[tuple[Bet, int, str, Fraction]]]] = {
    "t-1-1-1": {
        "acme.ann": [(Bet.BANKER, 1000, "win", _BANKER)],
        "acme.ken": [(Bet.BANKER, 5000, "win", _BANKER), (Bet.PLAYER, 1000, "lose", _WIN)],
        "beta.bo": [(Bet.PLAYER, 2000, "lose", _WIN)],
        "beta.cy": [(Bet.BANKER, 3000, "win", _BANKER)],
    },
    "t-1-1-2": {
        "acme.ann": [(Bet.PLAYER, 1000, "win", _WIN)],
        "acme.al": [(Bet.BANKER, 2000, "lose", _BANKER)],
        "acme.ken": [(Bet.BANKER, 100, "lose", _BANKER)],
        "beta.bo": [(Bet.BANKER, 1000, "win", _BANKER)],
    },
    "t-2-1-1": {"acme.ken": [(Bet.PLAYER, 10_000, "win", _WIN)]},  # moved to yesterday
    "t-3-1-1": {"beta.dee": [(Bet.PLAYER, 700, "lose", _WIN)]},  # voided once settled
}


def _settlement(bets: list[tuple[Bet, int, str, Fraction]]) -> Settlement:
    results = []
    for bet, stake, outcome, odds in bets:
        net = stake * odds.numerator // odds.denominator if outcome == "win" else -stake
        results.append(BetResult(bet, stake, outcome, odds, net))
    return Settlement(tuple(results))


async def _books(server: RunningServer) -> None:
    """The players' deposits, bets and settlements, straight into the ledger."""
    ledger = server.node.ledger
    for player, book in _CURRENCY.items():
        await ledger.post(
            transfer(
                TransactionKind.DEPOSIT,
                player,
                1_000_000,
                transaction_id=f"dep-{player}",
                operator_id=player.partition(".")[0],
                currency=book,
            )
        )
    for round_id, players in _ROUNDS.items():
        await ledger.open_round(round_id, table_id=round_id.rsplit("-", 2)[0])
        for player, bets in players.items():
            await ledger.confirm_bets(
                round_id,
                player,
                {bet: stake for bet, stake, _o, _odds in bets},
                confirmation_id=f"c-{round_id}-{player}",
                funding=Account.player(player, _CURRENCY[player]),
            )
        await ledger.settle_round(
            round_id, {player: _settlement(bets) for player, bets in players.items()}
        )
    await ledger.void_round("t-3-1-1", author="sam", reason="misdeal")
    yesterday = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0)
    yesterday -= timedelta(days=1)
    rows = cast(Table, TransactionRow.__table__)
    async with server.node.engine.begin() as conn:
        await conn.execute(
            update(rows).where(rows.c.round_id == "t-2-1-1").values(created_at=yesterday)
        )


def _row(day: str, operator: str, currency: str, digits: int, *figures: int) -> dict[str, Any]:
    bets, players, turnover, payouts = figures
    return {
        "date": day,
        "operator": operator,
        "currency": currency,
        "digits": digits,
        "bets": bets,
        "players": players,
        "turnover": turnover,
        "payouts": payouts,
        "ggr": turnover - payouts,
        "observed_rtp": None,
    }


def _expected(today: str, yesterday: str) -> list[dict[str, Any]]:
    rows = [
        # ann: 1000 on Banker won (1950 back), 1000 on Player won (2000); al lost 2000
        _row(today, "acme", "EUR", 2, 3, 2, 4000, 3950),
        # ken: 5000 on Banker won (9750), 1000 on Player and 100 on Banker lost
        _row(today, "acme", "JPY", 0, 3, 1, 6100, 9750),
        _row(today, "beta", "EUR", 2, 1, 1, 3000, 5850),
        # bo: 2000 on Player lost, 1000 on Banker won (1950)
        # dee's 700 lost, then the hand voided: the stake paid back, no GGR
        _row(today, "beta", "GBP", 2, 1, 1, 700, 700),
        _row(today, "beta", "USD", 2, 2, 1, 3000, 1950),
        _row(yesterday, "acme", "JPY", 0, 1, 1, 10_000, 20_000),
    ]
    rtp = {
        (today, "acme", "EUR"): "0.98750",
        (today, "acme", "JPY"): "1.59836",
        (today, "beta", "EUR"): "1.95000",
        (today, "beta", "GBP"): "1.00000",
        (today, "beta", "USD"): "0.65000",
        (yesterday, "acme", "JPY"): "2.00000",
    }
    for row in rows:
        row["observed_rtp"] = rtp[(row["date"], row["operator"], row["currency"])]
    return sorted(rows, key=lambda r: (r["date"], r["operator"], r["currency"]))


def _target(path: str, **query: str) -> str:
    fields = {**query, "timestamp": str(int(time.time()))}
    return f"{path}?{urlencode(fields)}"


async def _signed(
    http: httpx.AsyncClient, operator: str, secret: str, target: str
) -> httpx.Response:
    headers = {
        "X-Punto-Operator": operator,
        "X-Punto-Signature": signature(secret, target.encode()),
    }
    return await http.get(target, headers=headers)


def _cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "punto", "reports", "operators", *args, "--database-url", url],
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("backend", BACKENDS)
async def test_reports_by_operator_currency_and_day(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        admin = await server.headers("admin")
        sam = await server.headers("sam")
        ann = await server.headers("ann")
        secrets = {}
        for operator, currencies in (("acme", ["EUR", "JPY"]), ("beta", ["USD", "EUR"])):
            made = await http.post(
                "/api/admin/operators",
                json={"id": operator, "name": operator.title(), "currencies": currencies},
                headers=admin,
            )
            assert made.status_code == 201, made.text
            secrets[operator] = made.json()["secret"]
        await _books(server)
        now = datetime.now(UTC).date()
        today, yesterday = now.isoformat(), (now - timedelta(days=1)).isoformat()
        expected = _expected(today, yesterday)

        # the daily report: a row per table and currency, never two currencies summed
        daily = (await http.get("/api/reports/daily?table=t-1", headers=sam)).json()["days"]
        figures = {
            d["currency"]: (d["digits"], d["bets"], d["turnover"], d["payouts"], d["house_result"])
            for d in daily
        }
        assert figures == {
            "EUR": (2, 4, 7000, 9800, -2800),
            "JPY": (0, 3, 6100, 9750, -3650),
            "USD": (2, 2, 3000, 1950, 1050),
        }
        assert [d["observed_rtp"] for d in daily] == ["1.40000", "1.59836", "0.65000"]
        voided = await http.get("/api/reports/daily?table=t-3", headers=sam)
        assert [
            (d["currency"], d["void_hands"], d["turnover"], d["payouts"], d["house_result"])
            for d in voided.json()["days"]
        ] == [("GBP", 1, 700, 700, 0)]
        old = await http.get(f"/api/reports/daily?date={yesterday}&table=t-2", headers=sam)
        assert [(d["currency"], d["turnover"]) for d in old.json()["days"]] == [("JPY", 10_000)]
        daily_csv = await http.get("/api/reports/daily.csv?table=t-1", headers=sam)
        assert daily_csv.status_code == 200
        assert [r["currency"] for r in csv.DictReader(io.StringIO(daily_csv.text))] == [
            "EUR",
            "JPY",
            "USD",
        ]

        # the operator report, for the staff
        span = f"from={yesterday}&to={today}"
        answer = await http.get(f"/api/reports/operators?{span}", headers=admin)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert (body["from"], body["to"]) == (yesterday, today)
        assert [r for r in body["rows"] if r["operator"] is not None] == expected
        only = await http.get(f"/api/reports/operators?{span}&operator=beta", headers=sam)
        assert only.json()["rows"] == [r for r in expected if r["operator"] == "beta"]
        one_day = await http.get(f"/api/reports/operators?from={today}&to={today}", headers=sam)
        assert yesterday not in {r["date"] for r in one_day.json()["rows"]}
        for path in (
            f"/api/reports/operators.csv?{span}",
            f"/api/reports/operators?{span}&format=csv",
        ):
            got = await http.get(path, headers=sam)
            assert got.status_code == 200, got.text
            assert got.headers["content-type"].startswith("text/csv")
            lines = got.text.splitlines()
            assert (
                lines[0]
                == "date,operator,currency,digits,bets,players,turnover,payouts,ggr,observed_rtp"
            )
            table = [r for r in csv.DictReader(io.StringIO(got.text)) if r["operator"]]
            assert table == [
                {k: "" if v is None else str(v) for k, v in r.items()} for r in expected
            ]
        empty = await http.get(
            "/api/reports/operators.csv?from=2020-01-01&to=2020-01-02", headers=sam
        )
        assert empty.text.splitlines() == [lines[0]]
        for bad in (
            "from=yesterday",
            "from=2026-02-30",
            "to=2026-12-1",
            f"from={today}&to={yesterday}",
            "from=2026-01-01&to=2026-04-03",  # 93 days
            "format=xml",
            f"from={'9' * 40}",
        ):
            refused = await http.get(f"/api/reports/operators?{bad}", headers=sam)
            assert refused.status_code == 400, (bad, refused.text)
            assert refused.json()["error"], refused.json()
            if bad == "format=xml":
                continue  # the .csv path has no format
            refused_csv = await http.get(f"/api/reports/operators.csv?{bad}", headers=sam)
            assert refused_csv.status_code == 400, (bad, refused_csv.text)
        assert (
            await http.get("/api/reports/operators?from=2026-01-01&to=2026-04-02", headers=sam)
        ).status_code == 200  # 92 days
        missing = await http.get("/api/reports/operators?operator=gamma", headers=sam)
        assert missing.status_code == 404
        assert (await http.get("/api/reports/operators", headers=ann)).status_code == 403
        assert (await http.get("/api/reports/operators.csv")).status_code == 401

        # the operators' signed call: its own rows only, whatever the query says
        path = "/api/operator/v1/reports"
        for operator in ("acme", "beta"):
            own = [r for r in expected if r["operator"] == operator]
            for query in ({}, {"operator": "beta" if operator == "acme" else "acme"}):
                target = _target(path, **{"from": yesterday, "to": today, **query})
                seen = await _signed(http, operator, secrets[operator], target)
                assert seen.status_code == 200, seen.text
                assert seen.json()["operator"] == operator
                assert seen.json()["rows"] == own
            listed = await _signed(http, operator, secrets[operator], _target(path, format="csv"))
            assert listed.status_code == 200, listed.text
            assert {r["operator"] for r in csv.DictReader(io.StringIO(listed.text))} == {operator}
        target = _target(path, **{"from": yesterday, "to": today})
        as_other = await _signed(http, "acme", secrets["beta"], target)  # beta's key, acme's name
        assert as_other.status_code == 401
        unsigned = await http.get(target)
        assert unsigned.status_code == 401
        stale = f"{path}?{urlencode({'timestamp': str(int(time.time()) - 3600)})}"
        assert (await _signed(http, "acme", secrets["acme"], stale)).status_code == 401
        queries = ({"from": today, "to": yesterday}, {"from": "2026-1-1"}, {"format": "xml"})
        for query in queries:
            refused = await _signed(http, "acme", secrets["acme"], _target(path, **query))
            assert refused.status_code == 400, (query, refused.text)

        # the command line
        url = server.node.settings.database_url
        printed = _cli(url, "--from", yesterday, "--to", today, "--json")
        assert printed.returncode == 0, printed.stderr
        assert [r for r in json.loads(printed.stdout)["rows"] if r["operator"]] == expected
        as_csv = _cli(url, "--from", yesterday, "--operator", "acme", "--csv")
        assert as_csv.returncode == 0, as_csv.stderr
        assert [r["currency"] for r in csv.DictReader(io.StringIO(as_csv.stdout))] == [
            "JPY",
            "EUR",
            "JPY",
        ]
        text = _cli(url, "--from", yesterday, "--operator", "acme")
        assert text.returncode == 0, text.stderr
        assert "39.50 EUR" in text.stdout  # acme's euro payouts, in euros
        assert "20000 JPY" in text.stdout  # yen have no minor units
        for args in (
            ["--from", "2026-13-01"],
            ["--from", today, "--to", yesterday],
            ["--from", "2026-01-01", "--to", "2026-12-31"],
            ["--operator", "gamma"],
            ["--currency", "XYZ"],
        ):
            refused_cli = _cli(url, *args)
            assert refused_cli.returncode == 2, (args, refused_cli.stdout)
            assert "punto: error:" in refused_cli.stderr
        assert (await server.node.ledger.check()).ok
