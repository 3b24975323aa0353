"""Rules-engine throughput: coups dealt card by card, whole shoes, settlements.

Run: ``python benchmarks/bench_engine.py``. Prints one figure per line.
"""

from __future__ import annotations

import time

from punto.bets import Bet
from punto.coup import deal_coup
from punto.dealing import ShoeDealer
from punto.rules import preset
from punto.settlement import settle
from punto.shoe import Shoe


def _rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s"


def main() -> None:
    """Measure and print."""
    shoe = Shoe.shuffled(decks=8, seed=1)
    cards = [shoe.draw() for _ in range(400)]
    start = time.perf_counter()
    coups = 0
    for _ in range(50):
        pos = 0
        while pos + 6 <= len(cards):
            outcome = deal_coup(cards[pos : pos + 6])
            pos += outcome.cards_used
            coups += 1
    elapsed = time.perf_counter() - start
    print(f"coups dealt through the Coup state machine: {_rate(coups, elapsed)}")

    rules = preset("online_8deck")
    start = time.perf_counter()
    shoes = 0
    hands = 0
    while time.perf_counter() - start < 2.0:
        dealer = ShoeDealer(rules, seed=shoes)
        hands += sum(1 for _ in dealer.deal_all())
        shoes += 1
    elapsed = time.perf_counter() - start
    print(f"whole 8-deck shoes dealt by ShoeDealer: {_rate(shoes, elapsed)} ({hands} shoe events)")

    outcome = deal_coup(cards[:6])
    bets = dict.fromkeys(rules.offered_bets, 10_000)
    start = time.perf_counter()
    n = 20_000
    for _ in range(n):
        settle(rules, outcome, bets)
    elapsed = time.perf_counter() - start
    print(f"settlements of {len(bets)} bets each: {_rate(n, elapsed)}")
    print(f"bets settled: {_rate(n * len(bets), elapsed)}")
    assert Bet.PLAYER in bets


if __name__ == "__main__":
    main()
