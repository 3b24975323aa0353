"""The compiled shoe loop: a shoe shuffled, cut and dealt hand by hand, in numba.

One loop serves the simulator (:mod:`punto.simulation`) and the betting systems
(:mod:`punto.strategies`). It deals like :class:`punto.dealing.ShoeDealer` [M2], [M3],
[S5]: a Fisher-Yates shuffle, the cut card placed between ``cut_min_from_end`` and
``cut_max_from_end`` cards from the end, the start burn, demonstration hands, then hands
until the last-hand rule ends the shoe (one more hand, or "minimum seven cards or void").
A continuous shuffler deals every coup from a full shoe [M7.2].

Cards are rank indices (0 = ace … 12 = king) in a ``uint8`` array; random numbers come
from xoshiro256** with Lemire's exact bounded integers (the shuffle takes three 21-bit
draws from each 64-bit output). The kernels take their settings
grouped: a :class:`ShoeParams` (the shoe procedure as plain numbers) and a
:class:`Tableau` (the drawing rules [M9] as lookup arrays, read off
:class:`punto.coup.Coup` so no rule is restated here). A hand is reported as its cell
(:data:`punto.analysis.CELLS`: Player total × Banker total × cards × pair class).

>>> import numpy as np
>>> from punto.rules import preset
>>> params = ShoeParams.of(preset("macau"))
>>> cards = ordered_shoe(params.decks)
>>> state = np.array([1, 2, 3, 4], dtype=np.uint64)
>>> tally = np.zeros(2000, dtype=np.int64)
>>> cut_index = new_shoe(state, cards, params)
>>> hands, voids = play_shoe(cards, cut_index, params, 10, TABLEAU, tally, np.empty(0, np.int64))
>>> hands, voids, int(tally.sum())
(10, 0, 10)
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from punto.analysis.cells import cell_of, pair_class
from punto.cards import RANKS, Card, Rank, Suit
from punto.coup import Coup, Position
from punto.dealing import VOID_MIN_CARDS
from punto.rules import BurnRule, LastHandRule, Rules

__all__ = [
    "BANKER_DRAWS",
    "PLAYER_DRAWS",
    "STAND",
    "TABLEAU",
    "ShoeParams",
    "Tableau",
    "below",
    "deal_continuous",
    "deal_shoes",
    "new_shoe",
    "next_random",
    "ordered_shoe",
    "play_shoe",
    "play_shoe_from",
    "private",
    "shuffle",
    "tableau",
]

_BURN_CODES = {BurnRule.NONE: 0, BurnRule.DECKS: 1, BurnRule.FIRST_CARD_VALUE: 2}
_LAST_CODES = {
    LastHandRule.LAST_HAND: 0,
    LastHandRule.ONE_MORE: 1,
    LastHandRule.MIN_SEVEN_OR_VOID: 2,
}


class ShoeParams(NamedTuple):
    """The shoe procedure of a :class:`~punto.rules.Rules` as plain numbers (what the
    kernels and remote workers receive).

    >>> ShoeParams.of(__import__("punto.rules").rules.preset("macau")).decks
    8
    """

    decks: int
    cut_min_from_end: int
    cut_max_from_end: int
    burn: int
    """0 no burn, 1 ``decks`` cards, 2 the first card's value (ten and faces ten)."""
    demo_hands: int
    last_hand: int
    """0 the cut card's hand is the last, 1 one more follows, 2 minimum seven or void."""
    continuous_shuffler: bool
    void_min_cards: int = VOID_MIN_CARDS
    """Cards that must be left after the last hand under minimum-seven-or-void [S5]."""

    @classmethod
    def of(cls, rules: Rules) -> ShoeParams:
        """The procedure settings of ``rules``."""
        return cls(
            decks=rules.decks,
            cut_min_from_end=rules.cut_min_from_end,
            cut_max_from_end=rules.cut_max_from_end,
            burn=_BURN_CODES[rules.burn],
            demo_hands=rules.demo_hands,
            last_hand=_LAST_CODES[rules.last_hand],
            continuous_shuffler=rules.continuous_shuffler,
        )


