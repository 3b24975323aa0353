"""Exact analysis: every coup a shoe can deal, enumerated, and what each bet is worth.

A :class:`Composition` is what a shoe holds (a count per rank). :func:`enumerate_coups`
counts, for that composition, every ordered way the coup's cards can come out, grouped
by the facts any bet may look at (:class:`~punto.bets.CoupFacts`): the totals, the
number of cards, and the pairs. Like the published combinatorial tables, a coup is
counted as an ordered draw of six cards (the cards a short coup leaves unused are
counted too), so a fresh 8-deck shoe has 416·415·414·413·412·411 ordered draws and
every count is an integer.

Bets are never restated here: each group of facts is classified once by
:func:`punto.bets.classify` and priced by the table's paytable, so
:func:`analyze` gives, for every bet the rules offer, the exact probability of each
payout class, the house edge, RTP, variance and hit frequency as
:class:`~fractions.Fraction`, with float views for display.

>>> from punto.rules import preset
>>> result = analyze(preset("macau"))
>>> result.total, result.outcomes.banker * result.total
(4998398275503360, Fraction(2292252566437888, 1))
>>> round(float(result.bets[Bet.BANKER].house_edge), 6)
0.010579

Two paths share one compiled kernel: the exact path (integer counts, ``Fraction``
results) and a fast float path (:func:`house_edges`) for tracking a shoe hand by hand
(:func:`track`). The kernel's counts are ``int64`` and cannot overflow: every count is
a number of ordered six-card draws, at most ``P(N, 6)`` for ``N`` cards, and a
composition holds at most ``MAX_RANK_COUNT × 13 = 624`` cards, so every count is below
``624**6 < 6·10**16``, far under ``2**63``.

A composition must hold at least six cards (:data:`MIN_CARDS`); a card removed that the
shoe does not hold raises :class:`~punto.errors.CardNotInShoeError`.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

import numpy as np
import numpy.typing as npt
from numba import njit

from punto.bets import Bet, CoupFacts, classify
from punto.cards import RANKS, Card, Rank
from punto.dealing import CardsBurned, DemoHandDealt, HandDealt, ShoeEvent
from punto.errors import CardNotInShoeError, CompositionError
from punto.outcome import Winner
from punto.paytables import Paytable
from punto.rules import MAX_DECKS, MIN_DECKS, BurnRule, Rules
from punto.tableau import (
    banker_draws,
    hand_total,
    is_natural,
    player_draws,
)

__all__ = [
    "CELLS",
    "COUP_EVENTS",
    "MAX_RANK_COUNT",
    "MIN_CARDS",
    "Analysis",
    "BetAnalysis",
    "BetTable",
    "Composition",
    "EffectOfRemoval",
    "Enumeration",
    "OutcomeProbabilities",
    "PayoutClassResult",
    "TrackPoint",
    "analyze",
    "analyze_bet",
    "bet_table",
    "cell_facts",
    "cell_index",
    "effect_of_removal",
    "enumerate_coups",
    "event_holds",
    "event_probabilities",
    "house_edges",
    "reference_enumeration",
    "tableau_arrays",
    "track",
    "track_events",
]

MAX_RANK_COUNT = 4 * MAX_DECKS
"""Most cards of one rank a composition may hold (a 12-deck shoe)."""
MIN_CARDS = 6
"""Fewest cards a composition must hold to be analysed: a coup may need six."""

_FLAGS = 5
"""Pair classes of the first four cards: none, Player pair, Banker pair, both pairs of
different ranks, both pairs of the same rank."""
CELLS = 10 * 10 * 2 * 2 * _FLAGS
"""Groups of coups that no bet can tell apart: Player total, Banker total, each hand's
number of cards and the pair class (a two-card hand's natural follows from its total)."""

_RANK_VALUES = np.array([rank.value_points for rank in RANKS], dtype=np.int64)


# -- the drawing rules as lookup arrays, derived from punto.tableau ([M9]) ----------


def tableau_arrays() -> tuple[
    npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_]
]:
    """The [M9] tableau of :mod:`punto.tableau` as lookup arrays for compiled kernels:
    natural[total], player_draws[total], banker_alone[total] (Player stood) and
    banker_on_third[banker total, Player's third-card value].

    >>> natural, player, alone, on_third = tableau_arrays()
    >>> bool(natural[8]), bool(player[5]), bool(on_third[3, 8]), bool(on_third[6, 7])
    (True, True, False, True)
    """
    natural = np.array([is_natural(t) for t in range(10)], dtype=np.bool_)
    player = np.array([player_draws(t) for t in range(10)], dtype=np.bool_)
    alone = np.array([banker_draws(t, player_third=None) for t in range(10)], dtype=np.bool_)
    on_third = np.array(
        [[banker_draws(t, player_third=v) for v in range(10)] for t in range(10)],
        dtype=np.bool_,
    )
    return natural, player, alone, on_third


