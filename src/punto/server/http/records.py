"""A hand's record by game number [L], and the part of it each reader may see: a player
their own bets, an operator its own players' (:mod:`punto.server.operators.routes`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from punto.errors import NotFoundError
from punto.ledger.model import Account
from punto.server.features.recordings import hand_video
from punto.server.node import Node
from punto.server.tables.truth import player_net

__all__ = ["hand_record", "own_view", "players_view", "video_state"]


async def video_state(node: Node, record: dict[str, Any]) -> dict[str, Any]:
    """Where the hand's video stands (``available``, ``gone``, ``none`` or ``off``)."""
    video = await asyncio.to_thread(
        hand_video,
        record,
        node.recordings,
        now=node.clock.now(),
        retention=node.settings.video_retention,
        margin=node.settings.video_margin,
    )
    return video.json()


async def hand_record(node: Node, game: str) -> dict[str, Any]:
    """A hand's full record by game number, for its auditors: cards, every player's bets
    and results, corrections, the video and the ledger's transactions (:class:`NotFoundError`
    when there is no such hand)."""
    record = await node.store.hand(game)
    if record is None:
        raise NotFoundError(f"no hand {game!r}")
    with contextlib.suppress(NotFoundError):  # the table's name as players see it
        config = await node.config(record["table"])
        record["table_name"] = config.name
        record["table_names"] = dict(config.names)
    record["video"] = await video_state(node, record)
    record["amendments"] = await node.store.amendments(game=game)
    record["ledger"] = [
        {
            "id": tx.id,
            "kind": tx.kind.value,
            "player": tx.player_id,
            "amount": sum(
                e.amount
                for e in tx.entries
                if tx.player_id is not None
                and e.account in (Account.player(tx.player_id), Account.receivable(tx.player_id))
            ),
            "reference": tx.reference,
            "author": tx.author,
            "reason": tx.reason,
        }
        for tx in await node.ledger.transactions(round_id=game)
    ]
    return record


def players_view(record: dict[str, Any], mine: Callable[[str], bool]) -> dict[str, Any]:
    """A hand record with only the bets, results, corrections and ledger transactions of
    the players ``mine`` accepts (and none of the facts before an amendment or the events,
    which are supervisors' and auditors')."""
    out = dict(record)
    for key in ("bets", "results", "corrections", "fees"):
        out[key] = {p: v for p, v in record.get(key, {}).items() if mine(p)}
    out.pop("original", None)
    out["amendments"] = [
        {**a, "corrections": {p: v for p, v in a.get("corrections", {}).items() if mine(p)}}
        for a in record.get("amendments", [])
    ]
    out["ledger"] = [
        t for t in record.get("ledger", []) if t["player"] is not None and mine(t["player"])
    ]
    out.pop("events", None)
    return out


def own_view(record: dict[str, Any], player: str) -> dict[str, Any]:
    """A hand record as ``player`` may see it: their own bets, results and corrections."""
    out = players_view(record, lambda p: p == player)
    out["result"] = record.get("results", {}).get(player)
    out["correction"] = record.get("corrections", {}).get(player, 0)
    out["fee"] = record.get("fees", {}).get(player, 0)  # [LB]
    out["net"] = player_net(record, player)
    return out
