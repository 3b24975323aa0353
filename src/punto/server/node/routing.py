"""Where a table is owned, and the way to ask its owner: the bus to another process."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from punto.errors import NotFoundError, RemoteError, UnavailableError
from punto.server.clock import ServerClock
from punto.server.fanout.bus import Bus
from punto.server.fanout.requests import TableRequest, request_json
from punto.server.store.storage import ServerStore
from punto.server.tables.configs import TableConfig
from punto.server.tables.runner import TableRunner

__all__ = ["Routing"]

_OWNERS_SECONDS = 1.0
"""How long the table leases read from the database are taken as they were."""
_CONFIG_SECONDS = 1.0
"""How long another process's table configuration is taken as read (as its owner is)."""
_CONFIG_ENTRIES = 1024


def _raise_remote(answer: Mapping[str, Any]) -> None:
    """The error another process answered with, raised here as a :class:`RemoteError`."""
    error = answer.get("error")
    if isinstance(error, Mapping):
        params = error.get("params")
        raise RemoteError(
            str(error.get("message", "")),
            code=str(error.get("error", "internal")),
            params=dict(params) if isinstance(params, Mapping) else None,
        )


class Routing:
    """Which process owns each table (the leases, read at most once a second however
    many ask at once), other processes' tables' configurations (likewise), and
    :meth:`route`, which asks a table's owner over the bus. ``runners`` are the tables
    owned here (read, never changed)."""

    def __init__(
        self,
        process_id: str,
        *,
        runners: Mapping[str, TableRunner],
        store: ServerStore,
        bus: Bus,
        clock: ServerClock,
    ) -> None:
        self._id = process_id
        self._runners = runners
        self._store = store
        self._bus = bus
        self._clock = clock
        self._owners: dict[str, str] = {}
        self._owners_at = 0.0
        self._owners_lookup: asyncio.Future[dict[str, str]] | None = None
        self._configs: dict[str, tuple[float, asyncio.Future[TableConfig]]] = {}
        """Other processes' tables' configurations, looked up once per second at most (a
        burst of thousands of clients connecting costs one query, not one each)."""

    async def owner(self, table_id: str) -> str | None:
        """The process owning ``table_id`` (``None``: nobody now)."""
        if table_id in self._runners:
            return self._id
        now = self._clock.monotonic()
        if table_id not in self._owners or now - self._owners_at > _OWNERS_SECONDS:
            if self._owners_lookup is None:  # one query for everyone asking meanwhile
                self._owners_lookup = asyncio.ensure_future(self._store.owners())
            lookup = self._owners_lookup
            try:
                owners = await asyncio.shield(lookup)
            finally:
                if self._owners_lookup is lookup and lookup.done():
                    self._owners_lookup = None
            if self._owners_at < now:
                self._owners, self._owners_at = owners, now
            return owners.get(table_id)
        return self._owners.get(table_id)

    async def route(self, request: TableRequest) -> dict[str, Any]:
        """Ask the owner of the request's table (another process)."""
        table_id = request.table
        owner = await self.owner(table_id)
        if owner is None or owner == self._id:
            await self.config(table_id)  # NotFoundError for an unknown table
            raise UnavailableError(f"table {table_id} is not open right now; try again")
        answer = await self._bus.request(owner, request_json(request))
        _raise_remote(answer)
        return answer

    async def config(self, table_id: str) -> TableConfig:
        """A table's configuration; :class:`NotFoundError` if there is none. A table
        owned elsewhere is read from the database at most once per
        :data:`_CONFIG_SECONDS`, however many ask at once."""
        runner = self._runners.get(table_id)
        if runner is not None:
            return runner.config
        now = self._clock.monotonic()
        cached = self._configs.get(table_id)
        if cached is None or now - cached[0] > _CONFIG_SECONDS:
            if len(self._configs) >= _CONFIG_ENTRIES:  # unknown names cannot fill memory
                self._configs = {
                    k: v for k, v in self._configs.items() if now - v[0] <= _CONFIG_SECONDS
                }
                if len(self._configs) >= _CONFIG_ENTRIES:
                    self._configs.clear()
            lookup = asyncio.ensure_future(self._store.table(table_id))
            lookup.add_done_callback(lambda done: self._config_done(table_id, done))
            cached = self._configs[table_id] = (now, lookup)
        return await asyncio.shield(cached[1])

    def forget(self, table_id: str) -> None:
        """A table's configuration changed: the next :meth:`config` reads it again."""
        self._configs.pop(table_id, None)

    def _config_done(self, table_id: str, lookup: asyncio.Future[TableConfig]) -> None:
        """A lookup that failed for another reason than "no such table" is not kept."""
        if lookup.cancelled() or not isinstance(lookup.exception(), (NotFoundError, type(None))):
            entry = self._configs.get(table_id)
            if entry is not None and entry[1] is lookup:
                del self._configs[table_id]
