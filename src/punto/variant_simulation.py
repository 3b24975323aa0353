"""Simulating the variants whose bets look past the cells: multiplier baccarat [LB]
(lightning cards drawn by the RNG before every hand) and Peek [PK] (each raise by the
optimal strategy of :mod:`punto.analysis.peek`).

Shoes hold card identities (rank and suit, ``code % 13`` the rank, ``code // 13`` the
suit) and are dealt by :func:`punto.shoeloop.play_shoe_from` on their ranks, so the
procedure and the tableau are the shoe loop's own; a hand's cards are read where it
starts. Payouts come from the rules' data: each cell's odds from
:func:`punto.analysis.bet_table`, the multiplier rule from
:meth:`punto.multipliers.LightningTable.net_odds` (odds plus ``(M - 1)`` times the
multiplied odds), the raise from the strategy table. A bet's return is per unit *paid*
(stake and fees), as the exact figures are; the stake is one unit, so the cap never
binds. Streams and seeds are those of :mod:`punto.simulation`.

>>> from punto.rules import preset
>>> result = simulate_variant(preset("lightning"), hands=2_000, seed=1)
>>> result.hands + result.void_hands
2000
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import cast

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from punto.analysis import CELLS, analyze, bet_table, cell_facts
from punto.analysis.lightning import lightning_analysis
from punto.analysis.peek import peek_analysis, raise_array
from punto.bets import Bet
from punto.errors import SimulationError
from punto.multipliers import COUNTED_HAND, IDENTITIES, lit_odds
from punto.peek import peek_cost
from punto.rules import Rules
from punto.shoeloop import TABLEAU, ShoeParams, Tableau, below, new_shoe, play_shoe_from, private
from punto.simulation import (
    STREAM_HANDS,
    Z95,
    BetReturn,
    SimulationResult,
    max_workers,
    resolve_seed,
    stream_plan,
    stream_states,
)

__all__ = ["VariantTables", "simulate_variant", "variant_tables"]

_HANDS = {"player": 0, "banker": 1, "both": 2}
_SUMS = 5
"""Per bet: sum of returns, of returns squared, of costs, of costs squared, of both."""


@dataclass(frozen=True, slots=True)
class VariantTables:
    """A variant's payouts as the kernel reads them (one row per offered bet)."""

    bets: tuple[Bet, ...]
    odds: npt.NDArray[np.float64]
    """``[bet, cell]``: the paytable's odds."""
    multiplied: npt.NDArray[np.float64]
    """``[bet]``: the odds the multiplier product scales (0: not multiplied)."""
    counted: npt.NDArray[np.int64]
    """``[bet]``: whose cards count: 0 Player, 1 Banker, 2 both."""
    fee: npt.NDArray[np.float64]
    """``[bet]``: fee per unit staked (the lightning fee, or Peek's stake fee)."""
    raises: npt.NDArray[np.int64]
    """``[bet, four]``: the raise in stakes for the four first cards' ranks."""
    raise_fee: float
    counts: npt.NDArray[np.int64]
    """Lightning counts, their cumulative weights next row (empty: no lightning)."""
    multipliers: npt.NDArray[np.int64]
    """Multipliers, their cumulative weights next row."""


