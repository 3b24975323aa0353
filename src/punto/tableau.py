"""The drawing rules [M9], written once, as a table.

No choice is ever allowed: the two-card totals (and the Player's third card,
when there is one) decide every draw.

>>> player_draws(5), player_draws(6)
(True, False)
>>> banker_draws(3, player_third=8), banker_draws(3, player_third=9)
(False, True)
>>> banker_draws(5, player_third=None)
True
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = [
    "BANKER_DRAWS_ON_PLAYER_THIRD",
    "NATURAL_TOTALS",
    "PLAYER_DRAWS_ON",
    "STAND_ALONE_BANKER_DRAWS_ON",
    "banker_draws",
    "hand_total",
    "is_natural",
    "player_draws",
]

NATURAL_TOTALS = frozenset({8, 9})
"""Two-card totals that are a natural: both hands stand [M9]."""

PLAYER_DRAWS_ON = frozenset(range(6))
"""Player's two-card totals on which it draws (0-5); it stands on 6-7 [M9]."""

STAND_ALONE_BANKER_DRAWS_ON = frozenset(range(6))
"""Banker's totals on which it draws when the Player stood (0-5) [M9]."""

BANKER_DRAWS_ON_PLAYER_THIRD: MappingProxyType[int, frozenset[int]] = MappingProxyType(
    {
        # Banker total: values of the Player's third card on which Banker draws [M9].
        0: frozenset(range(10)),
        1: frozenset(range(10)),
        2: frozenset(range(10)),
        3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),
        4: frozenset({2, 3, 4, 5, 6, 7}),
        5: frozenset({4, 5, 6, 7}),
        6: frozenset({6, 7}),
        7: frozenset(),
    }
)
"""[M9] table: Banker's two-card total -> Player third-card values on which Banker draws."""


def hand_total(values: list[int] | tuple[int, ...]) -> int:
    """A hand's total: the sum of its card values modulo 10 [M5].

    >>> hand_total((4, 2, 6)), hand_total((5, 6, 8)), hand_total((7, 3)), hand_total((0, 0, 0))
    (2, 9, 0, 0)
    """
    return sum(values) % 10


def is_natural(total: int) -> bool:
    """Whether a two-card total is a natural (8 or 9) [M9]."""
    return total in NATURAL_TOTALS


def player_draws(total: int) -> bool:
    """Whether the Player draws a third card on this two-card total (no natural on board)."""
    return total in PLAYER_DRAWS_ON


def banker_draws(total: int, *, player_third: int | None) -> bool:
    """Whether the Banker draws on ``total``, given the Player's third-card value or ``None``.

    Assumes neither hand holds a natural.
    """
    if player_third is None:
        return total in STAND_ALONE_BANKER_DRAWS_ON
    return player_third in BANKER_DRAWS_ON_PLAYER_THIRD.get(total, frozenset())
