"""A settled hand as each viewer sees it (issue 11): the dealer and auditors get every
player's result; a player gets their own result and the hand's summary; a spectator the
summary only. At a table of thousands this keeps a settled hand a few hundred bytes for
each client (it was every player's result, megabytes, for every client)."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hub_support import seen_by_audience

from punto.bets import Bet
from punto.cards import parse_cards
from punto.codec import event_json
from punto.coup import deal_coup
from punto.errors import ProtocolError
from punto.outcome import Winner
from punto.rules import preset
from punto.server.fanout.envelopes import envelope_from_json
from punto.server.fanout.hub import event_texts
from punto.server.fanout.protocol import event_views, settled_views
from punto.server.store.storage import record_piece
from punto.settlement import Settler, settle
from punto.table.events import HandSettled
from punto.table.records import GameNumber, PlayerResult, freeze_bets
from punto.table.views import Viewer, project, settled_summary

GAME = GameNumber("t1", 1, 7)
RULES = preset("macau")
OUTCOME = deal_coup(parse_cards("9S 8D KH 7C"))  # Player natural 9 against 5 [M9]


def _result(player: str, bets: dict[Bet, int]) -> PlayerResult:
    settlement = settle(RULES, OUTCOME, bets)
    return PlayerResult(player, settlement, settlement.total_returned)


def _settled(n: int = 3) -> HandSettled:
    results = [_result("ann", {Bet.PLAYER: 2000}), _result("bob", {Bet.BANKER: 1000})]
    results += [_result(f"p{k}", {Bet.TIE: 100, Bet.PLAYER_PAIR: 100}) for k in range(n - 2)]
    return HandSettled(at=5.0, game=GAME, results=tuple(results), void_reason=None, last=False)


def test_the_outcome_is_a_player_win() -> None:
    assert OUTCOME.winner is Winner.PLAYER


def test_a_player_sees_their_own_result_and_a_spectator_none() -> None:
    event = _settled()
    (mine,) = project([event], Viewer.PLAYER, "ann")
    assert isinstance(mine, HandSettled)
    assert [r.player for r in mine.results] == ["ann"]
    (seen,) = project([event], Viewer.WATCHER)
    assert isinstance(seen, HandSettled)
    assert seen.results == ()
    (stranger,) = project([event], Viewer.PLAYER, "zoe")  # bet nothing: sees no result
    assert isinstance(stranger, HandSettled)
    assert stranger.results == ()
    for viewer in (Viewer.DEALER, Viewer.AUDITOR):
        assert project([event], viewer) == (event,)


def test_the_summary_names_the_areas_a_settlement_paid() -> None:
    summary = settled_summary(_settled(4))
    assert summary.players == 4
    assert summary.areas_won == (Bet.PLAYER,)  # banker, tie and the pair lost
    standing = PlayerResult("cy", settle(RULES, OUTCOME, {}), 0, freeze_bets({Bet.BANKER: 5}))
    empty = HandSettled(at=0.0, game=GAME, results=(standing,), void_reason=None, last=False)
    assert settled_summary(empty).areas_won == ()


def test_the_views_are_the_projections_with_the_summary() -> None:
    event = _settled(5)
    views = event_views(event)
    assert views == settled_views(event)
    summary = {"players": 5, "areas_won": ["player"]}
    assert views["auditor"] == views["dealer"] == event_json(event)
    watcher = project([event], Viewer.WATCHER)[0]
    assert views["watcher"] == {**event_json(watcher), "summary": summary}
    assert set(views["own"]) == {r.player for r in event.results}
    for r in event.results:
        shown = project([event], Viewer.PLAYER, r.player)[0]
        assert views["own"][r.player] == {**event_json(shown), "summary": summary}
    assert "self" not in views  # no one player: each has their own


def _decoded(data: object) -> Any:
    return orjson.loads(orjson.dumps(data))


def test_results_encoded_once_read_as_the_plain_views() -> None:
    """The server's views carry each result encoded once (``piece``), for the player, the
    dealer and the hand's record alike; decoded, they are the plain views. Players with
    the same bets share one settlement (as a table settles them) and its text."""
    settler = Settler(RULES, OUTCOME)
    bets = [{Bet.PLAYER: 2000}, {Bet.TIE: 100, Bet.PLAYER_PAIR: 100}, {Bet.PLAYER: 2000}]
    results = []
    for k, mine in enumerate(bets):
        settlement = settler.settle(mine)
        results.append(PlayerResult(f"p{k}", settlement, settlement.total_returned))
    event = HandSettled(at=5.0, game=GAME, results=tuple(results), void_reason=None, last=False)
    assert results[0].settlement is results[2].settlement
    made: list[object] = []

    def piece(data: object) -> object:
        made.append(data)
        return record_piece(data)  # type: ignore[arg-type]

    views = event_views(event, piece=piece)
    assert _decoded(views) == _decoded(event_views(event))
    assert len(made) == 2 + 3  # two different settlements, three results
    first, _, third = _decoded(views["auditor"]["results"])
    assert first["settlement"] == third["settlement"]
    texts = event_texts("t1", 9, views)
    plain = event_texts("t1", 9, event_views(event))
    assert json.loads(texts["texts"]["dealer"] or "") == json.loads(plain["texts"]["dealer"] or "")
    assert {p: json.loads(t) for p, t in texts["own"].items()} == {
        p: json.loads(t) for p, t in plain["own"].items()
    }


@pytest.mark.asyncio
async def test_each_connection_gets_its_own_view_of_a_settled_hand() -> None:
    event = _settled(2_500)
    envelope = event_texts("t1", 9, event_views(event))
    seen, delivered = await seen_by_audience(envelope)
    for mine in (seen.ann, seen.ann_again):
        assert [r["player"] for r in mine.event["results"]] == ["ann"]
        assert mine.event["summary"] == {"players": 2_500, "areas_won": ["player"]}
    for other in (seen.zoe, seen.spectator):
        assert other.event["results"] == []
        assert other.size < 300  # whatever the number of players
    for staff in (seen.dealer, seen.supervisor):
        assert len(staff.event["results"]) == 2_500
    assert delivered == 6
    # between processes (Redis) the envelope keeps every player's text
    assert envelope_from_json(json.loads(json.dumps(envelope))) == envelope


def test_an_envelope_whose_own_texts_are_not_texts_is_refused() -> None:
    data = {"table": "t1", "seq": 1, "texts": {}, "player": None, "own": {"ann": 5}}
    with pytest.raises(ProtocolError, match="own maps players"):
        envelope_from_json(data)