_NATURAL, _PLAYER_DRAWS, _BANKER_ALONE, _BANKER_ON_THIRD = tableau_arrays()


def _cell(player_total: int, banker_total: int, player_cards: int, banker_cards: int) -> int:
    """Index of a cell without its pair class (multiply by the classes and add one)."""
    return ((player_total * 10 + banker_total) * 2 + player_cards - 2) * 2 + banker_cards - 2


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


_CELL_FACTS = _build_cell_facts()


def cell_facts(cell: int) -> CoupFacts:
    """The facts every coup of a cell shares.

    >>> f = cell_facts(0)
    >>> (f.player_total, f.banker_total, f.player_cards, f.banker_cards, f.player_pair)
    (0, 0, 2, 2, False)
    """
    return _CELL_FACTS[cell]


def cell_index(facts: CoupFacts) -> int:
    """The cell of a coup's facts (the inverse of :func:`cell_facts`).

    >>> all(cell_index(cell_facts(c)) == c for c in range(CELLS))
    True
    """
    if facts.player_pair and facts.banker_pair:
        flag = 4 if facts.same_rank_pairs else 3
    else:
        flag = 1 if facts.player_pair else 2 if facts.banker_pair else 0
    cell = _cell(facts.player_total, facts.banker_total, facts.player_cards, facts.banker_cards)
    return cell * _FLAGS + flag


# -- compositions -------------------------------------------------------------------


def _check_count(rank: Rank, count: object) -> int:
    if isinstance(count, bool) or not isinstance(count, int):
        raise CompositionError(f"the count of {rank.char} must be a whole number, not {count!r}")
    if not 0 <= count <= MAX_RANK_COUNT:
        raise CompositionError(
            f"a shoe holds 0-{MAX_RANK_COUNT} cards of one rank ({MAX_DECKS} decks), "
            f"not {count} of {rank.char}"
        )
    return count


