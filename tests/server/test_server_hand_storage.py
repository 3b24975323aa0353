"""A busy hand's record in the database: stored whole, and on PostgreSQL compressed with
LZ4 (migration s0012; a hand of thousands of players is megabytes of JSON)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path

import pytest
from ledger_support import BACKENDS, ledger_database
from sqlalchemy import text

from punto.ledger.store import create_engine
from punto.server.store.migrate import upgrade_async
from punto.server.store.storage import ServerStore

pytestmark = [pytest.mark.asyncio, pytest.mark.parametrize("backend", BACKENDS)]


async def test_a_busy_hands_record_is_stored_whole(backend: str, tmp_path: Path) -> None:
    players = [f"p{n}" for n in range(2_000)]
    record = {
        "game": "busy-1-1",
        "events": [{"kind": "chip_added", "player": p, "bet": "player", "amount": 1000}
                   for p in players],
        "results": {p: {"returned": 2000} for p in players},
    }  # fmt: skip
    async with ledger_database(backend, tmp_path) as url:
        await upgrade_async(url)
        engine = create_engine(url)
        try:
            store = ServerStore(engine)
            now = time.time()

            async def save(data: Mapping[str, object], status: str, bettors: list[str]) -> None:
                await store.save_hand(
                    game="busy-1-1",
                    table_id="busy",
                    shoe=1,
                    hand=1,
                    opened_at=now,
                    closed_at=now,
                    status=status,
                    record=data,
                    players=bettors,
                )

            await save(record, "settled", players)
            assert await store.hand("busy-1-1") == {**record, "status": "settled"}
            # saved again (a correction): the stored row takes the new record and status
            amended = {**record, "results": {p: {"returned": 0} for p in players}}
            await save(amended, "corrected", players[1:])
            assert await store.hand("busy-1-1") == {**amended, "status": "corrected"}
            if backend == "postgresql":
                async with engine.connect() as conn:
                    method = await conn.scalar(
                        text(
                            "SELECT pg_column_compression(record) FROM server_hands "
                            "WHERE game = 'busy-1-1'"
                        )
                    )
                    lz4 = await conn.scalar(
                        text("SELECT count(*) FROM pg_settings WHERE name = "
                             "'default_toast_compression' AND 'lz4' = ANY(enumvals)")
                    )  # fmt: skip
                assert method == ("lz4" if lz4 else "pglz")
        finally:
            await engine.dispose()
