"""The facts of a hand's record that the ledger does not hold (the dealer, when betting
opened, the cards' times, who held them) are kept with the round's result [L]: read from
the hand's events after betting closed, they are what its record says; they survive the
JSON they are kept as; a record rebuilt after a crash carries them."""

from __future__ import annotations

import pytest
from table_support import close, make_table, open_round, seat

from punto.bets import Bet
from punto.cards import Card, parse_cards
from punto.codec import hand_facts_from_json, hand_facts_json, hand_record_json
from punto.coup import Position
from punto.errors import ProtocolError
from punto.ledger.store import RoundInfo, RoundStatus
from punto.outcome import Outcome, Side
from punto.server.money.bank import _kept_facts
from punto.table import Fault, HandFacts, Phase, Reading, hand_facts, hand_records
from punto.table.events import BettingClosed, BettingOpened, Event
from punto.table.records import GameNumber, recovered_record


def _a_squeezed_hand_dealt_twice() -> tuple[list[Event], int]:
    """A hand whose cards the largest bettors hold, dealt, corrected at once [M10] (dealt
    again from the same cards) and settled; the events and where betting closed."""
    table, clock = make_table("online_8deck", reading=Reading.LARGEST_BETTOR)
    for n, player in enumerate(("ann", "bob"), start=1):
        seat(table, player, n, balance=5_000_000)
    open_round(table, {"ann": {Bet.PLAYER: 40_000}, "bob": {Bet.BANKER: 20_000}})
    clock.advance(3.0)
    close(table, clock)
    for code in ("9S", "8D"):
        clock.advance(1.5)
        table.deal_card(Card.parse(code))
    clock.advance(2.0)
    table.report_fault(Fault.M10_MISDEAL_CORRECTED)
    for code in ("9S", "8D", "KH", "7C"):  # a Player natural 9 against 5 [M9]
        clock.advance(1.25)
        table.deal_card(Card.parse(code))
    while table.phase is Phase.SQUEEZE:
        table.reveal_cards()
    table.settle()
    events = list(table.events)
    closed = max(i for i, e in enumerate(events) if isinstance(e, BettingClosed))
    return events, closed


def test_the_facts_read_after_betting_closed_are_the_records() -> None:
    events, closed = _a_squeezed_hand_dealt_twice()
    (record,) = hand_records(events)
    opened = next(e for e in events if isinstance(e, BettingOpened))
    facts = hand_facts(
        record.game,
        events[closed:],
        dealer="Dana",
        opened_at=opened.at,
    )
    assert facts == HandFacts(
        dealer=record.dealer,
        opened_at=record.opened_at,
        card_times=record.card_times,
        holders=record.holders,
    )
    # the cards dealt again: their times are the second dealing's, one per card
    assert list(facts.card_times) == [
        Position.PLAYER_1,
        Position.BANKER_1,
        Position.PLAYER_2,
        Position.BANKER_2,
    ]
    times = list(facts.card_times.values())
    assert times == sorted(times)
    assert len(set(times)) == 4
    assert facts.holders[Side.PLAYER] == "ann"  # the largest bettor holds the cards
    # another hand's events add nothing
    other = hand_facts(GameNumber("T1", 9, 9), events, dealer="Dana", opened_at=0.0)
    assert other == HandFacts(dealer="Dana", opened_at=0.0)


def test_the_facts_survive_their_json_and_refuse_a_bad_one() -> None:
    facts = HandFacts(
        dealer="Dana",
        opened_at=12.5,
        card_times={Position.PLAYER_1: 14.0, Position.BANKER_1: 15.5},
        holders={Side.PLAYER: "ann"},
    )
    assert hand_facts_from_json(hand_facts_json(facts)) == facts
    assert hand_facts_from_json({}) == HandFacts()
    for bad in (
        {"card_times": [["Z9", 1.0]]},
        {"card_times": [["P1", "soon"]]},
        {"card_times": [["P1"]]},
        {"card_times": {"P1": 1.0}},
        {"holders": {"middle": "ann"}},
        {"holders": ["ann"]},
        {"holders": {"player": None}},
        {"opened_at": "yesterday"},
        {"opened_at": True},
        {"dealer": {"name": "Dana"}},
    ):
        with pytest.raises(ProtocolError):
            hand_facts_from_json(bad)


def test_a_rebuilt_record_carries_the_facts() -> None:
    coup = Outcome.from_hands(parse_cards("9S KH"), parse_cards("7H 8C"))
    facts = HandFacts(
        dealer="Dana",
        opened_at=10.0,
        card_times={Position.BANKER_1: 13.0, Position.PLAYER_1: 12.0},
        holders={Side.BANKER: "bob"},
    )
    game = GameNumber("T1", 1, 4)
    kept = recovered_record(
        game,
        opened_at=9.0,  # the ledger's own time for the round, less exact
        closed_at=20.0,
        outcome=coup,
        bets={"ann": {Bet.PLAYER: 500}},
        settlements=None,
        facts=facts,
    )
    data = hand_record_json(kept)
    assert (data["dealer"], data["opened_at"], data["holders"]) == ("Dana", 10.0, {"banker": "bob"})
    assert data["times"] == {"start": 10.0, "cards": [["P1", 12.0], ["B1", 13.0]], "end": 20.0}
    bare = recovered_record(
        game, opened_at=9.0, closed_at=20.0, outcome=coup, bets={}, settlements=None
    )
    assert (bare.dealer, bare.opened_at, bare.card_times, bare.holders) == ("", 9.0, {}, {})


def test_facts_that_cannot_be_read_are_left_out_of_a_rebuilt_record(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The facts are what a record shows, never the money: a result whose facts cannot
    be read still rebuilds its record (without them), and a warning says so."""
    facts = HandFacts(dealer="Dana", opened_at=1.0, card_times={Position.PLAYER_1: 2.0})

    def kept(result: dict[str, object] | None) -> HandFacts | None:
        return _kept_facts(RoundInfo("T1-001-001", "T1", RoundStatus.SETTLED, result))

    assert kept({"outcome": {}, "facts": hand_facts_json(facts)}) == facts
    assert kept({"outcome": {}}) is None  # kept before the facts were
    assert kept(None) is None
    for bad in ({"holders": ["ann"]}, "Dana", ["P1", 1.0]):
        assert kept({"outcome": {}, "facts": bad}) is None
    assert caplog.text.count("hand facts kept with the result unreadable") == 3
