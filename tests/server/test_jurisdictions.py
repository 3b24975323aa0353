"""Jurisdiction profiles end to end: ``punto jurisdictions``, the administrators' API, a
launch naming a profile, and each switch enforced by the server on a clock moved by hand."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_support import punto_output
from ledger_support import BACKENDS, POSTGRESQL
from operator_support import Operator, launch_token
from server_support import RunningServer, SkewClock, TableClient, betting_players, server_on

# -- the command line ----------------------------------------------------------------


def test_the_cli_adds_lists_shows_replaces_and_removes_profiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--database-url", f"sqlite:///{tmp_path / 'j.sqlite3'}"]
    status, out, _ = punto_output(capsys, "jurisdictions", "list", *db)
    assert (status, out.startswith("no jurisdictions yet")) == (0, True)
    status, out, _ = punto_output(
        capsys,
        "jurisdictions",
        "add",
        "uk",
        "--name",
        "United Kingdom",
        "--reality-check",
        "60m",
        "--session-limit",
        "2h",
        "--min-hand-interval",
        "2.5s",
        "--features-off",
        "side_bets,chat",
        "--json",
        *db,
    )
    assert status == 0
    assert json.loads(out) == {
        "id": "uk",
        "name": "United Kingdom",
        "reality_check_interval": 3600.0,
        "session_limit": 7200.0,
        "min_hand_interval": 2.5,
        "features_off": ["chat", "side_bets"],
    }
    status, out, _ = punto_output(capsys, "jurisdictions", "show", "uk", *db)
    assert status == 0
    assert "reality check 1h" in out
    assert "session limit 2h" in out
    assert "min hand interval 2.5s" in out
    status, out, _ = punto_output(capsys, "jurisdictions", "add", "uk", "--name", "UK", *db)
    assert "reality check none" in out  # replaced, not merged
    punto_output(
        capsys, "jurisdictions", "add", "es", "--name", "Spain", "--reality-check", "30m", *db
    )
    status, out, _ = punto_output(capsys, "jurisdictions", "list", "--json", *db)
    assert [p["id"] for p in json.loads(out)["jurisdictions"]] == ["es", "uk"]
    status, out, _ = punto_output(capsys, "jurisdictions", "remove", "uk", *db)
    assert (status, out.strip()) == (0, "removed uk")
    status, _, err = punto_output(capsys, "jurisdictions", "show", "uk", *db)
    assert (status, err.strip()) == (2, "punto: error: no jurisdiction 'uk'")
    status, _, err = punto_output(capsys, "jurisdictions", "remove", "uk", *db)
    assert status == 2


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["UK!", "--name", "x"], "jurisdiction id"),
        (["uk", "--name", "x", "--reality-check", "soon"], "not a duration"),
        (["uk", "--name", "x", "--session-limit", "0s"], "more than zero"),
        (["uk", "--name", "x", "--min-hand-interval", "9d"], "not a duration"),
        (["uk", "--name", "x", "--features-off", "video"], "features_off names video"),
        (["uk", "--name", ""], "name"),
    ],
)
def test_bad_cli_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    db = ["--database-url", f"sqlite:///{tmp_path / 'j.sqlite3'}"]
    status, out, err = punto_output(capsys, "jurisdictions", "add", *args, *db)
    assert status == 2
    assert out == ""
    assert err.startswith("punto: error: ")
    assert says in err
    assert len(err.strip().splitlines()) == 1


# -- the administrators' API ---------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_the_admin_api_keeps_profiles_for_administrators_only(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        admin = await server.headers("admin")
        player = await server.headers("ann")
        assert (await http.get("/api/admin/jurisdictions", headers=admin)).json() == {
            "jurisdictions": []
        }
        body = {
            "name": "United Kingdom",
            "reality_check_interval": "60m",
            "session_limit": 7200,
            "min_hand_interval": 2.5,
            "features_off": ["side_bets"],
        }
        put = await http.put("/api/admin/jurisdictions/uk", json=body, headers=admin)
        assert put.status_code == 200, put.text
        assert put.json() == {
            "id": "uk",
            "name": "United Kingdom",
            "reality_check_interval": 3600.0,
            "session_limit": 7200.0,
            "min_hand_interval": 2.5,
            "features_off": ["side_bets"],
            "created": True,
        }
        again = await http.put("/api/admin/jurisdictions/uk", json={"name": "UK"}, headers=admin)
        assert again.json()["created"] is False
        assert again.json()["reality_check_interval"] is None
        shown = await http.get("/api/admin/jurisdictions/uk", headers=admin)
        assert shown.json()["name"] == "UK"
        listed = await http.get("/api/admin/jurisdictions", headers=admin)
        assert [p["id"] for p in listed.json()["jurisdictions"]] == ["uk"]

        for bad in (
            {"name": ""},
            {"name": "x", "reality_check_interval": "soon"},
            {"name": "x", "session_limit": -5},
            {"name": "x", "min_hand_interval": True},
            {"name": "x", "features_off": ["video"]},
            {"name": "x", "colour": "red"},
            {},
        ):
            answer = await http.put("/api/admin/jurisdictions/uk", json=bad, headers=admin)
            assert answer.status_code == 400, (bad, answer.text)
            assert answer.json()["error"] == "bad_message"
        bad_id = await http.put("/api/admin/jurisdictions/U!", json={"name": "x"}, headers=admin)
        assert (bad_id.status_code, bad_id.json()["error"]) == (400, "bad_message")
        assert (await http.get("/api/admin/jurisdictions/uk", headers=admin)).json()["name"] == "UK"

        for method, path in (
            ("GET", "/api/admin/jurisdictions"),
            ("GET", "/api/admin/jurisdictions/uk"),
            ("PUT", "/api/admin/jurisdictions/uk"),
            ("DELETE", "/api/admin/jurisdictions/uk"),
        ):
            kwargs: dict[str, Any] = {"json": {"name": "x"}} if method == "PUT" else {}
            refused = await http.request(method, path, headers=player, **kwargs)
            assert (refused.status_code, refused.json()["error"]) == (403, "forbidden")
            anonymous = await http.request(method, path, **kwargs)
            assert anonymous.status_code == 401

        gone = await http.delete("/api/admin/jurisdictions/uk", headers=admin)
        assert gone.json() == {"id": "uk", "removed": True}
        for answer in (
            await http.get("/api/admin/jurisdictions/uk", headers=admin),
            await http.delete("/api/admin/jurisdictions/uk", headers=admin),
        ):
            assert (answer.status_code, answer.json()["error"]) == (404, "not_found")


# -- launches ------------------------------------------------------------------------

_STAMPED: set[int] = set()
"""The timestamps the module's signed launches used: each call its own (a replay is
refused), whatever second the clock has reached."""


def _stamp(clock: SkewClock) -> int:
    """The clock's second, or the latest earlier one no launch used yet."""
    stamp = int(clock.now())
    while stamp in _STAMPED:
        stamp -= 1
    _STAMPED.add(stamp)
    return stamp