def variant_tables(rules: Rules) -> VariantTables:
    """The kernel's tables for a multiplier or Peek table."""
    bets = rules.offered_bets
    n = len(bets)
    odds = np.zeros((n, CELLS), dtype=np.float64)
    multiplied = np.zeros(n, dtype=np.float64)
    counted = np.zeros(n, dtype=np.int64)
    fee = np.zeros(n, dtype=np.float64)
    raises = np.zeros((n, 13**4), dtype=np.int64)
    raise_fee = 0.0
    counts = np.zeros((2, 0), dtype=np.int64)
    multipliers = np.zeros((2, 0), dtype=np.int64)
    for i, bet in enumerate(bets):
        odds[i] = bet_table(bet, rules.paytable_for(bet)).odds_of_cell
    lightning = rules.lightning
    if lightning is not None:
        for i, bet in enumerate(bets):
            fee[i] = float(lightning.fee)
            if bet in lightning.multiplied_odds:
                multiplied[i] = float(lightning.multiplied_odds[bet])
                counted[i] = _HANDS[COUNTED_HAND[bet]]
        counts = np.array(
            [list(lightning.count_weights), np.cumsum(list(lightning.count_weights.values()))],
            dtype=np.int64,
        )
        multipliers = np.array(
            [list(lightning.multipliers), np.cumsum(list(lightning.multiplier_weights.values()))],
            dtype=np.int64,
        )
    elif rules.peek is not None:
        strategy = peek_analysis(rules).bets
        raise_fee = float(rules.peek.raise_fee)
        for i, bet in enumerate(bets):
            if bet in strategy:
                fee[i] = float(rules.peek.stake_fee)
                raises[i] = raise_array(strategy[bet])
    else:
        raise SimulationError(f"the {rules.name} rules are not a multiplier or Peek table")
    return VariantTables(
        bets, odds, multiplied, counted, fee, raises, raise_fee, counts, multipliers
    )


def _weighted(state: npt.NDArray[np.uint64], table: npt.NDArray[np.int64]) -> int:
    """A value of row 0 drawn by the cumulative weights of row 1."""
    x = below(state, table[1, table.shape[1] - 1])
    k = 0
    while table[1, k] <= x:
        k += 1
    return int(table[0, k])


_weighted_jit = njit(cache=True, inline="always")(_weighted)


_HAND_CARDS = np.array(
    [[cell_facts(c).player_cards, cell_facts(c).banker_cards] for c in range(CELLS)],
    dtype=np.int64,
)
"""``[cell, hand]``: the Player's and the Banker's number of cards."""
_HAND_CARDS.flags.writeable = False


# Cast for floats: the loop compiles the one rule of each (fractions elsewhere).
_lit_odds_jit = cast(
    Callable[[float, int, float], float], njit(cache=True, inline="always")(lit_odds)
)
_peek_cost_jit = cast(
    Callable[[float, float, int], float], njit(cache=True, inline="always")(peek_cost)
)


def _settle(
    codes: npt.NDArray[np.uint8],
    start: int,
    cell: int,
    hand_cards: npt.NDArray[np.int64],
    lit: npt.NDArray[np.int64],
    odds: npt.NDArray[np.float64],
    multiplied: npt.NDArray[np.float64],
    counted: npt.NDArray[np.int64],
    fee: npt.NDArray[np.float64],
    raises: npt.NDArray[np.int64],
    raise_fee: float,
    sums: npt.NDArray[np.float64],
) -> None:
    """Each bet's return and cost for one hand (unit stake), added to ``sums`` (the
    lightning fee rides in ``fee`` as a stake fee: the same cost with no raise)."""
    pc = hand_cards[cell, 0]
    bc = hand_cards[cell, 1]
    # Positions: P1 B1 P2 B2, then the Player's third, then the Banker's.
    r1 = codes[start] % 13
    r2 = codes[start + 1] % 13
    r3 = codes[start + 2] % 13
    r4 = codes[start + 3] % 13
    four = ((r1 * 13 + r2) * 13 + r3) * 13 + r4
    m_player = lit[codes[start]] * lit[codes[start + 2]]
    m_banker = lit[codes[start + 1]] * lit[codes[start + 3]]
    if pc == 3:
        m_player *= lit[codes[start + 4]]
    if bc == 3:
        m_banker *= lit[codes[start + 4 + pc - 2]]
    for i in range(odds.shape[0]):
        o = odds[i, cell]
        if o > 0 and multiplied[i] > 0:
            h = counted[i]
            m = m_player if h == 0 else m_banker if h == 1 else m_player * m_banker
            o = _lit_odds_jit(o, m, multiplied[i])
        r = raises[i, four]
        ret = (1 + r) * (1 + o)
        cost = _peek_cost_jit(fee[i], raise_fee, r)
        sums[i, 0] += ret
        sums[i, 1] += ret * ret
        sums[i, 2] += cost
        sums[i, 3] += cost * cost
        sums[i, 4] += ret * cost


