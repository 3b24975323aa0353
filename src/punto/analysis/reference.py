"""The plain reference enumeration: the kernel's counts by pure Python, for the tests and
the benchmark."""

from __future__ import annotations

import math
from collections import Counter

from punto.analysis.composition import MIN_CARDS, Composition
from punto.bets import CoupFacts
from punto.cards import RANKS
from punto.errors import CompositionError
from punto.tableau import banker_takes_third, hand_total, is_natural, player_takes_third

__all__ = ["reference_enumeration"]


def reference_enumeration(composition: Composition) -> dict[CoupFacts, int]:
    """The same counts as :func:`enumerate_coups`, by a plain pure-Python enumeration.

    It shares nothing with the compiled kernel but the tableau's steps and
    :class:`~punto.bets.CoupFacts`; the tests use it to check the kernel and the
    benchmark to measure the kernel's speed-up. Slow: seconds per composition.
    """
    if composition.cards < MIN_CARDS:
        raise CompositionError(f"a shoe of {composition.cards} cards cannot be analysed")
    ranks = [rank for rank in RANKS if composition.count(rank)]
    left = dict(zip(RANKS, composition.counts, strict=True))
    values_left = list(composition.value_counts())
    n = composition.cards
    result: Counter[CoupFacts] = Counter()

    def finish(
        player: list[int], banker: list[int], pairs: tuple[bool, bool, bool], w: int
    ) -> None:
        p_two = hand_total(player[:2])
        b_two = hand_total(banker[:2])
        facts = CoupFacts(
            player_total=hand_total(player),
            banker_total=hand_total(banker),
            player_cards=len(player),
            banker_cards=len(banker),
            player_natural=is_natural(p_two),
            banker_natural=is_natural(b_two),
            player_pair=pairs[0],
            banker_pair=pairs[1],
            same_rank_pairs=pairs[2],
        )
        unused = MIN_CARDS - len(player) - len(banker)
        result[facts] += w * math.perm(n - len(player) - len(banker), unused)

    def thirds(
        player: list[int], banker: list[int], pairs: tuple[bool, bool, bool], w: int
    ) -> None:
        p_two = hand_total(player)
        b_two = hand_total(banker)
        if player_takes_third(p_two, b_two):
            for v5 in range(10):
                a = values_left[v5]
                if not a:
                    continue
                values_left[v5] -= 1
                if banker_takes_third(p_two, b_two, v5):
                    for v6 in range(10):
                        if values_left[v6]:
                            finish([*player, v5], [*banker, v6], pairs, w * a * values_left[v6])
                else:
                    finish([*player, v5], banker, pairs, w * a)
                values_left[v5] += 1
        elif banker_takes_third(p_two, b_two, None):
            for v6 in range(10):
                if values_left[v6]:
                    finish(player, [*banker, v6], pairs, w * values_left[v6])
        else:
            finish(player, banker, pairs, w)

    for p1 in ranks:
        for b1 in ranks:
            for p2 in ranks:
                for b2 in ranks:
                    w = 1
                    for rank in (p1, b1, p2, b2):
                        w *= left[rank]
                        left[rank] -= 1
                        values_left[rank.value_points] -= 1
                    if w:
                        pairs = (p1 == p2, b1 == b2, p1 == p2 and b1 == b2 and p1 == b1)
                        player = [p1.value_points, p2.value_points]
                        banker = [b1.value_points, b2.value_points]
                        thirds(player, banker, pairs, w)
                    for rank in (p1, b1, p2, b2):
                        left[rank] += 1
                        values_left[rank.value_points] += 1
    return dict(result)
