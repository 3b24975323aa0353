"""Complaints [L]: "video is kept 24 hours, so a complaint must come within 24 hours and
name date, time, table, dealer and game number".

A player files a complaint about one of their hands (the server fills the date and time,
table, dealer and game number from the hand's record, and refuses a hand older than
:data:`COMPLAINT_WINDOW`); a supervisor sees the queue of open complaints and resolves
each by a correction, a void or a rejection, always with a reason; the player sees the
outcome. The complaint keeps every step (filed, resolved: who, when, how, why), and a
correction or void is an amendment of the hand's record naming the complaint.

REST (docs/protocol.md §2, "Complaints"): ``POST /api/me/complaints``,
``GET /api/me/complaints``, ``GET /api/supervisor/complaints``,
``POST /api/supervisor/complaints/{id}/resolve``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from punto.cards import Card
from punto.errors import ConflictError, NotFoundError, ProtocolError, PuntoError
from punto.outcome import Outcome
from punto.server.auth import Role, require_role
from punto.server.http.api import ActorDep, NodeDep
from punto.server.store.complaints import Complaint

__all__ = ["COMPLAINT_WINDOW", "router"]

COMPLAINT_WINDOW = 24 * 3600.0
"""Seconds after a hand's end within which a complaint about it is taken [L]."""

router = APIRouter()


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ComplaintBody(_Body):
    """``POST /api/me/complaints``: the hand and what went wrong."""

    game: Annotated[str, Field(min_length=5, max_length=80)]
    text: Annotated[str, Field(min_length=1, max_length=2000)]


class ResolveBody(_Body):
    """``POST /api/supervisor/complaints/{id}/resolve``."""

    action: Literal["correct", "void", "reject"]
    reason: Annotated[str, Field(min_length=1, max_length=500)]
    player: Annotated[list[str] | None, Field(min_length=2, max_length=3)] = None
    banker: Annotated[list[str] | None, Field(min_length=2, max_length=3)] = None


def _json(row: Complaint) -> dict[str, Any]:
    steps: list[dict[str, Any]] = [{"step": "filed", "by": row.player_id, "at": row.filed_at}]
    if row.state != "open":
        steps.append(
            {
                "step": row.state,
                "by": row.resolved_by,
                "at": row.resolved_at,
                "reason": row.resolution,
            }
        )
    return {
        "id": row.id,
        "player": row.player_id,
        "game": row.game,
        "table": row.table_id,
        "dealer": row.dealer,
        "hand_at": row.hand_at,
        "text": row.text,
        "filed_at": row.filed_at,
        "state": row.state,
        "resolved_by": row.resolved_by,
        "resolved_at": row.resolved_at,
        "resolution": row.resolution,
        "steps": steps,
    }


@router.post("/api/me/complaints", tags=["records"], status_code=201)
async def file_complaint(body: ComplaintBody, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """File a complaint about one of the player's hands, within the window [L]."""
    player = actor.player
    game = body.game.strip()
    record = await node.store.hand(game)
    if record is None or player not in record.get("bets", {}):
        raise NotFoundError(f"no hand {game!r} of yours to complain about")
    hand_at = float(record.get("closed_at") or record.get("opened_at") or 0.0)
    now = node.clock.now()
    if now - hand_at > COMPLAINT_WINDOW:
        raise ConflictError(
            f"hand {game} ended more than 24 hours ago: a complaint must come within 24 hours"
        )
    row = await node.store.add_complaint(
        player_id=player,
        game=game,
        table_id=str(record.get("table") or game.rsplit("-", 2)[0]),
        dealer=str(record.get("dealer") or ""),
        hand_at=hand_at,
        text=body.text.strip() or body.text,
        filed_at=now,
    )
    if row is None:
        raise ConflictError(f"you already have an open complaint about hand {game}")
    return _json(row)


@router.get("/api/me/complaints", tags=["records"])
async def my_complaints(actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """The player's complaints, newest first, with their outcome."""
    rows = await node.store.complaints(player_id=actor.player, newest_first=True, limit=100)
    return {"complaints": [_json(r) for r in rows]}


@router.get("/api/supervisor/complaints", tags=["supervision"])
async def complaint_queue(
    actor: ActorDep,
    node: NodeDep,
    state: Annotated[Literal["open", "corrected", "voided", "rejected", "all"], Query()] = "open",
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """The complaints queue (open ones by default, oldest first)."""
    require_role(actor, Role.SUPERVISOR, Role.ADMIN, action="read complaints")
    rows = await node.store.complaints(state=None if state == "all" else state, limit=limit)
    return {"complaints": [_json(r) for r in rows]}


def _outcome(body: ResolveBody) -> Outcome:
    if body.player is None or body.banker is None:
        raise ProtocolError("a correction names the player's and the banker's cards")
    try:
        return Outcome.from_hands(
            [Card.parse(c) for c in body.player], [Card.parse(c) for c in body.banker]
        )
    except PuntoError as exc:
        raise ProtocolError(str(exc)) from None


@router.post("/api/supervisor/complaints/{complaint_id}/resolve", tags=["supervision"])
async def resolve_complaint(
    complaint_id: int, body: ResolveBody, actor: ActorDep, node: NodeDep
) -> dict[str, Any]:
    """Resolve an open complaint by a correction, a void or a rejection, with a reason."""
    require_role(actor, Role.SUPERVISOR, action="resolve a complaint")
    assert actor.user_id is not None
    row = await node.store.complaint(complaint_id)
    if row is None:
        raise NotFoundError(f"no complaint {complaint_id}")
    if row.state != "open":
        raise ConflictError(f"complaint {complaint_id} is already {row.state}")
    reason = f"complaint {complaint_id}: {body.reason}"
    amendment: dict[str, Any] | None = None
    if body.action == "correct":
        amendment = await node.correct(
            row.game,
            _outcome(body),
            author=actor.user_id,
            reason=reason,
            correction_id=f"complaint-{complaint_id}",
        )
    elif body.action == "void":
        amendment = await node.void_hand(row.game, author=actor.user_id, reason=reason)
    state = {"correct": "corrected", "void": "voided", "reject": "rejected"}[body.action]
    row = await node.store.resolve_complaint(
        complaint_id, state=state, by=actor.user_id, at=node.clock.now(), resolution=body.reason
    )
    if row is None:
        raise ConflictError(f"complaint {complaint_id} was resolved meanwhile")
    await node.bus.publish(
        {
            "table": row.table_id,
            "to": row.player_id,
            "message": {"type": "complaint", "id": complaint_id, "game": row.game, "state": state},
        }
    )
    return {**_json(row), "amendment": amendment}
