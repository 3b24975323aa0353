"""Exact returns of Peek baccarat under the optimal raise [PK], by enumeration.

The rank-level enumeration (:mod:`punto.analysis.ranks`) tallies every coup by the
ranks of its four first cards and its final cell. For each state a player can see (the
ranks of the first ``revealed`` cards), the conditional expectation ``EV`` of a Player
or Banker bet per unit staked follows exactly; a raise of ``r`` stakes adds
``r * (EV - raise_fee)``, so the optimal raise is the largest allowed when
``EV > raise_fee`` and none otherwise (a tie of the two: none). RTP is what the bet
returns over what it costs, both in expectation: ``E[(1 + r)(1 + net)] /
E[1 + stake_fee + r (1 + raise_fee)]``.

>>> from punto.rules import preset
>>> result = peek_analysis(preset("peek"))
>>> round(float(result.bets[Bet.PLAYER].rtp), 4), result.bets[Bet.PLAYER].decision(9, 2, 10, 3)
(0.9856, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from punto.analysis.cells import CELLS
from punto.analysis.composition import Composition
from punto.analysis.pricing import BetTable, bet_table
from punto.analysis.ranks import enumerate_ranks
from punto.bets import Bet
from punto.cards import RANKS
from punto.errors import RulesError
from punto.peek import PEEK_BETS, PeekRules
from punto.rules import Rules

__all__ = ["PeekAnalysis", "PeekBet", "peek_analysis", "raise_array"]

_VALUES = tuple(rank.value_points for rank in RANKS)


def _visible(four: int, revealed: int) -> tuple[int, ...]:
    """The ranks (ace 0) a player sees of the four first cards: P1, B1, P2, B2 in order,
    each hand's two sorted once both are up (their order changes nothing)."""
    ranks = (four // 2197, four // 169 % 13, four // 13 % 13, four % 13)[:revealed]
    if revealed == 4:
        return (*sorted((ranks[0], ranks[2])), *sorted((ranks[1], ranks[3])))
    return ranks


@dataclass(frozen=True, slots=True)
class PeekBet:
    """A raisable bet's optimal raise and its exact figures [PK]."""

    bet: Bet
    rtp: Fraction
    """Expected return over expected cost under the optimal raise."""
    base_rtp: Fraction
    """The same bet never raised (the stake fee paid)."""
    raise_probability: Fraction
    """Probability that the optimal strategy raises."""
    revealed: int
    strategy: Mapping[tuple[int, ...], int]
    """Visible ranks (ace 0; with four cards: the Player's two sorted, then the
    Banker's two sorted) to the optimal raise in stakes (0: none)."""

    @property
    def house_edge(self) -> Fraction:
        """``1 - rtp``."""
        return 1 - self.rtp

    def decision(self, *ranks: int) -> int:
        """The optimal raise once cards of these rank numbers (1 ace … 13 king) are seen,
        in dealing order: P1, B1, P2, B2."""
        zero = tuple(r - 1 for r in ranks)
        if len(zero) == 4:
            zero = (*sorted((zero[0], zero[2])), *sorted((zero[1], zero[3])))
        return self.strategy.get(zero, 0)

    def by_totals(self) -> dict[str, dict[str, int]]:
        """With four cards seen: Player two-card total → Banker two-card total → the
        raise, or -1 where it depends on the cards, not only their totals."""
        table: dict[str, dict[str, int]] = {}
        for (p1, p2, b1, b2), raised in self.strategy.items():
            pt = str((_VALUES[p1] + _VALUES[p2]) % 10)
            bt = str((_VALUES[b1] + _VALUES[b2]) % 10)
            row = table.setdefault(pt, {})
            row[bt] = raised if row.get(bt, raised) == raised else -1
        return {p: dict(sorted(row.items())) for p, row in sorted(table.items())}

    def as_dict(self) -> dict[str, object]:
        """Float figures and the strategy for JSON."""
        doc: dict[str, object] = {
            "rtp": float(self.rtp),
            "house_edge": float(self.house_edge),
            "base_rtp": float(self.base_rtp),
            "raise_probability": float(self.raise_probability),
        }
        if self.revealed == 4:
            doc["raise_by_totals"] = self.by_totals()
        names = "A23456789TJQK"
        doc["raise_by_cards"] = {
            "".join(names[r] for r in state): raised
            for state, raised in sorted(self.strategy.items())
            if raised
        }
        return doc


@dataclass(frozen=True, slots=True)
class PeekAnalysis:
    """Every bet of a Peek table under the optimal raise, exact [PK]."""

    rules: str
    peek: PeekRules
    composition: Composition
    bets: Mapping[Bet, PeekBet]

    def as_dict(self) -> dict[str, object]:
        """The ``peek`` part of ``punto edge --json``."""
        peek = self.peek
        return {
            "rules": peek.name,
            "source": peek.source,
            "raises": list(peek.raises),
            "stake_fee": float(peek.stake_fee),
            "raise_fee": float(peek.raise_fee),
            "revealed": peek.revealed,
            "bets": {bet.value: result.as_dict() for bet, result in self.bets.items()},
        }


def _groups(tables: tuple[BetTable, ...]) -> tuple[npt.NDArray[np.int64], list[tuple[int, ...]]]:
    """Cells grouped by the class of every table at once (group → class per table)."""
    class_of_cell = np.zeros((len(tables), CELLS), dtype=np.int64)
    for i, table in enumerate(tables):
        for c, cells in enumerate(table.cells_of_class):
            class_of_cell[i, cells] = c
    keys: dict[tuple[int, ...], int] = {}
    group = np.zeros(CELLS, dtype=np.int64)
    for cell in range(CELLS):
        key = tuple(int(x) for x in class_of_cell[:, cell])
        group[cell] = keys.setdefault(key, len(keys))
    return group, list(keys)


def _peek_bet(
    bet: Bet,
    index: int,
    table: BetTable,
    peek: PeekRules,
    states: Mapping[tuple[int, ...], list[int]],
    classes: list[tuple[int, ...]],
    total: int,
) -> PeekBet:
    odds_of_group = [table.odds[key[index]] for key in classes]
    top = max(peek.raises)
    returned = Fraction(0)
    paid = Fraction(0)
    base = Fraction(0)
    raised_weight = 0
    strategy: dict[tuple[int, ...], int] = {}
    for state, weights in states.items():
        w = sum(weights)
        if not w:
            continue
        net = sum(
            (Fraction(n) * o for n, o in zip(weights, odds_of_group, strict=True)), Fraction(0)
        )
        ev = net / w
        raised = top if ev > peek.raise_fee else 0
        strategy[state] = raised
        if raised:
            raised_weight += w
        returned += (1 + raised) * (w + net)
        paid += w * peek.cost(raised)
        base += w + net
    return PeekBet(
        bet=bet,
        rtp=returned / paid,
        base_rtp=base / (total * peek.cost(0)),
        raise_probability=Fraction(raised_weight, total),
        revealed=peek.revealed,
        strategy=MappingProxyType(strategy),
    )


def peek_analysis(rules: Rules, composition: Composition | None = None) -> PeekAnalysis:
    """The optimal raise of every raisable bet and its exact RTP [PK] for ``composition``
    (default: a fresh shoe of the rules' decks)."""
    peek = rules.peek
    if peek is None:
        raise RulesError(f"the {rules.name} rules offer no peek", field="peek")
    shoe = Composition.fresh(rules.decks) if composition is None else composition
    bets = tuple(bet for bet in PEEK_BETS if bet in rules.paytables)
    tables = tuple(bet_table(bet, rules.paytable_for(bet)) for bet in bets)
    group, classes = _groups(tables)
    deals = enumerate_ranks(shoe, group)
    states: dict[tuple[int, ...], list[int]] = {}
    for four, row in enumerate(deals.first_four.tolist()):
        if any(row):
            acc = states.setdefault(_visible(four, peek.revealed), [0] * len(classes))
            for g, n in enumerate(row):
                acc[g] += n
    results = {
        bet: _peek_bet(bet, i, table, peek, states, classes, deals.total)
        for i, (bet, table) in enumerate(zip(bets, tables, strict=True))
    }
    return PeekAnalysis(rules.name, peek, shoe, MappingProxyType(results))


def raise_array(result: PeekBet) -> npt.NDArray[np.int64]:
    """The optimal raise for every ordered rank tuple of the four first cards (index
    ``((p1*13+b1)*13+p2)*13+b2``, ace 0), for the simulator."""
    out = np.zeros(13**4, dtype=np.int64)
    for four in range(13**4):
        out[four] = result.strategy.get(_visible(four, result.revealed), 0)
    out.flags.writeable = False
    return out
