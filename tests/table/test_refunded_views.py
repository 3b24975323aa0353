"""A refund as each viewer sees it: the dealer and auditors get every player's refund; a
player gets their own refund and the refund's summary; a spectator the summary only. At
a table of thousands a void hand's refund stays a few hundred bytes for each client (it
was every player's refund, about a megabyte, for every client). What left the layout is
the event's own ``everyone`` [M10], [M12]."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hub_support import seen_by_audience
from table_support import close, make_table, open_round, play, seat

from punto.bets import Bet
from punto.cards import parse_cards
from punto.codec import event_json
from punto.server.fanout.envelopes import envelope_from_json
from punto.server.fanout.hub import dumps, event_texts
from punto.server.fanout.protocol import event_views, refunded_views
from punto.settlement import refund
from punto.table import Fault, Table
from punto.table.events import BetsRefunded, PlayerLeft
from punto.table.reasons import Reason, Why
from punto.table.records import GameNumber, PlayerResult, freeze_bets
from punto.table.views import Viewer, project, refunded_summary

GAME = GameNumber("t1", 1, 7)
VOID = Why(Reason.FAULT, {"fault": Fault.M10_MISDEAL_VOID.value, "rule": "M10"})


def _refund(player: str, bets: dict[Bet, int]) -> PlayerResult:
    back = refund(freeze_bets(bets))
    return PlayerResult(player, back, back.total_returned)


def _refunded(n: int = 3) -> BetsRefunded:
    refunds = [_refund("ann", {Bet.PLAYER: 2000}), _refund("bob", {Bet.BANKER: 1000})]
    refunds += [_refund(f"p{k}", {Bet.TIE: 100, Bet.PLAYER_PAIR: 100}) for k in range(n - 2)]
    return BetsRefunded(at=5.0, game=GAME, refunds=tuple(refunds), reason=VOID, everyone=True)


def _events(table: Table, since: int, kind: type) -> list[Any]:
    return [e for e in table.events[since:] if isinstance(e, kind)]


def test_m10_a_void_refunds_everyone_and_leaves_no_bet_on_the_layout() -> None:
    table, clock = make_table()
    for player, seat_no in (("ann", 1), ("bob", 2), ("cy", 3)):
        seat(table, player, seat_no)
    open_round(table, {"ann": {Bet.PLAYER: 10_000}, "bob": {Bet.BANKER: 5_000}})
    close(table, clock)
    for card in parse_cards("4S 7H"):
        table.deal_card(card)
    since = len(table.events)
    table.report_fault(Fault.M10_MISDEAL_VOID)
    (refunded,) = _events(table, since, BetsRefunded)
    assert refunded.everyone
    assert sorted(r.player for r in refunded.refunds) == ["ann", "bob"]
    assert all(not table.bets(p) for p in ("ann", "bob", "cy"))  # what everyone means


def test_m12_a_removed_players_refund_is_theirs_alone_and_their_leave_follows() -> None:
    table, clock = make_table("macau")  # a tie's main bets stand and may be taken back
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    play(table, clock, "4S 4H 3S 3H", {"ann": {Bet.BANKER: 10_000}, "bob": {Bet.PLAYER: 5_000}})
    since = len(table.events)
    table.leave("ann")
    refunded, left = table.events[since:]
    assert isinstance(refunded, BetsRefunded)
    assert isinstance(left, PlayerLeft)
    assert not refunded.everyone
    assert [r.player for r in refunded.refunds] == [left.player] == ["ann"]
    assert dict(table.bets("bob")) == {Bet.PLAYER: 5_000}  # the others' bets stay


def test_a_player_sees_their_own_refund_and_a_spectator_none() -> None:
    event = _refunded()
    (mine,) = project([event], Viewer.PLAYER, "ann")
    assert isinstance(mine, BetsRefunded)
    assert [r.player for r in mine.refunds] == ["ann"]
    assert mine.everyone
    (seen,) = project([event], Viewer.WATCHER)
    assert isinstance(seen, BetsRefunded)
    assert seen.refunds == ()
    assert seen.everyone  # the layout is cleared without the list
    (stranger,) = project([event], Viewer.PLAYER, "zoe")  # bet nothing: sees no refund
    assert isinstance(stranger, BetsRefunded)
    assert stranger.refunds == ()
    for viewer in (Viewer.DEALER, Viewer.AUDITOR):
        assert project([event], viewer) == (event,)


def test_the_summary_counts_the_players_refunded() -> None:
    assert refunded_summary(_refunded(4)).players == 4
    alone = BetsRefunded(
        at=0.0,
        game=None,
        refunds=(_refund("ann", {Bet.BANKER: 5}),),
        reason=Why(Reason.LEFT),
        everyone=False,
    )
    assert refunded_summary(alone).players == 1


def test_the_views_are_the_projections_with_the_summary() -> None:
    event = _refunded(5)
    views = event_views(event)
    assert views == refunded_views(event)
    summary = {"players": 5}
    assert views["auditor"] == views["dealer"] == event_json(event)
    watcher = project([event], Viewer.WATCHER)[0]
    assert views["watcher"] == {**event_json(watcher), "summary": summary}
    assert set(views["own"]) == {r.player for r in event.refunds}
    for r in event.refunds:
        shown = project([event], Viewer.PLAYER, r.player)[0]
        assert views["own"][r.player] == {**event_json(shown), "summary": summary}
    assert "self" not in views  # no one player: each has their own


@pytest.mark.asyncio
async def test_each_connection_gets_its_own_view_of_a_refund_of_2500_players() -> None:
    event = _refunded(2_500)
    # what each client got when everyone saw every refund (the dealer's text now)
    everything = len(dumps({"type": "event", "table": "t1", "seq": 9, "event": event_json(event)}))
    assert everything > 500_000
    envelope = event_texts("t1", 9, event_views(event))
    seen, delivered = await seen_by_audience(envelope)
    for mine in (seen.ann, seen.ann_again):
        assert [r["player"] for r in mine.event["refunds"]] == ["ann"]
        assert mine.event["summary"] == {"players": 2_500}
        assert mine.size < 600
    for other in (seen.zoe, seen.spectator):
        assert other.event["refunds"] == []
        assert other.event["everyone"] is True
        assert other.size < 300  # whatever the number of players
    for staff in (seen.dealer, seen.supervisor):
        assert len(staff.event["refunds"]) == 2_500
        assert staff.size == everything
    assert delivered == 6
    # between processes (Redis) the envelope keeps every player's text
    assert envelope_from_json(json.loads(json.dumps(envelope))) == envelope
