"""A table's chat as kept, for supervisors: ``GET /api/supervisor/tables/{id}/chat``
(``docs/protocol.md`` §2, "Chat"); the chat itself is :mod:`punto.server.features.chat`."""

from __future__ import annotations

from typing import Annotated, Any, cast

from fastapi import APIRouter, Query
from sqlalchemy import Table, select

from punto.server.auth import Role, require_role
from punto.server.features.chat import message_json
from punto.server.http.api import ActorDep, NodeDep
from punto.server.store.schema import ChatMuteRow, ChatRow

__all__ = ["router"]

router = APIRouter()
_C = cast(Table, ChatRow.__table__)
_M = cast(Table, ChatMuteRow.__table__)


@router.get("/api/supervisor/tables/{table_id}/chat", tags=["supervision"])
async def table_chat(
    table_id: str,
    actor: ActorDep,
    node: NodeDep,
    game: Annotated[str | None, Query(max_length=80)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> dict[str, Any]:
    """A table's chat as kept (oldest first; one hand's with ``game``) and who is muted."""
    require_role(actor, Role.SUPERVISOR, Role.ADMIN, action="read a table's chat")
    await node.config(table_id)  # NotFoundError for an unknown table
    query = select(_C).where(_C.c.table_id == table_id)
    if game is not None:
        query = query.where(_C.c.game == game)
    async with node.engine.connect() as conn:
        rows = await conn.execute(query.order_by(_C.c.id.desc()).limit(limit))
        lines = [message_json(r) for r in rows][::-1]
        mutes = await conn.execute(
            select(_M).where(_M.c.table_id == table_id).order_by(_M.c.player_id)
        )
        muted = [{"player": m.player_id, "by": m.muted_by, "at": m.at} for m in mutes]
    return {"table": table_id, "game": game, "messages": lines, "muted": muted}