_settle_jit = njit(cache=True, inline="always")(_settle)


_KernelTables = tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.int64],
    npt.NDArray[np.float64],
    npt.NDArray[np.int64],
    float,
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
]
"""What the kernels read of a variant's tables: odds, multiplied, counted, fee, raises,
raise fee, lightning counts and multipliers."""


def _variant_stream(
    state: npt.NDArray[np.uint64],
    quota: int,
    shoe: ShoeParams,
    tableau: Tableau,
    tables: _KernelTables,
    hand_cards: npt.NDArray[np.int64],
    sums: npt.NDArray[np.float64],
    cells: npt.NDArray[np.int64],
) -> tuple[int, int, int]:
    """Shoes of card identities until ``quota`` hands: (hands, void hands, shoes)."""
    odds, multiplied, counted, fee, raises, raise_fee, counts, multipliers = tables
    n = shoe.decks * 52
    codes = np.empty(n, dtype=np.uint8)
    for i in range(n):
        codes[i] = i % 52
    codes = private(codes)
    ranks = private(np.zeros(n, dtype=np.uint8))
    own = private(state)
    tally = np.zeros(odds.shape[1], dtype=np.int64)
    record = np.zeros(n, dtype=np.int64)
    starts = np.zeros(n, dtype=np.int64)
    lit = np.ones(IDENTITIES, dtype=np.int64)
    pool = np.arange(IDENTITIES)
    lightning = counts.shape[1] > 0
    local = np.zeros_like(sums)
    hands = 0
    voids = 0
    shoes = 0
    while hands < quota:
        cut_index = new_shoe(own, codes, shoe)
        for i in range(n):
            ranks[i] = codes[i] % 13
        dealt, void = play_shoe_from(
            ranks, cut_index, shoe, quota - hands, tableau, tally, record, starts
        )
        shoes += 1
        for h in range(dealt):
            cell = record[h]
            if cell < 0:
                continue  # [S5] a void hand: every bet refunded
            if lightning:
                # [LB] distinct identities by a partial Fisher-Yates over the 52
                k = _weighted_jit(own, counts)
                for j in range(k):
                    pick = j + below(own, IDENTITIES - j)
                    pool[j], pool[pick] = pool[pick], pool[j]
                    lit[pool[j]] = _weighted_jit(own, multipliers)
            _settle_jit(
                codes, starts[h], cell, hand_cards, lit, odds, multiplied, counted, fee, raises,
                raise_fee, local,
            )  # fmt: skip
            if lightning:
                for j in range(k):
                    lit[pool[j]] = 1
        hands += dealt
        voids += void
        if dealt == 0:
            break
    sums += local
    cells += tally
    return hands, voids, shoes


_variant_stream_jit = njit(cache=True)(_variant_stream)


def _variant_streams(
    states: npt.NDArray[np.uint64],
    quotas: npt.NDArray[np.int64],
    shoe: ShoeParams,
    tableau: Tableau,
    tables: _KernelTables,
    hand_cards: npt.NDArray[np.int64],
    sums: npt.NDArray[np.float64],
    cells: npt.NDArray[np.int64],
    stats: npt.NDArray[np.int64],
) -> None:
    """Independent streams, one per row, on numba's worker threads."""
    for k in prange(quotas.shape[0]):
        hands, voids, shoes = _variant_stream_jit(
            states[k], quotas[k], shoe, tableau, tables, hand_cards, sums[k], cells[k]
        )
        stats[k, 0] = hands
        stats[k, 1] = voids
        stats[k, 2] = shoes


_variant_streams_jit = njit(cache=True, parallel=True)(_variant_streams)


