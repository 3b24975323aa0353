"""The result of a coup: each hand's cards, totals, winner, natural and pairs.

>>> from punto.cards import parse_cards
>>> out = Outcome.from_hands(parse_cards("9S KH"), parse_cards("8D 7C"))
>>> out.winner, out.natural, out.player_total, out.banker_total, out.cards_used
(<Winner.PLAYER: 'player'>, True, 9, 5, 4)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from punto.cards import Card
from punto.tableau import hand_total, is_natural

__all__ = ["Outcome", "Side", "Winner"]


class Side(enum.Enum):
    """One of the two hands [M6]."""

    PLAYER = "player"
    BANKER = "banker"


class Winner(enum.Enum):
    """Who won a coup [M11], [M12]."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished coup.

    ``natural`` is true when either hand holds a two-card 8 or 9 [M9]; a pair is a
    hand's first two cards of the same rank (J-J yes, J-Q no) [M13].
    """

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    player_total: int
    banker_total: int
    winner: Winner
    natural: bool
    player_pair: bool
    banker_pair: bool

    @classmethod
    def from_hands(cls, player: Sequence[Card], banker: Sequence[Card]) -> Outcome:
        """Build the outcome of two finished hands (the tableau is not checked here)."""
        p_total = hand_total([c.value for c in player])
        b_total = hand_total([c.value for c in banker])
        if p_total > b_total:
            winner = Winner.PLAYER
        elif b_total > p_total:
            winner = Winner.BANKER
        else:
            winner = Winner.TIE
        p_two = hand_total([c.value for c in player[:2]])
        b_two = hand_total([c.value for c in banker[:2]])
        return cls(
            player=tuple(player),
            banker=tuple(banker),
            player_total=p_total,
            banker_total=b_total,
            winner=winner,
            natural=is_natural(p_two) or is_natural(b_two),
            player_pair=len(player) >= 2 and player[0].rank == player[1].rank,
            banker_pair=len(banker) >= 2 and banker[0].rank == banker[1].rank,
        )

    @property
    def cards_used(self) -> int:
        """Number of cards dealt in the coup (4 to 6)."""
        return len(self.player) + len(self.banker)

    @property
    def player_natural(self) -> bool:
        """Whether the Player's first two cards total 8 or 9."""
        return is_natural(hand_total([c.value for c in self.player[:2]]))

    @property
    def banker_natural(self) -> bool:
        """Whether the Banker's first two cards total 8 or 9."""
        return is_natural(hand_total([c.value for c in self.banker[:2]]))

    @property
    def winning_total(self) -> int:
        """The winner's total (the common total on a tie)."""
        return self.player_total if self.winner is Winner.PLAYER else self.banker_total

    def to_json(self) -> dict[str, Any]:
        """The outcome's one JSON form, on the wire and in every stored record (the
        cards, totals, winner, natural and pairs); :meth:`from_json` reads it back.

        >>> from punto.cards import parse_cards
        >>> out = Outcome.from_hands(parse_cards("AS AH"), parse_cards("3S 4S"))
        >>> out.to_json()["winner"], Outcome.from_json(out.to_json()) == out
        ('banker', True)
        """
        return {
            "player": [c.code for c in self.player],
            "banker": [c.code for c in self.banker],
            "player_total": self.player_total,
            "banker_total": self.banker_total,
            "winner": self.winner.value,
            "natural": self.natural,
            "player_pair": self.player_pair,
            "banker_pair": self.banker_pair,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """The outcome :meth:`to_json` wrote: only the cards are read (totals, winner and
        flags are computed again, so a record cannot contradict its cards)."""
        return cls.from_hands(
            [Card.parse(c) for c in data["player"]], [Card.parse(c) for c in data["banker"]]
        )

    def as_dict(self) -> dict[str, object]:
        """Plain data with the documented keys of ``punto coup --json``: :meth:`to_json`
        and ``cards_used``.

        >>> from punto.cards import parse_cards
        >>> Outcome.from_hands(parse_cards("AS AH"), parse_cards("3S 4S")).as_dict()["winner"]
        'banker'
        """
        return {**self.to_json(), "cards_used": self.cards_used}
