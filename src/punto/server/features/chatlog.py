"""A table's chat as kept, for supervisors: ``GET /api/supervisor/tables/{id}/chat``
(``docs/protocol.md`` §2, "Chat"); the chat itself is :mod:`punto.server.features.chat`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from punto.server.auth import Role, require_role
from punto.server.http.api import ActorDep, NodeDep

__all__ = ["router"]

router = APIRouter()


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
    lines = await node.store.chat_lines(table_id, game=game, limit=limit)
    muted = await node.store.chat_mutes(table_id)
    return {"table": table_id, "game": game, "messages": lines, "muted": muted}
