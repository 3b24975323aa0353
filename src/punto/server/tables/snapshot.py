"""What a client sees of a table: its static description, its live status, and the
snapshot a WebSocket client gets when it connects (``docs/protocol.md``).

Everything hidden is hidden by :func:`punto.table.project`: the snapshot's cards come
from the viewer's own projection of the current hand's events.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Literal, NotRequired, TypedDict

from punto.codec import card_values_json, legal_actions_json
from punto.multipliers import LightningTable
from punto.paytables import paytable
from punto.server.auth import Actor
from punto.server.fanout.protocol import (
    bet_totals_json,
    bets_json,
    event_json,
    outcome_json,
    shown_to,
    tier_json,
)
from punto.server.operators.sessions import without_side_bets
from punto.server.tables.configs import TableConfig
from punto.table import Phase, Table, TableSettings, Viewer, project
from punto.table.events import (
    BettingOpened,
    CardPlaced,
    CardsRevealed,
    Event,
    HandRestarted,
    HandResult,
    LightningDrawn,
    SideBetsClosed,
)
from punto.table.purses import Purse
from punto.table.records import GameNumber
from punto.table.seat_plan import Place

__all__ = [
    "SeatJson",
    "ShoeJson",
    "Snapshot",
    "SnapshotState",
    "VipJson",
    "You",
    "snapshot_state",
    "table_json",
    "you_json",
]


class SeatJson(TypedDict):
    """A taken seat."""

    seat: int | None
    player: str
    tier: str | None
    connected: bool


class MarkJson(TypedDict):
    """A seat kept for a player who stood up [S13]."""

    seat: int
    player: str


class ShoeJson(TypedDict):
    """The shoe in play."""

    number: int
    commitment: str | None
    """The hash of the shuffled shoe, published before its first hand."""
    hands_dealt: int
    last_hand: bool


class VipJson(TypedDict):
    """A VIP table's owner settings [O]."""

    squeeze: bool
    vertical_squeeze: bool
    password_set: bool


class SnapshotState(TypedDict):
    """The table as ``viewer`` sees it now (docs/protocol.md, "snapshot")."""

    phase: str
    game: str | None
    closes_at: float | None
    closes_in: float | None
    squeeze_closes_in: float | None
    dealer: str | None
    shoe: ShoeJson
    seats: list[SeatJson]
    marked: list[MarkJson]
    watchers: list[str]
    owner: str | None
    bets: dict[str, dict[str, Any]]
    totals: dict[str, Any]
    split: dict[str, int]
    holders: dict[str, str]
    cards: list[dict[str, Any]]
    outcome: dict[str, Any] | None
    edge_closed: dict[str, float]
    lightning: list[tuple[str, int]]
    """[LB] The hand's lightning cards, ``[card, multiplier]`` (none before the draw)."""
    vip: VipJson
    blank_owed: bool
    paused: bool
    legal: dict[str, Any]


class You(TypedDict):
    """Who the snapshot is for, and their place and money at the table."""

    user_id: str | None
    role: str | None
    viewer: str
    at_table: bool
    place: str | None
    seat: int | None
    tier: str | None
    table_balance: int | None
    wallet_balance: int | None
    chip: int | None
    pending: dict[str, Any]
    bets: dict[str, Any]
    owner: bool
    purse: dict[str, Any] | None
    """The currency the player bets in when not the table's own: its code, digits, chips
    and the amounts of each tier (:func:`purse_json`)."""


class Snapshot(TypedDict):
    """The ``snapshot`` message a client gets on connecting and on ``resync``."""

    type: Literal["snapshot"]
    seq: int
    """The number of the last event it includes: events after it follow."""
    table: dict[str, Any]
    you: You
    state: SnapshotState
    roads: dict[str, Any]
    recent: list[dict[str, Any]]
    settlement_pending: dict[str, Any] | None
    request_id: NotRequired[str]
    """The ``resync`` request it answers."""