@dataclass(frozen=True, slots=True)
class Composition:
    """What a shoe holds: the number of cards of each rank, ace first.

    >>> from punto.cards import parse_cards
    >>> shoe = Composition.fresh(8)
    >>> shoe.cards, shoe.count(Rank.KING)
    (416, 32)
    >>> shoe.removing(parse_cards("KS KH 5D")).count(Rank.KING)
    30
    >>> Composition.parse("A=4,T=12,9=3").cards
    19
    """

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != len(RANKS):
            raise CompositionError(f"a composition has {len(RANKS)} rank counts, ace first")
        for rank, count in zip(RANKS, self.counts, strict=True):
            _check_count(rank, count)

    # -- constructors ----------------------------------------------------------

    @classmethod
    def fresh(cls, decks: int) -> Composition:
        """A full shoe of ``decks`` decks (1-12)."""
        if isinstance(decks, bool) or not isinstance(decks, int):
            raise CompositionError(f"decks must be a whole number, not {decks!r}")
        if not MIN_DECKS <= decks <= MAX_DECKS:
            raise CompositionError(f"decks must be {MIN_DECKS}-{MAX_DECKS}, not {decks}")
        return cls((4 * decks,) * len(RANKS))

    @classmethod
    def after_removing(cls, cards: Iterable[Card], *, decks: int = 8) -> Composition:
        """A ``decks``-deck shoe after ``cards`` were dealt; a card the shoe cannot hold
        that often raises :class:`~punto.errors.CardNotInShoeError`.

        >>> from punto.cards import parse_cards
        >>> Composition.after_removing(parse_cards("AS AS"), decks=1)
        Traceback (most recent call last):
        ...
        punto.errors.CardNotInShoeError: AS was removed 2 times, but a 1-deck shoe holds only 1
        """
        shoe = cls.fresh(decks)
        removed = list(cards)
        for card, times in Counter(removed).items():
            if times > decks:
                raise CardNotInShoeError(
                    f"{card.code} was removed {times} times, but a {decks}-deck shoe holds "
                    f"only {decks}"
                )
        return shoe.removing(removed)

    @classmethod
    def from_counts(cls, counts: Mapping[Rank, int]) -> Composition:
        """A composition from a count per rank; ranks not given hold none."""
        for rank in counts:
            if not isinstance(rank, Rank):
                raise CompositionError(f"not a rank: {rank!r}")
        return cls(tuple(_check_count(rank, counts.get(rank, 0)) for rank in RANKS))

    @classmethod
    def parse(cls, text: str) -> Composition:
        """Read ``RANK=COUNT`` pairs separated by commas (``A=31,T=32,K=30``); ranks not
        given hold none.

        >>> Composition.parse("A=2,A=3")
        Traceback (most recent call last):
        ...
        punto.errors.CompositionError: rank A is given twice in 'A=2,A=3'
        """
        counts: dict[Rank, int] = {}
        for item in text.replace(" ", "").split(","):
            if not item:
                continue
            rank_text, sep, count_text = item.partition("=")
            if not sep or not count_text.isdigit():
                raise CompositionError(
                    f"cannot read {item!r} in {text!r}: expected RANK=COUNT, e.g. A=32,T=31"
                )
            try:
                rank = Rank.parse(rank_text)
            except ValueError as exc:
                raise CompositionError(f"cannot read {item!r} in {text!r}: {exc}") from None
            if rank in counts:
                raise CompositionError(f"rank {rank.char} is given twice in {text!r}")
            counts[rank] = int(count_text)
        return cls.from_counts(counts)

    # -- queries ---------------------------------------------------------------

    @property
    def cards(self) -> int:
        """Cards in the shoe."""
        return sum(self.counts)

    def count(self, rank: Rank) -> int:
        """Cards of ``rank`` in the shoe."""
        return self.counts[rank - 1]

    def value_counts(self) -> tuple[int, ...]:
        """Cards of each baccarat value 0-9 [M5] (value 0: ten, jack, queen and king)."""
        values = [0] * 10
        for rank, count in zip(RANKS, self.counts, strict=True):
            values[rank.value_points] += count
        return tuple(values)

    def as_dict(self) -> dict[str, int]:
        """Rank character to count, ace first (``{"A": 32, "2": 32, …}``)."""
        return {rank.char: count for rank, count in zip(RANKS, self.counts, strict=True)}

    def __str__(self) -> str:
        return ",".join(f"{char}={count}" for char, count in self.as_dict().items())

    # -- changes ---------------------------------------------------------------

    def removing(self, cards: Iterable[Card | Rank]) -> Composition:
        """The composition once ``cards`` (cards or ranks) are taken out; raises
        :class:`~punto.errors.CardNotInShoeError` for a rank the shoe has run out of."""
        counts = list(self.counts)
        for item in cards:
            rank = item.rank if isinstance(item, Card) else item
            if not isinstance(rank, Rank):
                raise CompositionError(f"not a card or a rank: {item!r}")
            if counts[rank - 1] == 0:
                label = item.code if isinstance(item, Card) else rank.char
                raise CardNotInShoeError(f"{label} cannot be removed: no {rank.char} is left")
            counts[rank - 1] -= 1
        return Composition(tuple(counts))

    def removing_rank(self, rank: Rank) -> Composition:
        """The composition without one card of ``rank``."""
        return self.removing((rank,))


