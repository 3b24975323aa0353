"""What each player may do, at table scale: the ``legal_actions`` pass after a table-wide
event (a change of phase) asks every player at the table; after a card, only those it
concerns.

Run with ``.venv/bin/python benchmarks/bench_legal.py [--players N] [--json]``. A Macau
table with seven seated players and the rest watching; every player confirms one bet;
then betting closes and cards are dealt, and each step's pass
(:class:`punto.server.tables.legalcast.LegalCast`) is timed: after betting closes (``close_ms``,
every player), after each card before the last (``card_median_ms``), after the last card
with the result it brings (``last_card_ms``); and the time of a player's own chip with
their legal actions (``own_chip_us``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from punto.bets import Bet
from punto.rules import preset
from punto.server.tables.legalcast import LegalCast
from punto.table import ManualClock, Phase, Table, TableSettings, Viewer


def build(players: int) -> tuple[Table, ManualClock]:
    """A table with ``players`` players, each with one confirmed bet, betting open."""
    clock = ManualClock()
    table = Table(
        TableSettings(table_id="T1", rules=preset("macau")), clock=clock, rng=random.Random(1)
    )
    for i in range(players):
        player = f"p{i}"
        table.join(player, balance=10_000_000)
        if i < table.settings.seats:
            table.sit(player, i + 1, tier="low")
        else:
            table.watch(player)
    table.start_shoe()
    table.open_betting()
    for i in range(players):
        player = f"p{i}"
        table.choose_chip(player, 10_000)
        table.add_chip(player, Bet.BANKER if i % 2 else Bet.PLAYER)
        table.confirm(player)
    return table, clock


def passes(players: int) -> dict[str, list[float]]:
    """Seconds of each step's pass, by step: closing betting (``close``), each card before
    the coup's last (``card``) and the last card with the result it brings
    (``last_card``)."""
    table, clock = build(players)
    cast = LegalCast()
    cast.envelope(table, table.events[-1:], table_id="T1", seq=0)  # everyone told once
    clock.advance(table.settings.betting_seconds)
    sent = len(table.events)
    table.close_betting()
    step = "close"
    times: dict[str, list[float]] = {"close": [], "card": [], "last_card": []}
    while True:
        events, sent = table.events[sent:], len(table.events)
        started = time.perf_counter()
        cast.envelope(table, events, table_id="T1", seq=sent)
        times[step].append(time.perf_counter() - started)
        if table.phase not in (Phase.BETTING_CLOSED, Phase.DEALING):
            return times
        table.deal_card()
        step = "card" if table.phase is Phase.DEALING else "last_card"


def own_chips(players: int) -> float:
    """Seconds a player's own chip takes at a table of ``players`` with confirmed bets:
    the chip, then what that player may now do (the server asks only them after their
    own event; ``confirm`` checks the table's Banker and Player totals [M14])."""
    table, _ = build(players)
    started = time.perf_counter()
    for i in range(players):
        player = f"p{i}"
        table.add_chip(player, Bet.TIE)
        table.legal_actions(Viewer.PLAYER, player)
    return (time.perf_counter() - started) / players


def main() -> None:
    """Time the passes and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2_500)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    times = passes(args.players)
    close = times["close"][0]
    figures = {
        "players": args.players,
        "close_ms": round(close * 1000, 2),
        "per_player_us": round(close / args.players * 1e6, 2),
        "cards": len(times["card"]),
        "card_median_ms": round(statistics.median(times["card"]) * 1000, 2),
        "last_card_ms": round(times["last_card"][0] * 1000, 2),
        "own_chip_us": round(own_chips(args.players) * 1e6, 2),
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"legal_actions pass over {figures['players']:,} players after betting closes: "
        f"{figures['close_ms']} ms ({figures['per_player_us']} µs a player)\n"
        f"after each card before the last ({figures['cards']}): median "
        f"{figures['card_median_ms']} ms; after the last card and the result: "
        f"{figures['last_card_ms']} ms\n"
        f"a player's own chip and their legal actions: {figures['own_chip_us']} µs"
    )


if __name__ == "__main__":
    main()