def _exact_returns(rules: Rules) -> dict[Bet, float]:
    """Exact return per unit paid (``rtp - 1``) of every offered bet."""
    base = analyze(rules)
    exact = {bet: float(-result.house_edge) for bet, result in base.bets.items()}
    if rules.lightning is not None:
        for bet, figures in lightning_analysis(rules).bets.items():
            exact[bet] = float(figures.rtp - 1)
    if rules.peek is not None:
        for bet, peeked in peek_analysis(rules).bets.items():
            exact[bet] = float(peeked.rtp - 1)
    return exact


def simulate_variant(
    rules: Rules,
    *,
    hands: int,
    seed: int | None = None,
    workers: int = 1,
    stream_hands: int = STREAM_HANDS,
) -> SimulationResult:
    """Deal ``hands`` hands of a multiplier or Peek table and report each bet's return
    per unit paid against the exact figure (a ratio estimate; its 95% interval by the
    delta method)."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SimulationError(f"workers must be a positive whole number, not {workers}")
    if workers > max_workers():
        raise SimulationError(
            f"{workers} workers asked, but this machine runs at most {max_workers()} threads"
        )
    if rules.continuous_shuffler:
        raise SimulationError("a multiplier or Peek table is simulated from a shoe, not a shuffler")
    tables = variant_tables(rules)
    quotas = np.array(stream_plan(hands, stream_hands=stream_hands), dtype=np.int64)
    run_seed = resolve_seed(seed)
    states = stream_states(run_seed, 0, quotas.shape[0], purpose=1)
    params = ShoeParams.of(rules)
    kernel_tables = (
        tables.odds, tables.multiplied, tables.counted, tables.fee, tables.raises,
        tables.raise_fee, tables.counts, tables.multipliers,
    )  # fmt: skip
    sums = np.zeros((quotas.shape[0], len(tables.bets), _SUMS), dtype=np.float64)
    stats = np.zeros((quotas.shape[0], 3), dtype=np.int64)
    cells = np.zeros((quotas.shape[0], CELLS), dtype=np.int64)
    exact = _exact_returns(rules)
    previous = numba.get_num_threads()
    numba.set_num_threads(max(1, min(workers, max_workers())))
    started = time.perf_counter()
    try:
        _variant_streams_jit(
            states, quotas, params, TABLEAU, kernel_tables, _HAND_CARDS, sums, cells, stats
        )
    finally:
        numba.set_num_threads(previous)
    seconds = time.perf_counter() - started
    dealt, voids, shoes = (int(x) for x in stats.sum(axis=0))
    resolved = dealt - voids
    if resolved < 1:
        raise SimulationError("no hand was resolved: nothing to report")
    total = sums.sum(axis=0)
    results: dict[Bet, BetReturn] = {}
    for i, bet in enumerate(tables.bets):
        s_r, s_rr, s_c, s_cc, s_rc = (float(x) for x in total[i])
        mean_r = s_r / resolved
        mean_c = s_c / resolved
        ratio = mean_r / mean_c
        var_r = max(s_rr / resolved - mean_r**2, 0.0)
        var_c = max(s_cc / resolved - mean_c**2, 0.0)
        cov = s_rc / resolved - mean_r * mean_c
        var = max(var_r - 2 * ratio * cov + ratio**2 * var_c, 0.0) / mean_c**2
        half = Z95 * math.sqrt(var / resolved)
        observed = ratio - 1
        results[bet] = BetReturn(
            bet=bet,
            observed_return=observed,
            ci95=(observed - half, observed + half),
            exact_return=exact[bet],
        )
    return SimulationResult(
        rules=rules.name,
        seed=run_seed,
        workers=workers,
        hands=resolved,
        void_hands=voids,
        shoes=shoes,
        seconds=seconds,
        cell_counts=tuple(int(c) for c in cells.sum(axis=0).tolist()),
        bets=MappingProxyType(results),
    )