# -- the enumeration kernel -----------------------------------------------------------


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
                    player_pair = r1 == r3
                    banker_pair = r2 == r4
                    if player_pair and banker_pair:
                        flag = 4 if r1 == r2 else 3
                    elif player_pair:
                        flag = 1
                    elif banker_pair:
                        flag = 2
                    else:
                        flag = 0
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
    base = (((p_total * 10 + b_total) * 2 + p_cards - 2) * 2 + b_cards - 2) * 5
    for flag in range(5):
        w = four[flag]
        if w != 0:
            out[base + flag] += w * tail


def _enumerate_kernel(
    counts: npt.NDArray[np.int64],
    values: npt.NDArray[np.int64],
    natural: npt.NDArray[np.bool_],
    player_draws: npt.NDArray[np.bool_],
    banker_alone: npt.NDArray[np.bool_],
    banker_on_third: npt.NDArray[np.bool_],
    out: npt.NDArray[np.int64],
) -> None:
    """Every coup of a composition, counted as ordered six-card draws, into cells."""
    n = 0
    vcount = np.zeros(10, dtype=np.int64)
    for r in range(13):
        n += counts[r]
        vcount[values[r]] += counts[r]
    four = np.zeros((10, 10, 10, 10, 5), dtype=np.int64)
    _first_four_jit(counts, values, four)
    rem = np.zeros(10, dtype=np.int64)
    m = n - 4
    for v1 in range(10):
        for v2 in range(10):
            for v3 in range(10):
                for v4 in range(10):
                    w = four[v1, v2, v3, v4]
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
                    if natural[pt] or natural[bt]:
                        _add_jit(out, w, pt, bt, 2, 2, m * (m - 1))
                    elif player_draws[pt]:
                        for v5 in range(10):
                            a = rem[v5]
                            if a == 0:
                                continue
                            pt3 = (pt + v5) % 10
                            if banker_on_third[bt, v5]:
                                rem[v5] -= 1
                                for v6 in range(10):
                                    b = rem[v6]
                                    if b != 0:
                                        _add_jit(out, w, pt3, (bt + v6) % 10, 3, 3, a * b)
                                rem[v5] += 1
                            else:
                                _add_jit(out, w, pt3, bt, 3, 2, a * (m - 1))
                    elif banker_alone[bt]:
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
    _enumerate_jit(
        counts,
        _RANK_VALUES,
        _NATURAL,
        _PLAYER_DRAWS,
        _BANKER_ALONE,
        _BANKER_ON_THIRD,
        out,
    )
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
            _CELL_FACTS[cell]: int(weight)
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


# -- pricing bets -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class BetTable:
    """One bet under one paytable, cell by cell: each cell's payout class (classified
    once by :func:`punto.bets.classify`) and its odds. Kernels price bets from it."""

    bet: Bet
    paytable: Paytable
    classes: tuple[str, ...]
    odds: tuple[Fraction, ...]
    cells_of_class: tuple[npt.NDArray[np.intp], ...]
    odds_of_cell: npt.NDArray[np.float64]


def _class_order(paytable: Paytable, name: str) -> tuple[int, Fraction, str]:
    odds = paytable.odds(name)
    return (0 if odds > 0 else 1 if odds == 0 else 2, -odds, name)


_PaytableKey = tuple[Bet, str, tuple[tuple[str, Fraction], ...], frozenset[str]]


def bet_table(bet: Bet, paytable: Paytable) -> BetTable:
    """The cell-by-cell table of ``bet`` under ``paytable`` (built once, then cached).

    >>> from punto.paytables import paytable
    >>> bet_table(Bet.BANKER, paytable("banker_commission")).classes
    ('win', 'win_on_6', 'push', 'lose')
    """
    key = (bet, paytable.name, tuple(sorted(paytable.pays.items())), paytable.pushes)
    return _cached_table(key, paytable)


@functools.lru_cache(maxsize=256)
def _cached_table_for(key: _PaytableKey) -> BetTable:
    bet, name, pays, pushes = key
    paytable = Paytable(name=name, bet=bet, pays=MappingProxyType(dict(pays)), pushes=pushes)
    names = [classify(bet, facts) for facts in _CELL_FACTS]
    classes = tuple(sorted(set(names), key=lambda n: _class_order(paytable, n)))
    index = {n: i for i, n in enumerate(classes)}
    odds = tuple(paytable.odds(n) for n in classes)
    class_of_cell = np.array([index[n] for n in names], dtype=np.intp)
    cells_of_class = tuple(np.flatnonzero(class_of_cell == i) for i in range(len(classes)))
    odds_of_cell = np.array([float(odds[i]) for i in class_of_cell.tolist()], dtype=np.float64)
    odds_of_cell.flags.writeable = False
    return BetTable(bet, paytable, classes, odds, cells_of_class, odds_of_cell)


