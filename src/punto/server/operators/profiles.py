"""Jurisdiction profiles over HTTP (``docs/operators.md``): the administrators' (list
them, see one, put one, remove one) and a launched player's own session under one (its
reality check: what it says, and the player's answer)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

from punto.errors import ConflictError, NotFoundError
from punto.server.auth import Actor, Role, require_role
from punto.server.http.api import ActorDep, NodeDep
from punto.server.node import Node
from punto.server.operators.jurisdictions import jurisdiction
from punto.server.operators.model import minor_units
from punto.server.operators.sessions import due_at, ends_at
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


# -- a launched player's own session -------------------------------------------------


async def _status(node: Node, actor: Actor) -> dict[str, Any]:
    """The player's session under their jurisdiction profile (``jurisdiction`` null:
    they play under none)."""
    require_role(actor, Role.PLAYER, action="see your session")
    assert actor.user_id is not None
    found = await node.jurisdictions.session(actor.user_id)
    if found is None:
        return {"jurisdiction": None}
    session, profile = found
    currency = await node.purses.currency(actor.user_id) or node.settings.currency
    now = node.clock.now()
    due = due_at(session, profile)
    end = ends_at(session, profile)
    return {
        "jurisdiction": profile.to_json(),
        "started_at": session.started_at,
        "now": now,
        "played_seconds": max(0.0, (session.ended_at or now) - session.started_at),
        "net": await node.jurisdictions.net(session),
        "currency": currency,
        "digits": minor_units(currency),
        "reality_check": {"due": due is not None and now >= due, "due_at": due},
        "session_limit": {"reached": end is not None and now >= end, "ends_at": end},
        "ended": session.ended_at is not None,
    }


@router.get("/api/session/reality-check", tags=["accounts"])
async def reality_check(actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """A launched player's session under their jurisdiction profile: whether a reality
    check is due (and when the next is), the time played, the net result in their currency
    (minor units, with its ``digits``) and whether the session's time is up."""
    return await _status(node, actor)


class Choice(BaseModel):
    """``POST /api/session/reality-check``."""

    model_config = ConfigDict(extra="forbid")
    choice: Literal["continue", "leave"]


@router.post(
    "/api/session/reality-check",
    tags=["accounts"],
    responses={409: {"description": "no reality check is due (continue)"}},
)
async def acknowledge(body: Choice, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Acknowledge a due reality check: ``continue`` plays on (the next check counts from
    now); ``leave`` ends the session (no more bets in it, and its token is revoked)."""
    status = await _status(node, actor)
    if status["jurisdiction"] is None:
        raise NotFoundError("you play under no jurisdiction profile: no reality check")
    assert actor.user_id is not None
    now = node.clock.now()
    if body.choice == "leave":
        await node.jurisdictions.end(actor.user_id, now=now)
        answer = await _status(node, actor)
        await node.revoke(actor)
        return answer
    if status["ended"]:
        raise ConflictError("this session has ended: launch the game again")
    if not status["reality_check"]["due"]:
        raise ConflictError("no reality check is due")
    await node.jurisdictions.checked(actor.user_id, now=now)
    return await _status(node, actor)
