"""Side bets closed when the shoe turns [EZ-C]: before each hand, the exact house edge of
every side bet a table offers on the cards not yet seen, and those below the operator's
threshold (:attr:`punto.rules.Rules.close_below_edge`).

The cards not yet seen are the shoe less every card shown in its hands: the burned cards
stay among them, as a player who counts would take them, so a closing tells nobody more
than the cards on the layout already did.

>>> from punto.rules import preset
>>> pricer = SideBetPricer(preset("ez").replace(close_below_edge=0.0))
>>> pricer.bets
(<Bet.DRAGON7: 'dragon7'>, <Bet.PANDA8: 'panda8'>)
>>> pricer.closed(Composition.fresh(8))
()
>>> rich_in_sevens = Composition.parse("7=20,T=12,J=12,Q=12,K=12,8=4,9=4,A=4,2=4,3=4,4=4,5=4,6=4")
>>> [(bet.value, round(edge, 3)) for bet, edge in pricer.closed(rich_in_sevens)]
[('dragon7', -0.347)]
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import numpy.typing as npt

from punto.analysis.composition import Composition
from punto.analysis.enumeration import enumerate_coups
from punto.analysis.pricing import bet_tables, odds_matrix
from punto.bets import Bet
from punto.rules import Rules

__all__ = ["NEVER_CLOSED", "SideBetPricer", "side_bets"]

NEVER_CLOSED = frozenset({Bet.PLAYER, Bet.BANKER, Bet.TIE})
"""The bets of the main game: the table deals them whatever the shoe holds."""

_KEPT = 64
"""Compositions whose edges a pricer keeps (a shoe's hands, a table's restarts)."""


def side_bets(rules: Rules) -> tuple[Bet, ...]:
    """The side bets ``rules`` offer, in the standard order (every bet but the main game's).

    >>> from punto.rules import preset
    >>> side_bets(preset("macau"))
    (<Bet.PLAYER_PAIR: 'player_pair'>, <Bet.BANKER_PAIR: 'banker_pair'>)
    """
    return tuple(bet for bet in rules.offered_bets if bet not in NEVER_CLOSED)


class SideBetPricer:
    """The house edge of the side bets of one set of rules on any composition, priced
    together (one enumeration, one matrix product) and kept per composition."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.bets = side_bets(rules)
        self._matrix: npt.NDArray[np.float64] | None = (
            odds_matrix(bet_tables(rules, self.bets)) if self.bets else None
        )
        self._kept: OrderedDict[tuple[int, ...], tuple[float, ...]] = OrderedDict()

    def edges(self, composition: Composition) -> tuple[float, ...]:
        """The house edge of each of :attr:`bets` (in their order) on ``composition``."""
        key = composition.counts
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            return found
        if self._matrix is None:
            edges: tuple[float, ...] = ()
        else:
            probabilities = enumerate_coups(composition).probabilities()
            edges = tuple((-(self._matrix @ probabilities)).tolist())
        self._kept[key] = edges
        if len(self._kept) > _KEPT:
            self._kept.popitem(last=False)
        return edges

    def closed(self, composition: Composition) -> tuple[tuple[Bet, float], ...]:
        """The side bets closed on ``composition`` with their edges: those whose house
        edge is below the rules' threshold (none when the rules set no threshold)."""
        threshold = self.rules.close_below_edge
        if threshold is None or not self.bets:
            return ()
        return tuple(
            (bet, edge)
            for bet, edge in zip(self.bets, self.edges(composition), strict=True)
            if edge < threshold
        )
