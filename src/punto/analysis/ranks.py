"""Every coup at rank level, for the variants whose bets look past the cells [LB] [PK]:
the ordered six-card draws of a composition tallied by cell and by the *rank pattern*
of each hand's cards (how many of them share a rank), and by the ranks of the four
first cards.

A rank pattern is a partition: the sizes of the groups of cards of one rank, largest
first (``(2, 1)``: two cards of one rank and one of another). :data:`PATTERNS` lists
every pattern of 1-6 cards; the kernel's third cards follow the tableau's steps
(:func:`punto.analysis.enumeration.draw_arrays`), so no drawing rule is restated.

>>> PATTERNS[:4]
((1,), (2,), (1, 1), (3,))
>>> from punto.analysis.composition import Composition
>>> deals = enumerate_ranks(Composition.fresh(1))
>>> int(deals.player.sum()) == deals.total == int(deals.first_four.sum())
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from punto.analysis.cells import CELLS, cell_of, pair_class
from punto.analysis.composition import MIN_CARDS, Composition
from punto.analysis.enumeration import STOOD, draw_arrays
from punto.cards import RANKS
from punto.errors import CompositionError

__all__ = ["PATTERNS", "RankDeals", "enumerate_ranks", "pattern_index"]


def _partitions(n: int, largest: int) -> list[tuple[int, ...]]:
    if n == 0:
        return [()]
    out: list[tuple[int, ...]] = []
    for first in range(min(n, largest), 0, -1):
        out.extend((first, *rest) for rest in _partitions(n - first, first))
    return out


PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    sorted((p for n in range(1, 7) for p in _partitions(n, n)), key=lambda p: (sum(p), len(p)))
)
"""Every rank pattern of 1-6 cards, by number of cards then number of ranks."""

_BASE = 7


def _key(pattern: tuple[int, ...]) -> int:
    """A pattern as a number: base-7 digits counting the groups of each size."""
    return sum(_BASE ** (size - 1) for size in pattern)


_KEY_TO_PATTERN = np.full(_BASE**6, -1, dtype=np.int16)
for _i, _p in enumerate(PATTERNS):
    _KEY_TO_PATTERN[_key(_p)] = _i
_KEY_TO_PATTERN.flags.writeable = False


def pattern_index(ranks: tuple[int, ...]) -> int:
    """The index in :data:`PATTERNS` of the rank pattern of some cards' ranks.

    >>> PATTERNS[pattern_index((12, 3, 12))]
    (2, 1)
    """
    sizes = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    return int(_KEY_TO_PATTERN[_key(tuple(sizes))])


def _pattern(ranks: npt.NDArray[np.int64], n: int, table: npt.NDArray[np.int16]) -> int:
    groups = np.zeros(13, dtype=np.int64)
    for i in range(n):
        groups[ranks[i]] += 1
    key = 0
    for r in range(13):
        if groups[r] > 0:
            key += _BASE ** (groups[r] - 1)
    return int(table[key])


_pattern_jit = njit(cache=True, inline="always")(_pattern)
_cell_of_jit = njit(cache=True, inline="always")(cell_of)
_pair_class_jit = njit(cache=True, inline="always")(pair_class)


def _tally(
    w: int | np.int64,
    hand: npt.NDArray[np.int64],
    pc: int,
    bc: int,
    values: npt.NDArray[np.int64],
    flag: int,
    four: int,
    table: npt.NDArray[np.int16],
    group_of_cell: npt.NDArray[np.int64],
    player: npt.NDArray[np.int64],
    banker: npt.NDArray[np.int64],
    both: npt.NDArray[np.int64],
    first_four: npt.NDArray[np.int64],
) -> None:
    """Add ``w`` draws of the coup in ``hand`` (P1, B1, P2, B2, then P3 and/or B3)."""
    pr = np.empty(3, dtype=np.int64)
    br = np.empty(3, dtype=np.int64)
    pr[0] = hand[0]
    pr[1] = hand[2]
    br[0] = hand[1]
    br[1] = hand[3]
    if pc == 3:
        pr[2] = hand[4]
    if bc == 3:
        br[2] = hand[5] if pc == 3 else hand[4]
    pt = 0
    for i in range(pc):
        pt += values[pr[i]]
    bt = 0
    for i in range(bc):
        bt += values[br[i]]
    cell = _cell_of_jit(pt % 10, bt % 10, pc, bc, flag)
    player[cell, _pattern_jit(pr, pc, table)] += w
    banker[cell, _pattern_jit(br, bc, table)] += w
    both[cell, _pattern_jit(hand, pc + bc, table)] += w
    first_four[four, group_of_cell[cell]] += w


_tally_jit = njit(cache=True, inline="always")(_tally)


def _rank_kernel(
    counts: npt.NDArray[np.int64],
    values: npt.NDArray[np.int64],
    player_takes: npt.NDArray[np.bool_],
    banker_takes: npt.NDArray[np.bool_],
    table: npt.NDArray[np.int16],
    group_of_cell: npt.NDArray[np.int64],
    player: npt.NDArray[np.int64],
    banker: npt.NDArray[np.int64],
    both: npt.NDArray[np.int64],
    first_four: npt.NDArray[np.int64],
) -> None:
    """Every coup at rank level (ordered six-card draws; unused cards counted too)."""
    n = 0
    for r in range(13):
        n += counts[r]
    c = counts.copy()
    hand = np.zeros(6, dtype=np.int64)
    for r1 in range(13):
        for r2 in range(13):
            for r3 in range(13):
                for r4 in range(13):
                    w = np.int64(1)
                    ok = True
                    for r in (r1, r2, r3, r4):
                        if c[r] == 0:
                            ok = False
                        w *= c[r]
                        c[r] -= 1
                    if ok:
                        hand[0] = r1
                        hand[1] = r2
                        hand[2] = r3
                        hand[3] = r4
                        flag = _pair_class_jit(r1, r2, r3, r4)
                        four = ((r1 * 13 + r2) * 13 + r3) * 13 + r4
                        pt = (values[r1] + values[r3]) % 10
                        bt = (values[r2] + values[r4]) % 10
                        if player_takes[pt, bt]:
                            for r5 in range(13):
                                a = c[r5]
                                if a == 0:
                                    continue
                                hand[4] = r5
                                if banker_takes[pt, bt, values[r5]]:
                                    c[r5] -= 1
                                    for r6 in range(13):
                                        b = c[r6]
                                        if b != 0:
                                            hand[5] = r6
                                            _tally_jit(
                                                w * a * b, hand, 3, 3, values, flag,
                                                four, table, group_of_cell, player,
                                                banker, both, first_four,
                                            )  # fmt: skip
                                    c[r5] += 1
                                else:
                                    _tally_jit(
                                        w * a * (n - 5), hand, 3, 2, values, flag, four,
                                        table, group_of_cell, player, banker, both, first_four,
                                    )  # fmt: skip
                        elif banker_takes[pt, bt, STOOD]:
                            for r5 in range(13):
                                b = c[r5]
                                if b != 0:
                                    hand[4] = r5
                                    _tally_jit(
                                        w * b * (n - 5), hand, 2, 3, values, flag, four,
                                        table, group_of_cell, player, banker, both, first_four,
                                    )  # fmt: skip
                        else:
                            _tally_jit(
                                w * (n - 4) * (n - 5), hand, 2, 2, values, flag, four,
                                table, group_of_cell, player, banker, both, first_four,
                            )  # fmt: skip
                    for r in (r1, r2, r3, r4):
                        c[r] += 1


_rank_jit = njit(cache=True)(_rank_kernel)
_VALUES = np.array([rank.value_points for rank in RANKS], dtype=np.int64)
_PLAYER_TAKES, _BANKER_TAKES = draw_arrays()


@dataclass(frozen=True, slots=True, eq=False)
class RankDeals:
    """A composition's coups at rank level (ordered six-card draws, read-only arrays)."""

    composition: Composition
    total: int
    """All ordered six-card draws: ``P(cards, 6)``."""
    player: npt.NDArray[np.int64]
    """``[cell, pattern]``: draws by cell and the rank pattern of the Player's cards."""
    banker: npt.NDArray[np.int64]
    """``[cell, pattern]``: draws by cell and the rank pattern of the Banker's cards."""
    both: npt.NDArray[np.int64]
    """``[cell, pattern]``: draws by cell and the rank pattern of all the coup's cards."""
    first_four: npt.NDArray[np.int64]
    """``[four, group]``: draws by the ranks of P1, B1, P2, B2
    (``((p1*13+b1)*13+p2)*13+b2``, ace 0) and the group of the final cell."""


