"""Game recall (GLI-19): a player opens one of their hands and sees everything that was
shown at the time — the cards in order per side, the totals, their bets, the result, the
roads at that moment — and every amendment made since.

``GET /api/me/recall/{game}`` (docs/protocol.md §2, "Game recall").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from fastapi import APIRouter

from punto.errors import NotFoundError
from punto.roads_render import roads_dict
from punto.server.auth import Role, require_role
from punto.server.http.api import ActorDep, NodeDep
from punto.server.http.records import video_state
from punto.server.tables.truth import player_net, roads_of
from punto.table.records import GameNumber

__all__ = ["recall_view", "router"]

router = APIRouter()


def _sides(facts: Mapping[str, Any]) -> dict[str, Any]:
    """Cards in dealing order per side, with the totals [M7]."""
    outcome = facts.get("outcome") or {}
    cards = [list(c) for c in facts.get("cards") or []]
    return {
        "player": {
            "cards": [code for pos, code in cards if str(pos).startswith("P")],
            "total": outcome.get("player_total"),
        },
        "banker": {
            "cards": [code for pos, code in cards if str(pos).startswith("B")],
            "total": outcome.get("banker_total"),
        },
        "cards": cards,
        "outcome": facts.get("outcome"),
        "void": bool(facts.get("void")),
        "void_reason": facts.get("void_reason") or "",
        "void_reason_params": facts.get("void_reason_params"),
    }


def _as_shown(record: Mapping[str, Any], moment: float) -> Mapping[str, Any]:
    """A hand's record as it was shown at ``moment``: its original facts unless every
    amendment of it was made by then."""
    original = record.get("original")
    if original is None:
        return record
    times = [float(a.get("at") or 0.0) for a in record.get("amendments", [])]
    if times and max(times) <= moment:
        return record
    return {**record, **original}


def recall_view(
    record: Mapping[str, Any], shoe: Iterable[Mapping[str, Any]], player: str | None
) -> dict[str, Any]:
    """The recall of one hand: ``record`` (stored, amended) and the records of its shoe;
    ``player``'s own bets and result (``None``: every player's, for staff)."""
    game = GameNumber.parse(str(record["game"]))
    moment = float(record.get("closed_at") or record.get("opened_at") or 0.0)
    shown = _as_shown(record, moment)
    earlier = [
        _as_shown(r, moment)
        for r in shoe
        if GameNumber.parse(str(r["game"])).hand < game.hand and r["game"] != record["game"]
    ]
    players = [player] if player is not None else sorted(record.get("bets", {}))
    amended = bool(record.get("amendments"))
    return {
        "game": str(game),
        "table": game.table,
        "shoe": game.shoe,
        "hand": game.hand,
        "dealer": record.get("dealer"),
        "opened_at": record.get("opened_at"),
        "closed_at": record.get("closed_at"),
        "blank": bool(record.get("blank")),
        "shown": _sides(shown),
        "corrected": _sides(record) if amended else None,
        "bets": {p: record.get("bets", {}).get(p, {}) for p in players},
        "results": {p: record.get("results", {}).get(p) for p in players},
        "net": {p: player_net(record, p) for p in players},
        "net_at_the_time": {p: player_net(shown, p) for p in players},
        "lightning": list(record.get("lightning", [])),  # [LB] the hand's lightning cards
        "fees": {p: record.get("fees", {}).get(p, 0) for p in players},
        "roads": roads_dict(roads_of([*earlier, shown])),
        "amendments": [
            {
                "kind": a.get("kind"),
                "reason": a.get("reason"),
                "author": a.get("author"),
                "at": a.get("at"),
                "outcome": a.get("outcome"),
                "corrections": {
                    p: v for p, v in (a.get("corrections") or {}).items() if p in players
                },
            }
            for a in record.get("amendments", [])
        ],
    }


@router.get("/api/me/recall/{game}", tags=["records"])
async def recall(game: str, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Game recall (GLI-19): one of the player's hands as it was shown at the time, with
    the roads of that moment and every amendment since (staff: any hand)."""
    require_role(actor, *Role, action="recall a hand")
    record = await node.store.hand(game)
    player = actor.user_id if actor.role is Role.PLAYER else None
    mine = player is None or player in record.get("bets", {}) if record else False
    if record is None or not mine:
        raise NotFoundError(f"no hand {game!r} of yours to recall")
    number = GameNumber.parse(game)
    shoe = await node.store.shoe_hands(number.table, number.shoe)
    view = recall_view(record, shoe, player)
    view["video"] = await video_state(node, record)  # its clip: GET /api/hands/{game}/video
    return view
