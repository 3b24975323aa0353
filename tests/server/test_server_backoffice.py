"""The back office on a real server: rules composed as data reach the dealt game and are
versioned, the edge preview equals ``punto edge``, negative edges need a confirmation,
refusals are typed and name the field; drift and shoe-audit alarms reach the supervisors."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on

from punto.bets import Bet
from punto.cards import deck
from punto.cli import main
from punto.coup import deal_coup
from punto.dealing import HandDealt, ShoeDealer
from punto.outcome import Outcome
from punto.rules import Rules, preset
from punto.server.fanout.protocol import outcome_json
from punto.server.features.backoffice import check_drift, rules_of_hand
from punto.server.store.storage import ServerStore
from punto.settlement import settle

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]

SHORT = {"decks": 6, "cut_min_from_end": 270, "cut_max_from_end": 270}
"""A 6-deck shoe cut 42 cards in: a shoe lasts a few hands."""


async def _shoe_start(client: TableClient) -> tuple[list[int], int]:
    """From the next shoe_opened to betting_opened: the burn counts and demo hands."""
    await client.next_of("shoe_opened", timeout=60)
    burns: list[int] = []
    demos = 0
    while True:
        message = await client.next_of("event", timeout=30)
        kind = message["event"]["kind"]
        if kind == "cards_burned":
            burns.append(message["event"]["count"])
        elif kind == "demo_hand_dealt":
            demos += 1
        elif kind == "betting_opened":
            return burns, demos


@pytest.mark.parametrize("backend", BACKENDS)
async def test_rules_as_data_reach_the_dealt_game_and_are_versioned(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        admin = await server.headers("admin")
        sam = await server.headers("sam")
        body = {
            "id": "short-1",
            "name": "Short shoe",
            "preset": "macau",
            "overrides": {**SHORT, "demo_hands": 3, "burn": "first_card_value"},
        }
        created = await http.post("/api/admin/tables", json=body, headers=admin)
        assert created.status_code == 201, created.text
        config = created.json()
        assert config["rules"] == "macau"
        assert config["rules_version"] == 1
        assert config["document"]["demo_hands"] == 3
        assert config["document"]["decks"] == 6
        async with TableClient.connect(server, "short-1") as watcher:
            burns, demos = await _shoe_start(watcher)
            assert demos == 3  # three unbet hands at shoe start [M2]
            assert len(burns) == 1
            assert 2 <= burns[0] <= 11

            changed = await http.put(
                "/api/admin/tables/short-1/rules",
                json={"overrides": {**SHORT, "demo_hands": 1, "burn": "decks"}},
                headers=admin,
            )
            assert changed.status_code == 200, changed.text
            assert changed.json()["rules_version"] == 2
            await watcher.next_of("rules_changed", lambda m: m["event"]["version"] == 2, timeout=60)
            burns, demos = await _shoe_start(watcher)
            assert (burns, demos) == ([6], 1)
            settled = await watcher.next_of("hand_settled", timeout=30)
        game = settled["event"]["game"]
        record: dict[str, Any] = {}
        for _ in range(100):  # the record is saved before the event is sent; allow slack
            answer = await http.get(f"/api/hands/{game}", headers=sam)
            if answer.status_code == 200:
                record = answer.json()
                break
            await asyncio.sleep(0.05)
        assert record["rules_version"] == 2
        versions = (await http.get("/api/admin/tables/short-1/rules", headers=admin)).json()
        assert [v["version"] for v in versions["versions"]] == [1, 2]
        assert versions["versions"][1]["overrides"]["burn"] == "decks"
        shoes = (await http.get("/api/tables/short-1/shoes")).json()["shoes"]
        closed = [s for s in shoes if s["closed_at"] is not None]
        assert closed
        assert all(s["audit"] == "verified" for s in closed)
        assert {s["rules_version"] for s in shoes} <= {1, 2}
        assert (await http.get("/api/supervisor/alarms", headers=sam)).json()["alarms"] == []

        # The same rules again: no new version.
        same = await http.put(
            "/api/admin/tables/short-1/rules",
            json={"overrides": {**SHORT, "demo_hands": 1, "burn": "decks"}},
            headers=admin,
        )
        assert same.json()["rules_version"] == 2


@pytest.mark.parametrize("backend", BACKENDS[:1])
async def test_typed_refusals_name_the_field_and_change_nothing(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        admin = await server.headers("admin")
        preview = "/api/admin/rules/preview"
        for overrides, field in (
            ({"decks": 13}, "decks"),
            ({"decks": "8"}, "decks"),
            ({"burn": "half"}, "burn"),
            ({"colour": "red"}, "colour"),
            ({"paytables": {"tie": "banker_commission"}}, "paytables"),
            ({"demo_hands": 5}, "demo_hands"),
        ):
            answer = await http.post(
                preview, json={"preset": "macau", "overrides": overrides}, headers=admin
            )
            assert answer.status_code == 400, (overrides, answer.text)
            assert (answer.json()["error"], answer.json()["field"]) == ("rules", field)
        answer = await http.post(preview, json={"preset": "vegas"}, headers=admin)
        assert answer.json()["field"] == "preset"
        too_few = {"id": "t4", "name": "Four", "preset": "macau", "overrides": {"decks": 4}}
        answer = await http.post("/api/admin/tables", json=too_few, headers=admin)
        assert answer.status_code == 400
        assert answer.json()["field"] == "decks"
        assert "t4" not in {
            t["id"] for t in (await http.get("/api/admin/tables", headers=admin)).json()["tables"]
        }

        promo = {"paytables": {"player": "player", "banker": "banker_even_money", "tie": "tie_8"}}
        shown = (
            await http.post(preview, json={"preset": "macau", "overrides": promo}, headers=admin)
        ).json()
        assert shown["negative_edge"] == ["banker"]
        assert shown["bets"]["banker"]["house_edge"] < 0
        body: dict[str, Any] = {
            "id": "promo-1",
            "name": "Promo",
            "preset": "macau",
            "overrides": promo,
        }
        refused = await http.post("/api/admin/tables", json=body, headers=admin)
        assert refused.status_code == 409
        assert (refused.json()["error"], refused.json()["bets"]) == ("negative_edge", ["banker"])
        assert "promo-1" not in server.node.runners
        body["confirm_negative_edge"] = True
        opened = await http.post("/api/admin/tables", json=body, headers=admin)
        assert opened.status_code == 201, opened.text
        refused = await http.put(
            "/api/admin/tables/macau-1/rules", json={"overrides": promo}, headers=admin
        )
        assert refused.status_code == 409
        kept = (await http.get("/api/admin/tables/macau-1/rules", headers=admin)).json()
        assert kept["rules_version"] == 1
        player = await server.headers("bob")
        assert (
            await http.post(preview, json={"preset": "macau"}, headers=player)
        ).status_code == 403


@pytest.mark.parametrize("backend", BACKENDS[:1])
async def test_the_edge_preview_equals_punto_edge(
    backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paytables = {
        "player": "player",
        "banker": "banker_no_commission",
        "tie": "tie_9",
        "dragon_player": "dragon_o",
        "lucky6": "lucky6_12_20",
    }
    overrides: dict[str, Any] = {"paytables": paytables, "decks": 6}
    async with server_on(backend, tmp_path) as server:
        admin = await server.headers("admin")
        answer = await server.http.post(
            "/api/admin/rules/preview",
            json={"preset": "live_tiger", "overrides": overrides},
            headers=admin,
        )
        assert answer.status_code == 200, answer.text
        shown = answer.json()
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(shown["document"]), encoding="utf-8")
    capsys.readouterr()
    assert main(["edge", "--json", "--rules", str(path)]) == 0
    edge = json.loads(capsys.readouterr().out)
    assert set(shown["bets"]) == set(edge["bets"]) == set(paytables)
    for bet, figures in shown["bets"].items():
        for key in ("house_edge", "rtp", "std_dev", "hit_frequency", "paytable"):
            assert figures[key] == edge["bets"][bet][key], (bet, key)
    assert shown["outcomes"] == edge["outcomes"]
    assert shown["cards"] == 312


def _record(rules: Rules, outcome: Outcome, game: str) -> dict[str, Any]:
    result = settle(rules, outcome, {Bet.BANKER: 10_000})
    results = [{"bet": r.bet.value, "stake": r.stake, "net": r.net} for r in result.results]
    return {
        "game": game,
        "outcome": outcome_json(outcome),
        "void": False,
        "rules_version": 1,
        "results": {"ann": {"settlement": {"results": results}}},
    }


async def _store_hands(store: ServerStore, table: str, shoe: int, outcomes: list[Outcome]) -> None:
    """Store a shoe's hands, a few at once (one commit each: on PostgreSQL, waiting for
    each commit in turn took most of this module's time)."""
    rules = preset("macau")
    now = time.time()

    async def save(hand: int, outcome: Outcome) -> None:
        game = f"{table}-{shoe}-{hand}"
        await store.save_hand(
            game=game,
            table_id=table,
            shoe=shoe,
            hand=hand,
            opened_at=now,
            closed_at=now,
            status="settled",
            record=_record(rules, outcome, game),
            players=["ann"],
        )

    numbered = list(enumerate(outcomes, start=1))
    for start in range(0, len(numbered), 8):
        await asyncio.gather(*(save(h, o) for h, o in numbered[start : start + 8]))


