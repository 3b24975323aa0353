"""Punto: an exact, fast baccarat system.

The rules core (``cards``, ``tableau``, ``coup``, ``outcome``, ``shoe``, ``dealing``,
``rules``) is pure: no I/O, randomness passed in. The command line lives in
:mod:`punto.cli`.

>>> from punto import deal_coup, parse_cards
>>> deal_coup(parse_cards("9S 8D KH 7C")).winner.value
'player'
"""

from punto.cards import Card, Rank, Suit, parse_cards
from punto.coup import CardDealt, Coup, Position, deal_coup
from punto.dealing import ShoeDealer
from punto.errors import PuntoError
from punto.outcome import Outcome, Side, Winner
from punto.rules import Rules, preset, preset_names
from punto.shoe import Shoe

__all__ = [
    "Card",
    "CardDealt",
    "Coup",
    "Outcome",
    "Position",
    "PuntoError",
    "Rank",
    "Rules",
    "Shoe",
    "ShoeDealer",
    "Side",
    "Suit",
    "Winner",
    "deal_coup",
    "parse_cards",
    "preset",
    "preset_names",
]

__version__ = "0.1.0"
