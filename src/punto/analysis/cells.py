"""The cells of the analysis: the groups of coups no bet can tell apart (the totals, each
hand's number of cards and the pair class), with the facts each cell's coups share."""

from __future__ import annotations

from punto.bets import CoupFacts
from punto.tableau import is_natural

__all__ = ["CELLS", "CELL_FACTS", "cell_facts", "cell_index", "cell_of", "pair_class"]


_FLAGS = 5
"""Pair classes of the first four cards: none, Player pair, Banker pair, both pairs of
different ranks, both pairs of the same rank."""
CELLS = 10 * 10 * 2 * 2 * _FLAGS
"""Groups of coups that no bet can tell apart: Player total, Banker total, each hand's
number of cards and the pair class (a two-card hand's natural follows from its total)."""


def pair_class(p1: int, b1: int, p2: int, b2: int) -> int:
    """The pair class of the first four cards by their ranks (P1, B1, P2, B2): 0 none,
    1 a Player pair, 2 a Banker pair, 3 both pairs of different ranks, 4 both of the same
    rank (plain integers, so the compiled kernels call it too).

    >>> [pair_class(*ranks) for ranks in ((1, 2, 1, 3), (1, 2, 3, 2), (1, 2, 1, 2), (5, 5, 5, 5))]
    [1, 2, 3, 4]
    """
    player_pair = int(p1 == p2)
    banker_pair = int(b1 == b2)
    # Arithmetic, not branches: the shoe loop calls it for every hand.
    return player_pair + 2 * banker_pair + player_pair * banker_pair * int(p1 == b1)


def cell_of(
    player_total: int, banker_total: int, player_cards: int, banker_cards: int, flag: int
) -> int:
    """The cell index of a coup's totals, card counts and pair class (plain integers, so
    the compiled kernels call it too).

    >>> cell_of(0, 0, 2, 2, 0), cell_of(9, 9, 3, 3, 4) == CELLS - 1
    (0, True)
    """
    hands = ((player_total * 10 + banker_total) * 2 + player_cards - 2) * 2 + banker_cards - 2
    return hands * _FLAGS + flag


def _build_cell_facts() -> tuple[CoupFacts, ...]:
    facts: list[CoupFacts] = []
    for p_total in range(10):
        for b_total in range(10):
            for p_cards in (2, 3):
                for b_cards in (2, 3):
                    for flag in range(_FLAGS):
                        facts.append(
                            CoupFacts(
                                player_total=p_total,
                                banker_total=b_total,
                                player_cards=p_cards,
                                banker_cards=b_cards,
                                player_natural=p_cards == 2 and is_natural(p_total),
                                banker_natural=b_cards == 2 and is_natural(b_total),
                                player_pair=flag in (1, 3, 4),
                                banker_pair=flag in (2, 3, 4),
                                same_rank_pairs=flag == 4,
                            )
                        )
    return tuple(facts)


CELL_FACTS = _build_cell_facts()
"""The facts of every cell, by cell index."""


def cell_facts(cell: int) -> CoupFacts:
    """The facts every coup of a cell shares.

    >>> f = cell_facts(0)
    >>> (f.player_total, f.banker_total, f.player_cards, f.banker_cards, f.player_pair)
    (0, 0, 2, 2, False)
    """
    return CELL_FACTS[cell]


def cell_index(facts: CoupFacts) -> int:
    """The cell of a coup's facts (the inverse of :func:`cell_facts`).

    >>> all(cell_index(cell_facts(c)) == c for c in range(CELLS))
    True
    """
    if facts.player_pair and facts.banker_pair:
        flag = 4 if facts.same_rank_pairs else 3
    else:
        flag = 1 if facts.player_pair else 2 if facts.banker_pair else 0
    return cell_of(
        facts.player_total, facts.banker_total, facts.player_cards, facts.banker_cards, flag
    )
