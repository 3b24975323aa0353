"""A table is opened by one runner of its owning process, however many look for tables
to open at once (the admin API's new table and the lease loop's rounds)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import server_on

from punto.server.tables.configs import TableConfig
from punto.table.kinds import Dealing

pytestmark = [pytest.mark.asyncio, pytest.mark.integration]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_new_table_is_opened_once_when_two_look_at_once(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with server_on(backend, tmp_path) as server:
        node = server.node
        opened: list[str] = []
        real = node.leases.open_table

        async def counted(config: TableConfig) -> None:
            opened.append(config.id)
            await real(config)

        monkeypatch.setattr(node.leases, "open_table", counted)
        config = TableConfig(id="race-1", name="Race", rules="macau", dealing=Dealing.LIVE)
        await node.store.create_table(config)
        # what create_table does, while the lease loop's round does the same
        await asyncio.gather(node.leases.acquire(), node.leases.acquire())
        assert opened == ["race-1"]
        assert "race-1" in node.runners