def table_json(config: TableConfig, settings: TableSettings) -> dict[str, Any]:
    """The static part of ``GET /api/tables/{id}``."""
    rules = settings.rules
    return {
        "id": config.id,
        "name": config.name,
        "names": dict(config.names),
        "rules": rules.name,
        "description": rules.description,
        "kind": settings.kind.value,
        "dealing": settings.dealing.value,
        "reading": settings.table_reading.value,
        "seats": settings.seats,
        "chips": list(settings.chips),
        "bets": [b.value for b in rules.offered_bets],
        "lightning": _lightning_table(rules.lightning),
        "paytables": {b.value: name for b, name in rules.paytables.items()},
        "pays": {
            b.value: {cls: str(odds) for cls, odds in paytable(name).pays.items()}
            for b, name in rules.paytables.items()
        },
        "limits": [tier_json(t) for t in rules.limit_tiers],
        "bet_rules": {
            "max_imbalance": rules.max_imbalance,
            "banker_multiple_of_min": rules.banker_multiple_of_min,
            "one_side_only": rules.one_side_only,
            "close_from_hand": {b.value: n for b, n in rules.close_from_hand.items()},
            "tiger_with_main": rules.tiger_with_main,
        },
        "normal_tiers": list(settings.normal_tiers),
        "vip_tier": settings.vip_tier,
        "vip_min_balance": settings.vip_min_balance,
        "betting_seconds": settings.betting_seconds,
        "wait_seconds": settings.wait_seconds,
        "max_waits": settings.max_waits,
        "decks": rules.decks,
        "card_values": card_values_json(),
        "currency_digits": rules.currency_digits,
        "tie_policy": rules.tie_policy.name,
        "enabled": config.enabled,
    }


