"""Pricing bets: each bet's payout class cell by cell (:func:`punto.bets.classify`, once)
under its paytable, and the exact figures of a composition (probabilities, house edge,
RTP, variance, hit frequency), with the fast float path of house edges."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from punto.analysis.cells import CELL_FACTS
from punto.analysis.composition import Composition
from punto.analysis.enumeration import Enumeration, enumerate_coups
from punto.bets import Bet, CoupFacts, classify
from punto.outcome import Winner
from punto.paytables import Paytable
from punto.rules import Rules

__all__ = [
    "COUP_EVENTS",
    "Analysis",
    "BetAnalysis",
    "BetTable",
    "OutcomeProbabilities",
    "PayoutClassResult",
    "analyze",
    "analyze_bet",
    "bet_table",
    "bet_tables",
    "composition_for",
    "event_holds",
    "event_probabilities",
    "house_edges",
    "odds_matrix",
    "price",
]


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
    ('win', 'win_on_6', 'win_three_card_7', 'push', 'lose')
    """
    key = (bet, paytable.name, tuple(sorted(paytable.pays.items())), paytable.pushes)
    return _cached_table(key, paytable)


@functools.lru_cache(maxsize=256)
def _cached_table_for(key: _PaytableKey) -> BetTable:
    bet, name, pays, pushes = key
    paytable = Paytable(name=name, bet=bet, pays=MappingProxyType(dict(pays)), pushes=pushes)
    names = [classify(bet, facts) for facts in CELL_FACTS]
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


def price(table: BetTable, enumeration: Enumeration) -> BetAnalysis:
    """The exact figures of ``table``'s bet over ``enumeration``'s coups."""
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
    return price(bet_table(bet, paytable), enumeration)


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
    winners = [facts.winner for facts in CELL_FACTS]
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
    event: np.flatnonzero(np.array([event_holds(f, event) for f in CELL_FACTS]))
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


def composition_for(rules: Rules, composition: Composition | None) -> Composition:
    """``composition``, or a fresh shoe of the rules' decks."""
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
    shoe = composition_for(rules, composition)
    enumeration = enumerate_coups(shoe)
    results = {
        bet: price(bet_table(bet, rules.paytable_for(bet)), enumeration)
        for bet in _bets_for(rules, bets)
    }
    return Analysis(
        rules=rules.name,
        composition=shoe,
        total=enumeration.total,
        outcomes=_outcomes(enumeration),
        bets=MappingProxyType(results),
    )


@functools.lru_cache(maxsize=64)
def odds_matrix(tables: tuple[BetTable, ...]) -> npt.NDArray[np.float64]:
    """The odds of each cell, a row per bet table (read-only, cached)."""
    matrix = np.stack([table.odds_of_cell for table in tables])
    matrix.flags.writeable = False
    return matrix


def bet_tables(rules: Rules, bets: Iterable[Bet] | None) -> tuple[BetTable, ...]:
    """The tables of ``bets`` (default: every bet the rules offer) under the rules'
    paytables."""
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
    tables = bet_tables(rules, bets)
    probabilities = enumerate_coups(composition_for(rules, composition)).probabilities()
    edges = -(odds_matrix(tables) @ probabilities)
    return {table.bet: float(edge) for table, edge in zip(tables, edges.tolist(), strict=True)}
