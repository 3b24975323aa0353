"""The ceiling ``bench_server.py`` measures the server against on PostgreSQL: each bet its
own database transaction of the ledger's simplest form (the player's balance debited if it
covers the bet, the table's escrow credited, two entries), from many connections at once.

At one table every bet locks the one escrow row, as at a popular table; at four tables the
locks spread. The measurement checks its own work (two entries a bet, the balances' sum
unchanged), so a rate of failed updates is never reported as a ceiling. The ceiling is the
database's and the machine's; the server's rate divided by it is what the group commit
gains wherever the benchmark runs.

Run alone: ``python benchmarks/naive_ceiling.py [--tables 1] [--players 200] [--json]``
(a fresh PostgreSQL database at ``$PUNTO_TEST_POSTGRES_URL``, dropped after).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Sequence

import asyncpg

_NAIVE_SCHEMA = (
    "CREATE TABLE naive_accounts (code text PRIMARY KEY, balance bigint NOT NULL "
    "CHECK (balance >= 0))",
    "CREATE TABLE naive_entries (transaction_id text NOT NULL, account_code text NOT NULL "
    "REFERENCES naive_accounts (code), amount bigint NOT NULL, "
    "PRIMARY KEY (transaction_id, account_code))",
)


async def naive_ceiling(
    url: str, *, tables: int, players: int, connections: int = 32, bets: int = 6000
) -> tuple[str, float]:
    """The ceiling the issue measured the server against: each bet its own PostgreSQL
    transaction of the ledger's simplest form (the player debited, the table's escrow
    credited, two entries), from ``connections`` connections at once, ``players`` players
    at ``tables`` tables as in the saturated run; on the same machine just after it, so
    the server's rate can be read as a multiple of it whatever the machine's speed."""
    setup = await asyncpg.connect(url)
    try:
        for statement in _NAIVE_SCHEMA:
            await setup.execute(statement)
        codes = [f"player:n{n}" for n in range(players)] + [f"escrow:t{t}" for t in range(tables)]
        await setup.executemany(
            "INSERT INTO naive_accounts VALUES ($1, $2)",
            [(code, 10**12) for code in codes],
        )
    finally:
        await setup.close()
    pool = await asyncpg.create_pool(url, min_size=connections, max_size=connections)
    assert pool is not None
    taken = iter(range(bets))

    async def worker() -> None:
        async with pool.acquire() as conn:
            for k in taken:
                n = k % players
                player, escrow, tx = f"player:n{n}", f"escrow:t{n % tables}", f"tx{k}"
                async with conn.transaction():
                    done = await conn.execute(
                        "UPDATE naive_accounts SET balance = balance - 1000 "
                        "WHERE code = $1 AND balance >= 1000",
                        player,
                    )
                    assert done == "UPDATE 1", done
                    await conn.execute(
                        "UPDATE naive_accounts SET balance = balance + 1000 WHERE code = $1",
                        escrow,
                    )
                    await conn.execute(
                        "INSERT INTO naive_entries VALUES ($1, $2, -1000), ($1, $3, 1000)",
                        tx,
                        player,
                        escrow,
                    )

    try:
        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(connections)))
        elapsed = time.perf_counter() - started
        async with pool.acquire() as conn:  # every bet written once, no money made
            entries = await conn.fetchval("SELECT count(*) FROM naive_entries")
            total = await conn.fetchval("SELECT sum(balance) FROM naive_accounts")
        assert entries == 2 * bets, (entries, bets)
        assert total == len(codes) * 10**12, total
    finally:
        await pool.close()
    rate = bets / elapsed
    return (
        f"one PostgreSQL transaction a bet (debit, credit, two entries; {connections} "
        f"connections, {players} players at {tables} table{'s' * (tables > 1)}): "
        f"{rate:,.0f} bets/s",
        rate,
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Measure the ceiling on a fresh database and print it."""
    from bench_server import database  # late: bench_server imports this module

    parser = argparse.ArgumentParser(description="one PostgreSQL transaction a bet")
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    args = parser.parse_args(argv)

    async def measure() -> tuple[str, float]:
        async with database("postgresql") as url:
            return await naive_ceiling(url, tables=args.tables, players=args.players)

    text, rate = asyncio.run(measure())
    print(text)
    if args.json:
        print(json.dumps({"tables": args.tables, "naive_bets_per_second": round(rate)}))


if __name__ == "__main__":
    main()
