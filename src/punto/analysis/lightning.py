"""Exact returns of multiplier baccarat [LB], by enumeration (no simulation).

Given the ranks of a coup, the suits of each rank's cards are a uniform draw without
replacement from that rank's cards in the shoe, whatever the other cards are; so the
chance that a bet's counted cards hold lightning cards, and the distribution of the
product of their multipliers, depends only on the *rank pattern* of those cards
(:mod:`punto.analysis.ranks`) and on how many copies of each card the shoe holds. The
rank-level enumeration tallies every coup by cell and pattern; each pattern's
distribution of the product ``M`` is exact (:func:`multiplier_distribution`): suits
drawn, then the lightning count, the set of lightning cards (all ``C(52, k)`` equally
likely) and each card's multiplier. Every figure is a :class:`~fractions.Fraction`.

RTP is per unit *paid* (stake plus fee): ``E[stake returned + winnings] / (1 + fee)``.
Without the cap (or for a stake at which it never binds) the RTP does not depend on
the stake; :func:`lightning_analysis` with ``stake`` applies the cap per round.

>>> from punto.rules import preset
>>> result = lightning_analysis(preset("lightning"))
>>> round(float(result.bets[Bet.PLAYER].rtp), 4), round(float(result.bets[Bet.TIE].rtp), 4)
(0.9867, 0.9458)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from punto.analysis.composition import Composition
from punto.analysis.pricing import bet_table
from punto.analysis.ranks import PATTERNS, RankDeals, enumerate_ranks
from punto.bets import Bet
from punto.errors import CompositionError, RulesError
from punto.multipliers import COUNTED_HAND, IDENTITIES, LightningTable
from punto.rules import Rules

__all__ = [
    "LightningAnalysis",
    "LightningBet",
    "copies_per_card",
    "lightning_analysis",
    "multiplier_distribution",
    "suit_splits",
]

Distribution = Mapping[int, Fraction]
"""A product of multipliers to its probability."""


def copies_per_card(composition: Composition) -> int:
    """How many copies of each card (rank and suit) ``composition`` holds: every rank it
    holds must hold the same number, a multiple of four (a full shoe, or one with whole
    ranks taken out), else the suits of its cards are unknown.

    >>> copies_per_card(Composition.fresh(8)), copies_per_card(Composition.parse("A=4,K=4"))
    (8, 1)
    """
    held = {count for count in composition.counts if count}
    if len(held) != 1 or next(iter(held)) % 4:
        raise CompositionError(
            "a multiplier analysis needs the suits of the shoe: every rank it holds must "
            f"hold the same multiple of 4 cards, not {composition}"
        )
    return next(iter(held)) // 4


@functools.lru_cache(maxsize=256)
def suit_splits(cards: int, copies: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """How ``cards`` cards of one rank fall on the 4 suits when drawn without replacement
    from ``copies`` copies of each: (cards per suit held, largest first; probability).

    >>> suit_splits(2, 8)
    (((2,), Fraction(7, 31)), ((1, 1), Fraction(24, 31)))
    """
    out: dict[tuple[int, ...], Fraction] = {}
    for suits in itertools.product(range(4), repeat=cards):
        seen = [0, 0, 0, 0]
        p = Fraction(1)
        for t, s in enumerate(suits):
            p *= Fraction(copies - seen[s], 4 * copies - t)
            seen[s] += 1
        if p:
            key = tuple(sorted((k for k in seen if k), reverse=True))
            out[key] = out.get(key, Fraction(0)) + p
    return tuple(sorted(out.items(), key=lambda kv: (len(kv[0]), kv[0])))


_Draw = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
"""A lightning draw as a cache key: (count, weight) and (multiplier, weight) pairs."""


def _draw_of(table: LightningTable) -> _Draw:
    return tuple(table.count_weights.items()), tuple(table.multiplier_weights.items())


def _power_distribution(
    multipliers: tuple[tuple[int, int], ...], power: int
) -> dict[int, Fraction]:
    total = sum(w for _, w in multipliers)
    return {m**power: Fraction(w, total) for m, w in multipliers}


def _convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x * y] = out.get(x * y, Fraction(0)) + p * q
    return out


@functools.lru_cache(maxsize=4096)
def _identity_distribution(draw: _Draw, copies: tuple[int, ...]) -> Distribution:
    """[LB] The distribution of ``M`` for counted cards of distinct identities held
    ``copies`` times each: every lightning count, every subset of these identities that
    is lit (the rest of the draw among the other identities), each lit one's multiplier
    to the power of its copies."""
    counts, multipliers = draw
    j = len(copies)
    out: dict[int, Fraction] = {}
    weights = sum(w for _, w in counts)
    for count, weight in counts:
        pk = Fraction(weight, weights)
        draws = math.comb(IDENTITIES, count)
        for lit in range(min(j, count) + 1):
            ways = math.comb(IDENTITIES - j, count - lit)
            if not ways:
                continue
            p_subset = pk * Fraction(ways, draws)
            for subset in itertools.combinations(range(j), lit):
                dist: dict[int, Fraction] = {1: Fraction(1)}
                for s in subset:
                    dist = _convolve(dist, _power_distribution(multipliers, copies[s]))
                for m, q in dist.items():
                    out[m] = out.get(m, Fraction(0)) + p_subset * q
    return MappingProxyType(dict(sorted(out.items())))


def multiplier_distribution(
    table: LightningTable, pattern: tuple[int, ...], copies: int
) -> Distribution:
    """The exact distribution of the product ``M`` of the multipliers of the lightning
    cards among counted cards of rank ``pattern``, from a shoe of ``copies`` copies of
    each card.

    >>> from punto.multipliers import LIGHTNING_TABLES
    >>> dist = multiplier_distribution(LIGHTNING_TABLES["evolution_lightning"], (1, 1), 8)
    >>> sum(dist.values()), min(dist), max(dist)
    (Fraction(1, 1), 1, 64)
    """
    return _pattern_distribution(_draw_of(table), pattern, copies)


@functools.lru_cache(maxsize=1024)
def _pattern_distribution(draw: _Draw, pattern: tuple[int, ...], copies: int) -> Distribution:
    out: dict[int, Fraction] = {}
    for splits in itertools.product(*(suit_splits(size, copies) for size in pattern)):
        p = Fraction(1)
        identities: list[int] = []
        for split, q in splits:
            p *= q
            identities.extend(split)
        for m, q in _identity_distribution(draw, tuple(sorted(identities))).items():
            out[m] = out.get(m, Fraction(0)) + p * q
    return MappingProxyType(dict(sorted(out.items())))


@dataclass(frozen=True, slots=True)
class LightningBet:
    """A multiplied bet's exact figures [LB]: per unit *paid* (stake and fee)."""

    bet: Bet
    rtp: Fraction
    """Expected return (stake returned plus winnings) per unit paid."""
    multiplied_probability: Fraction
    """Probability that the bet wins with at least one lightning card counted."""
    expected_multiplier: Fraction
    """Mean product of the multipliers given the bet wins (1 when none is lit)."""
    max_odds: Fraction
    """The most the bet can pay to 1 (before the cap)."""
    variance: Fraction
    """Variance of the return per unit paid."""

    @property
    def house_edge(self) -> Fraction:
        """``1 - rtp``: what the house keeps of each unit paid."""
        return 1 - self.rtp

    def as_dict(self) -> dict[str, float]:
        """Float views for JSON."""
        return {
            "rtp": float(self.rtp),
            "house_edge": float(self.house_edge),
            "multiplied_probability": float(self.multiplied_probability),
            "expected_multiplier": float(self.expected_multiplier),
            "max_odds": float(self.max_odds),
            "std_dev": math.sqrt(self.variance),
        }