# -- the tableau as lookup arrays ------------------------------------------------------

STAND = 0
"""After the first four cards: no third card (a natural, or both stand) [M9]."""
PLAYER_DRAWS = 1
"""After the first four cards: the Player draws (the Banker's turn follows) [M9]."""
BANKER_DRAWS = 2
"""After the first four cards: the Player stands and the Banker draws [M9]."""


class Tableau(NamedTuple):
    """The drawing rules [M9] as the kernels read them (read-only arrays)."""

    values: npt.NDArray[np.int64]
    """Baccarat value of each rank index [M5]."""
    opening: npt.NDArray[np.int8]
    """``[Player total, Banker total]`` of the first four cards: :data:`STAND`,
    :data:`PLAYER_DRAWS` or :data:`BANKER_DRAWS`."""
    banker_on_third: npt.NDArray[np.bool_]
    """``[Banker total, value of the Player's third card]``: whether the Banker draws."""
    totals: npt.NDArray[np.int64]
    """``[rank, rank]``: the total of a two-card hand of these ranks [M5]."""
    outcome: npt.NDArray[np.int16]
    """``[Player total, Banker total, value of the 5th card, value of the 6th card]``
    (flat, in that order): ``4 * cell_of(final totals, cards, pair class 0)`` plus the
    cards drawn after the first four — the whole coup as one lookup, no branch."""


def _card(value: int) -> Card:
    return Card(Rank.KING if value == 0 else Rank(value), Suit.SPADES)


def _next_position(values: tuple[int, ...]) -> Position | None:
    """Where :class:`~punto.coup.Coup` puts the next card after cards of ``values``."""
    coup = Coup()
    for value in values:
        coup.deal(_card(value))
    return coup.next_position


_OPENING_CODES = {None: STAND, Position.PLAYER_3: PLAYER_DRAWS, Position.BANKER_3: BANKER_DRAWS}


def tableau() -> Tableau:
    """The tableau of :class:`~punto.coup.Coup`, asked coup by coup: for each pair of
    two-card totals, what follows the first four cards; for each Banker total and
    Player's third card, whether the Banker draws.

    >>> t = tableau()
    >>> int(t.opening[5, 8]), int(t.opening[5, 3]), int(t.opening[7, 3]), int(t.opening[7, 6])
    (0, 1, 2, 0)
    >>> bool(t.banker_on_third[3, 8]), bool(t.banker_on_third[3, 9]), bool(t.banker_on_third[6, 7])
    (False, True, True)
    """
    values = np.array([rank.value_points for rank in RANKS], dtype=np.int64)
    opening = np.zeros((10, 10), dtype=np.int8)
    on_third = np.zeros((10, 10), dtype=np.bool_)
    for player in range(10):
        for banker in range(10):
            opening[player, banker] = _OPENING_CODES[_next_position((player, banker, 0, 0))]
    for banker in range(10):
        drawing = [p for p in range(10) if opening[p, banker] == PLAYER_DRAWS]
        for third in range(10):
            if drawing:
                after = _next_position((drawing[0], banker, 0, 0, third))
                on_third[banker, third] = after is Position.BANKER_3
    totals = (values[:, None] + values[None, :]) % 10
    outcome = np.zeros(10_000, dtype=np.int16)
    for key in range(10_000):
        player, banker, fifth, sixth = key // 1000, key // 100 % 10, key // 10 % 10, key % 10
        pc = bc = 2
        step = opening[player, banker]
        if step == PLAYER_DRAWS:
            pc = 3
            if on_third[banker, fifth]:
                bc = 3
                banker = (banker + sixth) % 10
            player = (player + fifth) % 10
        elif step == BANKER_DRAWS:
            bc = 3
            banker = (banker + fifth) % 10
        outcome[key] = 4 * cell_of(player, banker, pc, bc, 0) + (pc - 2) + (bc - 2)
    for array in (values, opening, on_third, totals, outcome):
        array.flags.writeable = False
    return Tableau(
        values=values, opening=opening, banker_on_third=on_third, totals=totals, outcome=outcome
    )


