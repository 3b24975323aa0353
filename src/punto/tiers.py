"""Limit tiers: the per-bet minimum and maximum a player sits on [L] [O].

Pure data of the rules (:class:`punto.rules.Rules` holds its tiers); the checks of bets
against a tier and the other table limits are :mod:`punto.limits`'s. Amounts are integer
minor units.

>>> from punto.bets import Bet
>>> tier = LimitTier(name="low", min_bet=1000, max_bet=50000, side_min=500, side_max=10000)
>>> tier.limits_for(Bet.BANKER), tier.limits_for(Bet.TIE)
((1000, 50000), (500, 10000))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from punto.bets import MAIN_BETS, Bet
from punto.errors import RulesError

__all__ = ["LimitTier"]


@dataclass(frozen=True, kw_only=True, slots=True)
class LimitTier:
    """Per-bet minimum and maximum (minor units) for players on this tier.

    Player and Banker use ``min_bet``-``max_bet``; every other bet uses
    ``side_min``-``side_max`` unless ``bet_limits`` names it.
    """

    name: str
    min_bet: int
    max_bet: int
    side_min: int
    side_max: int
    bet_limits: Mapping[Bet, tuple[int, int]] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise RulesError("a limit tier needs a name")
        if not isinstance(self.bet_limits, Mapping):
            raise RulesError(f"limit tier {self.name!r}: bet limits must map bets to ranges")
        # A copy: changing the mapping given here later cannot change the tier.
        object.__setattr__(self, "bet_limits", MappingProxyType(dict(self.bet_limits)))
        for bet in self.bet_limits:
            if not isinstance(bet, Bet):
                raise RulesError(
                    f"limit tier {self.name!r}: bet limits are keyed by Bet, not {bet!r}"
                )
        pairs = [(self.min_bet, self.max_bet), (self.side_min, self.side_max)]
        pairs.extend(self.bet_limits.values())
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) == 2 and all(map(_whole, pair))):
                raise RulesError(
                    f"limit tier {self.name!r}: a limit is a pair of whole minor units, "
                    f"not {pair!r}"
                )
            low, high = pair
            if not 0 < low <= high:
                raise RulesError(f"limit tier {self.name!r}: bad range {low}-{high}")

    def limits_for(self, bet: Bet) -> tuple[int, int]:
        """(minimum, maximum) of one bet on this tier."""
        if bet in self.bet_limits:
            return self.bet_limits[bet]
        if bet in MAIN_BETS:
            return (self.min_bet, self.max_bet)
        return (self.side_min, self.side_max)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