@dataclass(frozen=True, slots=True)
class LightningAnalysis:
    """Every bet of a multiplier table, exact [LB]."""

    rules: str
    table: LightningTable
    composition: Composition
    stake: int | None
    """The stake (minor units) the cap was applied to; ``None``: uncapped."""
    bets: Mapping[Bet, LightningBet]

    def as_dict(self) -> dict[str, object]:
        """The ``lightning`` part of ``punto edge --json``."""
        table = self.table
        return {
            "table": table.name,
            "source": table.source,
            "fee": float(table.fee),
            "cap": table.cap,
            "stake": self.stake,
            "count_probabilities": {
                str(k): float(table.count_probability(k)) for k in table.count_weights
            },
            "multiplier_probabilities": {
                str(m): float(table.multiplier_probability(m)) for m in table.multipliers
            },
            "bets": {bet.value: result.as_dict() for bet, result in self.bets.items()},
        }


def _capped(net: Fraction, stake: int | None, cap: int | None) -> Fraction:
    if stake is None or cap is None:
        return net
    return min(net, Fraction(cap, stake))


def _bet_figures(
    rules: Rules,
    table: LightningTable,
    bet: Bet,
    deals: RankDeals,
    copies: int,
    stake: int | None,
) -> LightningBet:
    priced = bet_table(bet, rules.paytable_for(bet))
    counted = COUNTED_HAND.get(bet)
    multiplied = counted is not None and bet in table.multiplied_odds
    weights = {"player": deals.player, "banker": deals.banker}.get(counted or "", deals.both)
    returned = Fraction(0)  # sum over draws of (1 + net), in draws
    square = Fraction(0)  # and of its square
    lit = Fraction(0)
    won = 0
    won_m = Fraction(0)
    max_odds = max(priced.odds)
    for cells, odds in zip(priced.cells_of_class, priced.odds, strict=True):
        by_pattern = weights[cells].sum(axis=0).tolist()
        for index, w in enumerate(by_pattern):
            if not w:
                continue
            if odds <= 0 or not multiplied:
                back = 1 + _capped(odds, stake, table.cap)
                returned += w * back
                square += w * back * back
                if odds > 0:
                    won += w
                    won_m += w
                continue
            dist = multiplier_distribution(table, PATTERNS[index], copies)
            won += w
            for m, q in dist.items():
                back = 1 + _capped(table.net_odds(bet, odds, m), stake, table.cap)
                returned += w * q * back
                square += w * q * back * back
                won_m += w * q * m
                if m > 1:
                    lit += w * q
            max_odds = max(max_odds, table.net_odds(bet, odds, max(dist)))
    total = deals.total
    rtp = returned / total / (1 + table.fee)
    return LightningBet(
        bet=bet,
        rtp=rtp,
        variance=square / total / (1 + table.fee) ** 2 - rtp * rtp,
        multiplied_probability=lit / total,
        expected_multiplier=won_m / won if won else Fraction(1),
        max_odds=max_odds,
    )


def lightning_analysis(
    rules: Rules, composition: Composition | None = None, *, stake: int | None = None
) -> LightningAnalysis:
    """Exact RTP of every bet of a multiplier table [LB] for ``composition`` (default: a
    fresh shoe of the rules' decks), per unit paid with the fee. With ``stake`` (minor
    units) each round's winnings are capped at the table's cap; without it, uncapped
    (the figure for every stake at which the cap never binds)."""
    table = rules.lightning
    if table is None:
        raise RulesError(f"the {rules.name} rules deal no lightning cards", field="lightning")
    if stake is not None and (isinstance(stake, bool) or not isinstance(stake, int) or stake < 1):
        raise RulesError(f"the stake must be a positive whole number of minor units, not {stake!r}")
    shoe = Composition.fresh(rules.decks) if composition is None else composition
    copies = copies_per_card(shoe)
    deals = enumerate_ranks(shoe)
    results = {
        bet: _bet_figures(rules, table, bet, deals, copies, stake) for bet in rules.offered_bets
    }
    return LightningAnalysis(
        rules=rules.name,
        table=table,
        composition=shoe,
        stake=stake,
        bets=MappingProxyType(results),
    )
