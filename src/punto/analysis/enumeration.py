"""The enumeration: every coup a composition can deal, counted as ordered six-card draws
into cells by a compiled kernel that reads the third-card steps of :mod:`punto.tableau`
[M9] as lookup arrays.

The kernel's counts are ``int64`` and cannot overflow: every count is a number of ordered
six-card draws, at most ``P(N, 6)`` for ``N`` cards, and a composition holds at most
``MAX_RANK_COUNT × 13 = 624`` cards, so every count is below ``624**6 < 6·10**16``, far
under ``2**63``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from numba import njit

from punto.analysis.cells import CELL_FACTS, CELLS, cell_of, pair_class
from punto.analysis.composition import MIN_CARDS, Composition
from punto.bets import CoupFacts
from punto.cards import RANKS
from punto.errors import CompositionError
from punto.tableau import (
    BANKER_TAKES_THIRD,
    PLAYER_TAKES_THIRD,
    STOOD,
)

__all__ = ["STOOD", "Enumeration", "draw_arrays", "enumerate_coups"]


_RANK_VALUES = np.array([rank.value_points for rank in RANKS], dtype=np.int64)


def draw_arrays() -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """The third-card steps of :mod:`punto.tableau` [M9] as lookup arrays for compiled
    loops: ``player_takes[p, b]`` (:data:`~punto.tableau.PLAYER_TAKES_THIRD`) and
    ``banker_takes[p, b, v]`` (:data:`~punto.tableau.BANKER_TAKES_THIRD`), where ``p`` and
    ``b`` are the two-card totals and ``v`` the value of the Player's third card or
    :data:`STOOD`. A natural answers both with no, so a loop needs no rule of its own.

    >>> player_takes, banker_takes = draw_arrays()
    >>> bool(player_takes[5, 3]), bool(player_takes[5, 8]), bool(banker_takes[0, 3, 8])
    (True, False, False)
    >>> bool(banker_takes[6, 5, STOOD]), bool(banker_takes[7, 6, STOOD])
    (True, False)
    """
    player_takes = np.array(PLAYER_TAKES_THIRD, dtype=np.bool_)
    banker_takes = np.array(BANKER_TAKES_THIRD, dtype=np.bool_)
    player_takes.flags.writeable = False
    banker_takes.flags.writeable = False
    return player_takes, banker_takes


_PLAYER_TAKES, _BANKER_TAKES = draw_arrays()


_pair_class_jit = njit(cache=True, inline="always")(pair_class)
_cell_of_jit = njit(cache=True, inline="always")(cell_of)


def _first_four(
    counts: npt.NDArray[np.int64], values: npt.NDArray[np.int64], out: npt.NDArray[np.int64]
) -> None:
    """Ordered ways to deal P1, B1, P2, B2 [M7] at rank level, by the four values and the
    pair class (out: [P1 value, B1 value, P2 value, B2 value, class])."""
    c = counts.copy()
    for r1 in range(13):
        a = c[r1]
        if a == 0:
            continue
        c[r1] -= 1
        for r2 in range(13):
            b = c[r2]
            if b == 0:
                continue
            c[r2] -= 1
            ab = a * b
            for r3 in range(13):
                d = c[r3]
                if d == 0:
                    continue
                c[r3] -= 1
                abd = ab * d
                for r4 in range(13):
                    e = c[r4]
                    if e == 0:
                        continue
                    flag = _pair_class_jit(r1, r2, r3, r4)
                    out[values[r1], values[r2], values[r3], values[r4], flag] += abd * e
                c[r3] += 1
            c[r2] += 1
        c[r1] += 1


def _add(
    out: npt.NDArray[np.int64],
    four: npt.NDArray[np.int64],
    p_total: int,
    b_total: int,
    p_cards: int,
    b_cards: int,
    tail: int,
) -> None:
    base = _cell_of_jit(p_total, b_total, p_cards, b_cards, 0)
    for flag in range(5):
        w = four[flag]
        if w != 0:
            out[base + flag] += w * tail


def _enumerate_kernel(
    counts: npt.NDArray[np.int64],
    values: npt.NDArray[np.int64],
    player_takes: npt.NDArray[np.bool_],
    banker_takes: npt.NDArray[np.bool_],
    out: npt.NDArray[np.int64],
) -> None:
    """Every coup of a composition, counted as ordered six-card draws, into cells; the
    third cards by the tableau's steps (:func:`draw_arrays`)."""
    n = 0
    vcount = np.zeros(10, dtype=np.int64)
    for r in range(13):
        n += counts[r]
        vcount[values[r]] += counts[r]
    four = np.zeros((10, 10, 10, 10, 5), dtype=np.int64)
    _first_four_jit(counts, values, four)
    rem = np.zeros(10, dtype=np.int64)
    w = np.zeros(5, dtype=np.int64)
    m = n - 4
    # Swapping a hand's two cards keeps its total, its pair and the cards left: the
    # orders of each pair of values are counted together (a quarter of the tails to walk).
    for v1 in range(10):
        for v3 in range(v1, 10):
            for v2 in range(10):
                for v4 in range(v2, 10):
                    for f in range(5):
                        w[f] = four[v1, v2, v3, v4, f]
                        if v1 != v3:
                            w[f] += four[v3, v2, v1, v4, f]
                        if v2 != v4:
                            w[f] += four[v1, v4, v3, v2, f]
                            if v1 != v3:
                                w[f] += four[v3, v4, v1, v2, f]
                    if w[0] == 0 and w[1] == 0 and w[2] == 0 and w[3] == 0 and w[4] == 0:
                        continue
                    for v in range(10):
                        rem[v] = vcount[v]
                    rem[v1] -= 1
                    rem[v2] -= 1
                    rem[v3] -= 1
                    rem[v4] -= 1
                    pt = (v1 + v3) % 10
                    bt = (v2 + v4) % 10
                    if player_takes[pt, bt]:
                        for v5 in range(10):
                            a = rem[v5]
                            if a == 0:
                                continue
                            pt3 = (pt + v5) % 10
                            if banker_takes[pt, bt, v5]:
                                rem[v5] -= 1
                                for v6 in range(10):
                                    b = rem[v6]
                                    if b != 0:
                                        _add_jit(out, w, pt3, (bt + v6) % 10, 3, 3, a * b)
                                rem[v5] += 1
                            else:
                                _add_jit(out, w, pt3, bt, 3, 2, a * (m - 1))
                    elif banker_takes[pt, bt, STOOD]:
                        for v6 in range(10):
                            b = rem[v6]
                            if b != 0:
                                _add_jit(out, w, pt, (bt + v6) % 10, 2, 3, b * (m - 1))
                    else:
                        _add_jit(out, w, pt, bt, 2, 2, m * (m - 1))


