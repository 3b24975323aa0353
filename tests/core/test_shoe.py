"""The shoe: composition [M1], cut card [M2], burns, reshuffling [M7.2] and commitment."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from punto.cards import DECK_SIZE, RANKS, Card, deck, parse_cards
from punto.errors import CardError, ShoeError, ShoeExhaustedError
from punto.shoe import Shoe, ShoeReveal, commitment_of, verify_commitment

DECKS = st.integers(min_value=1, max_value=12)
SEEDS = st.integers(min_value=0, max_value=2**64)


def full_shoe(decks: int) -> Counter[Card]:
    """Every card ``decks`` times."""
    return Counter(dict.fromkeys(deck(), decks))


def draw_all(shoe: Shoe) -> list[Card]:
    return [shoe.draw() for _ in range(shoe.remaining)]


def ordered_shoe(decks: int = 1, *, cut_index: int | None = None) -> Shoe:
    """A shoe of whole decks in ``deck()`` order, with a fixed salt."""
    cards = [card for _ in range(decks) for card in deck()]
    return Shoe(cards, cut_index=cut_index, decks=decks, salt="00")


# -- [M1] composition ------------------------------------------------------------------------


@settings(max_examples=30, deadline=None, derandomize=True)
@given(decks=DECKS, seed=SEEDS)
def test_m1_shuffled_shoe_never_deals_a_card_more_often_than_its_decks_hold(
    decks: int, seed: int
) -> None:
    shoe = Shoe.shuffled(decks=decks, cut_from_end=(0, 0), seed=seed)
    assert len(shoe) == shoe.remaining == decks * DECK_SIZE
    assert shoe.decks == decks
    cards = draw_all(shoe)
    assert Counter(cards) == full_shoe(decks)
    assert max(Counter(cards).values()) == decks
    with pytest.raises(ShoeExhaustedError):
        shoe.draw()


@settings(max_examples=40, deadline=None, derandomize=True)
@given(decks=DECKS, seed=SEEDS, data=st.data())
def test_m1_composition_is_conserved_dealt_plus_remaining(
    decks: int, seed: int, data: st.DataObject
) -> None:
    shoe = Shoe.shuffled(decks=decks, seed=seed)
    n = len(shoe)
    taken = data.draw(st.integers(min_value=0, max_value=n), label="taken")
    burned = data.draw(st.integers(min_value=0, max_value=n - taken), label="burned")
    dealt = [shoe.draw() for _ in range(taken)]
    dealt += shoe.burn(burned)
    assert shoe.dealt == taken + burned == len(dealt)
    assert shoe.remaining == n - taken - burned
    dealt_ranks = Counter(card.rank for card in dealt)
    assert dealt_ranks + shoe.remaining_ranks() == Counter(dict.fromkeys(RANKS, 4 * decks))
    shoe.close()
    order = shoe.reveal().order
    assert list(order[: len(dealt)]) == dealt
    assert Counter(order) == full_shoe(decks)


@pytest.mark.parametrize("decks", range(1, 13))
def test_m1_one_to_twelve_decks(decks: int) -> None:
    shoe = Shoe.shuffled(decks=decks, seed=decks)
    assert len(shoe) == 52 * decks
    assert Counter(draw_all(shoe)) == full_shoe(decks)


# -- seeds and random sources --------------------------------------------------------------


@settings(max_examples=25, deadline=None, derandomize=True)
@given(decks=DECKS, seed=SEEDS)
def test_a_seed_reproduces_a_shoe(decks: int, seed: int) -> None:
    first = Shoe.shuffled(decks=decks, cut_from_end=(10, 20), seed=seed)
    second = Shoe.shuffled(decks=decks, cut_from_end=(10, 20), seed=seed)
    assert first.cut_index == second.cut_index
    assert first.commitment == second.commitment
    assert draw_all(first) == draw_all(second)
    first.close()
    second.close()
    assert first.reveal() == second.reveal()
    assert first.reveal().salt == second.reveal().salt


def test_different_seeds_give_different_shoes() -> None:
    one = Shoe.shuffled(decks=8, seed=1)
    two = Shoe.shuffled(decks=8, seed=2)
    assert one.commitment != two.commitment
    assert draw_all(one) != draw_all(two)


def test_an_injected_rng_is_the_same_as_its_seed() -> None:
    by_seed = Shoe.shuffled(decks=2, seed=99)
    by_rng = Shoe.shuffled(decks=2, rng=random.Random(99))
    assert by_seed.commitment == by_rng.commitment
    assert by_seed.cut_index == by_rng.cut_index


def test_unseeded_shoes_differ() -> None:
    # secrets.SystemRandom by default: two shoes agree with chance 1/(416!).
    assert Shoe.shuffled(decks=8).commitment != Shoe.shuffled(decks=8).commitment


def test_rng_and_seed_together_are_refused() -> None:
    with pytest.raises(ShoeError, match="either an rng or a seed"):
        Shoe.shuffled(decks=1, rng=random.Random(1), seed=1)


# -- a shoe built from a given order -------------------------------------------------------


def test_shoe_from_a_given_order_deals_it_in_order() -> None:
    cards = parse_cards("9S 8D KH KC 2C")
    shoe = Shoe(cards)
    assert len(shoe) == 5
    assert shoe.decks is None
    assert shoe.cut_index == 5
    assert draw_all(shoe) == cards


def test_m1_whole_decks_in_any_order_are_accepted() -> None:
    cards = [card for _ in range(3) for card in deck()]
    random.Random(4).shuffle(cards)
    shoe = Shoe(cards, decks=3)
    assert shoe.decks == 3
    assert Counter(draw_all(shoe)) == full_shoe(3)


def test_m1_a_missing_card_is_rejected() -> None:
    cards = list(deck())[1:]
    with pytest.raises(CardError, match="52 cards, not 51"):
        Shoe(cards, decks=1)


def test_m1_a_duplicated_card_is_rejected() -> None:
    cards = list(deck())
    cards[-1] = cards[0]  # two aces of spades, no king of clubs
    with pytest.raises(CardError, match="AS appears 2 times"):
        Shoe(cards, decks=1)


def test_m1_a_card_three_times_in_two_decks_is_rejected() -> None:
    cards = list(deck()) * 2
    cards[-1] = Card.parse("5H")
    with pytest.raises(CardError, match="5H appears 3 times in a 2-deck shoe"):
        Shoe(cards, decks=2)


def test_m1_wrong_number_of_decks_is_rejected() -> None:
    with pytest.raises(CardError, match="a 2-deck shoe holds 104 cards, not 52"):
        Shoe(list(deck()), decks=2)


@pytest.mark.parametrize("decks", [0, 13, -1, 100])
def test_m1_a_shuffled_shoe_outside_1_to_12_decks_is_refused(decks: int) -> None:
    with pytest.raises(ShoeError, match=rf"^a shoe holds 1-12 decks, not {decks}$"):
        Shoe.shuffled(decks=decks, cut_from_end=(0, 0), seed=1)


def test_m1_a_given_order_of_13_decks_is_refused() -> None:
    with pytest.raises(ShoeError, match="1-12 decks"):
        Shoe(list(deck()) * 13, decks=13)


@pytest.mark.parametrize("decks", [True, 8.0, "8"])
def test_m1_the_number_of_decks_must_be_a_whole_number(decks: object) -> None:
    with pytest.raises(ShoeError, match="must be a whole number"):
        Shoe.shuffled(decks=decks, seed=1)  # type: ignore[arg-type]
    with pytest.raises(ShoeError, match="must be a whole number"):
        Shoe(list(deck()), decks=decks)  # type: ignore[arg-type]


def test_a_non_card_is_rejected() -> None:
    with pytest.raises(CardError, match="not a card"):
        Shoe(["AS", "KD"])  # type: ignore[list-item]


def test_an_empty_shoe_is_rejected() -> None:
    with pytest.raises(ShoeError, match="at least one card"):
        Shoe([])


# -- [M2] cut card ---------------------------------------------------------------------------


@settings(max_examples=50, deadline=None, derandomize=True)
@given(decks=st.integers(min_value=1, max_value=8), seed=SEEDS, data=st.data())
def test_m2_cut_card_lies_within_its_range_from_the_end(
    decks: int, seed: int, data: st.DataObject
) -> None:
    n = 52 * decks
    low = data.draw(st.integers(min_value=0, max_value=n - 1), label="low")
    high = data.draw(st.integers(min_value=low, max_value=n - 1), label="high")
    shoe = Shoe.shuffled(decks=decks, cut_from_end=(low, high), seed=seed)
    assert n - high <= shoe.cut_index <= n - low
    for _ in range(shoe.cut_index):
        assert not shoe.cut_card_out
        shoe.draw()
    assert shoe.cut_card_out


def test_m2_cut_card_comes_out_once_cut_index_cards_are_taken() -> None:
    shoe = ordered_shoe(cut_index=40)
    shoe.burn(39)
    assert not shoe.cut_card_out
    shoe.draw()
    assert shoe.cut_card_out
    assert shoe.dealt == 40


def test_m2_fixed_cut_card_distance() -> None:
    shoe = Shoe.shuffled(decks=8, cut_from_end=(14, 14), seed=3)
    assert shoe.cut_index == 416 - 14


def test_m2_cut_card_at_the_front_is_out_at_once() -> None:
    assert ordered_shoe(cut_index=0).cut_card_out


@pytest.mark.parametrize("cut_from_end", [(5, 4), (-1, 3), (0, 52), (60, 70)])
def test_m2_cut_card_range_that_does_not_fit_is_refused(cut_from_end: tuple[int, int]) -> None:
    with pytest.raises(ShoeError, match="cut card range"):
        Shoe.shuffled(decks=1, cut_from_end=cut_from_end, seed=1)


@pytest.mark.parametrize("cut_index", [-1, 53])
def test_m2_cut_card_outside_the_shoe_is_refused(cut_index: int) -> None:
    with pytest.raises(ShoeError, match="outside a shoe of 52 cards"):
        ordered_shoe(cut_index=cut_index)


# -- burns and closing -----------------------------------------------------------------------


def test_burn_takes_the_next_cards() -> None:
    shoe = ordered_shoe()
    assert shoe.burn(3) == tuple(parse_cards("AS 2S 3S"))
    assert shoe.burn(0) == ()
    assert shoe.draw() == Card.parse("4S")
    assert shoe.dealt == 4


def test_burn_of_a_negative_count_is_refused() -> None:
    with pytest.raises(ShoeError, match="negative"):
        ordered_shoe().burn(-1)


def test_burn_past_the_end_is_refused() -> None:
    shoe = ordered_shoe()
    shoe.burn(50)
    with pytest.raises(ShoeExhaustedError, match="cannot burn 3 cards: 2 left"):
        shoe.burn(3)
    assert shoe.remaining == 2


def test_a_closed_shoe_deals_nothing() -> None:
    shoe = ordered_shoe()
    shoe.close()
    assert shoe.closed
    with pytest.raises(ShoeError, match="closed"):
        shoe.draw()


# -- [M7.2] continuous shuffler --------------------------------------------------------------


def test_m7_2_return_and_reshuffle_gives_a_full_shoe() -> None:
    shoe = Shoe.shuffled(decks=1, cut_from_end=(0, 0), seed=5)
    shoe.burn(20)
    shoe.return_and_reshuffle()
    assert shoe.dealt == 0
    assert shoe.remaining == 52
    assert Counter(draw_all(shoe)) == full_shoe(1)


def test_m7_2_a_fixed_order_cannot_be_reshuffled() -> None:
    shoe = ordered_shoe()
    assert not shoe.can_reshuffle
    shoe.draw()
    with pytest.raises(ShoeError, match="cannot be reshuffled"):
        shoe.return_and_reshuffle()
    assert shoe.dealt == 1  # nothing changed


def test_m7_2_a_shuffled_shoe_can_be_reshuffled() -> None:
    assert Shoe.shuffled(decks=1, cut_from_end=(0, 0), seed=5).can_reshuffle
    assert Shoe.shuffled(decks=1, cut_from_end=(0, 0), rng=random.Random(5)).can_reshuffle


# -- commitment ------------------------------------------------------------------------------


def test_commitment_is_published_before_and_revealed_only_after_close() -> None:
    shoe = Shoe.shuffled(decks=1, seed=11)
    published = shoe.commitment
    with pytest.raises(ShoeError, match="only after its last hand"):
        shoe.reveal()
    draw_all(shoe)
    assert shoe.commitment == published  # dealing does not change what was committed
    with pytest.raises(ShoeError):
        shoe.reveal()
    shoe.close()
    assert verify_commitment(published, shoe.reveal())


def test_commitment_is_sha256_of_salt_and_codes() -> None:
    shoe = Shoe(parse_cards("AS KD"), salt="00")
    assert shoe.commitment == commitment_of(parse_cards("AS KD"), "00")
    assert shoe.commitment.startswith("9392d9aca094c2ba")
    assert len(shoe.commitment) == 64
    shoe.close()
    reveal = shoe.reveal()
    assert reveal == ShoeReveal(tuple(parse_cards("AS KD")), "00")
    assert reveal.order_text == "AS KD"


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=SEEDS, data=st.data())
def test_commitment_verifies_the_real_order_and_not_a_tampered_one(
    seed: int, data: st.DataObject
) -> None:
    shoe = Shoe.shuffled(decks=1, seed=seed)
    published = shoe.commitment
    shoe.close()
    reveal = shoe.reveal()
    assert verify_commitment(published, reveal)
    i = data.draw(st.integers(min_value=0, max_value=51), label="i")
    j = data.draw(st.integers(min_value=0, max_value=51).filter(lambda k: k != i), label="j")
    order = list(reveal.order)
    order[i], order[j] = order[j], order[i]  # all 52 cards differ: a real change
    assert not verify_commitment(published, ShoeReveal(tuple(order), reveal.salt))
    assert not verify_commitment(published, ShoeReveal(reveal.order, reveal.salt + "0"))
    assert not verify_commitment(published, ShoeReveal(reveal.order[:-1], reveal.salt))


def test_a_given_shoe_gets_a_random_salt() -> None:
    cards = list(deck())
    assert Shoe(cards).commitment != Shoe(cards).commitment


@pytest.mark.parametrize(
    ("commitment", "salt"),
    [("é" * 64, None), (None, "sé"), ("", None), ("0" * 64, None)],
    ids=["non_ascii_commitment", "non_ascii_salt", "empty_commitment", "zero_commitment"],
)
def test_a_tampered_commitment_or_salt_answers_false_never_raises(
    commitment: str | None, salt: str | None
) -> None:
    shoe = Shoe(parse_cards("AS KD"), salt="00")
    published = shoe.commitment
    shoe.close()
    reveal = shoe.reveal()
    tampered = ShoeReveal(reveal.order, salt if salt is not None else reveal.salt)
    assert not verify_commitment(commitment if commitment is not None else published, tampered)
