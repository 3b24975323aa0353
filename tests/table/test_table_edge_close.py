"""[EZ-C] Side bets closed when the shoe turns: before each hand the table prices every
side bet it offers on the cards not yet seen and closes, for that hand, those whose house
edge is below the rules' threshold; a chip or a confirm on one is refused with the reason,
the bet areas say so, the closing is an event of the hand, and a fresh shoe reopens them.

The shoe is a live one fed naturals without a seven: after thirteen of them the cards left
favour Dragon 7 (its house edge falls from 7.6% to below zero), as late in a real shoe."""

from __future__ import annotations

import random

import pytest
from table_support import close, play, seat

from punto.analysis.closing import SideBetPricer, side_bets
from punto.analysis.composition import Composition
from punto.bets import Bet
from punto.cards import parse_cards
from punto.errors import BetClosedError, RulesError
from punto.limits import AreaLimit
from punto.rules import preset
from punto.rules_document import compose, rules_from_document, rules_to_document
from punto.server.fanout.protocol import error_params
from punto.table import ManualClock, Table, TableSettings
from punto.table.events import SideBetsClosed
from punto.table.kinds import Dealing

NATURALS: tuple[str, ...] = ("9S 8H KD KC", "4S 5H 4D 3C", "2S 6H 6D 2C", "AS QH 8D 8C")
NATURALS += ("JS 9H 8D QC", "TS 9H 9D TC", "KS QH 8D 9C")
"""Two-card hands without a seven (each a natural, so four cards a hand)."""
TURNS_AFTER = 13
"""Hands of :data:`NATURALS` after which Dragon 7 is player-favourable."""


def _table(threshold: float | None = 0.0) -> tuple[Table, ManualClock]:
    rules = compose("ez", {"close_below_edge": threshold})
    clock = ManualClock()
    settings = TableSettings(table_id="ez-1", rules=rules, dealing=Dealing.LIVE)
    table = Table(settings, clock=clock, rng=random.Random(5), dealer="Dana")
    table.start_shoe()
    seat(table, "ann", 1)
    return table, clock


def _deal_naturals(table: Table, clock: ManualClock, hands: int) -> None:
    for i in range(hands):
        play(table, clock, NATURALS[i % len(NATURALS)])


def _closings(table: Table) -> list[SideBetsClosed]:
    return [e for e in table.events if isinstance(e, SideBetsClosed)]


def test_ez_c_the_side_bets_of_a_table_are_every_bet_but_the_main_game() -> None:
    assert side_bets(preset("ez")) == (Bet.DRAGON7, Bet.PANDA8)
    assert Bet.TIE not in side_bets(preset("live_tiger"))
    assert len(side_bets(preset("online_8deck"))) == 16


def test_ez_c_the_pricer_agrees_with_the_exact_edge_and_closes_below_the_threshold() -> None:
    from punto.analysis.pricing import analyze

    rules = preset("ez").replace(close_below_edge=0.0761)
    fresh = Composition.fresh(8)
    exact = analyze(rules, fresh, bets=[Bet.DRAGON7, Bet.PANDA8])
    edges = SideBetPricer(rules).edges(fresh)
    assert edges == pytest.approx([float(exact.bets[b].house_edge) for b in exact.bets], abs=1e-12)
    # Dragon 7's edge on a fresh shoe is 7.611%: a threshold of 7.61% keeps it open
    assert SideBetPricer(rules).closed(fresh) == ()
    higher = SideBetPricer(rules.replace(close_below_edge=0.0762)).closed(fresh)
    assert [bet for bet, _ in higher] == [Bet.DRAGON7]


def test_ez_c_no_threshold_closes_nothing_and_tells_nothing() -> None:
    table, clock = _table(None)
    _deal_naturals(table, clock, TURNS_AFTER + 1)
    table.open_betting()
    assert _closings(table) == []
    table.choose_chip("ann", table.chips_of("ann")[0])
    assert table.can_add_chip("ann", Bet.DRAGON7)


def test_ez_c_dragon7_closes_when_the_shoe_turns_and_a_chip_on_it_is_refused() -> None:
    table, clock = _table(0.0)
    _deal_naturals(table, clock, TURNS_AFTER - 1)
    assert _closings(table) == []  # still the house's bet after twelve hands
    _deal_naturals(table, clock, 1)
    table.open_betting()
    (closing,) = _closings(table)
    assert closing.game == table.game
    assert closing.closed == (Bet.DRAGON7,)
    assert closing.reopened == ()
    assert closing.threshold == 0.0
    assert closing.edges[0] < 0
    expected = SideBetPricer(table.rules).edges(table.shoe.unseen)[0]  # type: ignore[union-attr]
    assert closing.edges[0] == expected
    table.choose_chip("ann", table.chips_of("ann")[0])
    with pytest.raises(BetClosedError, match=r"Dragon 7 is closed this hand.*\[EZ-C\]") as caught:
        table.add_chip("ann", Bet.DRAGON7)
    assert error_params(caught.value) == {
        "limit": "edge_closed",
        "bet": "dragon7",
        "value": round(closing.edges[0] * 1_000_000),
    }
    with pytest.raises(BetClosedError, match="Dragon 7"):
        table.confirm("ann", {Bet.DRAGON7: table.chips_of("ann")[0]})
    # Panda 8 and the main game deal on
    table.add_chip("ann", Bet.PANDA8)
    rooms = {room.bet: room for room in table.bet_rooms("ann")}
    assert rooms[Bet.DRAGON7].limit is AreaLimit.EDGE_CLOSED
    assert rooms[Bet.DRAGON7].room == 0
    assert rooms[Bet.PANDA8].limit is AreaLimit.MAX
    assert rooms[Bet.PANDA8].room > 0
    assert rooms[Bet.BANKER].limit is AreaLimit.MAX


