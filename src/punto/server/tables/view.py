"""What clients read of a live table: its lobby entry, its description, a viewer's
snapshot and its roads, from the table and what its runner remembers between events."""

from __future__ import annotations

from typing import Any

from punto.outcome import Outcome
from punto.roads import RoadBoard, RoadResult
from punto.roads_render import render_svg, roads_dict
from punto.server.auth import Actor
from punto.server.fanout.protocol import streak_json, tier_json
from punto.server.tables.configs import TableConfig
from punto.server.tables.effects import SendSnapshots
from punto.server.tables.history import events_from
from punto.server.tables.snapshot import Snapshot, snapshot_state, table_json, you_json
from punto.table import Table, Viewer

__all__ = ["TableView"]


class TableView:
    """What clients read of one table: handed the table, it keeps what the table's events
    do not say on their own — the shoe's roads and commitment, and the chip each player
    chose — and makes the lobby entry, the description, snapshots and ``roads``."""

    def __init__(self, table: Table, *, table_id: str) -> None:
        self._table = table
        self._id = table_id
        self.roads = RoadBoard()
        self._commitment: str | None = None
        self._chips: dict[str, int] = {}

    def open_shoe(self, commitment: str | None) -> None:
        """A new shoe: its commitment; the roads start again."""
        self._commitment = commitment
        self.roads = RoadBoard()

    def add_road(self, outcome: Outcome) -> None:
        """A settled hand joins the roads."""
        self.roads.add(RoadResult.from_outcome(outcome))

    def chose(self, player: str, chip: int) -> None:
        """The chip ``player`` chose (their snapshot shows it)."""
        self._chips[player] = chip

    def left(self, player: str) -> None:
        """``player`` left the table."""
        self._chips.pop(player, None)

    def resnapped(self, effect: SendSnapshots) -> set[str]:
        """The players a :class:`SendSnapshots` effect sends a new snapshot: everyone, or
        those who took cards over in a squeeze (the new holder sees the held cards)."""
        table = self._table
        players = {p for side, p in effect.holders if side in table.awaiting_squeeze}
        if effect.everyone:
            players.update(table.seats.participants)
        return players

    def status(self) -> dict[str, Any]:
        """The table's entry in the lobby (live part)."""
        table = self._table
        roads = self.roads
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

    def describe(self, config: TableConfig) -> dict[str, Any]:
        """``GET /api/tables/{id}``: the static description and the live status."""
        out = table_json(config, self._table.settings)
        out.update(self.status())
        return out

    def snapshot(
        self,
        actor: Actor,
        config: TableConfig,
        *,
        wallet: int | None,
        hand_start: int,
        pending: dict[str, Any] | None,
        side_bets: bool = True,
    ) -> Snapshot:
        """The ``snapshot`` message for ``actor`` (``hand_start``: the first event of the
        hand in play or the last one; ``pending``: the ``settlement_pending`` message;
        ``side_bets``: whether its ``legal`` names the side-bet areas)."""
        table = self._table
        viewer = actor.viewer
        player = actor.user_id if viewer is Viewer.PLAYER else None
        state, recent = snapshot_state(
            table,
            hand_events=events_from(table, hand_start),
            viewer=viewer,
            player=player,
            commitment=self._commitment,
            side_bets=side_bets,
        )
        chip = None if player is None else self._chips.get(player)
        return {
            "type": "snapshot",
            "seq": table.event_count - 1,
            "table": self.describe(config),
            "you": you_json(table, actor, chip=chip, wallet=wallet),
            "state": state,
            "roads": roads_dict(self.roads),
            "recent": recent,
            "settlement_pending": pending,
        }

    def roads_message(self, *, svg: bool = False) -> dict[str, Any]:
        """The ``roads`` message."""
        out: dict[str, Any] = {"type": "roads", "table": self._id, "roads": roads_dict(self.roads)}
        if svg:
            out["svg"] = render_svg(self.roads)
        return out
