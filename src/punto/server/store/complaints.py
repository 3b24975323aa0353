"""Complaints as kept [L]: each one filed by a player about a hand, and its resolution by
a supervisor (the rules of them are :mod:`punto.server.features.complaints`')."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.server.store.database import StorePart
from punto.server.store.schema import ComplaintRow

__all__ = ["Complaint", "ComplaintStore"]

_C = cast(Table, ComplaintRow.__table__)


@dataclass(frozen=True, slots=True)
class Complaint:
    """A complaint as stored (``state``: ``open``, ``corrected``, ``voided`` or
    ``rejected``)."""

    id: int
    player_id: str
    game: str
    table_id: str
    dealer: str
    hand_at: float
    text: str
    filed_at: float
    state: str
    resolved_by: str | None = None
    resolved_at: float | None = None
    resolution: str | None = None


def _complaint(row: Any) -> Complaint:
    return Complaint(**row._mapping)


class ComplaintStore(StorePart):
    """The players' complaints."""

    async def add_complaint(
        self,
        *,
        player_id: str,
        game: str,
        table_id: str,
        dealer: str,
        hand_at: float,
        text: str,
        filed_at: float,
    ) -> Complaint | None:
        """File an open complaint; ``None`` when the player has an open one about that
        hand already (nothing filed)."""
        values = {
            "player_id": player_id,
            "game": game,
            "table_id": table_id,
            "dealer": dealer,
            "hand_at": hand_at,
            "text": text,
            "filed_at": filed_at,
            "state": "open",
        }

        async def unit(conn: AsyncConnection) -> Complaint | None:
            open_ = await conn.execute(
                select(_C.c.id).where(
                    _C.c.player_id == player_id, _C.c.game == game, _C.c.state == "open"
                )
            )
            if open_.first() is not None:
                return None
            key = (await conn.execute(insert(_C).values(**values))).inserted_primary_key
            assert key is not None
            return _complaint((await conn.execute(select(_C).where(_C.c.id == key[0]))).one())

        return await self._db.run(unit)

    async def complaint(self, complaint_id: int) -> Complaint | None:
        """The complaint ``complaint_id``, if any."""

        async def unit(conn: AsyncConnection) -> Complaint | None:
            row = (await conn.execute(select(_C).where(_C.c.id == complaint_id))).first()
            return None if row is None else _complaint(row)

        return await self._db.read_one(unit)

    async def complaints(
        self,
        *,
        player_id: str | None = None,
        state: str | None = None,
        newest_first: bool = False,
        limit: int = 100,
    ) -> list[Complaint]:
        """Complaints (of ``player_id``, in ``state``), oldest first or newest first."""

        async def unit(conn: AsyncConnection) -> list[Complaint]:
            order = _C.c.id.desc() if newest_first else _C.c.id
            query = select(_C).order_by(order).limit(limit)
            if player_id is not None:
                query = query.where(_C.c.player_id == player_id)
            if state is not None:
                query = query.where(_C.c.state == state)
            return [_complaint(r) for r in await conn.execute(query)]

        return await self._db.read_one(unit)

    async def resolve_complaint(
        self, complaint_id: int, *, state: str, by: str, at: float, resolution: str
    ) -> Complaint | None:
        """Close an open complaint as ``state``; ``None`` when it is not open (any more)."""

        async def unit(conn: AsyncConnection) -> Complaint | None:
            done = await conn.execute(
                update(_C)
                .where(_C.c.id == complaint_id, _C.c.state == "open")
                .values(state=state, resolved_by=by, resolved_at=at, resolution=resolution)
            )
            if done.rowcount != 1:
                return None
            return _complaint((await conn.execute(select(_C).where(_C.c.id == complaint_id))).one())

        return await self._db.run(unit)
