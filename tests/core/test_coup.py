"""The coup state machine: dealing order [M7], the tableau [M9], refusals [S8], pairs [M13]."""

from __future__ import annotations

import dataclasses

import pytest
from coup_support import COUP_KEYS
from hypothesis import given, settings
from hypothesis import strategies as st

from punto.cards import Card, deck, parse_cards
from punto.coup import CardDealt, Coup, Position, deal_coup
from punto.errors import CoupError, IncompleteCoupError, PuntoError, TableauError
from punto.outcome import Outcome, Side, Winner

P1, B1, P2, B2, P3, B3 = (
    Position.PLAYER_1,
    Position.BANKER_1,
    Position.PLAYER_2,
    Position.BANKER_2,
    Position.PLAYER_3,
    Position.BANKER_3,
)


def dealt(codes: str) -> Coup:
    """A coup with the given cards dealt in shoe order."""
    coup = Coup()
    for card in parse_cards(codes):
        coup.deal(card)
    return coup


# -- [M7] dealing order ------------------------------------------------------------------


def test_m7_first_four_cards_go_p1_b1_p2_b2() -> None:
    coup = Coup()
    seen = []
    for card in parse_cards("4S 7H KD 8C"):
        seen.append(coup.next_position)
        coup.deal(card)
    assert seen == [P1, B1, P2, B2]
    assert coup.player_cards == tuple(parse_cards("4S KD"))
    assert coup.banker_cards == tuple(parse_cards("7H 8C"))


def test_m7_player_third_then_banker_third() -> None:
    # Player 4 draws a 5; Banker 5 draws when the Player's third card is 5.
    coup = dealt("4S 7H KD 8C")
    assert coup.next_position is P3
    assert coup.deal(Card.parse("5S")).position is P3
    assert coup.next_position is B3
    assert coup.deal(Card.parse("2D")).position is B3
    assert coup.next_position is None
    assert [e.position for e in coup.events] == [P1, B1, P2, B2, P3, B3]


def test_m7_banker_third_when_player_stood() -> None:
    coup = dealt("6S 2H KD AC")  # Player 6 stands, Banker 3 draws
    assert coup.next_position is B3
    coup.deal(Card.parse("9D"))
    assert coup.is_complete
    assert [e.position for e in coup.events] == [P1, B1, P2, B2, B3]


def test_m7_at_most_three_cards_a_hand() -> None:
    coup = dealt("AS KH AD KC 2S 5H")
    assert coup.is_complete
    assert len(coup.player_cards) == len(coup.banker_cards) == 3


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(list(deck())), min_size=6, max_size=6))
def test_m7_positions_follow_the_dealing_order(cards: list[Card]) -> None:
    coup = Coup()
    for card in cards:
        if coup.is_complete:
            break
        coup.deal(card)
    positions = tuple(e.position for e in coup.events)
    assert positions in {
        (P1, B1, P2, B2),
        (P1, B1, P2, B2, P3),
        (P1, B1, P2, B2, B3),
        (P1, B1, P2, B2, P3, B3),
    }
    assert tuple(e.card for e in coup.events) == tuple(cards[: len(positions)])
    assert coup.outcome == deal_coup(cards)


def test_position_sides_and_labels() -> None:
    assert [p.value for p in Position] == ["P1", "B1", "P2", "B2", "P3", "B3"]
    assert [p.side for p in Position] == [Side.PLAYER, Side.BANKER] * 3
    assert P1.label == "Player's first card"
    assert B2.label == "Banker's second card"
    assert P3.label == "Player's third card"


# -- explicit positions --------------------------------------------------------------------


def test_deal_with_the_expected_position_is_accepted() -> None:
    coup = Coup()
    for position, card in zip([P1, B1, P2, B2, P3], parse_cards("4S 7H KD 8C 5S"), strict=True):
        event = coup.deal(card, position)
        assert event == CardDealt(position, card)
    assert coup.events[-1] == CardDealt(P3, Card.parse("5S"))


@pytest.mark.parametrize("wrong", [B1, P2, B2, P3, B3])
def test_s8_card_for_a_position_out_of_order_is_refused(wrong: Position) -> None:
    coup = Coup()
    card = Card.parse("4S")
    assert not coup.can_deal(card, wrong)
    with pytest.raises(TableauError, match=wrong.label):
        coup.deal(card, wrong)
    assert coup.events == ()
    assert coup.can_deal(card, P1)


