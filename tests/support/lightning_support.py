"""Coups built around a hand's lightning draw [LB]: the test knows the draw (the event
the table sent) and deals cards that put a lightning card in the winning hand."""

from __future__ import annotations

from collections.abc import Iterable

from punto.cards import RANKS, Card, Suit

_ALL = tuple(Card(rank, suit) for rank in RANKS for suit in Suit)


def _unlit(value: int, lit: set[Card]) -> Card:
    return next(c for c in _ALL if c.value == value and c not in lit)


def player_natural_with(cards: Iterable[tuple[Card, int]]) -> tuple[str, int]:
    """Scan codes of a coup the Player wins with a natural 9 holding the draw's first
    lightning card (every other card unlit; Banker 5), and the Player hand's product."""
    drawn = tuple(cards)
    lit = {card for card, _ in drawn}
    card, multiplier = drawn[0]
    second = _unlit((9 - card.value) % 10, lit)
    coup = (card, _unlit(2, lit), second, _unlit(3, lit))  # P1 B1 P2 B2
    return " ".join(c.code for c in coup), multiplier
