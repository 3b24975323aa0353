"""Disabling and enabling an operator through the administrators' API: a disabled
operator launches no one (403) until it is enabled again; only administrators may do
either, and an unknown operator is a 404."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledger_support import BACKENDS
from operator_support import Operator
from server_support import server_on

pytestmark = [pytest.mark.asyncio, pytest.mark.parametrize("backend", BACKENDS[:1])]


async def test_a_disabled_operator_launches_no_one_until_enabled_again(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path) as server:
        http = server.http
        admin = await server.headers("admin")
        player = await server.headers("ann")
        added = await http.post(
            "/api/admin/operators",
            json={"id": "acme", "name": "Acme", "currencies": ["EUR"]},
            headers=admin,
        )
        assert added.status_code == 201, added.text
        acme = Operator("acme", added.json()["secret"], http)
        assert (await acme.launch(acme.body(player_id="p-1"))).status_code == 200

        for action in ("disable", "enable"):
            refused = await http.post(f"/api/admin/operators/acme/{action}", headers=player)
            assert (refused.status_code, refused.json()["error"]) == (403, "forbidden")
            unknown = await http.post(f"/api/admin/operators/nobody/{action}", headers=admin)
            assert (unknown.status_code, unknown.json()["error"]) == (404, "not_found")

        disabled = await http.post("/api/admin/operators/acme/disable", headers=admin)
        assert (disabled.status_code, disabled.json()["disabled"]) == (200, True)
        launch = await acme.launch(acme.body(player_id="p-2"))
        assert (launch.status_code, launch.json()["error"]) == (403, "forbidden")

        enabled = await http.post("/api/admin/operators/acme/enable", headers=admin)
        assert (enabled.status_code, enabled.json()["disabled"]) == (200, False)
        assert (await acme.launch(acme.body(player_id="p-3"))).status_code == 200
        listed = (await http.get("/api/admin/operators", headers=admin)).json()["operators"]
        assert [(o["id"], o["disabled"]) for o in listed] == [("acme", False)]
