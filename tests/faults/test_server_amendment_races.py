"""Amendments of one hand at the same time [O]: ten supervisors' voids, or ten retries of
one correction, make exactly one amendment; every call gets the first one's answer (never
a 500) and a seated player's table balance still equals their wallet."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on

pytestmark = pytest.mark.asyncio


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
async def test_o_ten_simultaneous_corrections_and_voids_of_one_hand_amend_it_once(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path) as server:
        token = await server.token("cleo")
        sam = await server.headers("sam")
        runner = server.node.runners["nocomm-1"]
        async with TableClient.connect(server, "nocomm-1", token) as client:
            await client.take_seat(2, chip=5000)
            game = await client.confirm_in_a_round("player")
            await client.settled(game)

            async def follows() -> None:
                assert runner.table.balance("cleo") == await server.node.bank.balance("cleo")

            await follows()
            body = {
                "player": ["9S", "KH"],
                "banker": ["7H", "8C"],
                "reason": "video",
                "correction_id": "c-same",
            }
            corrected = await asyncio.gather(
                *(
                    server.http.post(
                        f"/api/supervisor/hands/{game}/correct", json=body, headers=sam
                    )
                    for _ in range(10)
                )
            )
            assert [r.status_code for r in corrected] == [200] * 10, [r.text for r in corrected]
            assert len({str(r.json()["corrections"]) for r in corrected}) == 1
            await follows()
            voided = await asyncio.gather(
                *(
                    server.http.post(
                        f"/api/supervisor/hands/{game}/void",
                        json={"reason": "misdeal"},
                        headers=sam,
                    )
                    for _ in range(10)
                )
            )
            assert [r.status_code for r in voided] == [200] * 10, [r.text for r in voided]
            assert len({str(r.json()["corrections"]) for r in voided}) == 1
            await follows()
            kinds = sorted(a["kind"] for a in await server.node.store.amendments(game=game))
            assert kinds == ["correction", "void"]
            record = (await server.http.get(f"/api/hands/{game}", headers=sam)).json()
            assert sorted(a["kind"] for a in record["amendments"]) == ["correction", "void"]
            assert runner.table.money_check()
            # After the void the player is back to a full refund of the hand.
            assert await server.node.bank.balance("cleo") == 1_000_000
        report = await server.node.ledger.check()
        assert report.ok, report.problems
