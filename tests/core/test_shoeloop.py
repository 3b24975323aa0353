"""The compiled shoe loop's tableau: read off the coup machine, it is the [M9] table."""

from __future__ import annotations

import pytest

from punto.cards import RANKS
from punto.shoeloop import BANKER_DRAWS, PLAYER_DRAWS, STAND, TABLEAU, tableau
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
