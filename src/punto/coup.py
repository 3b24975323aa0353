"""A coup dealt card by card: the state machine a dealer's scanner drives [M7], [M9], [S8].

The coup says which position takes the next card, accepts one card at a time and
refuses a card the tableau does not allow. Each accepted card is a frozen
:class:`CardDealt` event appended to :attr:`Coup.events`.

>>> from punto.cards import Card
>>> coup = Coup()
>>> for code in ["4S", "7H", "KD", "8C"]:
...     _ = coup.deal(Card.parse(code))
>>> coup.next_position, coup.guidance
(<Position.PLAYER_3: 'P3'>, 'Player draws on 4')
>>> _ = coup.deal(Card.parse("5S"))
>>> coup.next_position, coup.guidance
(<Position.BANKER_3: 'B3'>, "Banker draws on 5 when the Player's third card is 5")
>>> _ = coup.deal(Card.parse("2D"))
>>> coup.is_complete, coup.outcome.winner
(True, <Winner.PLAYER: 'player'>)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from punto.cards import Card
from punto.errors import CoupError, IncompleteCoupError, TableauError
from punto.outcome import Outcome, Side
from punto.tableau import banker_takes_third, hand_total, is_natural, player_takes_third

__all__ = ["CardDealt", "Coup", "DrawReason", "Position", "coup_of_hands", "deal_coup"]


class Position(enum.Enum):
    """Where a card goes, in dealing order [M7]."""

    PLAYER_1 = "P1"
    BANKER_1 = "B1"
    PLAYER_2 = "P2"
    BANKER_2 = "B2"
    PLAYER_3 = "P3"
    BANKER_3 = "B3"

    @property
    def side(self) -> Side:
        """The hand this position belongs to."""
        return Side.PLAYER if self.value[0] == "P" else Side.BANKER

    @property
    def number(self) -> int:
        """Which card of its hand this position holds: 1, 2 or 3."""
        return int(self.value[1])

    @property
    def label(self) -> str:
        """A human name: ``Player's first card``."""
        ordinal = ("first", "second", "third")[self.number - 1]
        return f"{self.side.value.capitalize()}'s {ordinal} card"


class DrawReason(enum.Enum):
    """Why the next card goes where it goes, or why the coup is over [M7], [M9]: the
    dealer's guidance as a code (the client words it)."""

    DEAL = "deal"
    """One of the first four cards, in order [M7]."""
    NATURAL = "natural"
    """A natural 8 or 9: both hands stand, the coup is complete [M9]."""
    PLAYER_DRAWS = "player_draws"
    """The Player draws a third card [M9]."""
    BANKER_DRAWS = "banker_draws"
    """The Banker draws a third card [M9]."""
    BOTH_STAND = "both_stand"
    """Both hands stand on two cards: the coup is complete [M9]."""
    BANKER_STANDS = "banker_stands"
    """The Banker stands after the Player's third card: the coup is complete [M9]."""
    COMPLETE = "complete"
    """Both hands have their third card: the coup is complete."""


_INITIAL = (Position.PLAYER_1, Position.BANKER_1, Position.PLAYER_2, Position.BANKER_2)


@dataclass(frozen=True, slots=True)
class CardDealt:
    """Event: a card was dealt to a position."""

    position: Position
    card: Card


