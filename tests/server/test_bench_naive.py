"""The ceiling ``benchmarks/bench_server.py`` sets the server against on PostgreSQL
(``benchmarks/naive_ceiling.py``): each bet its own transaction. Its rate is only worth
quoting if every bet it counts was written: these run it small on a real database and look
at its rows."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import asyncpg
import pytest
from ledger_support import POSTGRESQL, ledger_database

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]  # slow: the integration stage


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "naive_ceiling.py"
    spec = importlib.util.spec_from_file_location("naive_ceiling_for_tests", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("backend", POSTGRESQL)
@pytest.mark.parametrize("tables", [1, 4])
async def test_one_transaction_a_bet_writes_every_bet_it_counts(
    backend: str, tables: int, tmp_path: Path
) -> None:
    bench = _bench()
    async with ledger_database(backend, tmp_path) as url:
        plain = url.replace("postgresql+asyncpg://", "postgresql://")
        text, rate = await bench.naive_ceiling(
            plain, tables=tables, players=20, connections=8, bets=300
        )
        assert rate > 0
        assert f"at {tables} table" in text
        conn = await asyncpg.connect(plain)
        try:
            entries = await conn.fetch(
                "SELECT account_code, count(*) AS n, sum(amount) AS total "
                "FROM naive_entries GROUP BY account_code"
            )
            rows = await conn.fetch("SELECT code, balance FROM naive_accounts")
            balances = {row["code"]: row["balance"] for row in rows}
        finally:
            await conn.close()
    by_account = {row["account_code"]: (row["n"], row["total"]) for row in entries}
    # every bet debited its player and credited its table's escrow, once
    assert sum(n for n, _ in by_account.values()) == 600
    for n in range(20):
        code = f"player:n{n}"
        assert by_account[code] == (15, -15_000)
        assert balances[code] == 10**12 - 15_000
    escrows = {code: v for code, v in by_account.items() if code.startswith("escrow:")}
    assert len(escrows) == tables
    assert sum(total for _, total in escrows.values()) == 300_000
    assert sum(balances.values()) == 10**12 * (20 + tables)


@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_a_bet_the_balance_does_not_cover_fails_the_measurement(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ceiling refuses to count a bet its debit did not move (a rate of failed
    updates would be no ceiling)."""
    bench = _bench()
    monkeypatch.setattr(
        bench,
        "_NAIVE_SCHEMA",
        (
            *bench._NAIVE_SCHEMA,
            "CREATE FUNCTION naive_empty() RETURNS trigger AS $$ BEGIN "
            "NEW.balance := 0; RETURN NEW; END $$ LANGUAGE plpgsql",
            "CREATE TRIGGER naive_empty BEFORE INSERT ON naive_accounts "
            "FOR EACH ROW EXECUTE FUNCTION naive_empty()",
        ),
    )
    async with ledger_database(backend, tmp_path) as url:
        plain = url.replace("postgresql+asyncpg://", "postgresql://")
        with pytest.raises(AssertionError, match="UPDATE 0"):
            await bench.naive_ceiling(plain, tables=1, players=4, connections=2, bets=10)
