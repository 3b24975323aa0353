"""The compiled shoe loop: its tableau is the [M9] table read off the coup machine, its
shuffle a uniform permutation."""

from __future__ import annotations

import numpy as np
import pytest

from punto.analysis import cell_index
from punto.bets import CoupFacts
from punto.cards import RANKS, Card, Suit
from punto.coup import deal_coup
from punto.shoeloop import (
    BANKER_DRAWS,
    PLAYER_DRAWS,
    STAND,
    TABLEAU,
    _coup_jit,
    ordered_shoe,
    private,
    shuffle,
    tableau,
)
from punto.simulation import stream_states
from punto.tableau import banker_draws, is_natural, player_draws


def test_m9_the_kernels_tableau_is_the_drawing_rules() -> None:
    t = tableau()
    for player in range(10):
        for banker in range(10):
            if is_natural(player) or is_natural(banker):
                expected = STAND
            elif player_draws(player):
                expected = PLAYER_DRAWS
            elif banker_draws(banker, player_third=None):
                expected = BANKER_DRAWS
            else:
                expected = STAND
            assert t.opening[player, banker] == expected, (player, banker)
    for banker in range(8):
        for third in range(10):
            assert t.banker_on_third[banker, third] == banker_draws(banker, player_third=third)
    assert [int(v) for v in t.values] == [rank.value_points for rank in RANKS]


def test_the_kernels_tableau_cannot_be_changed() -> None:
    with pytest.raises(ValueError, match="read-only"):
        TABLEAU.opening[0, 0] = STAND


def _ranks_of_totals(total: int) -> tuple[int, int]:
    """Two rank indices (0 = ace … 12 = king) of different ranks making ``total``."""
    return (9, total - 1) if total else (9, 12)  # a ten and a card, or ten and king


def test_m9_one_lookup_deals_the_coup_the_coup_machine_deals() -> None:
    # Every two-card totals and fifth/sixth card values, dealt by Coup and by the table.
    for key in range(10_000):
        player, banker, fifth, sixth = key // 1000, key // 100 % 10, key // 10 % 10, key % 10
        p1, p2 = _ranks_of_totals(player)
        b1, b2 = _ranks_of_totals(banker)
        ranks = [p1, b1, p2, b2, (fifth - 1) % 10, (sixth - 1) % 10]
        cards = [Card(RANKS[r], Suit.SPADES) for r in ranks]
        outcome = deal_coup(cards)
        found = int(TABLEAU.outcome[key])
        shoe = np.array(ranks, dtype=np.uint8)
        cell, pos = _coup_jit(shoe, 0, TABLEAU)
        assert cell == cell_index(CoupFacts.of(outcome)), key
        assert pos == outcome.cards_used == 4 + (found & 3), key


def test_the_shuffle_is_a_uniform_permutation() -> None:
    # All 24 orders of four cards, 48,000 shuffles: each order 2,000 times, give or take
    # the noise (a fixed seed: the same counts every run).
    state = stream_states(3, 0, 1)[0].copy()
    counts: dict[tuple[int, ...], int] = {}
    cards = np.arange(4, dtype=np.uint8)
    for _ in range(48_000):
        shuffle(state, cards, 4)
        order = tuple(int(c) for c in cards)
        counts[order] = counts.get(order, 0) + 1
    assert len(counts) == 24
    chi_square = sum((n - 2000) ** 2 / 2000 for n in counts.values())
    assert chi_square < 49.7  # the 0.1% point of chi-square with 23 degrees of freedom


def test_a_shuffle_keeps_every_card_and_a_partial_one_only_draws_its_positions() -> None:
    state = stream_states(4, 0, 1)[0].copy()
    cards = ordered_shoe(8)
    shuffle(state, cards, cards.shape[0])
    assert sorted(cards.tolist()) == sorted(i % 13 for i in range(8 * 52))
    before = cards.copy()
    shuffle(state, cards, 6)
    assert sorted(cards.tolist()) == sorted(before.tolist())


def test_a_private_copy_has_the_values_and_its_own_memory() -> None:
    source = np.arange(5, dtype=np.int64)
    own = private(source)
    assert own.tolist() == [0, 1, 2, 3, 4]
    assert not np.shares_memory(own, source)
