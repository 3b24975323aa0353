"""Simulation speed: ``.venv/bin/python benchmarks/bench_simulation.py [HANDS]``.

Prints hands per second of the compiled shoe loop with 1 and 2 worker threads (real
shoes: shuffle, cut card, burns, last-hand rule, every bet tallied), of a betting system
played on the same loop, beside a plain pure-Python loop doing the same dealing, and
beside the ShoeDealer engine.
"""

from __future__ import annotations

import random
import sys
import time

from punto.analysis import CELLS, cell_index
from punto.bets import CoupFacts
from punto.cards import RANKS
from punto.dealing import HandDealt, ShoeDealer
from punto.rules import Rules, preset
from punto.simulation import max_workers, simulate
from punto.strategies import BettingSystem, Pattern, Progression, evaluate
from punto.tableau import banker_draws, hand_total, is_natural, player_draws


def plain_python_rate(rules: Rules, hands: int, seed: int = 1) -> float:
    """Hands per second of a straightforward Python loop: shuffle a list, deal by the
    tableau functions, tally each hand's cell (no shoe-procedure events)."""
    rng = random.Random(seed)
    values = [rank.value_points for rank in RANKS]
    shoe = [i % 13 for i in range(rules.decks * 52)]
    tally = [0] * CELLS
    done = 0
    started = time.perf_counter()
    while done < hands:
        rng.shuffle(shoe)
        cut = len(shoe) - rng.randint(rules.cut_min_from_end, rules.cut_max_from_end)
        pos = rules.decks
        while pos < cut and done < hands:
            p = [shoe[pos], shoe[pos + 2]]
            b = [shoe[pos + 1], shoe[pos + 3]]
            pos += 4
            pv = [values[r] for r in p]
            bv = [values[r] for r in b]
            pt, bt = hand_total(pv), hand_total(bv)
            if not (is_natural(pt) or is_natural(bt)):
                third = None
                if player_draws(pt):
                    third = values[shoe[pos]]
                    pos += 1
                    pv.append(third)
                if banker_draws(bt, player_third=third):
                    bv.append(values[shoe[pos]])
                    pos += 1
            facts = CoupFacts(
                player_total=hand_total(pv),
                banker_total=hand_total(bv),
                player_cards=len(pv),
                banker_cards=len(bv),
                player_natural=is_natural(pt),
                banker_natural=is_natural(bt),
                player_pair=p[0] == p[1],
                banker_pair=b[0] == b[1],
                same_rank_pairs=p[0] == p[1] == b[0] == b[1],
            )
            tally[cell_index(facts)] += 1
            done += 1
    return done / (time.perf_counter() - started)


def dealer_rate(rules: Rules, shoes: int) -> float:
    """Hands per second of the ShoeDealer engine (events, Coup state machine)."""
    started = time.perf_counter()
    hands = 0
    for seed in range(shoes):
        hands += sum(isinstance(e, HandDealt) for e in ShoeDealer(rules, seed=seed).deal_all())
    return hands / (time.perf_counter() - started)


def system_rate(rules: Rules, sessions: int) -> float:
    """Hands per second of Martingale on the Big Road (follow), one worker."""
    system = BettingSystem(
        progression=Progression.MARTINGALE,
        pattern=Pattern.FOLLOW,
        unit=1000,
        bankroll=50_000,
        session_hands=100,
    )
    evaluate(rules, system, sessions=100, seed=0)  # compile / load cache
    result = evaluate(rules, system, sessions=sessions, seed=1)
    return sessions * system.session_hands / result.seconds


def main() -> None:
    """Measure and print."""
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 60_000_000
    rules = preset("live_tiger")
    simulate(rules, hands=10_000, seed=0, workers=max_workers())  # compile / load cache
    rates = {}
    for workers in sorted({1, min(2, max_workers())}):
        result = simulate(rules, hands=hands, seed=1, workers=workers)
        rates[workers] = result.hands_per_second
        print(
            f"compiled kernel, {workers} worker{'s' if workers > 1 else ''}: "
            f"{result.hands_per_second / 1e6:6.2f} M hands/s "
            f"({hands:,} hands of live_tiger in {result.seconds:.2f} s)"
        )
    system = system_rate(preset("macau"), max(1, hands // 300))
    print(f"betting system, 1 worker: {system / 1e6:6.2f} M hands/s (martingale/follow, macau)")
    plain = plain_python_rate(rules, 200_000)
    engine = dealer_rate(rules, 30)
    best = max(rates.values())
    print(f"plain pure-Python loop: {plain / 1e3:8.1f} k hands/s (ratio {best / plain:,.0f}x)")
    print(f"ShoeDealer engine:      {engine / 1e3:8.1f} k hands/s (ratio {best / engine:,.0f}x)")


if __name__ == "__main__":
    main()
