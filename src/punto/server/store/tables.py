"""Table configurations and every version of each table's rules (the back office reads
which rules a shoe was dealt under)."""

from __future__ import annotations

import json
from typing import Any, cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.errors import ConflictError, NotFoundError
from punto.server.store.database import StorePart
from punto.server.store.schema import TableRow, TableRulesRow
from punto.server.tables.configs import TableConfig, tiers_to_json

__all__ = ["TableStore"]

_TB = cast(Table, TableRow.__table__)
_R = cast(Table, TableRulesRow.__table__)


def _table_values(config: TableConfig) -> dict[str, Any]:
    return {
        "name": config.name,
        "rules": config.rules,
        "kind": config.kind.value,
        "dealing": config.dealing.value,
        "reading": None if config.reading is None else config.reading.value,
        "seats": config.seats,
        "betting_seconds": config.betting_seconds,
        "vip_min_balance": config.vip_min_balance,
        "limits": tiers_to_json(config.limits),
        "enabled": config.enabled,
        "overrides": json.dumps(dict(config.overrides), sort_keys=True),
        "rules_version": config.rules_version,
        "whep_url": config.video.whep_url,
        "hls_url": config.video.hls_url,
        "video_qualities": json.dumps(config.video.to_json()["qualities"], sort_keys=True),
        "still_url": config.video.still_url,
        "names": json.dumps(dict(config.names), ensure_ascii=False, sort_keys=True),
    }


def _rules_version_values(config: TableConfig, *, at: float) -> dict[str, Any]:
    return {
        "table_id": config.id,
        "version": config.rules_version,
        "preset": config.rules,
        "overrides": json.dumps(dict(config.overrides), sort_keys=True),
        "document": json.dumps(config.to_json()["document"], sort_keys=True),
        "at": at,
    }


class TableStore(StorePart):
    """The tables' configurations and rules versions."""

    async def create_table(self, config: TableConfig) -> TableConfig:
        """Add a table; :class:`ConflictError` if the id is taken."""
        version = _rules_version_values(config, at=self._db.clock())

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(insert(_TB).values(id=config.id, **_table_values(config)))
            await conn.execute(insert(_R).values(**version))

        try:
            await self._db.run(unit)
        except IntegrityError:
            raise ConflictError(f"there is already a table {config.id!r}") from None
        return config

    async def update_table(self, config: TableConfig) -> TableConfig:
        """Store a changed table configuration."""
        version = _rules_version_values(config, at=self._db.clock())

        async def unit(conn: AsyncConnection) -> None:
            result = await conn.execute(
                update(_TB).where(_TB.c.id == config.id).values(**_table_values(config))
            )
            if result.rowcount != 1:
                raise NotFoundError(f"no table {config.id!r}")
            known = await conn.scalar(
                select(_R.c.version).where(
                    _R.c.table_id == config.id, _R.c.version == config.rules_version
                )
            )
            if known is None:
                await conn.execute(insert(_R).values(**version))

        await self._db.run(unit)
        return config

    async def tables(self, *, enabled_only: bool = False) -> list[TableConfig]:
        """Every table configuration, by id."""

        async def unit(conn: AsyncConnection) -> list[TableConfig]:
            query = select(_TB).order_by(_TB.c.created_at, _TB.c.id)
            if enabled_only:
                query = query.where(_TB.c.enabled.is_(True))
            return [TableConfig.from_json(dict(row._mapping)) for row in await conn.execute(query)]

        return await self._db.run(unit)

    async def table(self, table_id: str) -> TableConfig:
        """The table ``table_id``; :class:`NotFoundError` if there is none."""

        async def unit(conn: AsyncConnection) -> TableConfig:
            row = (await conn.execute(select(_TB).where(_TB.c.id == table_id))).first()
            if row is None:
                raise NotFoundError(f"no table {table_id!r}")
            return TableConfig.from_json(dict(row._mapping))

        return await self._db.run(unit)

    async def last_shoe(self, table_id: str) -> int:
        """The number of the table's last shoe (0: none yet)."""

        async def unit(conn: AsyncConnection) -> int:
            value = await conn.scalar(select(_TB.c.last_shoe).where(_TB.c.id == table_id))
            return int(value or 0)

        return await self._db.run(unit)

    async def rules_versions(self, table_id: str) -> list[dict[str, Any]]:
        """Every version of a table's rules, oldest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_R).where(_R.c.table_id == table_id).order_by(_R.c.version)
            )
            return [
                {
                    "version": r.version,
                    "preset": r.preset,
                    "overrides": json.loads(r.overrides),
                    "document": json.loads(r.document),
                    "at": r.at,
                }
                for r in rows
            ]

        return await self._db.run(unit)