def _fair(hands: int, seed: int) -> list[Outcome]:
    out: list[Outcome] = []
    shoe = 0
    while len(out) < hands:
        dealer = ShoeDealer(preset("macau"), seed=seed * 100 + shoe)
        shoe += 1
        out.extend(e.outcome for e in dealer.deal_all() if isinstance(e, HandDealt) and not e.void)
    return out[:hands]


def _stacked(hands: int, seed: int) -> list[Outcome]:
    """A faulty shoe: no tens or faces."""
    rng = random.Random(seed)
    cards = [c for _ in range(8) for c in deck() if c.value != 0]
    out = []
    for _ in range(hands):
        rng.shuffle(cards)
        out.append(deal_coup(cards[:6]))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
async def test_drift_and_shoe_audit_alarms_reach_the_supervisors(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        admin = await server.headers("admin")
        sam = await server.headers("sam")
        for table in ("fair-1", "bias-1"):
            body = {"id": table, "name": table, "preset": "macau", "enabled": False}
            assert (
                await http.post("/api/admin/tables", json=body, headers=admin)
            ).status_code == 201
        store = server.node.store
        await _store_hands(store, "fair-1", 1, _fair(600, 1))
        await _store_hands(store, "bias-1", 1, _stacked(600, 2))
        await check_drift(store, "fair-1", shoe=1, at=time.time())
        await check_drift(store, "bias-1", shoe=1, at=time.time())
        alarms = (await http.get("/api/supervisor/alarms", headers=sam)).json()["alarms"]
        assert {a["table"] for a in alarms} == {"bias-1"}
        assert {a["kind"] for a in alarms} == {"drift"}
        assert {a["detail"]["scope"] for a in alarms} == {"shoe", "day"}

        report = (await http.get("/api/reports/drift?table=bias-1&shoe=1", headers=sam)).json()
        assert report["alarm"] is True
        (version,) = report["reports"]
        assert version["rules_version"] == 1
        assert version["hands"] == 600
        assert {o["name"] for o in version["outcomes"]} >= {"banker", "player", "tie", "natural"}
        fair = (await http.get("/api/reports/drift?table=fair-1", headers=sam)).json()
        assert fair["alarm"] is False
        assert fair["reports"][0]["hands"] == 600
        banker = fair["reports"][0]["bets"][0]
        assert banker["bet"] == "banker"
        assert banker["band"][0] < banker["exact_rtp"] < banker["band"][1]
        csv = await http.get("/api/reports/drift?table=bias-1&shoe=1&format=csv", headers=sam)
        assert csv.headers["content-type"].startswith("text/csv")
        lines = csv.text.splitlines()
        assert lines[0].startswith("table,shoe,date,rules_version,kind,name")
        assert len(lines) == 1 + 1 + 6  # header, the banker bet, six outcome rows
        daily = await http.get("/api/reports/daily.csv", headers=sam)
        assert daily.status_code == 200
        assert daily.headers["content-type"].startswith("text/csv")
        for bad in ("table=nope", "table=fair-1&shoe=1&date=2026-01-01", "table=fair-1&date=x"):
            answer = await http.get(f"/api/reports/drift?{bad}", headers=sam)
            assert answer.status_code in (400, 404), bad
        player = await server.headers("bob")
        assert (await http.get("/api/supervisor/alarms", headers=player)).status_code == 403

        # A correction settles a hand again by the rules it was dealt under, not the new ones.
        tie9 = {"paytables": {"player": "player", "banker": "banker_commission", "tie": "tie_9"}}
        answer = await http.put(
            "/api/admin/tables/fair-1/rules", json={"overrides": tie9}, headers=admin
        )
        assert answer.json()["rules_version"] == 2
        old = await rules_of_hand(store, "fair-1-1-1", "fair-1")
        assert old.paytables[Bet.TIE] == "tie_8"
        await store.save_hand(
            game="fair-1-2-1",
            table_id="fair-1",
            shoe=2,
            hand=1,
            opened_at=time.time(),
            closed_at=time.time(),
            status="settled",
            players=[],
            record={**_record(preset("macau"), _fair(1, 9)[0], "fair-1-2-1"), "rules_version": 2},
        )
        assert (await rules_of_hand(store, "fair-1-2-1", "fair-1")).paytables[Bet.TIE] == "tie_9"
        assert (await rules_of_hand(store, "fair-1-9-9", "fair-1")).paytables[Bet.TIE] == "tie_9"

        # A shoe whose reveal does not match its commitment.
        await store.shoe_opened("fair-1", 7, cards=416, commitment="0" * 64, at=time.time())
        shoe = ShoeDealer(preset("macau"), seed=3).shoe
        shoe.close()
        reveal = shoe.reveal()
        verified = await store.shoe_closed(
            "fair-1",
            7,
            at=time.time(),
            hands=0,
            reason="test",
            order=reveal.order_text,
            salt=reveal.salt,
        )
        assert verified is False
        shoes = (await http.get("/api/tables/fair-1/shoes")).json()["shoes"]
        assert shoes[0]["shoe"] == 7
        assert shoes[0]["audit"] == "failed"
        alarms = (await http.get("/api/supervisor/alarms?table=fair-1", headers=sam)).json()[
            "alarms"
        ]
        assert [a["kind"] for a in alarms] == ["shoe_audit"]
        assert alarms[0]["shoe"] == 7