def _cached_table(key: _PaytableKey, paytable: Paytable) -> BetTable:
    table = _cached_table_for(key)
    if table.paytable is paytable or table.paytable == paytable:
        return table
    # Same odds, another Paytable object (its source text may differ): reuse the arrays.
    return BetTable(
        table.bet, paytable, table.classes, table.odds, table.cells_of_class, table.odds_of_cell
    )


@dataclass(frozen=True, slots=True)
class PayoutClassResult:
    """One payout class of a bet: its odds (net per unit staked) and how many of the
    ``total`` ordered six-card draws fall in it."""

    name: str
    odds: Fraction
    combinations: int
    total: int

    @property
    def probability(self) -> Fraction:
        """The exact probability of the class."""
        return Fraction(self.combinations, self.total)


@dataclass(frozen=True, slots=True)
class BetAnalysis:
    """A bet's exact figures for one composition; house edge is per unit staked and
    positive when the house wins. RTP is ``1 - house_edge``."""

    bet: Bet
    paytable: str
    classes: tuple[PayoutClassResult, ...]
    house_edge: Fraction
    variance: Fraction
    hit_frequency: Fraction
    """Probability that the bet wins something (odds above zero)."""

    @property
    def rtp(self) -> Fraction:
        """Return to player: what a unit staked returns on average, stake included."""
        return 1 - self.house_edge

    @property
    def expected_return(self) -> Fraction:
        """Expected net result per unit staked (``-house_edge``)."""
        return -self.house_edge

    @property
    def std_dev(self) -> float:
        """Standard deviation of the net result per unit staked."""
        return math.sqrt(self.variance)

    def as_dict(self) -> dict[str, float]:
        """The float view used by ``punto edge --json``."""
        return {
            "house_edge": float(self.house_edge),
            "rtp": float(self.rtp),
            "std_dev": self.std_dev,
            "hit_frequency": float(self.hit_frequency),
        }