async def _operator(server: RunningServer) -> Operator:
    """``acme`` (EUR), registered through the administrators' API."""
    added = await server.http.post(
        "/api/admin/operators",
        json={"id": "acme", "name": "Acme", "currencies": ["EUR"]},
        headers=await server.headers("admin"),
    )
    assert added.status_code == 201, added.text
    return Operator("acme", added.json()["secret"], server.http)


@asynccontextmanager
async def _acme_server(
    backend: str, tmp_path: Path
) -> AsyncIterator[tuple[RunningServer, Operator, SkewClock]]:
    """A server on a clock the test moves, with day-long sessions and a long betting
    time, and ``acme`` registered: the server, acme, and the clock."""
    clock = SkewClock()
    async with server_on(
        backend, tmp_path, clock=clock, token_ttl=86400.0, betting_seconds=600.0
    ) as server:
        yield server, await _operator(server), clock


async def _profile(server: RunningServer, profile_id: str, **switches: object) -> None:
    put = await server.http.put(
        f"/api/admin/jurisdictions/{profile_id}",
        json={"name": profile_id.upper(), **switches},
        headers=await server.headers("admin"),
    )
    assert put.status_code == 200, put.text


async def _launch(
    server: RunningServer, acme: Operator, clock: SkewClock, player: str = "p-1", **fields: object
) -> httpx.Response:
    return await acme.launch(acme.body(player_id=player, timestamp=_stamp(clock), **fields))


async def _session(
    server: RunningServer, acme: Operator, clock: SkewClock, player: str = "p-1", **fields: object
) -> dict[str, Any]:
    """A launched player's session (the redeemed launch's answer)."""
    granted = await _launch(server, acme, clock, player, **fields)
    assert granted.status_code == 200, granted.text
    redeemed = await server.http.post(
        "/api/auth/launch", json={"launch": launch_token(granted.json()["url"])}
    )
    assert redeemed.status_code == 200, redeemed.text
    answer: dict[str, Any] = redeemed.json()
    return answer


