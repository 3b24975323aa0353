"""Punto's typed errors.

Every error a user can cause is a :class:`PuntoError`, and every one of those is
a :class:`ValueError`, so callers may catch either. Messages say what was wrong
and, where there is one, the limit or value that was broken.
"""

from __future__ import annotations

__all__ = [
    "CardError",
    "CoupError",
    "IncompleteCoupError",
    "PresetError",
    "PuntoError",
    "RulesError",
    "ShoeError",
    "ShoeExhaustedError",
    "TableauError",
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
