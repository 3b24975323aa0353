"""A player's currency at a table: the amounts they bet in, when not the table's own.

A table's limit tiers and chips are in its own currency. A player who brings another
currency (an operator's player, launched in their own currency) plays on the same tiers,
by name, with the amounts their operator's *limit group* gives each tier in that
currency, and with that currency's chips [L]. No exchange rate is involved: a currency
is its own book.

A table that limits the difference between its Banker and Player totals [M14] counts
one currency's bets against another's only through a rate, so it takes players of its own
currency's book only.

>>> from punto.tiers import LimitTier
>>> low = LimitTier(name="low", min_bet=100, max_bet=100_000, side_min=100, side_max=20_000)
>>> purse = Purse("JPY", digits=0, book="JPY", tiers={"low": low}, chips=(100, 500, 1000))
>>> purse.tier("low").max_bet, purse.chips
(100000, (100, 500, 1000))
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from punto.errors import RulesError, SeatError
from punto.tiers import LimitTier

__all__ = ["Purse"]

_CODE = re.compile(r"^[A-Z]{3}$")


@dataclass(frozen=True, slots=True)
class Purse:
    """The currency a player bets in at a table: its ISO 4217 ``currency`` and minor-unit
    ``digits``, the ledger ``book`` its money is kept in (``""``: the house currency's),
    each tier's amounts in it by tier name, and its chips (minor units, ascending)."""

    currency: str
    digits: int
    book: str
    tiers: Mapping[str, LimitTier] = field(default_factory=lambda: MappingProxyType({}))
    chips: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.currency, str) or not _CODE.match(self.currency):
            raise RulesError(f"a currency is an ISO 4217 code, not {self.currency!r}")
        if isinstance(self.digits, bool) or not isinstance(self.digits, int):
            raise RulesError("a currency's digits are a whole number")
        if not 0 <= self.digits <= 6:
            raise RulesError(f"a currency has 0-6 minor-unit digits, not {self.digits}")
        if self.book not in ("", self.currency):
            raise RulesError(f"the {self.currency} purse is kept in its own book")
        object.__setattr__(self, "tiers", MappingProxyType(dict(self.tiers)))
        for name, tier in self.tiers.items():
            if not isinstance(tier, LimitTier) or tier.name != name:
                raise RulesError(f"the {self.currency} limits of tier {name!r} are not its tier")
        chips = tuple(self.chips)
        object.__setattr__(self, "chips", chips)
        if not chips or any(isinstance(c, bool) or not isinstance(c, int) for c in chips):
            raise RulesError(f"the {self.currency} chips are whole numbers of minor units")
        if any(c <= 0 for c in chips) or list(chips) != sorted(set(chips)):
            raise RulesError(f"the {self.currency} chips are positive and ascending")

    def tier(self, name: str) -> LimitTier:
        """The tier ``name`` in this currency; :class:`SeatError` when the limit group
        gives it no amounts here."""
        found = self.tiers.get(name)
        if found is None:
            raise SeatError(
                f"the {name} limits have no amounts in {self.currency} for this player: "
                "their operator's limit group does not name them"
            )
        return found
