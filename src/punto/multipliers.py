"""Multiplier baccarat as rules data [LB]: the lightning draw, the fee and the cap.

Before each hand an RNG draws a number of lightning cards (rank and suit, distinct,
out of the 52 of one deck), the number by ``count_weights``, and gives each a
multiplier by ``multiplier_weights``. A winning bet named in ``multiplied_odds`` whose
counted cards hold lightning cards is paid its paytable odds plus ``(M - 1)`` times its
multiplied odds, ``M`` the product of the multipliers of the lightning cards among them
(a card dealt twice from a multi-deck shoe counts twice). The counted cards: the
Player's for a Player bet, the Banker's for a Banker bet, all of them for a Tie. Every
bet pays a ``fee`` (a fraction of its stake) on top of the stake, and a player's
winnings in one round are capped at ``cap`` (minor units).

>>> table = LIGHTNING_TABLES["evolution_lightning"]
>>> table.fee, table.max_cards, table.multipliers
(Fraction(1, 5), 5, (2, 3, 4, 5, 8))
>>> table.net_odds(Bet.BANKER, Fraction(19, 20), 8)
Fraction(159, 20)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

from punto.bets import Bet
from punto.cards import RANKS, Card, Suit
from punto.errors import RulesError

__all__ = [
    "COUNTED_HAND",
    "IDENTITIES",
    "LIGHTNING_TABLES",
    "LightningDraw",
    "LightningTable",
    "lit_odds",
]

_N = TypeVar("_N", Fraction, float)

IDENTITIES = 52
"""Card identities (rank and suit) the lightning cards are drawn from [LB]."""

COUNTED_HAND: Mapping[Bet, str] = MappingProxyType(
    {Bet.PLAYER: "player", Bet.BANKER: "banker", Bet.TIE: "both"}
)
"""[LB] Whose cards a multiplied bet counts: the winning hand, both hands for a Tie."""


def lit_odds(odds: _N, product: int, multiplied: _N) -> _N:
    """[LB] The one statement of the multiplied payout: a winning bet's ``odds`` plus
    ``product - 1`` times its multiplied odds (a plain function: exact with fractions,
    and compiled into the simulator's loop with floats).

    >>> lit_odds(Fraction(19, 20), 8, Fraction(1))
    Fraction(159, 20)
    """
    return odds + (product - 1) * multiplied


def _fail(message: str) -> RulesError:
    return RulesError(f"lightning: {message}", field="lightning")


def _weights(name: str, value: object, low: int, high: int) -> MappingProxyType[int, int]:
    if not isinstance(value, Mapping) or not value:
        raise _fail(f"{name} must be a non-empty mapping of whole numbers to weights")
    out: dict[int, int] = {}
    for key, weight in value.items():
        if isinstance(key, bool) or not isinstance(key, int) or not low <= key <= high:
            raise _fail(f"{name}: {key!r} is not a whole number {low}-{high}")
        if isinstance(weight, bool) or not isinstance(weight, int) or weight < 1:
            raise _fail(f"{name}: the weight of {key} must be a whole number, 1 or more")
        out[key] = weight
    return MappingProxyType(dict(sorted(out.items())))


@dataclass(frozen=True, kw_only=True, slots=True)
class LightningTable:
    """The lightning draw, fee and cap of a multiplier table [LB]. Frozen, validated."""

    name: str
    count_weights: Mapping[int, int]
    """Number of lightning cards drawn (1 or more) to its weight."""
    multiplier_weights: Mapping[int, int]
    """Multiplier (2 or more) to its weight; each lightning card draws one on its own."""
    fee: Fraction = Fraction(1, 5)
    """Paid on every bet, as a fraction of its stake, on top of it (never returned)."""
    cap: int | None = None
    """Most a player's winnings of one round may total (minor units; ``None``: no cap)."""
    multiplied_odds: Mapping[Bet, Fraction] = field(
        default_factory=lambda: MappingProxyType(
            {Bet.PLAYER: Fraction(1), Bet.BANKER: Fraction(1), Bet.TIE: Fraction(5)}
        )
    )
    """The odds the multiplier product scales, for each multiplied bet."""
    source: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise _fail("a lightning table needs a name")
        object.__setattr__(
            self, "count_weights", _weights("count_weights", self.count_weights, 1, 52)
        )
        object.__setattr__(
            self,
            "multiplier_weights",
            _weights("multiplier_weights", self.multiplier_weights, 2, 1000),
        )
        if not isinstance(self.fee, Fraction | int) or isinstance(self.fee, bool):
            raise _fail(f"the fee must be a fraction, not {self.fee!r}")
        object.__setattr__(self, "fee", Fraction(self.fee))
        if not 0 <= self.fee < 1:
            raise _fail(f"the fee must be 0 or more and below 1, not {self.fee}")
        if self.cap is not None and (
            isinstance(self.cap, bool) or not isinstance(self.cap, int) or self.cap < 1
        ):
            raise _fail(f"the cap must be a positive whole number of minor units, not {self.cap!r}")
        if not isinstance(self.multiplied_odds, Mapping) or not self.multiplied_odds:
            raise _fail("multiplied_odds must name at least one bet")
        odds: dict[Bet, Fraction] = {}
        for bet, value in self.multiplied_odds.items():
            if bet not in COUNTED_HAND:
                raise _fail(f"{bet!r} cannot be multiplied (only player, banker and tie)")
            if isinstance(value, bool) or not isinstance(value, Fraction | int) or value <= 0:
                raise _fail(f"the multiplied odds of {bet.value} must be positive, not {value!r}")
            odds[bet] = Fraction(value)
        object.__setattr__(self, "multiplied_odds", MappingProxyType(odds))
        if not isinstance(self.source, str):
            raise _fail("the source must be text")

    @property
    def max_cards(self) -> int:
        """Most lightning cards one draw can hold."""
        return max(self.count_weights)

    @property
    def multipliers(self) -> tuple[int, ...]:
        """The multipliers a lightning card may carry, smallest first."""
        return tuple(self.multiplier_weights)

    def count_probability(self, count: int) -> Fraction:
        """The probability that ``count`` lightning cards are drawn."""
        total = sum(self.count_weights.values())
        return Fraction(self.count_weights.get(count, 0), total)

    def multiplier_probability(self, multiplier: int) -> Fraction:
        """The probability that a lightning card carries ``multiplier``."""
        total = sum(self.multiplier_weights.values())
        return Fraction(self.multiplier_weights.get(multiplier, 0), total)

    def draw(self, rng: random.Random) -> LightningDraw:
        """[LB] One hand's lightning cards by ``rng`` (the count, distinct cards of the
        52, a multiplier each, by the table's weights).

        >>> table = LIGHTNING_TABLES["evolution_lightning"]
        >>> 1 <= len(table.draw(random.Random(1)).cards) <= 5
        True
        """
        count = rng.choices(list(self.count_weights), weights=list(self.count_weights.values()))
        cards = rng.sample(_IDENTITY_CARDS, count[0])
        multipliers = rng.choices(
            self.multipliers, weights=list(self.multiplier_weights.values()), k=len(cards)
        )
        return LightningDraw(tuple(zip(cards, multipliers, strict=True)))

    def check(self, draw: LightningDraw) -> None:
        """Refuse a draw this table cannot make (its count or a multiplier)."""
        if len(draw.cards) not in self.count_weights:
            raise _fail(f"{len(draw.cards)} lightning cards cannot be drawn at {self.name}")
        for card, multiplier in draw.cards:
            if multiplier not in self.multiplier_weights:
                raise _fail(f"{card.code}: x{multiplier} is not a multiplier of {self.name}")

    def fee_on(self, stake: int) -> int:
        """[LB] The fee charged with bets staking ``stake`` minor units in all, to the
        minor unit up (a player never pays part of one).

        >>> table = LIGHTNING_TABLES["evolution_lightning"]
        >>> table.fee_on(1_000), table.fee_on(1)
        (200, 1)
        """
        return -((-stake * self.fee.numerator) // self.fee.denominator)

    def net_odds(self, bet: Bet, odds: Fraction, product: int) -> Fraction:
        """[LB] What a winning ``bet`` pays to 1 when its paytable gives ``odds`` and the
        lightning cards among its counted cards multiply to ``product`` (1: none).

        >>> LIGHTNING_TABLES["evolution_lightning"].net_odds(Bet.TIE, Fraction(5), 6)
        Fraction(30, 1)
        """
        if odds <= 0 or product == 1 or bet not in self.multiplied_odds:
            return odds
        return lit_odds(odds, product, self.multiplied_odds[bet])


@dataclass(frozen=True, slots=True)
class LightningDraw:
    """[LB] The lightning cards of one hand, each with its multiplier.

    >>> draw = LightningDraw.parse("7S=8, AH=2")
    >>> draw.product(Card.parse(c) for c in ("7S", "AH", "KD")), draw.as_text()
    (16, '7S=8,AH=2')
    """

    cards: tuple[tuple[Card, int], ...]

    def __post_init__(self) -> None:
        seen: set[Card] = set()
        for item in self.cards:
            if not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[0], Card):
                raise _fail(f"a lightning card is a (card, multiplier) pair, not {item!r}")
            card, multiplier = item
            if isinstance(multiplier, bool) or not isinstance(multiplier, int) or multiplier < 2:
                raise _fail(
                    f"{card.code} needs a whole multiplier of 2 or more, not {multiplier!r}"
                )
            if card in seen:
                raise _fail(f"{card.code} is drawn twice: lightning cards are distinct")
            seen.add(card)

    @classmethod
    def parse(cls, text: str) -> LightningDraw:
        """Read ``CARD=MULTIPLIER`` pairs separated by commas (``7S=8,AH=2``)."""
        cards: list[tuple[Card, int]] = []
        for item in text.replace(" ", "").split(","):
            if not item:
                continue
            code, sep, multiplier = item.partition("=")
            if not sep or not multiplier.isdigit():
                raise _fail(f"cannot read {item!r}: expected CARD=MULTIPLIER, e.g. 7S=8")
            try:
                card = Card.parse(code)
            except ValueError as exc:
                raise _fail(f"cannot read {item!r}: {exc}") from None
            cards.append((card, int(multiplier)))
        return cls(tuple(cards))

    def multiplier(self, card: Card) -> int:
        """The multiplier of ``card`` (1: it is not a lightning card)."""
        for lit, multiplier in self.cards:
            if lit == card:
                return multiplier
        return 1

    def product(self, cards: Iterable[Card]) -> int:
        """The product of the multipliers of the lightning cards among ``cards`` (a card
        dealt twice counts twice)."""
        out = 1
        for card in cards:
            out *= self.multiplier(card)
        return out

    def as_text(self) -> str:
        """The draw as :meth:`parse` reads it."""
        return ",".join(f"{card.code}={m}" for card, m in self.cards)


_IDENTITY_CARDS = tuple(Card(rank, suit) for rank in RANKS for suit in Suit)


LIGHTNING_TABLES: MappingProxyType[str, LightningTable] = MappingProxyType(
    {
        table.name: table
        for table in (
            LightningTable(
                name="evolution_lightning",
                # The operator does not publish its weights: ours land near its
                # published edges (data/reallivedealer_lightning_baccarat.json).
                count_weights={1: 1, 2: 19, 3: 65, 4: 10, 5: 5},
                multiplier_weights={2: 225, 3: 204, 4: 163, 5: 120, 8: 88},
                fee=Fraction(1, 5),
                cap=50_000_000,
                source="[LB] Evolution Lightning Baccarat: 1-5 lightning cards, x2 x3 x4 x5 x8, "
                "20% fee, Player 1:1, Banker 0.95:1, Tie 5:1",
            ),
        )
    }
)
"""Named lightning tables (a rules preset names one by its object)."""
