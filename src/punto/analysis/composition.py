"""What a shoe holds: a count per rank (:class:`Composition`), fresh, after cards were
dealt, or read from text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from punto.cards import RANKS, Card, Rank
from punto.errors import CardNotInShoeError, CompositionError
from punto.rules import MAX_DECKS, MIN_DECKS

__all__ = ["MAX_RANK_COUNT", "MIN_CARDS", "Composition"]


MAX_RANK_COUNT = 4 * MAX_DECKS
"""Most cards of one rank a composition may hold (a 12-deck shoe)."""
MIN_CARDS = 6
"""Fewest cards a composition must hold to be analysed: a coup may need six."""


def _check_count(rank: Rank, count: object) -> int:
    if isinstance(count, bool) or not isinstance(count, int):
        raise CompositionError(f"the count of {rank.char} must be a whole number, not {count!r}")
    if not 0 <= count <= MAX_RANK_COUNT:
        raise CompositionError(
            f"a shoe holds 0-{MAX_RANK_COUNT} cards of one rank ({MAX_DECKS} decks), "
            f"not {count} of {rank.char}"
        )
    return count


@dataclass(frozen=True, slots=True)
class Composition:
    """What a shoe holds: the number of cards of each rank, ace first.

    >>> from punto.cards import parse_cards
    >>> shoe = Composition.fresh(8)
    >>> shoe.cards, shoe.count(Rank.KING)
    (416, 32)
    >>> shoe.removing(parse_cards("KS KH 5D")).count(Rank.KING)
    30
    >>> Composition.parse("A=4,T=12,9=3").cards
    19
    """

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != len(RANKS):
            raise CompositionError(f"a composition has {len(RANKS)} rank counts, ace first")
        for rank, count in zip(RANKS, self.counts, strict=True):
            _check_count(rank, count)

    # -- constructors ----------------------------------------------------------

    @classmethod
    def fresh(cls, decks: int) -> Composition:
        """A full shoe of ``decks`` decks (1-12)."""
        if isinstance(decks, bool) or not isinstance(decks, int):
            raise CompositionError(f"decks must be a whole number, not {decks!r}")
        if not MIN_DECKS <= decks <= MAX_DECKS:
            raise CompositionError(f"decks must be {MIN_DECKS}-{MAX_DECKS}, not {decks}")
        return cls((4 * decks,) * len(RANKS))

    @classmethod
    def after_removing(cls, cards: Iterable[Card], *, decks: int = 8) -> Composition:
        """A ``decks``-deck shoe after ``cards`` were dealt; a card the shoe cannot hold
        that often raises :class:`~punto.errors.CardNotInShoeError`.

        >>> from punto.cards import parse_cards
        >>> Composition.after_removing(parse_cards("AS AS"), decks=1)
        Traceback (most recent call last):
        ...
        punto.errors.CardNotInShoeError: AS was removed 2 times, but a 1-deck shoe holds only 1
        """
        shoe = cls.fresh(decks)
        removed = list(cards)
        for card, times in Counter(removed).items():
            if times > decks:
                raise CardNotInShoeError(
                    f"{card.code} was removed {times} times, but a {decks}-deck shoe holds "
                    f"only {decks}"
                )
        return shoe.removing(removed)

    @classmethod
    def from_counts(cls, counts: Mapping[Rank, int]) -> Composition:
        """A composition from a count per rank; ranks not given hold none."""
        for rank in counts:
            if not isinstance(rank, Rank):
                raise CompositionError(f"not a rank: {rank!r}")
        return cls(tuple(_check_count(rank, counts.get(rank, 0)) for rank in RANKS))

    @classmethod
    def parse(cls, text: str) -> Composition:
        """Read ``RANK=COUNT`` pairs separated by commas (``A=31,T=32,K=30``); ranks not
        given hold none.

        >>> Composition.parse("A=2,A=3")
        Traceback (most recent call last):
        ...
        punto.errors.CompositionError: rank A is given twice in 'A=2,A=3'
        """
        counts: dict[Rank, int] = {}
        for item in text.replace(" ", "").split(","):
            if not item:
                continue
            rank_text, sep, count_text = item.partition("=")
            if not sep or not count_text.isdigit():
                raise CompositionError(
                    f"cannot read {item!r} in {text!r}: expected RANK=COUNT, e.g. A=32,T=31"
                )
            try:
                rank = Rank.parse(rank_text)
            except ValueError as exc:
                raise CompositionError(f"cannot read {item!r} in {text!r}: {exc}") from None
            if rank in counts:
                raise CompositionError(f"rank {rank.char} is given twice in {text!r}")
            counts[rank] = int(count_text)
        return cls.from_counts(counts)

    # -- queries ---------------------------------------------------------------

    @property
    def cards(self) -> int:
        """Cards in the shoe."""
        return sum(self.counts)

    def count(self, rank: Rank) -> int:
        """Cards of ``rank`` in the shoe."""
        return self.counts[rank - 1]

    def value_counts(self) -> tuple[int, ...]:
        """Cards of each baccarat value 0-9 [M5] (value 0: ten, jack, queen and king)."""
        values = [0] * 10
        for rank, count in zip(RANKS, self.counts, strict=True):
            values[rank.value_points] += count
        return tuple(values)

    def as_dict(self) -> dict[str, int]:
        """Rank character to count, ace first (``{"A": 32, "2": 32, …}``)."""
        return {rank.char: count for rank, count in zip(RANKS, self.counts, strict=True)}

    def __str__(self) -> str:
        return ",".join(f"{char}={count}" for char, count in self.as_dict().items())

    # -- changes ---------------------------------------------------------------

    def removing(self, cards: Iterable[Card | Rank]) -> Composition:
        """The composition once ``cards`` (cards or ranks) are taken out; raises
        :class:`~punto.errors.CardNotInShoeError` for a rank the shoe has run out of."""
        counts = list(self.counts)
        for item in cards:
            rank = item.rank if isinstance(item, Card) else item
            if not isinstance(rank, Rank):
                raise CompositionError(f"not a card or a rank: {item!r}")
            if counts[rank - 1] == 0:
                label = item.code if isinstance(item, Card) else rank.char
                raise CardNotInShoeError(f"{label} cannot be removed: no {rank.char} is left")
            counts[rank - 1] -= 1
        return Composition(tuple(counts))

    def removing_rank(self, rank: Rank) -> Composition:
        """The composition without one card of ``rank``."""
        return self.removing((rank,))
