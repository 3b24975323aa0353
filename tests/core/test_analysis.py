"""Exact analysis: compositions, the kernel against independent enumerations, effect of
removal and tracking."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from punto.analysis import (
    MAX_RANK_COUNT,
    Composition,
    analyze,
    analyze_bet,
    effect_of_removal,
    enumerate_coups,
    house_edges,
    reference_enumeration,
    track,
    track_events,
)
from punto.bets import Bet, CoupFacts
from punto.cards import RANKS, Card, Rank, Suit, parse_cards
from punto.coup import Coup
from punto.dealing import HandDealt, ShoeDealer
from punto.errors import CardNotInShoeError, CompositionError, PuntoError
from punto.paytables import paytable
from punto.rules import PRESETS, preset

# -- compositions ---------------------------------------------------------------------


def test_fresh_shoe_holds_four_cards_of_each_rank_per_deck() -> None:
    shoe = Composition.fresh(6)
    assert shoe.cards == 312
    assert all(shoe.count(rank) == 24 for rank in RANKS)
    assert shoe.value_counts() == (96,) + (24,) * 9


@pytest.mark.parametrize("decks", [0, 13, -1])
def test_fresh_refuses_a_deck_count_out_of_range(decks: int) -> None:
    with pytest.raises(CompositionError, match="decks must be 1-12"):
        Composition.fresh(decks)


def test_removing_a_card_the_shoe_cannot_hold_is_a_typed_error() -> None:
    with pytest.raises(CardNotInShoeError, match="AS was removed 2 times"):
        Composition.after_removing(parse_cards("AS AS"), decks=1)
    with pytest.raises(CardNotInShoeError, match="no A is left"):
        Composition.from_counts({Rank.KING: 10}).removing(parse_cards("AH"))
    assert issubclass(CardNotInShoeError, PuntoError)


def test_after_removing_counts_ranks() -> None:
    shoe = Composition.after_removing(parse_cards("KS KH 9D"), decks=8)
    assert shoe.count(Rank.KING) == 30
    assert shoe.count(Rank.NINE) == 31
    assert shoe.cards == 413


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A", "expected RANK=COUNT"),
        ("A=x", "expected RANK=COUNT"),
        ("Z=3", "unknown rank"),
        ("A=1,A=2", "given twice"),
        (f"K={MAX_RANK_COUNT + 1}", "0-48 cards of one rank"),
    ],
)
def test_parse_refuses_bad_lists(text: str, message: str) -> None:
    with pytest.raises(CompositionError, match=message):
        Composition.parse(text)


def test_parse_reads_ranks_and_tens() -> None:
    shoe = Composition.parse("A=3, 10=4,K=2")
    assert shoe.count(Rank.ACE) == 3
    assert shoe.count(Rank.TEN) == 4
    assert shoe.cards == 9
    assert Composition.parse(str(shoe)) == shoe


def test_from_counts_refuses_bad_counts() -> None:
    with pytest.raises(CompositionError, match="whole number"):
        Composition.from_counts({Rank.ACE: True})
    with pytest.raises(CompositionError, match="not a rank"):
        Composition.from_counts({"A": 3})  # type: ignore[dict-item]


def test_too_few_cards_cannot_be_analysed() -> None:
    with pytest.raises(CompositionError, match="a coup may need 6 cards"):
        enumerate_coups(Composition.from_counts({Rank.ACE: 5}))


# -- the kernel against independent enumerations --------------------------------------


def test_kernel_matches_plain_python_enumeration_on_a_depleted_shoe() -> None:
    shoe = Composition.parse("A=3,2=0,3=1,4=0,5=2,6=4,7=1,8=2,9=3,T=4,J=0,Q=2,K=1")
    assert enumerate_coups(shoe).facts() == reference_enumeration(shoe)


def _coup_engine_counts(counts: dict[Rank, int]) -> Counter[CoupFacts]:
    """Every ordered deal, card by card through punto.coup.Coup (the live engine)."""
    n = sum(counts.values())
    result: Counter[CoupFacts] = Counter()

    def deal(prefix: list[Card], weight: int) -> None:
        coup = Coup()
        for card in prefix:
            coup.deal(card)
        if coup.is_complete:
            result[CoupFacts.of(coup.outcome)] += weight * math.perm(
                n - len(prefix), 6 - len(prefix)
            )
            return
        for rank, left in counts.items():
            if left:
                counts[rank] -= 1
                deal([*prefix, Card(rank, Suit.SPADES)], weight * left)
                counts[rank] += 1

    deal([], 1)
    return result


def test_kernel_matches_the_coup_engine_card_by_card() -> None:
    counts = {Rank.ACE: 2, Rank.THREE: 2, Rank.FIVE: 1, Rank.SIX: 2, Rank.NINE: 1, Rank.KING: 3}
    shoe = Composition.from_counts(counts)
    assert enumerate_coups(shoe).facts() == dict(_coup_engine_counts(dict(counts)))


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=13, max_size=13).filter(lambda c: 6 <= sum(c) <= 9))
def test_kernel_matches_the_coup_engine_on_random_small_shoes(counts: list[int]) -> None:
    by_rank = {rank: n for rank, n in zip(RANKS, counts, strict=True) if n}
    shoe = Composition.from_counts(by_rank)
    assert enumerate_coups(shoe).facts() == dict(_coup_engine_counts(dict(by_rank)))


def test_one_deck_counts_are_ordered_six_card_draws() -> None:
    enumeration = enumerate_coups(Composition.fresh(1))
    assert enumeration.total == 52 * 51 * 50 * 49 * 48 * 47
    assert int(enumeration.weights.sum()) == enumeration.total


# -- bets -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_bet_is_priced_and_probabilities_sum_to_one(name: str) -> None:
    rules = preset(name)
    result = analyze(rules)
    assert set(result.bets) == set(rules.offered_bets)
    outcomes = result.outcomes
    assert outcomes.banker + outcomes.player + outcomes.tie == 1
    floats = house_edges(rules)
    for bet, figures in result.bets.items():
        assert sum(c.probability for c in figures.classes) == 1
        assert figures.rtp == 1 - figures.house_edge
        assert 0 < figures.hit_frequency < 1
        assert figures.variance > 0
        assert floats[bet] == pytest.approx(float(figures.house_edge), abs=1e-12)


def test_player_pair_probability_is_the_chance_of_two_equal_ranks() -> None:
    result = analyze_bet(Bet.PLAYER_PAIR, paytable("player_pair_11"), Composition.fresh(8))
    assert result.hit_frequency == Fraction(13 * 32 * 31, 416 * 415)
    assert result.house_edge == 1 - 12 * result.hit_frequency


def test_analysis_json_has_the_documented_keys() -> None:
    doc = analyze(preset("macau")).as_dict()
    outcomes = doc["outcomes"]
    assert isinstance(outcomes, dict)
    assert set(outcomes) == {"banker", "player", "tie"}
    bets = doc["bets"]
    assert isinstance(bets, dict)
    assert set(bets["banker"]) >= {"house_edge", "rtp", "std_dev", "hit_frequency"}


def test_a_bet_the_table_does_not_offer_is_refused() -> None:
    with pytest.raises(PuntoError, match="not offered"):
        analyze(preset("macau"), bets=[Bet.BIG_TIGER])


# -- effect of removal ----------------------------------------------------------------


def test_effects_of_removal_sum_to_zero_for_every_bet() -> None:
    eor = effect_of_removal(preset("live_tiger"))
    shoe = eor.composition
    for bet, effects in eor.effects.items():
        assert sum(shoe.count(rank) * value for rank, value in effects.items()) == 0, bet
    # Small cards help the Player side: removing a 4 raises the Player bet's house edge
    # and lowers the Banker's (a classic baccarat result).
    assert eor.effects[Bet.PLAYER][Rank.FOUR] > 0 > eor.effects[Bet.BANKER][Rank.FOUR]


def test_effects_of_removal_are_the_edge_after_removing_one_card() -> None:
    rules = preset("macau")
    eor = effect_of_removal(rules, bets=[Bet.TIE])
    after = analyze(rules, Composition.fresh(8).removing_rank(Rank.SEVEN), bets=[Bet.TIE])
    expected = after.bets[Bet.TIE].house_edge - eor.house_edges[Bet.TIE]
    assert eor.effects[Bet.TIE][Rank.SEVEN] == expected


# -- tracking -------------------------------------------------------------------------


def test_tracking_removes_each_hands_cards() -> None:
    rules = preset("macau")
    hands = [parse_cards("9S 8D KH 7C"), parse_cards("AS 2S 3S 4S 5S 6S")]
    points = track(rules, hands)
    assert [p.hand for p in points] == [0, 1, 2]
    assert [p.cards_left for p in points] == [416, 412, 406]
    expected = house_edges(rules, Composition.fresh(8).removing([*hands[0], *hands[1]]))
    assert points[2].house_edges == pytest.approx(expected)


def test_tracking_a_dealt_shoe_follows_the_dealer() -> None:
    rules = preset("live_tiger")
    dealer = ShoeDealer(rules, seed=11)
    events = list(dealer.deal_all())
    hands = [e for e in events if isinstance(e, HandDealt)]
    points = track_events(rules, events)
    assert len(points) == len(hands) + 1
    seen = sum(e.outcome.cards_used for e in hands)
    assert points[-1].cards_left == 416 - seen  # burned cards stay unseen
    with_burns = track_events(rules, events, include_burned=True)
    assert with_burns[-1].cards_left == points[-1].cards_left - rules.decks


def test_side_bets_turn_player_favourable_deep_in_a_rich_shoe() -> None:
    # A shoe rich in sixes and cards that make a Banker 6: Lucky 6 turns favourable.
    shoe = Composition.parse("6=20,T=10,K=10,3=5,A=5")
    point = track(preset("live_tiger"), [], start=shoe)[0]
    assert Bet.LUCKY6 in point.favourable
    assert Bet.BANKER not in point.favourable
