"""The statements that look up many rows by a list of keys are planned well on PostgreSQL
also once they run on a *generic* plan, as the driver's prepared statements do from their
sixth run on a connection: each key probes the table's index, no row is compared with
every key of the list. ``code = ANY($1)`` on a generic plan scanned the accounts and
compared each with every code (the array is no longer hashed): locking a settlement's
2,500 accounts took 50–60 ms in the server instead of 5. These tests read the plans, not
the clock."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ledger_support import POSTGRESQL, ledger_database
from sqlalchemy import TextClause, text

from punto.ledger import confirms, posting, rows
from punto.ledger.store import create_engine
from punto.server.store import presence
from punto.server.store.migrate import upgrade_async

pytestmark = [pytest.mark.asyncio]


def _nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    """Every node of an ``EXPLAIN (FORMAT JSON)`` plan."""
    return [plan, *(n for child in plan.get("Plans", ()) for n in _nodes(child))]


async def _generic_plan(
    url: str, statement: TextClause | str, values: dict[str, list[str]]
) -> list[dict[str, Any]]:
    """The nodes of ``statement``'s generic plan, its parameters varchar arrays of
    ``values`` (by name; a statement in the driver's own form, ``$1``…, takes them in
    the order of ``values``)."""
    if isinstance(statement, str):
        sql, names = statement, list(values)
    else:
        sql = str(statement)
        names = sorted(statement.compile().params, key=sql.index)
        for n, name in enumerate(names, 1):
            sql = sql.replace(f":{name}", f"${n}")
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.exec_driver_sql("SET LOCAL plan_cache_mode = force_generic_plan")
            types = ", ".join("varchar[]" for _ in names)
            await conn.exec_driver_sql(f"PREPARE probe({types}) AS {sql}")
            literals = ", ".join(
                "ARRAY[" + ", ".join(f"'{v}'" for v in values[name]) + "]::varchar[]"
                for name in names
            )
            rows = await conn.exec_driver_sql(f"EXPLAIN (FORMAT JSON) EXECUTE probe({literals})")
            (document,) = rows.one()
            await conn.exec_driver_sql("DEALLOCATE probe")
    finally:
        await engine.dispose()
    plan = (json.loads(document) if isinstance(document, str) else document)[0]["Plan"]
    return _nodes(plan)


def _compared_with_every_key(nodes: list[dict[str, Any]]) -> list[str]:
    """The filters that compare each row with a whole array (``= ANY (…)``)."""
    return [n["Filter"] for n in nodes if "ANY" in n.get("Filter", "")]


async def _fill(url: str) -> None:
    """Accounts, rounds and presences, not yet analysed (as in a server just started, or
    a table that grew since its statistics were taken)."""
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO ledger_accounts (code, kind, key, balance) "
                    "SELECT 'player:p' || n, 'player', 'p' || n, 0 FROM generate_series(1, 3000) n"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO ledger_rounds (id, table_id, status) "
                    "SELECT 't:1-' || n, 't', 'open' FROM generate_series(1, 3000) n"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO ledger_transactions (id, idempotency_key, kind, lines, "
                    "fingerprint) SELECT 'x' || n, 'stake:c' || n, 'stake', '[]', '' "
                    "FROM generate_series(1, 3000) n"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO server_presence (player_id, table_id, since) "
                    "SELECT 'p' || n, 't', 0 FROM generate_series(1, 3000) n"
                )
            )
    finally:
        await engine.dispose()


@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_many_keys_probe_the_index_on_a_generic_plan(backend: str, tmp_path: Path) -> None:
    async with ledger_database(backend, tmp_path) as url:
        await upgrade_async(url)  # the server's tables too (presence)
        await _fill(url)
        players = [f"p{n}" for n in range(1, 2501)]
        keys = [f"stake:c{n}" for n in range(1, 2501)]
        cases: dict[str, tuple[TextClause | str, dict[str, list[str]]]] = {
            "the accounts a posting locks": (
                posting.LOCK_PG,
                {"codes": [f"player:{p}" for p in players]},
            ),
            "the keys already posted": (
                text(f"SELECT id FROM ledger_transactions WHERE {rows.KEYS_PG.text}"),
                {"keys": keys},
            ),
            "what a batch of confirms is checked against": (
                confirms.BATCH_PG,
                {
                    "rounds": [f"t:1-{n}" for n in range(1, 2501)],
                    "keys": keys,
                    "players": players,
                    "codes": [f"player:{p}" for p in players],
                    "escrows": [f"escrow:t:1-{n}" for n in range(1, 2501)],
                },
            ),
            "where many players are": (presence._PRESENCE_PG, {"ids": players}),
        }
        for what, (statement, values) in cases.items():
            nodes = await _generic_plan(url, statement, values)
            assert not _compared_with_every_key(nodes), (what, nodes)
            # each lock is its part's last step, above the ordering: rows are locked in
            # key order, as every posting locks them (no two wait for each other)
            if statement is posting.LOCK_PG:
                assert nodes[0]["Node Type"] == "LockRows", (what, nodes)
            if statement is confirms.BATCH_PG:
                locks = [n for n in nodes if n["Node Type"] == "LockRows"]
                assert len(locks) == 2, (what, nodes)
                assert all(n["Plans"][0]["Node Type"] == "Sort" for n in locks), (what, nodes)
                # the rounds' part runs first, the accounts' last (rounds, then accounts,
                # as every posting locks them)
                (append,) = [n for n in nodes if n["Node Type"] == "Append"]
                parts = [
                    part.get("CTE Name")
                    for part in append["Plans"]
                    if part.get("Parent Relationship") == "Member"
                ]
                assert (parts[0], parts[-1]) == ("r", "a"), (what, parts)
