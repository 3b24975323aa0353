"""Administration of tables: adding one, changing its configuration, closing it."""

from __future__ import annotations

import contextlib

from punto.errors import UnavailableError
from punto.server.fanout.requests import CloseTable, Reconfigure
from punto.server.node.leases import Leases
from punto.server.node.routing import Routing
from punto.server.store.storage import ServerStore
from punto.server.tables.configs import TableConfig
from punto.table.reasons import Reason, Why

__all__ = ["TableAdmin"]


class TableAdmin:
    """Table changes an administrator makes, applied by the table's owner: here
    (``leases``) or another process (``routing``)."""

    def __init__(self, *, store: ServerStore, leases: Leases, routing: Routing) -> None:
        self._store = store
        self._leases = leases
        self._routing = routing

    async def create_table(self, config: TableConfig) -> TableConfig:
        """Add a table; this process opens it at once when it can."""
        await self._store.create_table(config)
        self._routing.forget(config.id)
        await self._leases.acquire()
        return config

    async def update_table(self, config: TableConfig) -> TableConfig:
        """Store a changed configuration; the owner applies it between hands, or closes the
        table (``enabled`` false: a hand in play is void and refunded)."""
        before = await self._store.table(config.id)
        await self._store.update_table(config)
        self._routing.forget(config.id)
        if before.enabled and not config.enabled:
            await self.close_table(config.id, reason=Why(Reason.CLOSED_BY_ADMIN))  # [S14]
            return config
        runner = self._leases.runners.get(config.id)
        if runner is not None:
            if runner.table.phase.value == "closed":
                await self._leases.reopen(config.id)
            else:
                await runner.reconfigure(config)
        elif config.enabled:
            with contextlib.suppress(UnavailableError):
                await self._routing.route(Reconfigure(config.id))
            await self._leases.acquire()
        return config

    async def close_table(self, table_id: str, *, reason: Why) -> None:
        """Close a table wherever it is owned and release it."""
        if table_id in self._leases.runners:
            await self._leases.close(table_id, reason)
            return
        with contextlib.suppress(UnavailableError):
            await self._routing.route(CloseTable(table_id, reason))