class Coup:
    """One coup in progress. Actions follow verify / can / do: :meth:`verify_deal`
    raises, :meth:`can_deal` answers, :meth:`deal` applies and returns an event.
    """

    __slots__ = ("_banker", "_events", "_next", "_player")

    def __init__(self) -> None:
        self._player: list[Card] = []
        self._banker: list[Card] = []
        self._events: list[CardDealt] = []
        self._next: Position | None = Position.PLAYER_1

    # -- state ---------------------------------------------------------------

    @property
    def events(self) -> tuple[CardDealt, ...]:
        """Every card dealt so far, in order."""
        return tuple(self._events)

    @property
    def player_cards(self) -> tuple[Card, ...]:
        """The Player's cards so far."""
        return tuple(self._player)

    @property
    def banker_cards(self) -> tuple[Card, ...]:
        """The Banker's cards so far."""
        return tuple(self._banker)

    @property
    def player_total(self) -> int:
        """The Player's total so far [M5]."""
        return hand_total([c.value for c in self._player])

    @property
    def banker_total(self) -> int:
        """The Banker's total so far [M5]."""
        return hand_total([c.value for c in self._banker])

    @property
    def next_position(self) -> Position | None:
        """Where the next card goes, or ``None`` once the coup is complete."""
        return self._next

    def _compute_next(self) -> Position | None:
        dealt = len(self._events)
        if dealt < 4:
            return _INITIAL[dealt]
        p_two = hand_total([c.value for c in self._player[:2]])
        b_two = hand_total([c.value for c in self._banker[:2]])
        if len(self._player) == 2 and len(self._banker) == 2:
            if player_takes_third(p_two, b_two):
                return Position.PLAYER_3
            return Position.BANKER_3 if banker_takes_third(p_two, b_two, None) else None
        if len(self._player) == 3 and len(self._banker) == 2:
            third = self._player[2].value
            return Position.BANKER_3 if banker_takes_third(p_two, b_two, third) else None
        return None

    @property
    def is_complete(self) -> bool:
        """Whether the tableau deals no more cards."""
        return self.next_position is None

    @property
    def reason(self) -> DrawReason:
        """Why the next card goes to :attr:`next_position`, or why the coup is over.

        >>> Coup().reason
        <DrawReason.DEAL: 'deal'>
        """
        nxt = self.next_position
        if len(self._events) < 4:
            return DrawReason.DEAL
        p_two = hand_total([c.value for c in self._player[:2]])
        b_two = hand_total([c.value for c in self._banker[:2]])
        if is_natural(p_two) or is_natural(b_two):
            return DrawReason.NATURAL
        if nxt is Position.PLAYER_3:
            return DrawReason.PLAYER_DRAWS
        if nxt is Position.BANKER_3:
            return DrawReason.BANKER_DRAWS
        if len(self._player) == 2 and len(self._banker) == 2:
            return DrawReason.BOTH_STAND
        if len(self._banker) == 2:
            return DrawReason.BANKER_STANDS
        return DrawReason.COMPLETE

    @property
    def guidance(self) -> str:
        """Why the next card goes where it goes (or why the coup is over), for the dealer."""
        dealt = len(self._events)
        nxt = self.next_position
        if dealt < 4:
            assert nxt is not None
            return f"deal the {nxt.label}"
        p_two = hand_total([c.value for c in self._player[:2]])
        b_two = hand_total([c.value for c in self._banker[:2]])
        if is_natural(p_two) or is_natural(b_two):
            who = "Player" if is_natural(p_two) else "Banker"
            total = p_two if is_natural(p_two) else b_two
            return f"natural: {who} has {total}, both stand"
        if nxt is Position.PLAYER_3:
            return f"Player draws on {p_two}"
        if len(self._player) == 2:
            if nxt is Position.BANKER_3:
                return f"Player stands on {p_two}; Banker draws on {b_two}"
            if len(self._banker) == 2:
                return f"Player stands on {p_two}; Banker stands on {b_two}"
        third = self._player[2].value if len(self._player) == 3 else None
        if nxt is Position.BANKER_3:
            return f"Banker draws on {b_two} when the Player's third card is {third}"
        if len(self._banker) == 2 and third is not None:
            return f"Banker stands on {b_two} when the Player's third card is {third}"
        return "coup complete"

    # -- dealing -------------------------------------------------------------

    def verify_deal(self, card: Card, position: Position | None = None) -> None:
        """Raise :class:`TableauError` if ``card`` may not be dealt now (to ``position``)."""
        if not isinstance(card, Card):
            raise CoupError(f"not a card: {card!r}")
        nxt = self.next_position
        if nxt is None:
            raise TableauError(f"no card may be dealt: the coup is complete ({self.guidance})")
        if position is not None and position is not nxt:
            raise TableauError(
                f"a card for the {position.label} is against the tableau: "
                f"the next card is the {nxt.label} ({self.guidance})"
            )

    def can_deal(self, card: Card, position: Position | None = None) -> bool:
        """Whether :meth:`deal` would accept ``card`` (at ``position``)."""
        try:
            self.verify_deal(card, position)
        except CoupError:
            return False
        return True

    def deal(self, card: Card, position: Position | None = None) -> CardDealt:
        """Deal ``card`` to the next position (which must equal ``position`` if given)."""
        self.verify_deal(card, position)
        nxt = self.next_position
        assert nxt is not None
        (self._player if nxt.side is Side.PLAYER else self._banker).append(card)
        event = CardDealt(nxt, card)
        self._events.append(event)
        self._next = self._compute_next()
        return event

    @property
    def outcome(self) -> Outcome:
        """The finished coup's outcome; raises :class:`IncompleteCoupError` before the end."""
        nxt = self.next_position
        if nxt is not None:
            raise IncompleteCoupError(f"the coup is not complete: the {nxt.label} is missing")
        return Outcome.from_hands(self._player, self._banker)


def deal_coup(cards: Iterable[Card]) -> Outcome:
    """Deal one coup from cards in shoe order; extra cards are left unread.

    >>> from punto.cards import parse_cards
    >>> deal_coup(parse_cards("9S 8D KH 7C 2C")).cards_used
    4
    >>> deal_coup(parse_cards("4S 7H KD"))
    Traceback (most recent call last):
    ...
    punto.errors.IncompleteCoupError: the coup is not complete: the Banker's second card is missing
    """
    coup = Coup()
    source: Iterator[Card] = iter(cards)  # read lazily: cards after the coup are never read
    while not coup.is_complete:
        card = next(source, None)
        if card is None:
            break
        coup.deal(card)
    return coup.outcome


def coup_of_hands(player: Sequence[Card], banker: Sequence[Card]) -> Outcome:
    """The outcome of two hands, checked against the tableau: their cards are dealt in
    shoe order (P1, B1, P2, B2, then the third cards) through the coup machine, so only
    hands the tableau can make are accepted [M9] (a claimed or corrected result).

    >>> from punto.cards import parse_cards
    >>> coup_of_hands(parse_cards("9S KH"), parse_cards("7H 8C")).winner.value
    'player'
    >>> coup_of_hands(parse_cards("2S 2H"), parse_cards("7H KC"))
    Traceback (most recent call last):
    ...
    punto.errors.IncompleteCoupError: the coup is not complete: the Player's third card is missing
    """
    order = [*player[:1], *banker[:1], *player[1:2], *banker[1:2], *player[2:], *banker[2:]]
    coup = Coup()
    for card in order:
        coup.deal(card)
    outcome = coup.outcome
    if list(outcome.player) != list(player) or list(outcome.banker) != list(banker):
        raise TableauError(  # [M9]
            "those cards do not make those hands: the tableau gives "
            f"Player {' '.join(c.code for c in outcome.player)}, "
            f"Banker {' '.join(c.code for c in outcome.banker)}"
        )
    return outcome