TABLEAU = tableau()
"""The tableau every kernel is handed."""


# -- random numbers: xoshiro256** ------------------------------------------------------


def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


_rotl_jit = njit(cache=True, inline="always")(_rotl)


def _next(s: npt.NDArray[np.uint64]) -> np.uint64:
    result: np.uint64 = _rotl_jit(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl_jit(s[3], 45)
    return result


next_random = njit(cache=True)(_next)
"""The next 64-bit output of the xoshiro256** state ``s`` (advanced in place)."""


def _below(s: npt.NDArray[np.uint64], n: int) -> int:
    """A uniform integer in ``[0, n)`` (Lemire's method, exact; ``n < 2**32``)."""
    bound = np.uint64(n)
    mask = np.uint64(0xFFFFFFFF)
    m = (next_random(s) >> np.uint64(32)) * bound
    low = m & mask
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            m = (next_random(s) >> np.uint64(32)) * bound
            low = m & mask
    return int(m >> np.uint64(32))


below = njit(cache=True)(_below)
"""A uniform integer in ``[0, n)`` from the state ``s`` (Lemire's exact method)."""


_DRAW_BITS = 21
"""Bits of a random number per shuffle draw: three draws from each 64-bit output
(exact for a shoe of up to ``2**21`` cards, far above twelve decks)."""
_DRAW_MASK = (1 << _DRAW_BITS) - 1


def _swap_below(
    s: npt.NDArray[np.uint64], cards: npt.NDArray[np.uint8], i: int, n: int, x: np.uint64
) -> None:
    """Swap ``cards[i]`` with a uniform one of ``cards[i:n]``, picked by the 21-bit
    ``x`` (Lemire's exact method: a rare rejection draws afresh)."""
    bound = np.uint64(n - i)
    mask = np.uint64(_DRAW_MASK)
    m = x * bound
    low = m & mask
    if low < bound:
        threshold = (np.uint64(_DRAW_MASK + 1) - bound) % bound
        while low < threshold:
            m = (next_random(s) >> np.uint64(64 - _DRAW_BITS)) * bound
            low = m & mask
    j = i + int(m >> np.uint64(_DRAW_BITS))
    tmp = cards[i]
    cards[i] = cards[j]
    cards[j] = tmp


_swap_below_jit = njit(cache=True, inline="always")(_swap_below)


def _shuffle(s: npt.NDArray[np.uint64], cards: npt.NDArray[np.uint8], first: int) -> None:
    """Fisher-Yates: a uniform order of ``cards`` (only the first ``first`` positions
    when ``first`` is smaller than the shoe: a continuous shuffler's next coup)."""
    n = cards.shape[0]
    last = min(first, n - 1)
    mask = np.uint64(_DRAW_MASK)
    i = 0
    while i + 3 <= last:
        r = next_random(s)
        _swap_below_jit(s, cards, i, n, r & mask)
        _swap_below_jit(s, cards, i + 1, n, (r >> np.uint64(_DRAW_BITS)) & mask)
        _swap_below_jit(s, cards, i + 2, n, (r >> np.uint64(2 * _DRAW_BITS)) & mask)
        i += 3
    if i < last:
        r = next_random(s)
        while i < last:
            _swap_below_jit(s, cards, i, n, r & mask)
            r >>= np.uint64(_DRAW_BITS)
            i += 1


shuffle = njit(cache=True)(_shuffle)
"""Fisher-Yates over ``cards`` in place, its first ``first`` positions drawn."""


_PAD = 128
"""Bytes kept free around a thread's own arrays: two worker threads writing one cache
line (false sharing) run no faster than one."""


def _private(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A copy of ``array`` alone on its cache lines, for one worker thread to write."""
    n = array.shape[0]
    pad = _PAD // array.itemsize
    own = np.empty(n + 2 * pad, dtype=array.dtype)[pad : pad + n]
    for i in range(n):  # a loop: slice assignment compiles a second of shape checks
        own[i] = array[i]
    return own


private = njit(cache=True)(_private)
"""A copy of a 1-D array that no other thread's data shares a cache line with."""


def _ordered_shoe(decks: int) -> npt.NDArray[np.uint8]:
    """A shoe of ``decks`` decks as rank indices, in order (ready to shuffle), alone on
    its cache lines (:func:`private`)."""
    n = decks * 52
    cards = np.empty(n, dtype=np.uint8)
    for i in range(n):
        cards[i] = i % 13
    return private(cards)


ordered_shoe = njit(cache=True)(_ordered_shoe)
"""The unshuffled shoe of ``decks`` decks (rank indices, ``uint8``)."""


# -- one coup, one shoe ----------------------------------------------------------------


_pair_class_jit = njit(cache=True, inline="always")(pair_class)


def _coup(cards: npt.NDArray[np.uint8], pos: int, tableau: Tableau) -> tuple[int, int]:
    """Deal one coup from ``pos`` by the tableau [M7], [M9]: (cell, next position).
    Reads six cards whatever the coup needs (the loops keep six in the shoe), so the
    whole tableau is one lookup of :attr:`Tableau.outcome`."""
    values = tableau.values
    totals = tableau.totals
    r1 = cards[pos]
    r2 = cards[pos + 1]
    r3 = cards[pos + 2]
    r4 = cards[pos + 3]
    key = (totals[r1, r3] * 10 + totals[r2, r4]) * 100
    key += values[cards[pos + 4]] * 10 + values[cards[pos + 5]]
    found = np.int64(tableau.outcome[key])
    return int(found >> 2) + _pair_class_jit(r1, r2, r3, r4), pos + 4 + int(found & 3)


_coup_jit = njit(cache=True, inline="always")(_coup)


def _play_shoe_from(
    cards: npt.NDArray[np.uint8],
    cut_index: int,
    shoe: ShoeParams,
    quota: int,
    tableau: Tableau,
    tally: npt.NDArray[np.int64],
    record: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """Deal one shoe in ``cards`` order like :class:`~punto.dealing.ShoeDealer`, at most
    ``quota`` hands: (hands dealt, void hands). A resolved hand adds one to its cell of
    ``tally``; when ``record`` has room, hand ``i`` is written to ``record[i]`` (its cell,
    or ``-1 - cell`` for a void hand), and when ``starts`` has room, the position of its
    first card to ``starts[i]`` (the variants read the hand's cards there)."""
    n = cards.shape[0]
    recorded = record.shape[0]
    pos = 0
    if shoe.burn == 1:
        pos = shoe.decks
    elif shoe.burn == 2:
        first = tableau.values[cards[0]]
        pos = 1 + (first if first != 0 else 10)
    for _ in range(shoe.demo_hands):
        if n - pos < 6:
            return 0, 0
        _, pos = _coup_jit(cards, pos, tableau)
    hands = 0
    # Six cards short of the cut card, no hand can reach it: nothing to decide [M3].
    while hands < quota and pos + 6 <= cut_index:
        if hands < starts.shape[0]:
            starts[hands] = pos
        cell, pos = _coup_jit(cards, pos, tableau)
        tally[cell] += 1
        if hands < recorded:
            record[hands] = cell
        hands += 1
    last_hand = shoe.last_hand
    void_min_cards = shoe.void_min_cards
    extra = 1 if last_hand == 1 else 0
    voids = 0
    cut_hand = -1
    last = 0
    cut_during = False
    while hands < quota and n - pos >= 6:
        start = pos
        if cut_hand < 0 and pos >= cut_index:
            cut_hand = hands + 1  # the cut card shows between hands [M3]
            last = cut_hand + extra
        if hands < starts.shape[0]:
            starts[hands] = pos
        cell, pos = _coup_jit(cards, pos, tableau)
        hands += 1
        if cut_hand < 0 and start < cut_index < pos:
            cut_hand = hands  # the cut card came out during this hand
            cut_during = True
            last = cut_hand + extra
        is_last = cut_hand >= 0 and hands >= last
        void = is_last and last_hand == 2 and cut_during and n - pos < void_min_cards
        if void:
            voids += 1
        else:
            tally[cell] += 1
        if hands <= recorded:
            record[hands - 1] = -1 - cell if void else cell
        if is_last:
            break
    return hands, voids


play_shoe_from = njit(cache=True)(_play_shoe_from)
"""Deal one shoe of a given order and cut index, recording where each hand starts:
(hands dealt, void hands)."""


def _play_shoe(
    cards: npt.NDArray[np.uint8],
    cut_index: int,
    shoe: ShoeParams,
    quota: int,
    tableau: Tableau,
    tally: npt.NDArray[np.int64],
    record: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """:func:`play_shoe_from` without the hands' start positions."""
    no_starts = np.empty(0, dtype=np.int64)
    return play_shoe_from(cards, cut_index, shoe, quota, tableau, tally, record, no_starts)


play_shoe = njit(cache=True)(_play_shoe)
"""Deal one shoe of a given order and cut index: (hands dealt, void hands)."""


def _new_shoe(state: npt.NDArray[np.uint64], cards: npt.NDArray[np.uint8], shoe: ShoeParams) -> int:
    """Shuffle ``cards`` and place the cut card [M2]: the cut index, for
    :func:`play_shoe`."""
    n = cards.shape[0]
    shuffle(state, cards, n)
    spread = shoe.cut_max_from_end - shoe.cut_min_from_end + 1
    return int(n - (shoe.cut_min_from_end + below(state, spread)))


new_shoe = njit(cache=True)(_new_shoe)
"""Shuffle a shoe and place its cut card: the cut index."""


def _deal_continuous(
    state: npt.NDArray[np.uint64],
    cards: npt.NDArray[np.uint8],
    quota: int,
    tableau: Tableau,
    tally: npt.NDArray[np.int64],
) -> int:
    """``quota`` coups of a continuous shuffler, each from a full shoe [M7.2]: a fresh
    uniform order of the first six cards each time. Returns the hands dealt."""
    coup_cards = min(6, cards.shape[0])  # not a literal 6: one compiled shuffle serves all
    for _ in range(quota):
        shuffle(state, cards, coup_cards)
        cell, _ = _coup_jit(cards, 0, tableau)
        tally[cell] += 1
    return quota


deal_continuous = njit(cache=True)(_deal_continuous)
"""Deal coups of a continuous shuffler: the hands dealt."""


def _deal_shoes(
    state: npt.NDArray[np.uint64],
    quota: int,
    shoe: ShoeParams,
    tableau: Tableau,
    tally: npt.NDArray[np.int64],
) -> tuple[int, int, int]:
    """Shoe after shoe (or a continuous shuffler's coups) until ``quota`` hands, each
    resolved hand added to its cell of ``tally``: (hands, void hands, shoes)."""
    cards = ordered_shoe(shoe.decks)
    own = private(state)
    counts = private(np.zeros(tally.shape[0], dtype=np.int64))
    if shoe.continuous_shuffler:
        deal_continuous(own, cards, quota, tableau, counts)
        tally += counts
        return quota, 0, 1
    no_record = np.empty(0, dtype=np.int64)
    hands = 0
    voids = 0
    shoes = 0
    while hands < quota:
        cut_index = new_shoe(own, cards, shoe)
        dealt, void = play_shoe(cards, cut_index, shoe, quota - hands, tableau, counts, no_record)
        hands += dealt
        voids += void
        shoes += 1
        if dealt == 0:
            break
    tally += counts
    return hands, voids, shoes


deal_shoes = njit(cache=True)(_deal_shoes)
"""Deal shoes until a quota of hands, tallied by cell: (hands, void hands, shoes)."""
