"""The drawing rules [M9], written once, as a table.

No choice is ever allowed: the two-card totals (and the Player's third card,
when there is one) decide every draw.

>>> player_draws(5), player_draws(6)
(True, False)
>>> banker_draws(3, player_third=8), banker_draws(3, player_third=9)
(False, True)
>>> banker_draws(5, player_third=None)
True

The steps of a coup after its first four cards are two questions, each of the two-card
totals: does the Player take a third card (:func:`player_takes_third`), and then does the
Banker (:func:`banker_takes_third`, given the Player's third card or ``None``)? A natural
on either side answers both with no. Compiled loops read the same answers from
:data:`PLAYER_TAKES_THIRD` and :data:`BANKER_TAKES_THIRD`.

>>> player_takes_third(4, 9), player_takes_third(4, 7)
(False, True)
>>> banker_takes_third(4, 3, 8), BANKER_TAKES_THIRD[4][3][STOOD]
(False, True)
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = [
    "BANKER_DRAWS_ON_PLAYER_THIRD",
    "BANKER_TAKES_THIRD",
    "NATURAL_TOTALS",
    "PLAYER_DRAWS_ON",
    "PLAYER_TAKES_THIRD",
    "STAND_ALONE_BANKER_DRAWS_ON",
    "STOOD",
    "banker_draws",
    "banker_takes_third",
    "hand_total",
    "is_natural",
    "player_draws",
    "player_takes_third",
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


def player_takes_third(player_two: int, banker_two: int) -> bool:
    """The first step after four cards [M9]: whether the Player draws a third card, given
    both two-card totals (never on a natural of either hand)."""
    if is_natural(player_two) or is_natural(banker_two):
        return False
    return player_draws(player_two)


def banker_takes_third(player_two: int, banker_two: int, player_third: int | None) -> bool:
    """The second step [M9]: whether the Banker draws a third card, given both two-card
    totals and the value of the Player's third card (``None``: the Player stood; never on
    a natural of either hand)."""
    if is_natural(player_two) or is_natural(banker_two):
        return False
    return banker_draws(banker_two, player_third=player_third)


STOOD = 10
"""The index of :data:`BANKER_TAKES_THIRD`'s last axis meaning the Player stood."""

PLAYER_TAKES_THIRD: tuple[tuple[bool, ...], ...] = tuple(
    tuple(player_takes_third(p, b) for b in range(10)) for p in range(10)
)
"""[M9] :func:`player_takes_third` as a table: ``[Player's two-card total][Banker's]``."""

BANKER_TAKES_THIRD: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
    tuple(
        tuple(banker_takes_third(p, b, None if v == STOOD else v) for v in range(STOOD + 1))
        for b in range(10)
    )
    for p in range(10)
)
"""[M9] :func:`banker_takes_third` as a table: ``[Player's two-card total][Banker's]
[value of the Player's third card, or STOOD]``."""