def _price(table: BetTable, enumeration: Enumeration) -> BetAnalysis:
    weights = enumeration.weights
    total = enumeration.total
    combos = [int(weights[cells].sum()) for cells in table.cells_of_class]
    classes = tuple(
        PayoutClassResult(name, odds, count, total)
        for name, odds, count in zip(table.classes, table.odds, combos, strict=True)
    )
    # Sums over a common denominator: one normalisation per figure, not one per class.
    den = math.lcm(*(odds.denominator for odds in table.odds))
    first = sum(
        o.numerator * (den // o.denominator) * c for o, c in zip(table.odds, combos, strict=True)
    )
    second = sum(
        o.numerator**2 * (den // o.denominator) ** 2 * c
        for o, c in zip(table.odds, combos, strict=True)
    )
    mean = Fraction(first, den * total)
    hits = sum(c for o, c in zip(table.odds, combos, strict=True) if o > 0)
    return BetAnalysis(
        bet=table.bet,
        paytable=table.paytable.name,
        classes=classes,
        house_edge=-mean,
        variance=Fraction(second * total - first * first, den * den * total * total),
        hit_frequency=Fraction(hits, total),
    )


def analyze_bet(
    bet: Bet, paytable: Paytable, composition_or_enumeration: Composition | Enumeration
) -> BetAnalysis:
    """Exact figures of ``bet`` under any ``paytable`` (not only a preset's).

    >>> from punto.paytables import paytable
    >>> tie9 = analyze_bet(Bet.TIE, paytable("tie_9"), Composition.fresh(8))
    >>> round(float(tie9.house_edge), 5)
    0.04844
    """
    enumeration = (
        composition_or_enumeration
        if isinstance(composition_or_enumeration, Enumeration)
        else enumerate_coups(composition_or_enumeration)
    )
    return _price(bet_table(bet, paytable), enumeration)


@dataclass(frozen=True, slots=True)
class OutcomeProbabilities:
    """Exact probabilities of a Banker win, a Player win and a tie [M11], [M12]."""

    banker: Fraction
    player: Fraction
    tie: Fraction

    def as_dict(self) -> dict[str, float]:
        """Float view: ``{"banker": …, "player": …, "tie": …}``."""
        return {"banker": float(self.banker), "player": float(self.player), "tie": float(self.tie)}


def _cells_of_winner() -> tuple[npt.NDArray[np.intp], ...]:
    winners = [facts.winner for facts in _CELL_FACTS]
    return tuple(
        np.flatnonzero(np.array([w is winner for w in winners]))
        for winner in (Winner.BANKER, Winner.PLAYER, Winner.TIE)
    )


_CELLS_OF_WINNER = _cells_of_winner()


def _outcomes(enumeration: Enumeration) -> OutcomeProbabilities:
    weights = enumeration.weights
    banker, player, tie = (int(weights[cells].sum()) for cells in _CELLS_OF_WINNER)
    total = enumeration.total
    return OutcomeProbabilities(
        banker=Fraction(banker, total),
        player=Fraction(player, total),
        tie=Fraction(tie, total),
    )


COUP_EVENTS: tuple[str, ...] = ("banker", "player", "tie", "player_pair", "banker_pair", "natural")
"""The coup results whose frequencies a table's results are tested against."""


def event_holds(facts: CoupFacts, event: str) -> bool:
    """Whether one of :data:`COUP_EVENTS` happened in a coup with these facts."""
    match event:
        case "banker" | "player" | "tie":
            return facts.winner.value == event
        case "natural":
            return facts.player_natural or facts.banker_natural
        case _:
            return bool(getattr(facts, event))


_CELLS_OF_EVENT = {
    event: np.flatnonzero(np.array([event_holds(f, event) for f in _CELL_FACTS]))
    for event in COUP_EVENTS
}


def event_probabilities(composition: Composition) -> dict[str, Fraction]:
    """Exact probability of each of :data:`COUP_EVENTS` for the next coup of
    ``composition`` (a natural: either hand's two-card 8 or 9 [M9]).

    >>> p = event_probabilities(Composition.fresh(8))
    >>> round(float(p["tie"]), 6), round(float(p["player_pair"]), 6)
    (0.095156, 0.074699)
    """
    enumeration = enumerate_coups(composition)
    weights = enumeration.weights
    return {
        event: Fraction(int(weights[cells].sum()), enumeration.total)
        for event, cells in _CELLS_OF_EVENT.items()
    }


@dataclass(frozen=True, slots=True)
class Analysis:
    """Exact analysis of one composition under one table's rules."""

    rules: str
    composition: Composition
    total: int
    """Ordered six-card draws: the common denominator of every probability."""
    outcomes: OutcomeProbabilities
    bets: Mapping[Bet, BetAnalysis]

    def as_dict(self) -> dict[str, object]:
        """The documented JSON of ``punto edge --json``."""
        return {
            "rules": self.rules,
            "cards": self.composition.cards,
            "composition": self.composition.as_dict(),
            "outcomes": self.outcomes.as_dict(),
            "bets": {
                bet.value: {
                    **result.as_dict(),
                    "paytable": result.paytable,
                    "classes": {c.name: float(c.probability) for c in result.classes},
                }
                for bet, result in self.bets.items()
            },
        }


def _composition_for(rules: Rules, composition: Composition | None) -> Composition:
    return Composition.fresh(rules.decks) if composition is None else composition


def _bets_for(rules: Rules, bets: Iterable[Bet] | None) -> tuple[Bet, ...]:
    chosen = rules.offered_bets if bets is None else tuple(bets)
    for bet in chosen:
        rules.paytable_for(bet)
    return chosen


def analyze(
    rules: Rules,
    composition: Composition | None = None,
    *,
    bets: Iterable[Bet] | None = None,
) -> Analysis:
    """Exact analysis of ``composition`` (default: a fresh shoe of the rules' decks) for
    ``bets`` (default: every bet the rules offer), each priced by the rules' paytable."""
    shoe = _composition_for(rules, composition)
    enumeration = enumerate_coups(shoe)
    results = {
        bet: _price(bet_table(bet, rules.paytable_for(bet)), enumeration)
        for bet in _bets_for(rules, bets)
    }
    return Analysis(
        rules=rules.name,
        composition=shoe,
        total=enumeration.total,
        outcomes=_outcomes(enumeration),
        bets=MappingProxyType(results),
    )


# -- the fast float path --------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _odds_matrix(tables: tuple[BetTable, ...]) -> npt.NDArray[np.float64]:
    matrix = np.stack([table.odds_of_cell for table in tables])
    matrix.flags.writeable = False
    return matrix


def _tables(rules: Rules, bets: Iterable[Bet] | None) -> tuple[BetTable, ...]:
    return tuple(bet_table(bet, rules.paytable_for(bet)) for bet in _bets_for(rules, bets))


def house_edges(
    rules: Rules, composition: Composition | None = None, *, bets: Iterable[Bet] | None = None
) -> dict[Bet, float]:
    """Every bet's house edge as a float (the fast path for tracking).

    >>> from punto.rules import preset
    >>> edges = house_edges(preset("macau"))
    >>> round(edges[Bet.PLAYER], 6), round(edges[Bet.TIE], 6)
    (0.012351, 0.143596)
    """
    tables = _tables(rules, bets)
    probabilities = enumerate_coups(_composition_for(rules, composition)).probabilities()
    edges = -(_odds_matrix(tables) @ probabilities)
    return {table.bet: float(edge) for table, edge in zip(tables, edges.tolist(), strict=True)}


# -- effect of removal ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EffectOfRemoval:
    """For each bet, how much the house edge moves when one card of each rank is taken
    out of the composition (positive: removing it helps the house).

    Removing a card at random changes nothing on average, so for every bet
    ``sum(count(rank) * effect[rank]) == 0`` exactly.
    """

    composition: Composition
    house_edges: Mapping[Bet, Fraction]
    effects: Mapping[Bet, Mapping[Rank, Fraction]]

    def as_dict(self) -> dict[str, dict[str, float]]:
        """Bet name to rank character to the change in house edge (float)."""
        return {
            bet.value: {rank.char: float(value) for rank, value in by_rank.items()}
            for bet, by_rank in self.effects.items()
        }


def effect_of_removal(
    rules: Rules,
    composition: Composition | None = None,
    *,
    bets: Iterable[Bet] | None = None,
) -> EffectOfRemoval:
    """Exact effect of removing one card of each rank, for every bet.

    >>> from punto.rules import preset
    >>> eor = effect_of_removal(preset("macau"), bets=[Bet.BANKER])
    >>> sum(32 * v for v in eor.effects[Bet.BANKER].values())
    Fraction(0, 1)
    """
    shoe = _composition_for(rules, composition)
    tables = _tables(rules, bets)
    base_enum = enumerate_coups(shoe)
    base = {table.bet: _price(table, base_enum).house_edge for table in tables}
    effects: dict[Bet, dict[Rank, Fraction]] = {table.bet: {} for table in tables}
    for rank in RANKS:
        if shoe.count(rank) == 0:
            continue
        enum = enumerate_coups(shoe.removing_rank(rank))
        for table in tables:
            effects[table.bet][rank] = _price(table, enum).house_edge - base[table.bet]
    return EffectOfRemoval(
        composition=shoe,
        house_edges=MappingProxyType(base),
        effects=MappingProxyType({bet: MappingProxyType(v) for bet, v in effects.items()}),
    )


# -- tracking a shoe ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrackPoint:
    """The house edge of every bet for what is left after ``hand`` hands."""

    hand: int
    """Hands dealt so far (0: before the first hand)."""
    cards_left: int
    house_edges: Mapping[Bet, float]

    @property
    def favourable(self) -> tuple[Bet, ...]:
        """Bets whose house edge is negative here: the player has the edge."""
        return tuple(bet for bet, edge in self.house_edges.items() if edge < 0)


def track(
    rules: Rules,
    hands: Iterable[Sequence[Card]],
    *,
    start: Composition | None = None,
    bets: Iterable[Bet] | None = None,
) -> list[TrackPoint]:
    """The edge of every bet before the first hand and after each hand, removing each
    hand's cards from ``start`` (default: a fresh shoe). Stops once fewer than
    :data:`MIN_CARDS` cards are left.
    """
    shoe = _composition_for(rules, start)
    tables = _tables(rules, bets)
    matrix = _odds_matrix(tables)
    points: list[TrackPoint] = []

    def point(number: int) -> None:
        probabilities = enumerate_coups(shoe).probabilities()
        edges = -(matrix @ probabilities)
        points.append(
            TrackPoint(
                number,
                shoe.cards,
                MappingProxyType(
                    {t.bet: float(e) for t, e in zip(tables, edges.tolist(), strict=True)}
                ),
            )
        )

    point(0)
    for number, cards in enumerate(hands, start=1):
        shoe = shoe.removing(cards)
        if shoe.cards < MIN_CARDS:
            break
        point(number)
    return points


def _seen_cards(
    rules: Rules, events: Iterable[ShoeEvent], *, include_burned: bool
) -> Iterator[tuple[bool, tuple[Card, ...]]]:
    """(is a hand, cards a player saw) for each event that takes cards out."""
    for event in events:
        if isinstance(event, HandDealt | DemoHandDealt):
            outcome = event.outcome
            yield isinstance(event, HandDealt), (*outcome.player, *outcome.banker)
        elif isinstance(event, CardsBurned):
            if include_burned:
                yield False, event.cards
            elif (
                event.reason == "start" and rules.burn is BurnRule.FIRST_CARD_VALUE and event.cards
            ):
                yield False, event.cards[:1]  # [M2] the first card is turned face up


def track_events(
    rules: Rules,
    events: Iterable[ShoeEvent],
    *,
    include_burned: bool = False,
    bets: Iterable[Bet] | None = None,
) -> list[TrackPoint]:
    """Track a shoe dealt by :class:`~punto.dealing.ShoeDealer`: the edges before the
    first hand and after each hand, for the cards a player has seen.

    Burned cards stay unseen unless ``include_burned`` (the house's view): removing
    unseen cards changes no expectation. The first card turned by the
    ``first_card_value`` burn rule is seen [M2].

    >>> from punto.dealing import ShoeDealer
    >>> from punto.rules import preset
    >>> rules = preset("macau").replace(decks=1, cut_min_from_end=12, cut_max_from_end=12)
    >>> points = track_events(rules, ShoeDealer(rules, seed=3).deal_all())
    >>> points[0].hand, points[-1].hand > 0
    (0, True)
    """
    start: list[Card] = []
    hands: list[list[Card]] = []
    pending: list[Card] = []
    for is_hand, cards in _seen_cards(rules, events, include_burned=include_burned):
        if is_hand:
            hands.append([*pending, *cards])
            pending = []
        elif not hands:
            start.extend(cards)  # seen before the first hand: part of the starting point
        else:
            pending.extend(cards)
    shoe = Composition.fresh(rules.decks).removing(start)
    return track(rules, hands, start=shoe, bets=bets)


# -- the plain reference enumeration ----------------------------------------------------


def reference_enumeration(composition: Composition) -> dict[CoupFacts, int]:
    """The same counts as :func:`enumerate_coups`, by a plain pure-Python enumeration.

    It shares nothing with the compiled kernel but the tableau functions and
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
        if is_natural(p_two) or is_natural(b_two):
            finish(player, banker, pairs, w)
            return
        if player_draws(p_two):
            for v5 in range(10):
                a = values_left[v5]
                if not a:
                    continue
                values_left[v5] -= 1
                if banker_draws(b_two, player_third=v5):
                    for v6 in range(10):
                        if values_left[v6]:
                            finish([*player, v5], [*banker, v6], pairs, w * a * values_left[v6])
                else:
                    finish([*player, v5], banker, pairs, w * a)
                values_left[v5] += 1
        elif banker_draws(b_two, player_third=None):
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
