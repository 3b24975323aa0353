"""Jurisdiction profiles end to end: ``punto jurisdictions``, the administrators' API, a
launch naming a profile, and each switch enforced by the server on a clock moved by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ledger_support import POSTGRESQL
from server_support import server_on

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
