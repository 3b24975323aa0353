"""A hand opened after a tie, as each viewer sees it [M12] (issue 11): the main bets a tie
left standing go back on the layout for every player who had them, and the
``betting_opened`` event carried all of them to every client. At a busy table a tie leaves
thousands standing, so that one event was a large frame for thousands of clients at the
moment betting opens. Like confirms (:data:`punto.server.fanout.protocol.COALESCED`), the dealer
and auditors now get every player's standing bets, a player their own, a spectator none;
everyone gets the table's totals in the ``bet_totals`` that follows. A player's changes to
their standing bets (``tie_bets_changed``) are coalesced the same way."""

from __future__ import annotations

import json
from types import MappingProxyType
from typing import Any

import pytest
from hub_support import seen_by_audience

from punto.bets import Bet
from punto.codec import event_json
from punto.server.fanout.envelopes import envelope_from_json
from punto.server.fanout.hub import event_texts
from punto.server.fanout.protocol import COALESCED, event_views, shown_to, standing_views
from punto.table.events import BettingOpened, Event, TieBetsChanged
from punto.table.records import GameNumber
from punto.tie_options import TieAction

GAME = GameNumber("t1", 1, 8)


def _opened(n: int) -> BettingOpened:
    standing = [("ann", MappingProxyType({Bet.BANKER: 2000}))]
    standing += [(f"p{k}", MappingProxyType({Bet.PLAYER: 100 * (k + 1)})) for k in range(n - 1)]
    return BettingOpened(
        at=10.0, game=GAME, closes_at=25.0, last_hand=False, standing=tuple(standing)
    )


def _json(event: Event | None) -> dict[str, Any]:
    assert event is not None
    return event_json(event)


def test_a_player_gets_their_own_standing_bets_and_a_spectator_none() -> None:
    event = _opened(3)
    mine = shown_to(event, "ann")
    assert isinstance(mine, BettingOpened)
    assert [player for player, _ in mine.standing] == ["ann"]
    for nobody in (None, "zoe"):  # a spectator; a player with nothing standing
        seen = shown_to(event, nobody)
        assert isinstance(seen, BettingOpened)
        assert seen.standing == ()
        assert (seen.game, seen.closes_at, seen.last_hand) == (GAME, 25.0, False)
    plain = BettingOpened(at=1.0, game=GAME, closes_at=2.0, last_hand=True, standing=())
    assert shown_to(plain, None) is plain  # nothing standing: the event as it is


def test_the_views_are_what_shown_to_gives_each_viewer() -> None:
    event = _opened(4)
    views = event_views(event)
    assert views == standing_views(event)
    assert views["auditor"] == views["dealer"] == event_json(event)
    assert len(views["dealer"]["standing"]) == 4
    assert views["watcher"] == _json(shown_to(event, None))
    assert set(views["own"]) == {"ann", "p0", "p1", "p2"}
    for player, view in views["own"].items():
        assert view == _json(shown_to(event, player))
    assert "self" not in views


def test_a_change_to_standing_bets_is_coalesced_like_a_confirm() -> None:
    assert TieBetsChanged in COALESCED
    change = TieBetsChanged(
        at=11.0,
        game=GAME,
        player="ann",
        action=TieAction.RAISE,
        bets=MappingProxyType({Bet.BANKER: 5000}),
        debited=3000,
        credited=0,
    )
    assert shown_to(change, "ann") is change
    assert shown_to(change, "bob") is None
    assert shown_to(change, None) is None


@pytest.mark.asyncio
async def test_each_connection_gets_its_own_standing_bets_at_a_table_of_thousands() -> None:
    event = _opened(2_500)
    everyone = len(event_texts("t1", 9, {"watcher": event_json(event)})["texts"]["watcher"] or "")
    assert everyone > 60_000  # what every client got before
    envelope = event_texts("t1", 9, event_views(event))
    seen, delivered = await seen_by_audience(envelope)
    for mine in (seen.ann, seen.ann_again):
        assert mine.event["standing"] == [["ann", {"banker": 2000}]]
    for other in (seen.zoe, seen.spectator):
        assert other.event["standing"] == []
        assert other.size < 250  # whatever the number of players
    for staff in (seen.dealer, seen.supervisor):
        assert len(staff.event["standing"]) == 2_500
        assert staff.size == everyone
    assert delivered == 6
    # between processes (Redis) the envelope keeps every player's text
    assert envelope_from_json(json.loads(json.dumps(envelope))) == envelope