def _bearer(session: Mapping[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {session['token']}"}


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_a_launch_names_a_kept_profile_and_the_player_carries_it(
    backend: str, tmp_path: Path
) -> None:
    async with _acme_server(backend, tmp_path) as (server, acme, clock):
        unknown = await _launch(server, acme, clock, jurisdiction="uk")
        assert unknown.status_code == 400
        assert unknown.json()["error"] == "bad_message"
        assert "no jurisdiction profile 'uk'" in unknown.json()["message"]

        await _profile(server, "uk", reality_check_interval="60m", features_off=["chat"])
        session = await _session(server, acme, clock, jurisdiction="uk")
        profile = {
            "id": "uk",
            "name": "UK",
            "reality_check_interval": 3600.0,
            "session_limit": None,
            "min_hand_interval": None,
            "features_off": ["chat"],
        }
        assert session["jurisdiction"] == profile
        me = (await server.http.get("/api/me", headers=_bearer(session))).json()
        assert me["jurisdiction"] == profile

        plain = await _session(server, acme, clock, "p-2")
        assert plain["jurisdiction"] is None
        me = (await server.http.get("/api/me", headers=_bearer(plain))).json()
        assert me["jurisdiction"] is None
        # the same player launched again without one: its session is under none now
        again = await _session(server, acme, clock)
        assert (await server.http.get("/api/me", headers=_bearer(again))).json()[
            "jurisdiction"
        ] is None
        ann = await server.headers("ann")
        assert (await server.http.get("/api/me", headers=ann)).json()["jurisdiction"] is None
        # a removed profile: launches may no longer name it
        await server.http.delete(
            "/api/admin/jurisdictions/uk", headers=await server.headers("admin")
        )
        gone = await _launch(server, acme, clock, "p-3", jurisdiction="uk")
        assert gone.status_code == 400


# -- the switches, enforced ----------------------------------------------------------

_NOT_SIDE = {"player", "banker", "tie"}

PLAYER_WINS = ("4S", "4H", "5S", "3H")
"""Player 9 against Banker 7, no third card (shoe order P1 B1 P2 B2)."""


async def _hand(dealer: TableClient, player: TableClient, cards: Sequence[str]) -> str:
    """Betting closed on the open hand, ``cards`` dealt, the hand settled; its game."""
    game = str(dealer.snapshot["state"].get("game"))
    await dealer.ok({"type": "close_betting"})
    await dealer.deal(*cards)
    settled = await player.next_of("hand_settled")
    return str(settled["event"]["game"]) or game


@asynccontextmanager
async def _at_live_table(
    server: RunningServer, token: str
) -> AsyncIterator[tuple[TableClient, TableClient]]:
    """live-1's dealer (shoe started, betting open) and the player, watching at low tier
    with a 10.00 chip."""
    async with contextlib.AsyncExitStack() as stack:
        dealer, players = await betting_players(stack, server, [token])
        yield dealer, players[0]


def _refused(answer: Mapping[str, Any], reason: str) -> None:
    assert answer["type"] == "error", answer
    assert answer["error"] == "jurisdiction", answer
    assert answer["params"]["reason"] == reason, answer


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_reality_check_stops_bets_until_acknowledged_and_leave_ends_the_session(
    backend: str, tmp_path: Path
) -> None:
    async with _acme_server(backend, tmp_path) as (server, acme, clock):
        await _profile(server, "uk", reality_check_interval="10m")
        session = await _session(server, acme, clock, jurisdiction="uk")
        me = _bearer(session)
        http = server.http
        status = (await http.get("/api/session/reality-check", headers=me)).json()
        assert status["reality_check"]["due"] is False
        assert (status["net"], status["currency"], status["digits"]) == (0, "EUR", 2)
        async with _at_live_table(server, session["token"]) as (dealer, player):
            await player.ok({"type": "confirm", "bets": {"player": 1000}})
            await _hand(dealer, player, PLAYER_WINS)
            clock.advance(601)
            status = (await http.get("/api/session/reality-check", headers=me)).json()
            assert status["reality_check"]["due"] is True
            assert status["played_seconds"] >= 601
            assert status["net"] == 1000  # won 10.00 at even money
            await dealer.ok({"type": "open_betting"})
            await player.next_of("betting_opened")
            _refused(
                await player.request({"type": "add_chip", "bet": "player"}), "reality_check_due"
            )
            _refused(
                await player.request({"type": "confirm", "bets": {"banker": 1000}}),
                "reality_check_due",
            )
            went_on = await http.post(
                "/api/session/reality-check", json={"choice": "continue"}, headers=me
            )
            assert went_on.status_code == 200, went_on.text
            assert went_on.json()["reality_check"]["due"] is False
            assert went_on.json()["reality_check"]["due_at"] >= clock.now() + 599
            await player.ok({"type": "confirm", "bets": {"banker": 1000}})
            twice = await http.post(
                "/api/session/reality-check", json={"choice": "continue"}, headers=me
            )
            assert (twice.status_code, twice.json()["error"]) == (409, "conflict")
            bad = await http.post(
                "/api/session/reality-check", json={"choice": "maybe"}, headers=me
            )
            assert bad.status_code == 400
            left = await http.post(
                "/api/session/reality-check", json={"choice": "leave"}, headers=me
            )
            assert left.status_code == 200, left.text
            assert left.json()["ended"] is True
        assert (await http.get("/api/me", headers=me)).status_code == 401  # its token ended
        # a password account plays under no profile
        ann = await server.headers("ann")
        assert (await http.get("/api/session/reality-check", headers=ann)).json() == {
            "jurisdiction": None
        }
        nothing = await http.post(
            "/api/session/reality-check", json={"choice": "continue"}, headers=ann
        )
        assert nothing.status_code == 404


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_the_session_limit_and_the_least_time_between_hands(
    backend: str, tmp_path: Path
) -> None:
    async with _acme_server(backend, tmp_path) as (server, acme, clock):
        await _profile(server, "es", session_limit="1h", min_hand_interval="60s")
        session = await _session(server, acme, clock, jurisdiction="es")
        me = _bearer(session)
        async with _at_live_table(server, session["token"]) as (dealer, player):
            await player.ok({"type": "confirm", "bets": {"player": 1000}})
            await player.ok({"type": "add_chip", "bet": "player"})  # the same hand: fine
            await player.ok({"type": "confirm"})
            await _hand(dealer, player, PLAYER_WINS)
            await dealer.ok({"type": "open_betting"})
            await player.next_of("betting_opened")
            soon = await player.request({"type": "confirm", "bets": {"player": 1000}})
            _refused(soon, "too_soon")
            assert 0 < soon["params"]["retry_after"] <= 60
            await _hand(dealer, player, PLAYER_WINS)  # a hand without their bet
            clock.advance(61)  # (between hands: the countdown of an open one would end)
            await dealer.ok({"type": "open_betting"})
            await player.next_of("betting_opened")
            await player.ok({"type": "confirm", "bets": {"player": 1000}})
            await _hand(dealer, player, PLAYER_WINS)
            clock.advance(3600)
            await dealer.ok({"type": "open_betting"})
            await player.next_of("betting_opened")
            _refused(
                await player.request({"type": "confirm", "bets": {"player": 1000}}),
                "session_limit",
            )
            status = (await server.http.get("/api/session/reality-check", headers=me)).json()
            assert status["session_limit"]["reached"] is True
            assert status["reality_check"]["due_at"] is None
            assert status["net"] == 3000  # 20.00 and 10.00 won


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_side_bets_and_chat_off(backend: str, tmp_path: Path) -> None:
    async with _acme_server(backend, tmp_path) as (server, acme, clock):
        await _profile(server, "strict", features_off=["side_bets", "chat"])
        session = await _session(server, acme, clock, jurisdiction="strict")
        ann = await server.token("ann")
        async with _at_live_table(server, ann) as (_dealer, other):
            offered = set((await other.next_of("legal_actions"))["legal"].get("bets", {}))
            sides = offered - _NOT_SIDE
            assert sides, offered  # the table offers side bets
            async with TableClient.connect(server, "live-1", session["token"]) as player:
                await player.ok({"type": "join"})
                await player.ok({"type": "watch", "tier": "low"})
                await player.ok({"type": "choose_chip", "chip": 1000})
                legal = await player.next_of(
                    "legal_actions", lambda m: bool(m["legal"].get("bets"))
                )
                assert set(legal["legal"]["bets"]) <= _NOT_SIDE
                assert set(legal["legal"]["bets"]) & {"player", "banker"}
                side = sorted(sides)[0]
                refused = await player.request({"type": "add_chip", "bet": side})
                _refused(refused, "feature_off")
                assert refused["params"]["feature"] == "side_bets"
                _refused(
                    await player.request({"type": "confirm", "bets": {"player": 1000, side: 100}}),
                    "feature_off",
                )
                await player.ok({"type": "confirm", "bets": {"player": 1000}})
                chat = await player.request({"type": "chat", "text": "hello"})
                _refused(chat, "feature_off")
                assert chat["params"]["feature"] == "chat"
                await other.ok({"type": "chat", "text": "hello"})  # others still chat
            async with TableClient.connect(server, "live-1", session["token"]) as again:
                rooms = again.snapshot["state"]["legal"].get("bets", {})
                assert set(rooms) <= _NOT_SIDE
