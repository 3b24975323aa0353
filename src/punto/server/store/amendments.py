"""Amendments of settled hands: a supervisor's correction or void, each recorded once
under its key, with who made it and why."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Table, and_, select, true
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.server.store.database import StorePart, dialect_insert
from punto.server.store.schema import AmendmentRow

__all__ = ["AmendmentStore"]

_AM = cast(Table, AmendmentRow.__table__)


def _amendment(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "game": row["game"],
        "table": row["table_id"],
        "kind": row["kind"],
        "author": row["author"],
        "reason": row["reason"],
        "at": row["at"],
        "outcome": None if row["outcome"] is None else json.loads(row["outcome"]),
        "corrections": json.loads(row["corrections"]),
    }


class AmendmentStore(StorePart):
    """The hands' amendments."""

    async def add_amendment(
        self,
        *,
        game: str,
        table_id: str,
        kind: str,
        key: str,
        author: str,
        reason: str,
        outcome: Mapping[str, Any] | None,
        corrections: Mapping[str, int],
    ) -> tuple[dict[str, Any], bool]:
        """Record a correction or a void of a settled hand, once per ``key`` (``void``,
        ``correction:<id>``); the amendment recorded and whether it is this one (``False``:
        an earlier one with the same key, returned as it was)."""
        row = {
            "game": game,
            "table_id": table_id,
            "kind": kind,
            "key": key,
            "author": author,
            "reason": reason,
            "at": self._db.clock(),
            "outcome": None if outcome is None else json.dumps(outcome),
            "corrections": json.dumps(dict(corrections), sort_keys=True),
        }

        async def unit(conn: AsyncConnection) -> tuple[dict[str, Any], bool]:
            stmt = dialect_insert(conn, _AM).values(row).on_conflict_do_nothing()
            if (await conn.execute(stmt)).rowcount == 1:
                return _amendment(row), True
            found = (
                await conn.execute(select(_AM).where(_AM.c.game == game, _AM.c.key == key))
            ).first()
            assert found is not None  # the conflict was on this key
            return _amendment(dict(found._mapping)), False

        return await self._db.run(unit)

    async def amendments(
        self, *, game: str | None = None, table_id: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """Amendments, newest first."""
        conditions = []
        if game is not None:
            conditions.append(_AM.c.game == game)
        if table_id is not None:
            conditions.append(_AM.c.table_id == table_id)

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_AM).where(and_(true(), *conditions)).order_by(_AM.c.id.desc()).limit(limit)
            )
            return [_amendment(dict(r._mapping)) for r in rows]

        return await self._db.run(unit)
