"""The edge computed before each hand to close the side bets the shoe turned [EZ-C]
(:class:`punto.analysis.closing.SideBetPricer`), at a table offering every side bet.

Run with ``.venv/bin/python benchmarks/bench_side_bet_close.py [--shoes N] [--json]``. The
rules are ``ez`` (no-commission Banker pushing a three-card 7, Dragon 7 and Panda 8) with
every other side bet added on the one table: the pairs, the Dragon Bonus, the five Tiger
bets, Big/Small and the ten Super Ties (23 side bets). Whole RNG shoes are dealt by the
table itself; before each hand the table's own step is timed: the composition of the
cards not yet seen and the edge of every side bet on it, each a new composition (no
cached answer). ``median_ms`` and ``p99_ms`` are over every hand; the target is 2 ms for
both. ``table_open_ms`` times a whole ``open_betting`` of such a table (median), and
``cached_us`` the answer for a composition already priced (a hand restarted).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from punto.analysis.closing import SideBetPricer
from punto.analysis.composition import Composition
from punto.bets import SUPER_TIE_BETS, Bet
from punto.paytables import paytables_for
from punto.rules import Rules, preset
from punto.table import ManualClock, Table, TableSettings

TARGET_MS = 2.0


def every_side_bet() -> Rules:
    """The ``ez`` rules with every side bet the presets offer, on one table."""
    ez = preset("ez")
    tiger = preset("live_tiger").paytables
    online = preset("online_8deck").paytables
    paytables: dict[Bet, str] = {
        **ez.paytables,
        Bet.PLAYER_PAIR: "player_pair_11",
        Bet.BANKER_PAIR: "banker_pair_11",
        **{bet: tiger[bet] for bet in tiger if bet not in (Bet.PLAYER, Bet.BANKER, Bet.TIE)},
        Bet.BIG: online[Bet.BIG],
        Bet.SMALL: online[Bet.SMALL],
        **{bet: paytables_for(bet)[0] for bet in SUPER_TIE_BETS},
    }
    return ez.replace(name="every_side_bet", paytables=paytables, close_below_edge=0.0)


def shoe_steps(rules: Rules, shoes: int) -> tuple[list[float], list[float], int]:
    """Seconds of the pricing step before each hand of ``shoes`` whole shoes, seconds of
    each whole ``open_betting``, and the side bets priced each time."""
    steps: list[float] = []
    opens: list[float] = []
    clock = ManualClock()
    table = Table(TableSettings(table_id="B1", rules=rules), clock=clock, rng=random.Random(11))
    bets = len(SideBetPricer(rules).bets)
    for _ in range(shoes):
        table.start_shoe()
        pricer = SideBetPricer(rules)  # a shoe's compositions are each new to it
        while table.can_open_betting():
            shoe = table.shoe
            assert shoe is not None
            start = time.perf_counter()
            pricer.closed(shoe.unseen)
            steps.append(time.perf_counter() - start)
            start = time.perf_counter()
            table.open_betting()
            opens.append(time.perf_counter() - start)
            clock.advance(table.settings.betting_seconds)
            table.close_betting()
            while table.can_deal_next():
                table.deal_card()
            table.settle()
        if table.can_change_shoe():
            table.change_shoe()
    return steps, opens, bets


def cached(rules: Rules, rounds: int = 2000) -> float:
    """Seconds of an answer for a composition already priced."""
    settings = TableSettings(table_id="B2", rules=rules)
    table = Table(settings, clock=ManualClock(), rng=random.Random(3))
    table.start_shoe()
    shoe = table.shoe
    assert shoe is not None
    pricer = SideBetPricer(rules)
    unseen = shoe.unseen
    pricer.closed(unseen)
    start = time.perf_counter()
    for _ in range(rounds):
        pricer.closed(unseen)
    return (time.perf_counter() - start) / rounds


def main() -> None:
    """Deal the shoes and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=20, help="whole shoes dealt (default 20)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    rules = every_side_bet()
    SideBetPricer(rules).closed(Composition.fresh(rules.decks))  # the kernel loaded first
    steps, opens, bets = shoe_steps(rules, args.shoes)
    ordered = sorted(steps)
    figures = {
        "rules": rules.name,
        "side_bets": bets,
        "hands": len(steps),
        "median_ms": round(statistics.median(steps) * 1e3, 3),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1e3, 3),
        "max_ms": round(ordered[-1] * 1e3, 3),
        "table_open_ms": round(statistics.median(opens) * 1e3, 3),
        "cached_us": round(cached(rules) * 1e6, 2),
        "target_ms": TARGET_MS,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{figures['side_bets']} side bets priced before each of {figures['hands']} hands")
    print(f"  median {figures['median_ms']} ms, p99 {figures['p99_ms']} ms", end="")
    print(f", max {figures['max_ms']} ms")
    print(f"  a whole open_betting {figures['table_open_ms']} ms (median)")
    print(f"  a composition already priced {figures['cached_us']} µs")
    print(f"  target ≤ {TARGET_MS} ms (median and p99)")


if __name__ == "__main__":
    main()
