"""Server migration s0019c: every hand gets the side bets it closed for the shoe's edge
[EZ-C], none for the hands stored before; its downgrade drops them."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledger_support import BACKENDS
from migration_support import migrated_engine, server_to
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

pytestmark = [pytest.mark.asyncio, pytest.mark.parametrize("backend", BACKENDS)]


def _columns(connection: Connection) -> set[str]:
    return {c["name"] for c in inspect(connection).get_columns("server_hands")}


async def test_ez_c_a_hand_stored_before_closed_no_side_bet(backend: str, tmp_path: Path) -> None:
    async with migrated_engine(backend, tmp_path) as engine:
        async with engine.begin() as conn:
            await conn.run_sync(server_to, "s0018v")
            await conn.execute(
                text(
                    "INSERT INTO server_hands (game, table_id, shoe, hand, opened_at,"
                    " closed_at, status, record) VALUES ('ez-1-001-001', 'ez-1', 1, 1,"
                    " 1.0, 2.0, 'settled', '{}')"
                )
            )
            await conn.run_sync(server_to, "head")
        async with engine.connect() as conn:
            row = (await conn.execute(text("SELECT closed_bets FROM server_hands"))).one()
        assert row[0] == ""
        async with engine.begin() as conn:
            await conn.run_sync(server_to, "s0018v")
            assert "closed_bets" not in await conn.run_sync(_columns)
