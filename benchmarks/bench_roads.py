"""Roads benchmark: feeding results one at a time, the ask-road query, and renderings.

Run with ``.venv/bin/python benchmarks/bench_roads.py [--hands N]``. The results are drawn
from a seeded generator with about baccarat's frequencies (Banker 45.9 %, Player 44.6 %,
Tie 9.5 %, each pair 7.5 %), so every run feeds the same sequence. Per-block rates show
whether the work per hand stays constant as the board grows.
"""

from __future__ import annotations

import argparse
import random
import time

from punto.outcome import Winner
from punto.roads import RoadBoard, RoadResult
from punto.roads_render import render_svg, render_text

BLOCKS = 10
SHOE_HANDS = 80


def results(count: int, seed: int = 2024) -> list[RoadResult]:
    """``count`` results drawn with baccarat's frequencies (shared immutable values)."""
    rng = random.Random(seed)
    pool = {
        (winner, bp, pp): RoadResult(winner, banker_pair=bp, player_pair=pp)
        for winner in Winner
        for bp in (False, True)
        for pp in (False, True)
    }
    winners = rng.choices(list(Winner), weights=(0.4462, 0.4586, 0.0952), k=count)
    return [pool[(w, rng.random() < 0.0747, rng.random() < 0.0747)] for w in winners]


def bench_feed(sequence: list[RoadResult]) -> RoadBoard:
    """Feed a long sequence of results, one at a time; print the rate per block."""
    board = RoadBoard()
    block = len(sequence) // BLOCKS
    rates = []
    start = time.perf_counter()
    for i in range(BLOCKS):
        t0 = time.perf_counter()
        for result in sequence[i * block : (i + 1) * block]:
            board.add(result)
        rates.append(block / (time.perf_counter() - t0))
    total = time.perf_counter() - start
    fed = block * BLOCKS
    print(f"feed one at a time: {fed:,} hands in {total:.2f} s = {fed / total:,.0f} hands/s")
    print(
        f"  per block of {block:,}: first {rates[0]:,.0f}, last {rates[-1]:,.0f}, "
        f"slowest {min(rates):,.0f}, fastest {max(rates):,.0f} hands/s"
    )
    return board


def bench_ask(board: RoadBoard, count: int) -> None:
    """Ask Banker / Ask Player ``count`` times; print the rate."""
    ask = board.ask
    start = time.perf_counter()
    for _ in range(count // 2):
        ask(Winner.BANKER)
        ask(Winner.PLAYER)
    elapsed = time.perf_counter() - start
    print(
        f"ask-road query on a board of {len(board):,} hands: {count:,} asks in {elapsed:.2f} s "
        f"= {count / elapsed:,.0f} asks/s"
    )


def bench_shoes(sequence: list[RoadResult], count: int) -> None:
    """Replay ``count`` whole shoes; print the rate."""
    start = time.perf_counter()
    for i in range(count):
        RoadBoard.replay(sequence[i * SHOE_HANDS : (i + 1) * SHOE_HANDS])
    elapsed = time.perf_counter() - start
    print(
        f"replay {count:,} shoes of {SHOE_HANDS} hands: {count / elapsed:,.0f} shoes/s "
        f"({count * SHOE_HANDS / elapsed:,.0f} hands/s)"
    )
    board = RoadBoard.replay(sequence[:SHOE_HANDS])
    for name, render in (("text", render_text), ("SVG", render_svg)):
        runs = 200
        t0 = time.perf_counter()
        for _ in range(runs):
            render(board)
        per = (time.perf_counter() - t0) / runs
        print(f"render {name} of one {SHOE_HANDS}-hand shoe: {per * 1000:.2f} ms")


def main() -> None:
    """Run every roads benchmark."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1_000_000, help="results fed (1,000,000)")
    args = parser.parse_args()
    sequence = results(args.hands)
    board = bench_feed(sequence)
    bench_ask(board, 1_000_000)
    bench_shoes(sequence, min(5_000, len(sequence) // SHOE_HANDS))


if __name__ == "__main__":
    main()
