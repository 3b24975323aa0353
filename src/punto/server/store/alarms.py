"""Alarms raised for the supervisors (a shoe whose reveal does not match its commitment,
a table's own checks)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Insert, Table, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.server.store.database import StorePart
from punto.server.store.schema import AlarmRow

__all__ = ["AlarmStore", "alarm_insert"]

_AL = cast(Table, AlarmRow.__table__)


def alarm_insert(
    table_id: str, *, kind: str, shoe: int | None, at: float, detail: Mapping[str, Any]
) -> Insert:
    """The statement that raises an alarm (run in the caller's transaction)."""
    return insert(_AL).values(
        table_id=table_id, kind=kind, shoe=shoe, at=at, detail=json.dumps(detail, sort_keys=True)
    )


class AlarmStore(StorePart):
    """The supervisors' alarms."""

    async def add_alarm(
        self, table_id: str, *, kind: str, shoe: int | None, at: float, detail: Mapping[str, Any]
    ) -> None:
        """Raise an alarm for the supervisors."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(alarm_insert(table_id, kind=kind, shoe=shoe, at=at, detail=detail))

        await self._db.run(unit)

    async def alarms(
        self, *, table_id: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """Alarms, newest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            query = select(_AL).order_by(_AL.c.id.desc()).limit(limit)
            if table_id is not None:
                query = query.where(_AL.c.table_id == table_id)
            return [
                {
                    "id": r.id,
                    "table": r.table_id,
                    "kind": r.kind,
                    "shoe": r.shoe,
                    "at": r.at,
                    "detail": json.loads(r.detail),
                }
                for r in await conn.execute(query)
            ]

        return await self._db.run(unit)