_first_four_jit = njit(cache=True)(_first_four)
_add_jit = njit(cache=True, inline="always")(_add)
_enumerate_jit = njit(cache=True)(_enumerate_kernel)


def _cell_weights(composition: Composition) -> npt.NDArray[np.int64]:
    if composition.cards < MIN_CARDS:
        raise CompositionError(
            f"a shoe of {composition.cards} cards cannot be analysed: a coup may need "
            f"{MIN_CARDS} cards"
        )
    out = np.zeros(CELLS, dtype=np.int64)
    counts = np.array(composition.counts, dtype=np.int64)
    _enumerate_jit(counts, _RANK_VALUES, _PLAYER_TAKES, _BANKER_TAKES, out)
    return out


def _six_card_draws(cards: int) -> int:
    return math.perm(cards, MIN_CARDS)


@dataclass(frozen=True, slots=True, eq=False)
class Enumeration:
    """Every coup a composition can deal, counted by cell (ordered six-card draws).

    >>> e = enumerate_coups(Composition.fresh(1))
    >>> e.total, sum(e.facts().values()) == e.total
    (14658134400, True)
    """

    composition: Composition
    weights: npt.NDArray[np.int64]
    """Ordered six-card draws in each cell (read-only)."""
    total: int
    """All ordered six-card draws: ``P(cards, 6)``."""

    def facts(self) -> dict[CoupFacts, int]:
        """The non-empty cells: their facts and counts."""
        return {
            CELL_FACTS[cell]: int(weight)
            for cell, weight in enumerate(self.weights.tolist())
            if weight
        }

    def probability(self, cell: int) -> Fraction:
        """The exact probability of one cell."""
        return Fraction(int(self.weights[cell]), self.total)

    def probabilities(self) -> npt.NDArray[np.float64]:
        """Every cell's probability as a float (the fast path)."""
        return self.weights.astype(np.float64) / float(self.total)


def enumerate_coups(composition: Composition) -> Enumeration:
    """Count every coup ``composition`` can deal, by cell (the compiled kernel)."""
    weights = _cell_weights(composition)
    weights.flags.writeable = False
    total = _six_card_draws(composition.cards)
    return Enumeration(composition, weights, total)
