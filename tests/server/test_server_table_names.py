"""A table's display names per language on a running server: the demo tables carry their
Chinese names; an administrator sets and clears them (PATCH) or gives them on creation
(POST); the lobby, the table's description, the WebSocket snapshot and a hand's record
carry them; bad names get a typed 4xx that changes nothing, never a 5xx."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_administrator_names_a_table_per_language(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        admin = await server.headers("admin")
        lobby = {t["id"]: t for t in (await http.get("/api/lobby")).json()["tables"]}
        assert lobby["macau-1"]["names"] == {"zh": "澳门", "zh-Hant": "澳門"}
        assert lobby["live-1"]["names"]["zh-Hant"] == "真人荷官"

        names = {"zh": "澳门一号", "zh-Hant": "澳門一號", "en": "Macau One"}
        patched = await http.patch(
            "/api/admin/tables/macau-1", json={"names": names}, headers=admin
        )
        assert patched.status_code == 200, patched.text
        assert patched.json()["names"] == names
        assert patched.json()["name"] == "Macau"
        lobby = {t["id"]: t for t in (await http.get("/api/lobby")).json()["tables"]}
        assert lobby["macau-1"]["names"] == names
        assert (await http.get("/api/tables/macau-1")).json()["names"] == names
        assert dict((await server.node.store.table("macau-1")).names) == names
        async with TableClient.connect(server, "macau-1") as client:
            assert client.snapshot["table"]["names"] == names
            assert client.snapshot["table"]["name"] == "Macau"

        for bad in (
            {"fr": "Macao"},
            {"zh": ""},
            {"zh": "   "},
            {"zh": "澳\n门"},
            {"zh": "x" * 101},
            {"zh": 7},
            ["zh"],
            "澳门",
        ):
            answer = await http.patch(
                "/api/admin/tables/macau-1", json={"names": bad}, headers=admin
            )
            assert answer.status_code in (400, 422), (bad, answer.text)
            assert "error" in answer.json(), answer.text
        bad_name = await http.patch(
            "/api/admin/tables/macau-1", json={"name": "a\x07b"}, headers=admin
        )
        assert bad_name.status_code == 400, bad_name.text
        assert (await http.get("/api/tables/macau-1")).json()["names"] == names
        player = await server.headers("ann")
        refused = await http.patch("/api/admin/tables/macau-1", json={"names": {}}, headers=player)
        assert refused.status_code == 403

        cleared = await http.patch("/api/admin/tables/macau-1", json={"names": {}}, headers=admin)
        assert cleared.json()["names"] == {}
        assert (await http.get("/api/tables/macau-1")).json()["names"] == {}

        created = await http.post(
            "/api/admin/tables",
            json={"id": "lisboa-1", "name": "Lisboa", "rules": "macau", "names": {"zh": "葡京"}},
            headers=admin,
        )
        assert created.status_code == 201, created.text
        assert created.json()["names"] == {"zh": "葡京"}
        listed = {
            t["id"]: t
            for t in (await http.get("/api/admin/tables", headers=admin)).json()["tables"]
        }
        assert listed["lisboa-1"]["names"] == {"zh": "葡京"}
        refused_new = await http.post(
            "/api/admin/tables",
            json={"id": "lisboa-2", "name": "Lisboa", "rules": "macau", "names": {"xx": "?"}},
            headers=admin,
        )
        assert refused_new.status_code == 400, refused_new.text
        missing = await http.get("/api/tables/lisboa-2")
        assert missing.status_code == 404