# -- [S8] cards against the tableau --------------------------------------------------------


@pytest.mark.parametrize(
    "codes",
    ["9S 2H KD KC", "2S 8H KD KC", "4S 4H 4D 4C", "9S 9H KD KC"],
    ids=["player_9", "banker_8", "both_8", "both_9"],
)
@pytest.mark.parametrize("position", [None, P3, B3])
def test_s8_no_third_card_after_a_natural(codes: str, position: Position | None) -> None:
    coup = dealt(codes)
    card = Card.parse("5D")
    assert coup.is_complete
    assert not coup.can_deal(card, position)
    with pytest.raises(TableauError, match="complete"):
        coup.deal(card, position)
    assert len(coup.events) == 4


def test_s8_banker_third_refused_when_player_third_is_due() -> None:
    coup = dealt("4S 2H KD KC")  # Player 4 must draw first
    with pytest.raises(TableauError, match="Player's third card") as info:
        coup.deal(Card.parse("5D"), B3)
    assert "Banker's third card" in str(info.value)
    assert "Player draws on 4" in str(info.value)
    assert coup.next_position is P3


def test_s8_player_third_refused_when_player_stands() -> None:
    coup = dealt("7S 2H KD KC")  # Player 7 stands; Banker 2 draws
    with pytest.raises(TableauError, match="Player's third card"):
        coup.deal(Card.parse("5D"), P3)
    assert coup.next_position is B3


def test_s8_banker_third_refused_when_banker_stands() -> None:
    coup = dealt("4S 7H KD KC 5D")  # Banker 7 stands
    assert coup.is_complete
    with pytest.raises(TableauError):
        coup.deal(Card.parse("2C"), B3)


@pytest.mark.parametrize(
    "codes",
    ["6S 7H KD KC", "6S 2H KD KC 3D", "2S 7H KD KC 3D", "AS KH AD KC 2S 5H"],
    ids=["both_stand", "banker_drew", "player_drew", "both_drew"],
)
def test_s8_any_card_after_completion_is_refused(codes: str) -> None:
    coup = dealt(codes)
    assert coup.is_complete
    before = coup.events
    for position in [None, *Position]:
        assert not coup.can_deal(Card.parse("9C"), position)
        with pytest.raises(TableauError):
            coup.deal(Card.parse("9C"), position)
    assert coup.events == before


def test_tableau_error_is_a_coup_error_and_a_value_error() -> None:
    assert issubclass(TableauError, CoupError)
    assert issubclass(IncompleteCoupError, CoupError)
    assert issubclass(CoupError, PuntoError)
    assert issubclass(CoupError, ValueError)


def test_a_non_card_is_refused() -> None:
    coup = Coup()
    assert not coup.can_deal("AS")  # type: ignore[arg-type]
    with pytest.raises(CoupError, match="not a card"):
        coup.deal("AS")  # type: ignore[arg-type]


# -- incomplete coups ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "missing"),
    [
        ("", "Player's first card"),
        ("4S", "Banker's first card"),
        ("4S 7H", "Player's second card"),
        ("4S 7H KD", "Banker's second card"),
        ("4S 7H KD 8C", "Player's third card"),
        ("4S 7H KD 8C 5S", "Banker's third card"),
        ("6S 2H KD KC", "Banker's third card"),
    ],
)
def test_outcome_of_an_incomplete_coup_names_the_missing_position(codes: str, missing: str) -> None:
    coup = dealt(codes)
    with pytest.raises(IncompleteCoupError, match=f"the {missing} is missing"):
        _ = coup.outcome
    with pytest.raises(IncompleteCoupError, match=f"the {missing} is missing"):
        deal_coup(parse_cards(codes))


def test_deal_coup_leaves_extra_cards_unread() -> None:
    outcome = deal_coup(parse_cards("9S 8D KH 7C 2C 3C 4C"))
    assert outcome.cards_used == 4
    assert outcome.player == tuple(parse_cards("9S KH"))
    assert outcome.banker == tuple(parse_cards("8D 7C"))


