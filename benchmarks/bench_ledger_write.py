"""A group commit's ledger write, on a connection the pool lends for it and on one the
writer keeps from write to write (:meth:`punto.ledger.store.LedgerStore.kept_connection`).

Run with ``.venv/bin/python benchmarks/bench_ledger_write.py [--writes N] [--batch N]
[--rounds N] [--json]`` (PostgreSQL at ``PUNTO_TEST_POSTGRES_URL``, default the local
``test`` database: a database of its own is created and dropped). Each round makes
``writes`` writes of ``batch`` confirms each (``LedgerStore.confirm_many``, as the server's
group commit does: 8 is a write's size at 1,000 bets/s offered, 48 saturated), first each
on a connection the pool lends and takes back, then all on one kept connection; the rounds
alternate the two, so a machine whose speed moves affects both alike. Printed: the
process's CPU time and the wall time a write (medians over the rounds), and the books
checked at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Sequence

from bench_server import database
from punto.bets import Bet
from punto.ledger.migrate import upgrade_async
from punto.ledger.model import TransactionKind, transfer
from punto.ledger.store import ConfirmRequest, KeptConnection, LedgerStore, create_engine

PLAYERS = 64


async def _writes(
    ledger: LedgerStore, kept: KeptConnection | None, *, writes: int, batch: int, start: int
) -> tuple[float, float]:
    """``writes`` writes of ``batch`` confirms; CPU and wall µs a write."""
    cpu, wall = time.process_time(), time.perf_counter()
    n = start
    for _ in range(writes):
        requests = []
        for _ in range(batch):
            n += 1
            requests.append(
                ConfirmRequest("g1", f"p{n % PLAYERS}", {Bet.PLAYER: 1_000}, f"c{n}", None)
            )
        answers = await ledger.confirm_many(requests, kept=kept)
        assert not any(isinstance(a, Exception) for a in answers), answers
    return (
        (time.process_time() - cpu) / writes * 1e6,
        (time.perf_counter() - wall) / writes * 1e6,
    )


async def run(*, writes: int, batch: int, rounds: int) -> dict[str, object]:
    """The measurement; prints it and returns its figures."""
    figures: dict[str, list[float]] = {
        "pool_cpu": [],
        "pool_wall": [],
        "kept_cpu": [],
        "kept_wall": [],
    }
    async with database("postgresql") as url:
        await upgrade_async(url)
        engine = create_engine(url)
        ledger = LedgerStore(engine)
        try:
            for p in range(PLAYERS):
                await ledger.post(
                    transfer(TransactionKind.DEPOSIT, f"p{p}", 10**12, transaction_id=f"d{p}")
                )
            await ledger.open_round("g1", table_id="t1")
            await _writes(ledger, None, writes=20, batch=batch, start=0)  # warm: statements
            start = 10**6
            for _ in range(rounds):
                cpu, wall = await _writes(ledger, None, writes=writes, batch=batch, start=start)
                figures["pool_cpu"].append(cpu)
                figures["pool_wall"].append(wall)
                start += writes * batch
                async with ledger.kept_connection() as kept:
                    cpu, wall = await _writes(ledger, kept, writes=writes, batch=batch, start=start)
                figures["kept_cpu"].append(cpu)
                figures["kept_wall"].append(wall)
                start += writes * batch
            report = await ledger.check()
            assert report.ok, report.problems
        finally:
            await engine.dispose()
    out: dict[str, object] = {"writes": writes, "batch": batch, "rounds": rounds}
    for key, values in figures.items():
        out[f"{key}_us_per_write"] = round(statistics.median(values))
    print(
        f"a write of {batch} confirms ({rounds} rounds of {writes}, medians): "
        f"a connection lent by the pool {out['pool_cpu_us_per_write']} µs of CPU, "
        f"{out['pool_wall_us_per_write']} µs wall; a kept connection "
        f"{out['kept_cpu_us_per_write']} µs of CPU, {out['kept_wall_us_per_write']} µs wall; "
        "the books check"
    )
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=300, help="writes a round (300)")
    parser.add_argument("--batch", type=int, default=8, help="confirms a write (8)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each kind (5)")
    parser.add_argument("--json", action="store_true", help="end with the figures as JSON")
    args = parser.parse_args(argv)
    out = asyncio.run(run(writes=args.writes, batch=args.batch, rounds=args.rounds))
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
