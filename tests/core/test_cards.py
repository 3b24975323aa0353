"""Cards: baccarat values [M5], card codes and the deck [M1]."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from punto.cards import DECK_SIZE, RANKS, SUITS, Card, Rank, Suit, deck, parse_cards
from punto.errors import CardError, PuntoError


@pytest.mark.parametrize(
    ("rank", "value"),
    [
        (Rank.ACE, 1),
        (Rank.TWO, 2),
        (Rank.THREE, 3),
        (Rank.FOUR, 4),
        (Rank.FIVE, 5),
        (Rank.SIX, 6),
        (Rank.SEVEN, 7),
        (Rank.EIGHT, 8),
        (Rank.NINE, 9),
        (Rank.TEN, 0),
        (Rank.JACK, 0),
        (Rank.QUEEN, 0),
        (Rank.KING, 0),
    ],
)
def test_m5_card_value(rank: Rank, value: int) -> None:
    assert rank.value_points == value
    for suit in SUITS:
        assert Card(rank, suit).value == value


def test_m5_ten_and_faces_count_zero_ace_one() -> None:
    assert [c.value for c in parse_cards("TS JH QD KC AS")] == [0, 0, 0, 0, 1]


@pytest.mark.parametrize(
    ("code", "rank", "suit"),
    [
        ("AS", Rank.ACE, Suit.SPADES),
        ("TD", Rank.TEN, Suit.DIAMONDS),
        ("10D", Rank.TEN, Suit.DIAMONDS),
        ("KH", Rank.KING, Suit.HEARTS),
        ("9C", Rank.NINE, Suit.CLUBS),
        ("JH", Rank.JACK, Suit.HEARTS),
        ("QS", Rank.QUEEN, Suit.SPADES),
        ("2C", Rank.TWO, Suit.CLUBS),
    ],
)
def test_card_code_parses(code: str, rank: Rank, suit: Suit) -> None:
    assert Card.parse(code) == Card(rank, suit)


@pytest.mark.parametrize(
    ("code", "expected"), [("as", "AS"), ("td", "TD"), ("10d", "TD"), ("kH", "KH")]
)
def test_card_code_is_case_insensitive(code: str, expected: str) -> None:
    assert Card.parse(code).code == expected


def test_card_code_surrounding_blanks_are_ignored() -> None:
    assert Card.parse("  9C\n") == Card(Rank.NINE, Suit.CLUBS)


def test_card_code_round_trips_with_ten_written_t() -> None:
    for card in deck():
        assert Card.parse(card.code) == card
        assert str(card) == card.code
        assert repr(card) == f"Card({card.code!r})"
    assert Card.parse("10H").code == "TH"


@pytest.mark.parametrize(
    "code",
    ["", "A", "ZZ", "1S", "11S", "AX", "ASX", "10", "0D", "KK", "100D", "A S", "1 0D", "S A", "♠A"],
)
def test_bad_card_code_gives_card_error_naming_the_code(code: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(code)
    assert repr(code) in str(info.value)
    assert isinstance(info.value, PuntoError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("code", [5, None, ("A", "S")])
def test_a_card_code_that_is_not_text_gives_card_error_naming_it(code: object) -> None:
    with pytest.raises(CardError, match=re.escape(f"bad card code {code!r}")):
        Card.parse(code)  # type: ignore[arg-type]
    with pytest.raises(CardError, match=re.escape(f"bad card code {code!r}")):
        parse_cards(["AS", code])  # type: ignore[list-item]
    with pytest.raises(CardError, match=re.escape(f"unknown rank {code!r}")):
        Rank.parse(code)  # type: ignore[arg-type]


def test_bad_rank_gives_card_error_naming_it() -> None:
    with pytest.raises(CardError, match="'Z'"):
        Rank.parse("Z")


def test_parse_cards_reads_blanks_and_commas() -> None:
    assert parse_cards("AS,TD 10h\n kc") == [
        Card(Rank.ACE, Suit.SPADES),
        Card(Rank.TEN, Suit.DIAMONDS),
        Card(Rank.TEN, Suit.HEARTS),
        Card(Rank.KING, Suit.CLUBS),
    ]
    assert parse_cards(["9c", "10S"]) == [Card(Rank.NINE, Suit.CLUBS), Card(Rank.TEN, Suit.SPADES)]
    assert parse_cards("") == []


def test_parse_cards_names_the_bad_code() -> None:
    with pytest.raises(CardError, match="'XX'"):
        parse_cards("AS XX KD")


def test_m1_deck_holds_52_distinct_cards() -> None:
    cards = list(deck())
    assert len(cards) == DECK_SIZE == 52
    assert len(set(cards)) == 52
    assert Counter(c.rank for c in cards) == dict.fromkeys(RANKS, 4)
    assert Counter(c.suit for c in cards) == dict.fromkeys(SUITS, 13)


def test_m5_deck_values_sixteen_zeros_and_four_of_each_pip() -> None:
    counts = Counter(c.value for c in deck())
    assert counts == {0: 16, **dict.fromkeys(range(1, 10), 4)}


def test_deck_order_is_suit_by_suit_ace_to_king() -> None:
    cards = list(deck())
    assert cards[0] == Card.parse("AS")
    assert cards[12] == Card.parse("KS")
    assert cards[13] == Card.parse("AH")
    assert cards[-1] == Card.parse("KC")


def test_cards_are_frozen_and_hashable() -> None:
    card = Card.parse("AS")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING  # type: ignore[misc]
    assert {card, Card.parse("as")} == {card}


def test_cards_sort_by_rank_then_suit() -> None:
    # Card declares an order: it must hold for cards of the same rank too.
    shuffled = [Card.parse(code) for code in ["KC", "AH", "AS", "2D", "KS", "AC"]]
    assert [c.code for c in sorted(shuffled)] == ["AS", "AH", "AC", "2D", "KS", "KC"]
    ordered = sorted(deck())
    assert [c.code for c in ordered[:5]] == ["AS", "AH", "AD", "AC", "2S"]
    assert ordered[-1] == Card.parse("KC")
