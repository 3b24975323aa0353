"""How the edge moves as cards leave the shoe: the effect of removing one card of each
rank, and the edges of a shoe tracked hand by hand (the fast float path)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from punto.analysis.composition import MIN_CARDS, Composition
from punto.analysis.enumeration import enumerate_coups
from punto.analysis.pricing import bet_tables, composition_for, odds_matrix, price
from punto.bets import Bet
from punto.cards import RANKS, Card, Rank
from punto.dealing import CardsBurned, DemoHandDealt, HandDealt, ShoeEvent
from punto.rules import BurnRule, Rules

__all__ = ["EffectOfRemoval", "TrackPoint", "effect_of_removal", "track", "track_events"]


@dataclass(frozen=True, slots=True)
class EffectOfRemoval:
    """For each bet, how much the house edge moves when one card of each rank is taken
    out of the composition (positive: removing it helps the house).

    Removing a card at random changes nothing on average, so for every bet
    ``sum(count(rank) * effect[rank]) == 0`` exactly.
    """

    composition: Composition
    house_edges: Mapping[Bet, Fraction]
    effects: Mapping[Bet, Mapping[Rank, Fraction]]

    def as_dict(self) -> dict[str, dict[str, float]]:
        """Bet name to rank character to the change in house edge (float)."""
        return {
            bet.value: {rank.char: float(value) for rank, value in by_rank.items()}
            for bet, by_rank in self.effects.items()
        }


def effect_of_removal(
    rules: Rules,
    composition: Composition | None = None,
    *,
    bets: Iterable[Bet] | None = None,
) -> EffectOfRemoval:
    """Exact effect of removing one card of each rank, for every bet.

    >>> from punto.rules import preset
    >>> eor = effect_of_removal(preset("macau"), bets=[Bet.BANKER])
    >>> sum(32 * v for v in eor.effects[Bet.BANKER].values())
    Fraction(0, 1)
    """
    shoe = composition_for(rules, composition)
    tables = bet_tables(rules, bets)
    base_enum = enumerate_coups(shoe)
    base = {table.bet: price(table, base_enum).house_edge for table in tables}
    effects: dict[Bet, dict[Rank, Fraction]] = {table.bet: {} for table in tables}
    for rank in RANKS:
        if shoe.count(rank) == 0:
            continue
        enum = enumerate_coups(shoe.removing_rank(rank))
        for table in tables:
            effects[table.bet][rank] = price(table, enum).house_edge - base[table.bet]
    return EffectOfRemoval(
        composition=shoe,
        house_edges=MappingProxyType(base),
        effects=MappingProxyType({bet: MappingProxyType(v) for bet, v in effects.items()}),
    )


@dataclass(frozen=True, slots=True)
class TrackPoint:
    """The house edge of every bet for what is left after ``hand`` hands."""

    hand: int
    """Hands dealt so far (0: before the first hand)."""
    cards_left: int
    house_edges: Mapping[Bet, float]

    @property
    def favourable(self) -> tuple[Bet, ...]:
        """Bets whose house edge is negative here: the player has the edge."""
        return tuple(bet for bet, edge in self.house_edges.items() if edge < 0)


def track(
    rules: Rules,
    hands: Iterable[Sequence[Card]],
    *,
    start: Composition | None = None,
    bets: Iterable[Bet] | None = None,
) -> list[TrackPoint]:
    """The edge of every bet before the first hand and after each hand, removing each
    hand's cards from ``start`` (default: a fresh shoe). Stops once fewer than
    :data:`MIN_CARDS` cards are left.
    """
    shoe = composition_for(rules, start)
    tables = bet_tables(rules, bets)
    matrix = odds_matrix(tables)
    points: list[TrackPoint] = []

    def point(number: int) -> None:
        probabilities = enumerate_coups(shoe).probabilities()
        edges = -(matrix @ probabilities)
        points.append(
            TrackPoint(
                number,
                shoe.cards,
                MappingProxyType(
                    {t.bet: float(e) for t, e in zip(tables, edges.tolist(), strict=True)}
                ),
            )
        )

    point(0)
    for number, cards in enumerate(hands, start=1):
        shoe = shoe.removing(cards)
        if shoe.cards < MIN_CARDS:
            break
        point(number)
    return points


def _seen_cards(
    rules: Rules, events: Iterable[ShoeEvent], *, include_burned: bool
) -> Iterator[tuple[bool, tuple[Card, ...]]]:
    """(is a hand, cards a player saw) for each event that takes cards out."""
    for event in events:
        if isinstance(event, HandDealt | DemoHandDealt):
            outcome = event.outcome
            yield isinstance(event, HandDealt), (*outcome.player, *outcome.banker)
        elif isinstance(event, CardsBurned):
            if include_burned:
                yield False, event.cards
            elif (
                event.reason == "start" and rules.burn is BurnRule.FIRST_CARD_VALUE and event.cards
            ):
                yield False, event.cards[:1]  # [M2] the first card is turned face up


def track_events(
    rules: Rules,
    events: Iterable[ShoeEvent],
    *,
    include_burned: bool = False,
    bets: Iterable[Bet] | None = None,
) -> list[TrackPoint]:
    """Track a shoe dealt by :class:`~punto.dealing.ShoeDealer`: the edges before the
    first hand and after each hand, for the cards a player has seen.

    Burned cards stay unseen unless ``include_burned`` (the house's view): removing
    unseen cards changes no expectation. The first card turned by the
    ``first_card_value`` burn rule is seen [M2].

    >>> from punto.dealing import ShoeDealer
    >>> from punto.rules import preset
    >>> rules = preset("macau").replace(decks=1, cut_min_from_end=12, cut_max_from_end=12)
    >>> points = track_events(rules, ShoeDealer(rules, seed=3).deal_all())
    >>> points[0].hand, points[-1].hand > 0
    (0, True)
    """
    start: list[Card] = []
    hands: list[list[Card]] = []
    pending: list[Card] = []
    for is_hand, cards in _seen_cards(rules, events, include_burned=include_burned):
        if is_hand:
            hands.append([*pending, *cards])
            pending = []
        elif not hands:
            start.extend(cards)  # seen before the first hand: part of the starting point
        else:
            pending.extend(cards)
    shoe = Composition.fresh(rules.decks).removing(start)
    return track(rules, hands, start=shoe, bets=bets)