def test_deal_coup_reads_no_card_past_the_coup() -> None:
    source = iter(parse_cards("6S 7H KD KC 9C"))
    deal_coup(source)
    assert next(source) == Card.parse("9C")


# -- guidance ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "guidance"),
    [
        ("", "deal the Player's first card"),
        ("4S", "deal the Banker's first card"),
        ("4S 7H", "deal the Player's second card"),
        ("4S 7H KD", "deal the Banker's second card"),
        ("4S 7H KD 8C", "Player draws on 4"),
        ("4S 7H KD 8C 5S", "Banker draws on 5 when the Player's third card is 5"),
        ("4S 7H KD 8C 8S", "Banker stands on 5 when the Player's third card is 8"),
        ("4S 7H KD 8C 5S 2D", "coup complete"),
        ("9S 7H KD 8C", "natural: Player has 9, both stand"),
        ("2S 8H KD KC", "natural: Banker has 8, both stand"),
        ("6S 2H KD AC", "Player stands on 6; Banker draws on 3"),
        ("6S 2H KD AC 9D", "coup complete"),
        ("7S 6H KD KC", "Player stands on 7; Banker stands on 6"),
    ],
)
def test_guidance_says_why_the_next_card_goes_where_it_goes(codes: str, guidance: str) -> None:
    assert dealt(codes).guidance == guidance


def test_running_totals() -> None:
    coup = dealt("4S 7H KD 8C 5S")
    assert (coup.player_total, coup.banker_total) == (9, 5)


# -- [M13] pairs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "player_pair", "banker_pair"),
    [
        ("JS QH JD QC", True, True),  # J-J and Q-Q
        ("JS QH QD JC", False, False),  # J-Q: both worth 0, not a pair
        ("TS KH KD TC", False, False),  # T-K
        ("7S 7H 7D 9C", True, False),
        ("6S 3H 6D 3C 4S 2S", True, True),  # pairs are the first two cards only
        ("AS 2H 3D 4C AD 4S", False, False),  # a third card never makes a pair
    ],
)
def test_m13_pair_is_the_first_two_cards_of_the_same_rank(
    codes: str, player_pair: bool, banker_pair: bool
) -> None:
    outcome = deal_coup(parse_cards(codes + " 2S 3S"))  # extra cards for the third draws
    assert (outcome.player_pair, outcome.banker_pair) == (player_pair, banker_pair)


# -- events and outcome ------------------------------------------------------------------


def test_events_are_frozen_and_the_record_is_a_copy() -> None:
    coup = Coup()
    event = coup.deal(Card.parse("AS"))
    assert coup.events == (event,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.card = Card.parse("KD")  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.position = B1  # type: ignore[misc]
    assert isinstance(coup.events, tuple)
    assert coup.events[0].card == Card.parse("AS")


def test_outcome_is_frozen() -> None:
    outcome = deal_coup(parse_cards("9S 8D KH 7C"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.winner = Winner.BANKER  # type: ignore[misc]


def test_outcome_as_dict_has_the_documented_keys() -> None:
    outcome = deal_coup(parse_cards("9S 8D KH 7C"))
    assert list(outcome.as_dict()) == COUP_KEYS
    assert outcome.as_dict() == {
        "player": ["9S", "KH"],
        "banker": ["8D", "7C"],
        "player_total": 9,
        "banker_total": 5,
        "winner": "player",
        "natural": True,
        "player_pair": False,
        "banker_pair": False,
        "cards_used": 4,
    }


@pytest.mark.parametrize(
    ("codes", "winner", "winning_total"),
    [
        ("9S 8D KH 7C", Winner.PLAYER, 9),
        ("7S 6D KH KC", Winner.PLAYER, 7),
        ("6S 7D KH KC", Winner.BANKER, 7),
        ("7S 7D KH KC", Winner.TIE, 7),
    ],
)
def test_m11_m12_winner_and_winning_total(codes: str, winner: Winner, winning_total: int) -> None:
    outcome = deal_coup(parse_cards(codes))
    assert outcome.winner is winner
    assert outcome.winning_total == winning_total


def test_outcome_from_hands_matches_the_coup() -> None:
    coup = dealt("4S 7H KD 8C 5S 2D")
    assert coup.outcome == Outcome.from_hands(coup.player_cards, coup.banker_cards)
    assert coup.outcome.cards_used == 6
