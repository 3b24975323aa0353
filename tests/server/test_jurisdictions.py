"""Jurisdiction profiles end to end: ``punto jurisdictions``, the administrators' API, a
launch naming a profile, and each switch enforced by the server on a clock moved by hand."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from ledger_support import POSTGRESQL
from operator_support import Operator, launch_token
from server_support import RunningServer, SkewClock, server_on

import punto.cli


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = punto.cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


# -- the command line ----------------------------------------------------------------


def test_the_cli_adds_lists_shows_replaces_and_removes_profiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--database-url", f"sqlite:///{tmp_path / 'j.sqlite3'}"]
    status, out, _ = _run(capsys, "jurisdictions", "list", *db)
    assert (status, out.startswith("no jurisdictions yet")) == (0, True)
    status, out, _ = _run(
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
    status, out, _ = _run(capsys, "jurisdictions", "show", "uk", *db)
    assert status == 0
    assert "reality check 1h" in out
    assert "session limit 2h" in out
    assert "min hand interval 2.5s" in out
    status, out, _ = _run(capsys, "jurisdictions", "add", "uk", "--name", "UK", *db)
    assert "reality check none" in out  # replaced, not merged
    _run(capsys, "jurisdictions", "add", "es", "--name", "Spain", "--reality-check", "30m", *db)
    status, out, _ = _run(capsys, "jurisdictions", "list", "--json", *db)
    assert [p["id"] for p in json.loads(out)["jurisdictions"]] == ["es", "uk"]
    status, out, _ = _run(capsys, "jurisdictions", "remove", "uk", *db)
    assert (status, out.strip()) == (0, "removed uk")
    status, _, err = _run(capsys, "jurisdictions", "show", "uk", *db)
    assert (status, err.strip()) == (2, "punto: error: no jurisdiction 'uk'")
    status, _, err = _run(capsys, "jurisdictions", "remove", "uk", *db)
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
    status, out, err = _run(capsys, "jurisdictions", "add", *args, *db)
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
        admin = {"Authorization": f"Bearer {await server.token('admin')}"}
        player = {"Authorization": f"Bearer {await server.token('ann')}"}
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
            kwargs = {"json": {"name": "x"}} if method == "PUT" else {}
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

_CALLS = itertools.count()


async def _admin(server: RunningServer) -> dict[str, str]:
    return {"Authorization": f"Bearer {await server.token('admin')}"}


async def _operator(server: RunningServer) -> Operator:
    """``acme`` (EUR), registered through the administrators' API."""
    added = await server.http.post(
        "/api/admin/operators",
        json={"id": "acme", "name": "Acme", "currencies": ["EUR"]},
        headers=await _admin(server),
    )
    assert added.status_code == 201, added.text
    return Operator("acme", added.json()["secret"], server.http)


async def _profile(server: RunningServer, profile_id: str, **switches: object) -> None:
    put = await server.http.put(
        f"/api/admin/jurisdictions/{profile_id}",
        json={"name": profile_id.upper(), **switches},
        headers=await _admin(server),
    )
    assert put.status_code == 200, put.text


async def _launch(
    server: RunningServer, acme: Operator, clock: SkewClock, player: str = "p-1", **fields: object
) -> httpx.Response:
    stamp = int(clock.now()) - next(_CALLS)  # each signed call its own
    return await acme.launch(acme.body(player_id=player, timestamp=stamp, **fields))


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
    clock = SkewClock()
    async with server_on(backend, tmp_path, clock=clock, token_ttl=86400.0) as server:
        acme = await _operator(server)
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
        ann = {"Authorization": f"Bearer {await server.token('ann')}"}
        assert (await server.http.get("/api/me", headers=ann)).json()["jurisdiction"] is None
        # a removed profile: launches may no longer name it
        await server.http.delete("/api/admin/jurisdictions/uk", headers=await _admin(server))
        gone = await _launch(server, acme, clock, "p-3", jurisdiction="uk")
        assert gone.status_code == 400
