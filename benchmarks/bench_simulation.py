"""Simulation speed: ``.venv/bin/python benchmarks/bench_simulation.py [HANDS]
[--repeat N] [--json]``.

Prints hands per second of the compiled shoe loop with 1 and 2 worker threads (real
shoes: shuffle, cut card, burns, last-hand rule, every bet tallied), of a betting system
played on the same loop, beside a plain pure-Python loop doing the same dealing, and
beside the ShoeDealer engine. ``--repeat N`` runs each compiled figure N times and keeps
the median (the machine may be shared). The first-run compile time is measured apart: a
fresh Python process with an empty ``NUMBA_CACHE_DIR`` runs ``punto simulate``'s
warm-up, as a first run after install does. ``--json`` ends with one JSON object:
``hands_per_second`` (2 workers), ``hands_per_second_1_worker``,
``system_hands_per_second``, ``plain_python_hands_per_second``,
``engine_hands_per_second``, ``compile_seconds``, ``cache_load_seconds``,
``cpu_per_wall`` (CPU seconds over wall seconds of the 2-worker runs: near 2 when both
cores were ours), ``hands``, ``rules``, ``repeat``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from punto.analysis import CELLS, cell_index
from punto.bets import CoupFacts
from punto.cards import RANKS
from punto.dealing import HandDealt, ShoeDealer
from punto.rules import Rules, preset
from punto.simulation import ShoeParams, max_workers, simulate, warm_up
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
    result = evaluate(rules, system, sessions=sessions, seed=1)
    return sessions * system.session_hands / result.seconds


_FIRST_RUN = (
    "import json, sys; from punto.rules import preset; "
    "from punto.simulation import ShoeParams, warm_up; "
    "print(json.dumps(warm_up(ShoeParams.of(preset(sys.argv[1])))))"
)


def first_run_compile_seconds(rules_name: str) -> float:
    """Seconds the streams kernel takes to compile in a fresh process with an empty
    numba cache (what a first ``punto simulate`` after install waits)."""
    with tempfile.TemporaryDirectory(prefix="punto-numba-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        answer = subprocess.run(
            [sys.executable, "-c", _FIRST_RUN, rules_name],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
    return float(answer.stdout.strip().splitlines()[-1])


def kernel_rate(rules: Rules, hands: int, workers: int) -> tuple[float, float]:
    """Hands per second of one run and its CPU seconds per wall second."""
    before = os.times()
    result = simulate(rules, hands=hands, seed=1, workers=workers)
    after = os.times()
    cpu = (after.user - before.user) + (after.system - before.system)
    return result.hands_per_second, cpu / result.seconds


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", nargs="?", type=int, default=60_000_000)
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure (median)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    args = parser.parse_args()
    hands: int = args.hands
    name = "live_tiger"
    rules = preset(name)
    compile_seconds = first_run_compile_seconds(name)
    print(f"first-run compile (empty numba cache): {compile_seconds:.1f} s")
    started = time.perf_counter()
    warm_up(ShoeParams.of(rules))  # numba's cache, as every later run
    cache_load = time.perf_counter() - started
    print(f"loading the compiled loop from the cache: {cache_load:.2f} s")
    rates: dict[int, float] = {}
    cpu_per_wall = 0.0
    for workers in sorted({1, min(2, max_workers())}):
        runs = [kernel_rate(rules, hands, workers) for _ in range(args.repeat)]
        rates[workers] = statistics.median(rate for rate, _ in runs)
        if workers > 1:
            cpu_per_wall = statistics.median(cpu for _, cpu in runs)
        print(
            f"compiled kernel, {workers} worker{'s' if workers > 1 else ''}: "
            f"{rates[workers] / 1e6:6.2f} M hands/s "
            f"({hands:,} hands of {name}, median of {args.repeat}, "
            f"runs {', '.join(f'{r / 1e6:.1f}' for r, _ in runs)})"
        )
    macau = preset("macau")
    system_rate(macau, 100)  # compile / load cache
    sessions = max(1, hands // 300)
    system = statistics.median(system_rate(macau, sessions) for _ in range(args.repeat))
    print(f"betting system, 1 worker: {system / 1e6:6.2f} M hands/s (martingale/follow, macau)")
    plain = plain_python_rate(rules, 200_000)
    engine = dealer_rate(rules, 30)
    best = max(rates.values())
    print(f"plain pure-Python loop: {plain / 1e3:8.1f} k hands/s (ratio {best / plain:,.0f}x)")
    print(f"ShoeDealer engine:      {engine / 1e3:8.1f} k hands/s (ratio {best / engine:,.0f}x)")
    if args.json:
        figures = {
            "rules": name,
            "hands": hands,
            "repeat": args.repeat,
            "hands_per_second": rates[max(rates)],
            "hands_per_second_1_worker": rates[1],
            "cpu_per_wall": cpu_per_wall,
            "system_hands_per_second": system,
            "plain_python_hands_per_second": plain,
            "engine_hands_per_second": engine,
            "compile_seconds": compile_seconds,
            "cache_load_seconds": cache_load,
        }
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