def test_ez_c_the_closing_is_decided_again_each_hand_and_a_new_shoe_reopens_it() -> None:
    table, clock = _table(0.0)
    _deal_naturals(table, clock, TURNS_AFTER)
    table.open_betting()
    close(table, clock)
    from table_support import deal

    deal(table, NATURALS[TURNS_AFTER % len(NATURALS)])
    table.settle()
    table.open_betting()  # the cards left favour Dragon 7 still more
    assert [c.closed for c in _closings(table)] == [(Bet.DRAGON7,), (Bet.DRAGON7,)]
    table.close_betting()
    deal(table, NATURALS[(TURNS_AFTER + 1) % len(NATURALS)])
    table.settle()
    table.change_shoe()
    table.start_shoe()
    table.open_betting()
    last = _closings(table)[-1]
    assert last.closed == ()
    assert last.reopened == (Bet.DRAGON7,)
    table.choose_chip("ann", table.chips_of("ann")[0])
    table.add_chip("ann", Bet.DRAGON7)  # open again on a fresh shoe
    table.close_betting()
    play_next = NATURALS[0]
    deal(table, play_next)
    table.settle()
    table.open_betting()
    assert len(_closings(table)) == 3  # nothing closed, nothing reopened: no event


def test_ez_c_the_unseen_cards_are_the_shoe_less_the_cards_its_hands_showed() -> None:
    table, clock = _table(0.0)
    _deal_naturals(table, clock, 2)
    shown = parse_cards(NATURALS[0] + " " + NATURALS[1])
    assert table.shoe.unseen == Composition.fresh(8).removing(shown)  # type: ignore[union-attr]


def test_ez_c_the_threshold_is_a_validated_rules_setting_in_the_document() -> None:
    rules = compose("ez", {"close_below_edge": 0.005})
    doc = rules_to_document(rules)
    assert doc["close_below_edge"] == 0.005
    assert rules_from_document(doc) == rules
    del doc["close_below_edge"]  # a document stored before the setting: off
    assert rules_from_document(doc).close_below_edge is None
    for bad in ("0", True, 1.5, float("nan")):
        with pytest.raises(RulesError) as caught:
            compose("ez", {"close_below_edge": bad})
        assert caught.value.field == "close_below_edge"


def test_ez_a_banker_three_card_7_result_names_the_banker_push() -> None:
    from punto.table.events import HandResult

    table, clock = _table(None)
    play(table, clock, "KS 2H 6D 2C 3S")  # Player 6 stands; Banker 4 draws a 3: 7 beats 6
    play(table, clock, "KS 3H 6D 4C")  # Banker 7 on two cards: a win
    results = [e for e in table.events if isinstance(e, HandResult)]
    assert [r.pushes for r in results] == [(Bet.BANKER,), ()]
    assert results[0].outcome.winner.value == "banker"


def test_ez_c_an_rng_shoe_s_unseen_cards_follow_its_hands_and_a_shuffler_s_never_move() -> None:
    from punto.rules import BurnRule
    from punto.table.events import HandResult

    rng_rules = compose("ez", {"close_below_edge": 0.0})
    clock = ManualClock()
    table = Table(
        TableSettings(table_id="ez-2", rules=rng_rules), clock=clock, rng=random.Random(2)
    )
    table.start_shoe()
    for _ in range(5):
        play(table, clock)
    shown = [
        card
        for e in table.events
        if isinstance(e, HandResult)
        for card in (*e.outcome.player, *e.outcome.banker)
    ]
    assert table.shoe.unseen == Composition.fresh(8).removing(shown)  # type: ignore[union-attr]
    shuffler = rng_rules.replace(continuous_shuffler=True, burn=BurnRule.NONE)
    table = Table(TableSettings(table_id="ez-3", rules=shuffler), clock=clock, rng=random.Random(2))
    table.start_shoe()
    for _ in range(5):
        play(table, clock)
    assert table.shoe.unseen == Composition.fresh(8)  # type: ignore[union-attr]  # [M7.2]


def test_ez_c_a_rebet_of_a_bet_closed_this_hand_is_refused_with_the_reason() -> None:
    from table_support import place

    table, clock = _table(0.0)
    _deal_naturals(table, clock, TURNS_AFTER - 1)
    table.open_betting()
    place(table, "ann", {Bet.DRAGON7: 500})
    close(table, clock)
    from table_support import deal

    deal(table, NATURALS[(TURNS_AFTER - 1) % len(NATURALS)])
    table.settle()
    table.open_betting()  # Dragon 7 closed now
    assert not table.can_rebet("ann")
    with pytest.raises(BetClosedError, match="Dragon 7"):
        table.rebet("ann")
