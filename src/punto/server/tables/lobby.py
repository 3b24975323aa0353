"""A live table's entry in the lobby: what a player choosing a table sees of it now."""

from __future__ import annotations

from typing import Any

from punto.roads import RoadBoard
from punto.server.fanout.protocol import streak_json, tier_json
from punto.table import Table

__all__ = ["status_of"]


def status_of(table: Table, roads: RoadBoard) -> dict[str, Any]:
    """The live part of ``table``'s lobby entry (``roads``: its shoe's roads)."""
    seated = watching = 0
    for who in table.seats.participants.values():
        if who.place.value == "seated":
            seated += 1
        elif who.place.value == "watching":
            watching += 1
    tiers = table.rules.limit_tiers
    return {
        "phase": table.phase.value,
        "game": None if table.game is None else str(table.game),
        "closes_at": table.closes_at,
        "dealer": table.dealer,
        "seated": seated,
        "watching": watching,
        "owner": table.owner,
        "password": table.vip.password_digest is not None,
        "min_bet": min(t.min_bet for t in tiers),
        "max_bet": max(t.max_bet for t in tiers),
        "tiers": [tier_json(t) for t in tiers],
        "last_results": "".join(r.code[0] for r in roads.results),
        "hands_dealt": 0 if table.shoe is None else table.shoe.hands_dealt,
        "shoe": table.shoe_number,
        "streak": streak_json(roads.streak),
    }
