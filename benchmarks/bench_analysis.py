"""Exact analysis speed: ``.venv/bin/python benchmarks/bench_analysis.py``.

Prints the figures issue 4 asks for: milliseconds for a fresh 8-deck shoe with every
bet of a preset (warm), milliseconds per new composition, seconds per shoe tracked hand
by hand, and the speed-up over a plain pure-Python enumeration.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Callable

from punto.analysis import (
    Composition,
    analyze,
    enumerate_coups,
    house_edges,
    reference_enumeration,
    track_events,
)
from punto.cards import RANKS
from punto.dealing import ShoeDealer
from punto.rules import preset, preset_names


def _ms(action: Callable[[], object], *, repeat: int = 30) -> float:
    """Median wall time of ``action`` in milliseconds (after one warm-up call)."""
    action()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


def _new_compositions(count: int, seed: int) -> list[Composition]:
    """Fresh 8-deck shoes less a random 0-300 cards each: every one a new composition."""
    rng = random.Random(seed)
    shoes = []
    for _ in range(count):
        cards = [rank for rank in RANKS for _ in range(32)]
        rng.shuffle(cards)
        shoes.append(Composition.fresh(8).removing(cards[: rng.randint(1, 300)]))
    return shoes


def main() -> None:
    """Measure and print."""
    print("exact analysis, fresh 8-deck shoe, every bet of the preset (warm, median):")
    for name in preset_names():
        rules = preset(name)
        if rules.decks != 8:
            rules = rules.replace(decks=8)
        shoe = Composition.fresh(8)
        exact = _ms(functools.partial(analyze, rules, shoe))
        fast = _ms(functools.partial(house_edges, rules, shoe))
        bets = len(rules.offered_bets)
        print(f"  {name:<22} {bets:>2} bets: exact {exact:6.2f} ms   float {fast:6.2f} ms")
    print(
        f"  kernel alone (all cells): {_ms(lambda: enumerate_coups(Composition.fresh(8))):.2f} ms"
    )

    rules = preset("online_8deck")
    shoes = _new_compositions(200, seed=1)
    analyze(rules, shoes[0])
    started = time.perf_counter()
    for shoe in shoes:
        analyze(rules, shoe)
    per_new = 1000 * (time.perf_counter() - started) / len(shoes)
    print(
        f"new composition, all {len(rules.offered_bets)} bets of online_8deck, exact: "
        f"{per_new:.2f} ms each (mean of {len(shoes)})"
    )

    timings = []
    hands = 0
    for seed in range(5):
        events = list(ShoeDealer(preset("online_8deck"), seed=seed).deal_all())
        started = time.perf_counter()
        points = track_events(rules, events)
        timings.append(time.perf_counter() - started)
        hands += len(points) - 1
    print(
        f"whole shoe tracked hand by hand ({hands / 5:.0f} hands, 19 bets, float path): "
        f"{statistics.mean(timings):.3f} s per shoe"
    )

    shoe = Composition.fresh(8)
    started = time.perf_counter()
    facts = reference_enumeration(shoe)
    python_seconds = time.perf_counter() - started
    compiled = _ms(lambda: analyze(rules, shoe), repeat=10)
    assert facts == enumerate_coups(shoe).facts()
    print(
        f"plain pure-Python enumeration of the same cells (no pricing): {python_seconds:.2f} s;"
        f" compiled analysis with all 19 bets priced: {compiled:.2f} ms;"
        f" ratio {1000 * python_seconds / compiled:,.0f}x"
    )


if __name__ == "__main__":
    main()
