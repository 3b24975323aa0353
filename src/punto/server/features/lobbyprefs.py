"""A player's lobby preferences, kept per account: favourite tables (shown first) and
the road alerts they asked for ("4 or more Banker in a row"): ``GET /api/me/lobby`` and
``PUT /api/me/lobby`` (``docs/protocol.md`` §2, "Lobby preferences").

The alerts are only the player's choice of pattern and length: whether a table's Big
Road matches comes from the lobby's ``streak`` (:attr:`punto.roads.RoadBoard.streak`),
the roads module being the one copy of the road rules.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from punto.server.auth import Role, require_role
from punto.server.http.api import ActorDep, NodeDep

__all__ = ["MAX_ALERTS", "MAX_FAVOURITES", "Alert", "LobbyPrefs", "router"]

MAX_FAVOURITES = 50
"""The most favourite tables one player keeps."""
MAX_ALERTS = 10
"""The most road alerts one player keeps."""

router = APIRouter()
_TableId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")]


class Alert(BaseModel):
    """Alert me when a table's Big Road shows ``pattern`` (a Banker streak, a Player
    streak or ping-pong, sides alternating) for at least ``length`` hands."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    pattern: Literal["banker", "player", "ping_pong"]
    length: Annotated[StrictInt, Field(ge=2, le=20)]


class LobbyPrefs(BaseModel):
    """``PUT /api/me/lobby`` and its answer."""

    model_config = ConfigDict(extra="forbid")
    favourites: Annotated[list[_TableId], Field(max_length=MAX_FAVOURITES)] = []
    alerts: Annotated[list[Alert], Field(max_length=MAX_ALERTS)] = []


@router.get("/api/me/lobby", tags=["players"])
async def my_lobby(actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """The player's favourite tables and road alerts (empty lists at first)."""
    require_role(actor, *Role, action="keep lobby preferences")
    assert actor.user_id is not None
    kept = await node.store.lobby_prefs(actor.user_id)
    return LobbyPrefs().model_dump() if kept is None else kept


@router.put("/api/me/lobby", tags=["players"])
async def set_my_lobby(body: LobbyPrefs, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Replace the player's favourite tables and road alerts (duplicates dropped)."""
    require_role(actor, *Role, action="keep lobby preferences")
    favourites = list(dict.fromkeys(body.favourites))
    alerts = list(dict.fromkeys(body.alerts))
    assert actor.user_id is not None
    await node.store.set_lobby_prefs(
        actor.user_id,
        favourites=favourites,
        alerts=[a.model_dump() for a in alerts],
        at=node.clock.now(),
    )
    return {"favourites": favourites, "alerts": [a.model_dump() for a in alerts]}
