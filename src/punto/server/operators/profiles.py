"""The administrators' jurisdiction profiles over HTTP (``docs/operators.md``): list them,
see one, put one (add or replace) and remove one."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

from punto.errors import NotFoundError
from punto.server.auth import Role, require_role
from punto.server.http.api import ActorDep, NodeDep
from punto.server.node import Node
from punto.server.operators.jurisdictions import jurisdiction
from punto.server.store.jurisdictions import JurisdictionStore

__all__ = ["router"]

router = APIRouter()

_Seconds = StrictInt | StrictFloat | Annotated[str, Field(max_length=20)] | None


def store_of(node: Node) -> JurisdictionStore:
    """The process's :class:`JurisdictionStore`."""
    return node.jurisdictions


class ProfileBody(BaseModel):
    """``PUT /api/admin/jurisdictions/{id}``: each switch in seconds or as a duration
    (``60m``), ``null`` for none."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=100)]
    reality_check_interval: _Seconds = None
    session_limit: _Seconds = None
    min_hand_interval: _Seconds = None
    features_off: Annotated[list[Annotated[str, Field(max_length=20)]], Field(max_length=10)] = []


@router.get("/api/admin/jurisdictions", tags=["admin"])
async def profiles(actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Every jurisdiction profile, by id."""
    require_role(actor, Role.ADMIN, action="see the jurisdictions")
    return {"jurisdictions": [p.to_json() for p in await store_of(node).all()]}


@router.get(
    "/api/admin/jurisdictions/{profile_id}",
    tags=["admin"],
    responses={404: {"description": "no such profile"}},
)
async def profile(profile_id: str, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """One jurisdiction profile."""
    require_role(actor, Role.ADMIN, action="see a jurisdiction")
    found = await store_of(node).get(profile_id)
    if found is None:
        raise NotFoundError(f"no jurisdiction {profile_id!r}")
    return found.to_json()


@router.put(
    "/api/admin/jurisdictions/{profile_id}",
    tags=["admin"],
    responses={400: {"description": "a bad id, name, switch or feature"}},
)
async def put_profile(
    profile_id: str, body: ProfileBody, actor: ActorDep, node: NodeDep
) -> dict[str, Any]:
    """Add a jurisdiction profile, or replace the one of this id (its launched players
    play on the new switches from their next bet); ``created`` says which."""
    require_role(actor, Role.ADMIN, action="change a jurisdiction")
    checked = jurisdiction(
        profile_id,
        name=body.name,
        reality_check=body.reality_check_interval,
        session_limit=body.session_limit,
        min_hand_interval=body.min_hand_interval,
        features_off=body.features_off,
    )
    created = await store_of(node).put(checked, now=node.clock.now())
    return {**checked.to_json(), "created": created}


@router.delete(
    "/api/admin/jurisdictions/{profile_id}",
    tags=["admin"],
    responses={404: {"description": "no such profile"}},
)
async def remove_profile(profile_id: str, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Remove a jurisdiction profile (launches may no longer name it; the sessions of
    players launched on it end their switches with it)."""
    require_role(actor, Role.ADMIN, action="remove a jurisdiction")
    if not await store_of(node).remove(profile_id):
        raise NotFoundError(f"no jurisdiction {profile_id!r}")
    return {"id": profile_id, "removed": True}
