"""Ownership leases: which process runs each table, for as long as it renews its lease."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from sqlalchemy import Table, delete, false, or_, select, true, update
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.server.store.database import StorePart, dialect_insert
from punto.server.store.schema import LeaseRow

__all__ = ["LeaseStore"]

_L = cast(Table, LeaseRow.__table__)


class LeaseStore(StorePart):
    """The tables' leases, one owner a table."""

    async def acquire_lease(
        self, table_id: str, owner: str, *, ttl: float, force: bool = False
    ) -> bool:
        """Take or renew the table's lease for ``owner``; ``False`` while another owner's
        lease runs (unless ``force``: a single process taking its tables back after a
        crash)."""
        now = self._db.clock()

        async def unit(conn: AsyncConnection) -> bool:
            free = or_(_L.c.owner == owner, _L.c.expires_at < now, true() if force else false())
            result = await conn.execute(
                update(_L)
                .where(_L.c.table_id == table_id, free)
                .values(owner=owner, expires_at=now + ttl)
            )
            if result.rowcount == 1:
                return True
            row = {"table_id": table_id, "owner": owner, "expires_at": now + ttl}
            stmt = dialect_insert(conn, _L).values(row).on_conflict_do_nothing()
            return bool((await conn.execute(stmt)).rowcount == 1)

        return await self._db.run(unit)

    async def renew_leases(self, table_ids: Iterable[str], owner: str, *, ttl: float) -> set[str]:
        """Renew ``owner``'s leases; returns the tables still owned."""
        ids = list(table_ids)
        now = self._db.clock()

        async def unit(conn: AsyncConnection) -> set[str]:
            if not ids:
                return set()
            await conn.execute(
                update(_L)
                .where(_L.c.table_id.in_(ids), _L.c.owner == owner)
                .values(expires_at=now + ttl)
            )
            rows = await conn.execute(
                select(_L.c.table_id).where(_L.c.table_id.in_(ids), _L.c.owner == owner)
            )
            return {r.table_id for r in rows}

        return await self._db.run(unit)

    async def release_leases(self, table_ids: Iterable[str], owner: str) -> None:
        """Give the tables up (a graceful shutdown)."""
        ids = list(table_ids)

        async def unit(conn: AsyncConnection) -> None:
            if ids:
                await conn.execute(delete(_L).where(_L.c.table_id.in_(ids), _L.c.owner == owner))

        await self._db.run(unit)

    async def owners(self) -> dict[str, str]:
        """The owner of every table whose lease runs now."""
        now = self._db.clock()

        async def unit(conn: AsyncConnection) -> dict[str, str]:
            rows = await conn.execute(select(_L).where(_L.c.expires_at >= now))
            return {r.table_id: r.owner for r in rows}

        return await self._db.run(unit)
