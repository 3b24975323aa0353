"""The shoe: its cards, cut card, burns and commitment [M1]-[M3], [M7.2], [M8].

A shoe is shuffled with an injected random source (``secrets.SystemRandom`` by
default, a seed for reproducible runs) or built from a given card order (a live
shoe whose cards are scanned; tests). It can publish a commitment — the SHA-256
of its card order and a secret salt — before its first hand, and reveal both
once it is closed, so anyone can check that the order was fixed in advance.

>>> shoe = Shoe.shuffled(decks=1, cut_from_end=(6, 6), seed=7)
>>> len(shoe), shoe.cut_index
(52, 46)
>>> card = shoe.draw()
>>> shoe.dealt, shoe.remaining
(1, 51)
>>> digest = shoe.commitment
>>> shoe.close()
>>> verify_commitment(digest, shoe.reveal())
True
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from punto.cards import DECK_SIZE, Card, Rank, deck
from punto.errors import CardError, ShoeError, ShoeExhaustedError

__all__ = [
    "MAX_DECKS",
    "MIN_DECKS",
    "Shoe",
    "ShoeReveal",
    "commitment_of",
    "verify_commitment",
]

MIN_DECKS = 1
"""Fewest decks in a shoe (analysis may use fewer than a play table)."""
MAX_DECKS = 12
"""Most decks in a shoe [M1]."""

_SALT_BYTES = 32


@dataclass(frozen=True, slots=True)
class ShoeReveal:
    """What a closed shoe reveals: its card order and the salt of its commitment."""

    order: tuple[Card, ...]
    salt: str

    @property
    def order_text(self) -> str:
        """The card order as space-separated codes (the committed text)."""
        return " ".join(card.code for card in self.order)


def commitment_of(order: Sequence[Card], salt: str) -> str:
    """SHA-256 (hex) of ``salt`` + ``":"`` + the card codes joined by single spaces.

    >>> from punto.cards import parse_cards
    >>> commitment_of(parse_cards("AS KD"), "00")[:16]
    '9392d9aca094c2ba'
    """
    text = salt + ":" + " ".join(card.code for card in order)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verify_commitment(commitment: str, reveal: ShoeReveal) -> bool:
    """Whether a revealed order and salt match a published commitment."""
    # Bytes, not str: compare_digest refuses non-ASCII text, and a tampered commitment
    # or salt must answer False, not raise.
    expected = commitment_of(reveal.order, reveal.salt)
    return secrets.compare_digest(commitment.encode("utf-8"), expected.encode("ascii"))


class Shoe:
    """Cards in dealing order, a cut card and a read position.

    ``cut_index`` is the number of cards in front of the cut card: the cut card
    *comes out* once that many cards have been taken from the shoe.
    """

    __slots__ = ("_cards", "_closed", "_cut_index", "_decks", "_pos", "_rng", "_salt")

    def __init__(
        self,
        cards: Iterable[Card],
        *,
        cut_index: int | None = None,
        decks: int | None = None,
        rng: random.Random | None = None,
        salt: str | None = None,
    ) -> None:
        self._cards: list[Card] = list(cards)
        for card in self._cards:
            if not isinstance(card, Card):
                raise CardError(f"not a card: {card!r}")
        if not self._cards:
            raise ShoeError("a shoe needs at least one card")
        self._decks = decks
        if decks is not None:
            _check_decks(decks)
            _check_composition(self._cards, decks)
        n = len(self._cards)
        self._cut_index = n if cut_index is None else cut_index
        if not 0 <= self._cut_index <= n:
            raise ShoeError(f"cut card position {self._cut_index} is outside a shoe of {n} cards")
        self._pos = 0
        self._closed = False
        self._rng = rng
        self._salt = salt if salt is not None else secrets.token_hex(_SALT_BYTES)

    # -- construction --------------------------------------------------------

    @classmethod
    def shuffled(
        cls,
        *,
        decks: int,
        cut_from_end: tuple[int, int] = (14, 14),
        rng: random.Random | None = None,
        seed: int | None = None,
    ) -> Shoe:
        """A freshly shuffled shoe of ``decks`` decks with the cut card placed at a random
        distance from the end within ``cut_from_end`` (inclusive).

        ``rng`` defaults to ``secrets.SystemRandom()``; ``seed`` makes a reproducible
        ``random.Random(seed)`` instead (the salt is then drawn from it too).
        """
        if rng is not None and seed is not None:
            raise ShoeError("give either an rng or a seed, not both")
        _check_decks(decks)
        source: random.Random = (
            random.Random(seed) if seed is not None else rng or secrets.SystemRandom()
        )
        cards = [card for _ in range(decks) for card in deck()]
        source.shuffle(cards)
        low, high = cut_from_end
        if not 0 <= low <= high < len(cards):
            raise ShoeError(f"cut card range {low}-{high} does not fit {len(cards)} cards")
        from_end = source.randint(low, high)
        salt = f"{source.getrandbits(8 * _SALT_BYTES):0{2 * _SALT_BYTES}x}"
        return cls(cards, cut_index=len(cards) - from_end, decks=decks, rng=source, salt=salt)

    # -- state ---------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._cards)

    @property
    def decks(self) -> int | None:
        """Number of decks, when the shoe was built as whole decks."""
        return self._decks

    @property
    def cut_index(self) -> int:
        """Cards in front of the cut card."""
        return self._cut_index

    @property
    def dealt(self) -> int:
        """Cards taken out so far (dealt or burned)."""
        return self._pos

    @property
    def remaining(self) -> int:
        """Cards still in the shoe."""
        return len(self._cards) - self._pos

    @property
    def cut_card_out(self) -> bool:
        """Whether the cut card has come out."""
        return self._pos >= self._cut_index

    @property
    def can_reshuffle(self) -> bool:
        """Whether :meth:`return_and_reshuffle` works: the shoe holds a random source (it
        was shuffled here, not given as a fixed card order)."""
        return self._rng is not None

    @property
    def closed(self) -> bool:
        """Whether the shoe is finished (no more dealing; its order may be revealed)."""
        return self._closed

    def remaining_ranks(self) -> Counter[Rank]:
        """Count of each rank still in the shoe (for exact analysis)."""
        return Counter(card.rank for card in self._cards[self._pos :])

    # -- actions -------------------------------------------------------------

    def draw(self) -> Card:
        """Take the next card."""
        if self._closed:
            raise ShoeError("the shoe is closed")
        if self._pos >= len(self._cards):
            raise ShoeExhaustedError(f"the shoe is empty after {len(self._cards)} cards")
        card = self._cards[self._pos]
        self._pos += 1
        return card

    def burn(self, count: int) -> tuple[Card, ...]:
        """Take ``count`` cards out of play [M2], [M8]."""
        if count < 0:
            raise ShoeError(f"cannot burn a negative number of cards ({count})")
        if count > self.remaining:
            raise ShoeExhaustedError(f"cannot burn {count} cards: {self.remaining} left")
        return tuple(self.draw() for _ in range(count))

    def return_and_reshuffle(self) -> None:
        """Continuous shuffler [M7.2]: every card goes back and the shoe is reshuffled,
        so the next hand is dealt from a full shoe."""
        if self._rng is None:
            raise ShoeError("a shoe with a fixed card order cannot be reshuffled")
        self._rng.shuffle(self._cards)
        self._pos = 0

    def close(self) -> None:
        """Finish the shoe: no more cards are dealt and its order may be revealed."""
        self._closed = True

    # -- commitment ----------------------------------------------------------

    @property
    def commitment(self) -> str:
        """SHA-256 of the salt and the full card order, safe to publish before dealing."""
        return commitment_of(self._cards, self._salt)

    def reveal(self) -> ShoeReveal:
        """The card order and salt; only once the shoe is closed."""
        if not self._closed:
            raise ShoeError("the shoe's order is revealed only after its last hand")
        return ShoeReveal(tuple(self._cards), self._salt)


def _check_decks(decks: int) -> None:
    """A shoe holds 1-12 whole decks [M1] (a play table needs 6 or more)."""
    if isinstance(decks, bool) or not isinstance(decks, int):
        raise ShoeError(f"the number of decks must be a whole number, not {decks!r}")
    if not MIN_DECKS <= decks <= MAX_DECKS:
        raise ShoeError(f"a shoe holds {MIN_DECKS}-{MAX_DECKS} decks, not {decks}")  # [M1]


def _check_composition(cards: Sequence[Card], decks: int) -> None:
    """A shoe built from ``decks`` decks holds exactly ``decks`` of every card."""
    if len(cards) != decks * DECK_SIZE:
        raise CardError(f"a {decks}-deck shoe holds {decks * DECK_SIZE} cards, not {len(cards)}")
    counts = Counter(cards)
    for card, count in counts.items():
        if count != decks:
            raise CardError(f"card {card.code} appears {count} times in a {decks}-deck shoe")