def _cards(events: Sequence[Event]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    cards: dict[str, dict[str, Any]] = {}
    outcome = None
    for event in events:
        if isinstance(event, CardPlaced):
            cards[event.position.value] = {
                "position": event.position.value,
                "card": None if event.card is None else event.card.code,
                "face_up": event.face_up,
            }
        elif isinstance(event, CardsRevealed):
            for position, card in event.cards:
                cards[position.value] = {
                    "position": position.value,
                    "card": card.code,
                    "face_up": True,
                }
        elif isinstance(event, HandRestarted):
            cards.clear()
        elif isinstance(event, HandResult):
            outcome = outcome_json(event.outcome)
    return list(cards.values()), outcome


_STAFF = frozenset({Viewer.DEALER, Viewer.AUDITOR})
"""Viewers who see every player's bets and confirms; the others see their own only."""


def _bets_seen(table: Table, viewer: Viewer, player: str | None) -> dict[str, dict[str, int]]:
    """The confirmed bets a snapshot shows: every player's to the dealer and supervisors;
    a player's own only to them, and none to a spectator (the table's totals are in
    ``totals``; others' confirms reach players coalesced into those totals, so a copy of
    everyone's bets would only go stale, and at a table of thousands it would be most of
    the snapshot)."""
    if viewer in _STAFF:
        return {p: bets_json(b) for p in table.seats.participants if (b := table.bets(p))}
    if viewer is Viewer.PLAYER and player is not None and player in table.seats.participants:
        own = table.bets(player)
        return {player: bets_json(own)} if own else {}
    return {}


def snapshot_state(
    table: Table,
    *,
    hand_events: Sequence[Event],
    viewer: Viewer,
    player: str | None,
    commitment: str | None,
    side_bets: bool = True,
) -> tuple[SnapshotState, list[dict[str, Any]]]:
    """The snapshot's ``state`` and ``recent events for one viewer (``squeeze_closes_in``:
    how long until the table turns squeezed cards itself, an RNG table's squeeze time;
    ``side_bets``: whether its ``legal`` names the side-bet areas, which a player's
    jurisdiction may turn off)."""
    shown = project(hand_events, viewer, player)
    legal = table.legal_actions(viewer, player)
    cards, outcome = _cards(shown)
    now = time.time()
    closes_at = table.closes_at
    seats: list[SeatJson] = []
    watchers: list[str] = []
    for who in table.seats.participants.values():
        if who.place is Place.SEATED:
            seats.append(
                SeatJson(seat=who.seat, player=who.player, tier=who.tier, connected=who.connected)
            )
        elif who.place is Place.WATCHING:
            watchers.append(who.player)
    seats.sort(key=lambda s: s["seat"] or 0)
    marked = [
        MarkJson(seat=seat, player=by)
        for seat in range(1, table.settings.seats + 1)
        if (by := table.seats.marked_by(seat)) is not None
    ]
    last_hand = any(isinstance(e, BettingOpened) and e.last_hand for e in hand_events)
    shoe = table.shoe
    totals = bet_totals_json(table.bet_totals())
    state: SnapshotState = {
        "phase": table.phase.value,
        "game": None if table.game is None else str(table.game),
        "closes_at": closes_at,
        "closes_in": None if closes_at is None else max(0.0, round(closes_at - now, 3)),
        "squeeze_closes_in": (
            None
            if table.squeeze_closes_at is None
            else max(0.0, round(table.squeeze_closes_at - now, 3))
        ),
        "dealer": table.dealer,
        "shoe": {
            "number": table.shoe_number,
            "commitment": commitment,
            "hands_dealt": 0 if shoe is None else shoe.hands_dealt,
            "last_hand": last_hand,
        },
        "seats": seats,
        "marked": marked,
        "watchers": sorted(watchers),
        "owner": table.owner,
        "bets": _bets_seen(table, viewer, player),
        "totals": totals["totals"],
        "split": totals["split"],
        "holders": {side.value: p for side, p in table.holders.items()},
        "cards": cards,
        "outcome": outcome,
        "edge_closed": _edge_closed(hand_events, table.game),
        "lightning": _lightning(hand_events),
        "vip": {
            "squeeze": table.vip.squeeze,
            "vertical_squeeze": table.vip.vertical_squeeze,
            "password_set": table.vip.password_digest is not None,
        },
        "blank_owed": table.blank_owed,
        "paused": table.phase is Phase.PAUSED,
        "legal": legal_actions_json(legal if side_bets else without_side_bets(legal)),
    }
    if viewer in _STAFF:
        return state, [event_json(e) for e in shown]
    return state, [event_json(seen) for e in shown if (seen := shown_to(e, player)) is not None]


def you_json(table: Table, actor: Actor, *, chip: int | None, wallet: int | None) -> You:
    """The snapshot's ``you``."""
    me = actor.user_id if actor.viewer is Viewer.PLAYER else None
    out: You = {
        "user_id": actor.user_id,
        "role": None if actor.role is None else actor.role.value,
        "viewer": actor.viewer.value,
        "at_table": False,
        "place": None,
        "seat": None,
        "tier": None,
        "table_balance": None,
        "wallet_balance": wallet,
        "chip": None,
        "pending": {},
        "bets": {},
        "owner": False,
        "purse": None,
    }
    if me is None or me not in table.seats.participants:
        return out
    who = table.seats.get(me)
    out["at_table"] = True
    out["place"] = who.place.value
    out["seat"] = who.seat
    out["tier"] = who.tier
    out["table_balance"] = table.balance(me)
    out["chip"] = chip
    out["pending"] = bets_json(table.pending(me))
    out["bets"] = bets_json(table.bets(me))
    out["owner"] = table.owner == me
    purse = table.purses.get(me)
    out["purse"] = None if purse is None else purse_json(purse)
    return out


def purse_json(purse: Purse) -> dict[str, Any]:
    """A player's currency at a table: ``currency``, ``digits``, ``chips`` and ``limits``
    (each tier's amounts in it, as a table's ``limits``)."""
    return {
        "currency": purse.currency,
        "digits": purse.digits,
        "chips": list(purse.chips),
        "limits": [tier_json(t) for t in purse.tiers.values()],
    }


def _lightning_table(table: LightningTable | None) -> dict[str, Any] | None:
    """[LB] What a client shows of a multiplier table: the fee (a fraction of the stake,
    ``[numerator, denominator]``), the cap (minor units) and the multipliers."""
    if table is None:
        return None
    return {
        "fee": [table.fee.numerator, table.fee.denominator],
        "cap": table.cap,
        "multipliers": list(table.multipliers),
    }


def _lightning(hand_events: Sequence[Event]) -> list[tuple[str, int]]:
    """[LB] The lightning cards drawn for the hand of these events (none yet: empty)."""
    for event in reversed(hand_events):
        if isinstance(event, LightningDrawn):
            return [(card.code, multiplier) for card, multiplier in event.cards]
    return []


def _edge_closed(hand_events: Sequence[Event], game: GameNumber | None) -> dict[str, float]:
    """[EZ-C] The side bets the hand in progress closed for the shoe's edge, with each
    bet's edge (none outside a hand)."""
    for event in hand_events:
        if isinstance(event, SideBetsClosed) and event.game == game:
            return {bet.value: edge for bet, edge in zip(event.closed, event.edges, strict=True)}
    return {}
