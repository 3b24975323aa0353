"""Table chat as kept: each line with the hand it was said during, and the players a
supervisor muted at a table (the chat itself is :mod:`punto.server.features.chat`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.server.store.database import StorePart
from punto.server.store.schema import ChatMuteRow, ChatRow

__all__ = ["ChatStore", "message_json"]

_C = cast(Table, ChatRow.__table__)
_M = cast(Table, ChatMuteRow.__table__)


def message_json(row: Any) -> dict[str, Any]:
    """A stored line as the ``chat`` message's fields."""
    return {
        "id": row.id,
        "table": row.table_id,
        "game": row.game,
        "at": row.at,
        "from": row.author_id,
        "name": row.author_name,
        "role": row.role,
        "text": row.text,
    }


class ChatStore(StorePart):
    """The tables' chat lines and mutes."""

    async def add_chat_line(self, values: Mapping[str, Any]) -> int:
        """Keep one line (the columns of ``server_chat`` but its id); its id."""

        async def unit(conn: AsyncConnection) -> int:
            key = (await conn.execute(insert(_C).values(**values))).inserted_primary_key
            assert key is not None
            return int(key[0])

        return await self._db.run(unit)

    async def chat_lines(
        self, table_id: str, *, game: str | None = None, limit: int
    ) -> list[dict[str, Any]]:
        """The table's latest ``limit`` lines (of hand ``game``), oldest first, as the
        ``chat`` message's fields."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            query = select(_C).where(_C.c.table_id == table_id)
            if game is not None:
                query = query.where(_C.c.game == game)
            rows = await conn.execute(query.order_by(_C.c.id.desc()).limit(limit))
            return [message_json(r) for r in rows][::-1]

        return await self._db.read_one(unit)

    async def set_chat_muted(
        self, table_id: str, player: str, *, muted: bool, by: str, at: float
    ) -> None:
        """Mute ``player`` at ``table_id`` (noting who and when), or unmute them."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                delete(_M).where(_M.c.table_id == table_id, _M.c.player_id == player)
            )
            if muted:
                await conn.execute(
                    insert(_M).values(table_id=table_id, player_id=player, muted_by=by, at=at)
                )

        await self._db.run(unit)

    async def chat_muted(self, table_id: str, player: str) -> bool:
        """Whether a supervisor muted ``player`` at ``table_id``."""

        async def unit(conn: AsyncConnection) -> bool:
            found = await conn.execute(
                select(_M.c.player_id).where(_M.c.table_id == table_id, _M.c.player_id == player)
            )
            return found.first() is not None

        return await self._db.read_one(unit)

    async def chat_mutes(self, table_id: str) -> list[dict[str, Any]]:
        """Who is muted at ``table_id``, by whom and since when, by player."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            mutes = await conn.execute(
                select(_M).where(_M.c.table_id == table_id).order_by(_M.c.player_id)
            )
            return [{"player": m.player_id, "by": m.muted_by, "at": m.at} for m in mutes]

        return await self._db.read_one(unit)
