"""Players' lobby preferences as kept: favourite tables and road alerts, as JSON lists in
one row a player (what they may hold is :mod:`punto.server.features.lobbyprefs`')."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.server.store.database import StorePart
from punto.server.store.schema import LobbyPrefsRow

__all__ = ["LobbyPrefsStore"]

_P = cast(Table, LobbyPrefsRow.__table__)


class LobbyPrefsStore(StorePart):
    """The players' lobby preferences."""

    async def lobby_prefs(self, user_id: str) -> dict[str, Any] | None:
        """The user's ``favourites`` and ``alerts``, if they kept any."""

        async def unit(conn: AsyncConnection) -> dict[str, Any] | None:
            row = (await conn.execute(select(_P).where(_P.c.user_id == user_id))).first()
            if row is None:
                return None
            return {"favourites": json.loads(row.favourites), "alerts": json.loads(row.alerts)}

        return await self._db.read_one(unit)

    async def set_lobby_prefs(
        self,
        user_id: str,
        *,
        favourites: Sequence[str],
        alerts: Sequence[dict[str, Any]],
        at: float,
    ) -> None:
        """Replace the user's favourites and alerts (noting when)."""
        values = {
            "user_id": user_id,
            "favourites": json.dumps(list(favourites)),
            "alerts": json.dumps(list(alerts)),
            "updated_at": at,
        }

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(delete(_P).where(_P.c.user_id == user_id))
            await conn.execute(insert(_P).values(**values))

        await self._db.run(unit)