def enumerate_ranks(
    composition: Composition, group_of_cell: npt.NDArray[np.int64] | None = None
) -> RankDeals:
    """Count every coup of ``composition`` at rank level (the compiled kernel). The
    four first cards' tally groups cells by ``group_of_cell`` (default: one group)."""
    if composition.cards < MIN_CARDS:
        raise CompositionError(
            f"a shoe of {composition.cards} cards cannot be analysed: a coup may need "
            f"{MIN_CARDS} cards"
        )
    shape = (CELLS, len(PATTERNS))
    player = np.zeros(shape, dtype=np.int64)
    banker = np.zeros(shape, dtype=np.int64)
    both = np.zeros(shape, dtype=np.int64)
    groups = np.zeros(CELLS, dtype=np.int64) if group_of_cell is None else group_of_cell
    first_four = np.zeros((13**4, int(groups.max()) + 1), dtype=np.int64)
    counts = np.array(composition.counts, dtype=np.int64)
    _rank_jit(
        counts, _VALUES, _PLAYER_TAKES, _BANKER_TAKES, _KEY_TO_PATTERN,
        np.ascontiguousarray(groups, dtype=np.int64), player, banker, both, first_four,
    )  # fmt: skip
    for array in (player, banker, both, first_four):
        array.flags.writeable = False
    total = math.perm(composition.cards, MIN_CARDS)
    return RankDeals(composition, total, player, banker, both, first_four)
