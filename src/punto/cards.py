"""Playing cards: ranks, suits, baccarat values [M5] and card codes.

A card code is a rank character followed by a suit character: ``AS`` (ace of
spades), ``TD`` or ``10D`` (ten of diamonds), ``KH``, ``9C``.

>>> card = Card.parse("10D")
>>> str(card), card.value
('TD', 0)
>>> [c.value for c in parse_cards("AS 5H KC 9D")]
[1, 5, 0, 9]
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from punto.errors import CardError

__all__ = [
    "DECK_SIZE",
    "RANKS",
    "SUITS",
    "Card",
    "Rank",
    "Suit",
    "deck",
    "iter_cards",
    "parse_cards",
]


class Rank(enum.IntEnum):
    """A card rank; the integer is its order (ace low), not its baccarat value."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def value_points(self) -> int:
        """Baccarat value [M5]: ten and faces 0, ace 1, others their pips.

        >>> Rank.KING.value_points, Rank.ACE.value_points, Rank.SEVEN.value_points
        (0, 1, 7)
        """
        return 0 if self >= Rank.TEN else int(self)

    @property
    def char(self) -> str:
        """The rank's one-character code (``A 2 … 9 T J Q K``)."""
        return _RANK_CHARS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank code: ``A``, ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``.

        >>> Rank.parse("10"), Rank.parse("q")
        (<Rank.TEN: 10>, <Rank.QUEEN: 12>)
        """
        if not isinstance(text, str):
            raise CardError(f"unknown rank {text!r}: expected one of A 2-9 T J Q K")
        key = text.strip().upper()
        if key == "10":
            key = "T"
        try:
            return _CHAR_RANKS[key]
        except KeyError:
            raise CardError(f"unknown rank {text!r}: expected one of A 2-9 T J Q K") from None


@functools.total_ordering
class Suit(enum.Enum):
    """A card suit; the value is its one-character code. Suits order as declared
    (spades, hearts, diamonds, clubs), so that cards of one rank sort too."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return SUITS.index(self) < SUITS.index(other)


_RANK_CHARS = {
    Rank.ACE: "A",
    Rank.TWO: "2",
    Rank.THREE: "3",
    Rank.FOUR: "4",
    Rank.FIVE: "5",
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "T",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}
_CHAR_RANKS = {char: rank for rank, char in _RANK_CHARS.items()}

RANKS: tuple[Rank, ...] = tuple(Rank)
"""All thirteen ranks, ace first."""
SUITS: tuple[Suit, ...] = tuple(Suit)
"""The four suits."""
DECK_SIZE = 52
"""Cards in one deck [M1]."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card.

    >>> Card(Rank.JACK, Suit.HEARTS)
    Card('JH')
    >>> Card.parse("JH").value
    0
    """

    rank: Rank
    suit: Suit

    @property
    def value(self) -> int:
        """Baccarat value of the card [M5]."""
        return self.rank.value_points

    @property
    def code(self) -> str:
        """Two-character code, ten written ``T``: ``TD``."""
        return self.rank.char + self.suit.value

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    @classmethod
    def parse(cls, code: str) -> Card:
        """Read a card code such as ``AS``, ``TD``, ``10D``, ``KH`` or ``9C``.

        >>> Card.parse("ZZ")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        punto.errors.CardError: bad card code 'ZZ': ...
        """
        if not isinstance(code, str):
            raise CardError(_bad_code(code))
        text = code.strip().upper()
        if len(text) not in (2, 3) or not text.isalnum():
            raise CardError(_bad_code(code))
        rank_text, suit_text = text[:-1], text[-1]
        try:
            rank = Rank.parse(rank_text)
            suit = Suit(suit_text)
        except (CardError, ValueError):
            raise CardError(_bad_code(code)) from None
        return cls(rank, suit)


def _bad_code(code: object) -> str:
    return (
        f"bad card code {code!r}: expected a rank (A 2-9 T J Q K) and a suit (S H D C),"
        " e.g. AS, TD, 10D"
    )


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read card codes from a whitespace/comma separated string or an iterable of codes.

    >>> parse_cards("AS,TD 10h")
    [Card('AS'), Card('TD'), Card('TH')]
    """
    return list(iter_cards(text))


def iter_cards(text: str | Iterable[str]) -> Iterator[Card]:
    """Like :func:`parse_cards`, but reads each code only when the card is needed, so
    codes after the last card used are never checked.

    >>> cards = iter_cards("AS KD oops")
    >>> next(cards), next(cards)
    (Card('AS'), Card('KD'))
    """
    codes = text.replace(",", " ").split() if isinstance(text, str) else text
    for code in codes:
        yield Card.parse(code)


def deck() -> Iterator[Card]:
    """The 52 cards of one deck, suit by suit, ace to king.

    >>> cards = list(deck())
    >>> len(cards), cards[0], cards[-1]
    (52, Card('AS'), Card('KC'))
    """
    for suit in SUITS:
        for rank in RANKS:
            yield Card(rank, suit)
