"""Punto's typed errors.

Every error a user can cause is a :class:`PuntoError`, and every one of those is
a :class:`ValueError`, so callers may catch either. Messages say what was wrong
and, where there is one, the limit or value that was broken.
"""

from __future__ import annotations

__all__ = [
    "AmountError",
    "BetClosedError",
    "BetCombinationError",
    "BetError",
    "BetLimitError",
    "BetNotOfferedError",
    "CardError",
    "CoupError",
    "IncompleteCoupError",
    "PaytableError",
    "PresetError",
    "PuntoError",
    "RoadError",
    "RulesError",
    "ShoeError",
    "ShoeExhaustedError",
    "TableauError",
    "TieOptionError",
    "UnknownBetError",
]


class PuntoError(ValueError):
    """Base class of every error Punto raises for bad input or an illegal action."""


class CardError(PuntoError):
    """A card code that cannot be read, or a card that cannot be in the shoe."""


class RulesError(PuntoError):
    """A rules setting out of its allowed range."""


class PresetError(RulesError):
    """An unknown rules preset name."""


class ShoeError(PuntoError):
    """An action the shoe cannot do in its current state."""


class ShoeExhaustedError(ShoeError):
    """The shoe has no card left to deal."""


class CoupError(PuntoError):
    """An action a coup cannot take in its current state."""


class TableauError(CoupError):
    """A card dealt against the drawing rules [M9], [S8]."""


class IncompleteCoupError(CoupError):
    """Too few cards to finish a coup; the message names the missing position."""


class BetError(PuntoError):
    """A bet that cannot be accepted; nothing was placed."""


class UnknownBetError(BetError):
    """A bet name that does not exist."""


class BetNotOfferedError(BetError):
    """A bet this table's rules do not offer."""


class AmountError(BetError):
    """An amount that is zero, negative, non-numeric or finer than the minor unit."""


class BetLimitError(BetError):
    """A bet outside a table limit; ``limit`` names the limit and ``value`` its amount
    (minor units)."""

    def __init__(self, message: str, *, limit: str, value: int) -> None:
        super().__init__(message)
        self.limit = limit
        self.value = value


class BetCombinationError(BetError):
    """Bets that may not be placed together ([S11] one side only, [L] Tiger restriction)."""


class BetClosedError(BetError):
    """A bet closed at this point of the shoe ([O] Big/Small and Super Tie from hand 31)."""


class PaytableError(RulesError):
    """An unknown paytable or payout class."""


class TieOptionError(BetError):
    """A change to bets standing in a tie that the table's tie option forbids [M12]."""


class RoadError(PuntoError):
    """A road (scoreboard) input that cannot be read or a road setting out of range [O]."""
