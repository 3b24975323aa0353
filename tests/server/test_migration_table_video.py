"""Server migration s0018v: a table's stream URL of before becomes its video's HLS URL,
beside a WHEP endpoint and other qualities; its downgrade gives the stream URL back."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledger_support import BACKENDS
from migration_support import migrated_engine, server_to
from sqlalchemy import text

from punto.server.tables.configs import TableConfig

pytestmark = [pytest.mark.asyncio, pytest.mark.parametrize("backend", BACKENDS)]

HLS = "https://media.example/live-1/live.m3u8"


async def test_a_stream_url_becomes_the_videos_hls_url(backend: str, tmp_path: Path) -> None:
    async with migrated_engine(backend, tmp_path) as engine:
        async with engine.begin() as conn:
            await conn.run_sync(server_to, "s0017j")
            await conn.execute(
                text(
                    "INSERT INTO server_tables (id, name, rules, kind, dealing, seats,"
                    " betting_seconds, vip_min_balance, enabled, overrides, stream_url)"
                    " VALUES ('live-1', 'Live 1', 'macau', 'normal', 'live', 7, 15, 0,"
                    " true, '{}', :url)"
                ),
                {"url": HLS},
            )
            await conn.run_sync(server_to, "head")
        async with engine.connect() as conn:
            row = (await conn.execute(text("SELECT * FROM server_tables"))).one()
        video = TableConfig.from_json(dict(row._mapping)).video
        assert (video.whep_url, video.hls_url, video.qualities) == (None, HLS, ())
        async with engine.begin() as conn:
            await conn.run_sync(server_to, "s0017j")
        async with engine.connect() as conn:
            back = (await conn.execute(text("SELECT stream_url FROM server_tables"))).one()
        assert back[0] == HLS
