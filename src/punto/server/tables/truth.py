"""One truth per hand: a hand's record after its amendments, and what is derived from it.

A supervisor's correction or void [O] is an amendment of the hand's record: the record
then shows the corrected cards, outcome, results and every player's net, the original
facts stay in ``original`` (for supervisors and auditors), and the roads of the shoe
[R] are built again from the records, so that every view of the hand tells the same.
Pure functions over the stored JSON records: no I/O here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from punto.bets import Bet
from punto.ledger.model import settle_players
from punto.outcome import Outcome
from punto.roads import RoadBoard, RoadResult
from punto.rules import Rules
from punto.server.fanout.protocol import outcome_from_json, outcome_json, settlement_json

__all__ = ["amend_record", "cards_json", "carry_amendments", "player_net", "roads_of"]

_ORIGINAL = ("cards", "outcome", "void", "void_reason", "void_reason_params", "net")


def cards_json(outcome: Outcome) -> list[list[str]]:
    """An outcome's cards as a record's ``cards``, in dealing order [M7]: P1 B1 P2 B2,
    then the third cards."""
    out: list[list[str]] = []
    for i in range(3):
        for side, cards in (("P", outcome.player), ("B", outcome.banker)):
            if i < len(cards):
                out.append([f"{side}{i + 1}", cards[i].code])
    return out


def player_net(record: Mapping[str, Any], player: str) -> int | None:
    """``player``'s net on the hand as the record now says (after every amendment);
    ``None`` when they had no result (no bets, or refunded before settlement)."""
    net = record.get("net")
    if isinstance(net, Mapping) and player in net:
        return int(net[player])
    result = record.get("results", {}).get(player)
    if result is None:
        return None
    return int(result["settlement"]["total_net"])


def _original(record: Mapping[str, Any]) -> dict[str, Any]:
    nets = {p: player_net(record, p) for p in record.get("results", {})}
    return {
        **{k: record.get(k) for k in _ORIGINAL if k != "net"},
        "net": {p: n for p, n in nets.items() if n is not None},
    }


def carry_amendments(fresh: Mapping[str, Any], stored: Mapping[str, Any]) -> dict[str, Any]:
    """A record the table builds again from its events (after it re-settled a hand)
    over the ``stored`` one: the original facts and the amendments stay."""
    out = dict(fresh)
    out["original"] = stored.get("original") or _original(stored)
    for key in ("amendments", "net", "amended"):
        if key in stored:
            out[key] = stored[key]
    return out


def amend_record(
    record: Mapping[str, Any],
    *,
    kind: str,
    reason: str,
    outcome: Outcome | None,
    rules: Rules | None,
    moved: Mapping[str, int],
) -> dict[str, Any]:
    """The record after one amendment (``correction`` with its ``outcome``, or ``void``);
    ``moved`` is what every amendment of the hand so far moved, per player (the ledger's
    sum). Nothing is lost: the facts before the first amendment go to ``original``."""
    out = dict(record)
    if "original" not in out:
        out["original"] = _original(record)
    original_net: Mapping[str, int] = out["original"]["net"]
    if kind == "correction" and outcome is not None:
        out["outcome"] = outcome_json(outcome)
        out["cards"] = cards_json(outcome)
        if rules is not None:
            bets = {
                p: {Bet(b): int(a) for b, a in placed.items()}
                for p, placed in record.get("bets", {}).items()
            }
            results = {p: dict(r) for p, r in record.get("results", {}).items()}
            for player, settlement in settle_players(rules, outcome, bets).items():
                if player in results:
                    results[player]["settlement"] = settlement_json(settlement)
            out["results"] = results
    elif kind == "void":
        out["void"] = True
        out["void_reason"] = "typed"  # the supervisor's words (punto.table.reasons)
        out["void_reason_params"] = {"text": reason}
    players = set(original_net) | set(moved)
    out["net"] = {p: original_net.get(p, 0) + int(moved.get(p, 0)) for p in sorted(players)}
    out["corrections"] = dict(moved)
    out["amended"] = True
    return out


def roads_of(records: Iterable[Mapping[str, Any]]) -> RoadBoard:
    """The roads of a shoe from its hand records (by hand number): a void or blank hand,
    or one without a result, leaves no mark; a corrected hand marks its corrected
    winner [R]."""
    board = RoadBoard()
    for record in sorted(records, key=lambda r: _hand_number(r)):
        outcome = record.get("outcome")
        if record.get("void") or record.get("blank") or not outcome:
            continue
        board.add(RoadResult.from_outcome(outcome_from_json(outcome)))
    return board


def _hand_number(record: Mapping[str, Any]) -> int:
    return int(str(record["game"]).rsplit("-", 1)[1])
