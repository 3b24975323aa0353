"""Joining a table, depositing and withdrawing are ordered per player: whatever the
interleaving, a table never shows (nor a player leaving it cashes out) money the wallet
does not hold."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on

pytestmark = pytest.mark.asyncio


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_withdrawal_racing_a_join_never_shows_money_that_is_not_there(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path) as server:
        admin = await server.headers("admin")
        token = await server.token("dev")
        runner = server.node.runners["macau-1"]
        bank = server.node.bank
        outcomes: set[tuple[bool, bool]] = set()
        for attempt in range(8):
            wallet = await bank.balance("dev")
            async with TableClient.connect(server, "macau-1", token) as client:
                withdraw_body = {"amount": wallet, "transaction_id": f"w-{attempt}"}
                joined, withdrawn = await asyncio.gather(
                    client.request({"type": "join"}),
                    server.http.post(
                        "/api/admin/players/dev/withdraw", json=withdraw_body, headers=admin
                    ),
                )
                assert withdrawn.status_code in (200, 409), withdrawn.text
                took = withdrawn.status_code == 200
                at_table = joined["type"] == "ok"
                outcomes.add((at_table, took))
                now = await bank.balance("dev")
                assert now == (0 if took else wallet)
                if at_table:
                    assert runner.table.balance("dev") == now  # never more than the wallet
                    await client.ok({"type": "leave"})
                    left = await client.next_of("player_left")
                    assert left["event"]["cashed_out"] == now
                else:
                    assert joined["error"] == "conflict", joined
            refill = {"amount": 1_000_000, "transaction_id": f"d-{attempt}"}
            if took:
                answer = await server.http.post(
                    "/api/admin/players/dev/deposit", json=refill, headers=admin
                )
                assert answer.status_code == 200, answer.text
        assert outcomes  # every interleaving seen kept the books
        report = await server.node.ledger.check()
        assert report.ok, report.problems
