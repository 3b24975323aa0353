"""Posting: accounts created and locked in one fixed order (by code), the funds checked,
new transactions, their entries and the round bets they confirm inserted and the cached
balances moved, with bulk statements; a replay of a posted key is returned as it is.

Every function runs inside the caller's database transaction.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import bindparam, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.errors import IdempotencyConflictError, InsufficientFundsError, LedgerError
from punto.ledger import model
from punto.ledger.driver import insert_rows, on_driver, rows_json
from punto.ledger.model import Account, Transaction
from punto.ledger.records import Posted
from punto.ledger.rows import (
    ACCOUNTS,
    CHUNK,
    ENTRIES,
    ROUND_BETS,
    TRANSACTIONS,
    by_keys,
    lines_json,
)

__all__ = [
    "LOCK_PG",
    "ensure_accounts",
    "hold",
    "post_all",
    "post_new",
    "same_transaction",
]


def same_transaction(existing: Transaction, wanted: Transaction) -> Transaction:
    """``existing``, posted under ``wanted``'s key, if it is the same transaction; else
    :class:`IdempotencyConflictError`."""
    if existing.fingerprint != wanted.fingerprint:
        raise IdempotencyConflictError(
            f"idempotency key {wanted.idempotency_key!r} was already used for another "
            f"{existing.kind.value} transaction"
        )
    return existing


async def hold(
    conn: AsyncConnection, accounts: Iterable[Account], *, locked: Mapping[str, int] | None = None
) -> dict[str, int]:
    """The accounts' balances, their rows locked in the order of their codes; accounts
    never used before (a player's first bet, a round's escrow …) are created first.
    ``locked``: the balances of those a statement of the caller's has locked already
    (a batch of confirms' check); only the missing ones are created and locked here."""
    by_code = {a.code: a for a in accounts}
    codes = sorted(by_code)
    held = dict(locked) if locked is not None else await _lock_balances(conn, codes)
    if len(held) < len(codes):
        await ensure_accounts(conn, (by_code[c] for c in codes if c not in held))
        held.update(await _lock_balances(conn, [c for c in codes if c not in held]))
    return held


async def ensure_accounts(conn: AsyncConnection, accounts: Iterable[Account]) -> None:
    """Create those of ``accounts`` that do not exist yet, with a balance of 0."""
    rows = [
        {"code": a.code, "kind": a.kind.value, "key": a.key, "balance": 0}
        for a in sorted(set(accounts), key=lambda a: a.code)
    ]
    if not rows:
        return
    if conn.dialect.name == "postgresql":
        await conn.execute(pg_insert(ACCOUNTS).on_conflict_do_nothing(), rows)
    elif conn.dialect.name == "sqlite":
        await conn.execute(sqlite_insert(ACCOUNTS).on_conflict_do_nothing(), rows)
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        raise LedgerError(f"unsupported database {conn.dialect.name}")


async def post_all(conn: AsyncConnection, transactions: Sequence[Transaction]) -> list[Posted]:
    """Post the transactions (replays are returned as they are), then move the balances
    in one fixed order of accounts."""
    known = await by_keys(conn, [t.idempotency_key for t in transactions])
    found = [known.get(t.idempotency_key) for t in transactions]
    new = [t for t, existing in zip(transactions, found, strict=True) if existing is None]
    balances = await post_new(conn, new) if new else {}
    return [
        Posted(same_transaction(existing, t), replayed=True)
        if existing is not None
        else Posted(t, balances={e.account.code: balances[e.account.code] for e in t.entries})
        for t, existing in zip(transactions, found, strict=True)
    ]


async def post_new(
    conn: AsyncConnection,
    fresh: Sequence[Transaction],
    *,
    locked: Mapping[str, int] | None = None,
    bets: Sequence[tuple[Any, ...]] = (),
    late: Collection[str] = (),
) -> dict[str, int]:
    """Insert new transactions and their entries (and ``bets``, the round bets that
    stakes among them confirm: rows of :data:`_BET_COLUMNS`) and move the balances with
    bulk statements; the new balances. The accounts are locked in one fixed order (by
    code) and checked first, so nothing is written when one would go below zero
    (``locked``: the balances of accounts the caller has locked already, in this
    transaction)."""
    deltas: dict[Account, int] = defaultdict(int)
    for t in fresh:
        for e in t.entries:
            deltas[e.account] += e.amount
    held = dict(locked or {})
    if missing := [a for a in deltas if a.code not in held and a.code not in late]:
        held.update(await hold(conn, missing))
    balances: dict[str, int] = {}
    for account in sorted(deltas, key=lambda a: a.code):
        delta = deltas[account]
        balance = held.get(account.code, 0) + delta
        if delta < 0 and balance < 0 and not account.kind.may_go_negative:
            raise InsufficientFundsError(
                f"{account.code} holds {held.get(account.code, 0)}, {-delta} needed: "
                "nothing was posted"
            )
        balances[account.code] = balance
    # a settlement's players with the same bets share their lines: encoded once each
    # (``fresh`` keeps every transaction, so their lines, alive: an id names them here)
    lines: dict[int, str] = {}
    rows = [
        (
            t.id,
            t.idempotency_key,
            t.kind.value,
            t.round_id,
            t.player_id,
            t.reference,
            t.author,
            t.reason,
            lines.get(id(t.lines)) or lines.setdefault(id(t.lines), lines_json(t.lines)),
            fingerprint,
        )
        for t, fingerprint in zip(fresh, model.fingerprints(fresh), strict=True)
    ]
    entries = [(t.id, e.account.code, e.amount) for t in fresh for e in t.entries]
    moved = {a.code: d for a, d in deltas.items() if d}
    if conn.dialect.name == "postgresql" and len(entries) <= _ONE_STATEMENT:
        # a batch of confirms, a payout: one statement, one round trip (COPY takes three)
        after = await on_driver(
            conn,
            _POST_PG,
            (
                rows_json(rows),
                rows_json(entries),
                rows_json(sorted(moved.items())),
                rows_json(bets),
                sorted(late),
            ),
        )
        balances.update((code, int(balance)) for code, balance in after)
        return balances
    if late:  # locked now, after the accounts the stakes come from, as the statement does
        for code, balance in (await _lock_balances(conn, sorted(late))).items():
            if code in balances:
                balances[code] = balance + moved.get(code, 0)
    await insert_rows(conn, TRANSACTIONS, _TX_COLUMNS, rows)
    await insert_rows(conn, ENTRIES, ("transaction_id", "account_code", "amount"), entries)
    await insert_rows(conn, ROUND_BETS, _BET_COLUMNS, bets)
    await _add_to_balances(conn, moved)
    return balances


_POST_PG = (
    "WITH l AS MATERIALIZED (SELECT a.code FROM unnest($5::varchar[]) AS v(code) "
    "JOIN ledger_accounts AS a ON a.code = v.code ORDER BY a.code FOR NO KEY UPDATE OF a), "
    "t AS (INSERT INTO ledger_transactions (id, idempotency_key, kind, round_id, "
    "player_id, reference_id, author, reason, lines, fingerprint) SELECT r->>0, r->>1, "
    "r->>2, r->>3, r->>4, r->>5, r->>6, r->>7, r->>8, r->>9 "
    "FROM jsonb_array_elements($1::jsonb) AS r), "
    "e AS (INSERT INTO ledger_entries (transaction_id, account_code, amount) "
    "SELECT r->>0, r->>1, (r->>2)::bigint FROM jsonb_array_elements($2::jsonb) AS r), "
    "b AS (INSERT INTO ledger_round_bets (round_id, player_id, bet, stake, transaction_id, "
    "funding, status) SELECT r->>0, r->>1, r->>2, (r->>3)::bigint, r->>4, r->>5, r->>6 "
    "FROM jsonb_array_elements($4::jsonb) AS r) "
    "UPDATE ledger_accounts AS a SET balance = a.balance + v.delta "
    "FROM (SELECT r->>0 AS code, (r->>1)::bigint AS delta "
    "FROM jsonb_array_elements($3::jsonb) AS r) AS v WHERE a.code = v.code "
    "AND (SELECT count(*) FROM l) >= 0 RETURNING a.code, a.balance"
)
"""A few new transactions, their entries, the round bets they confirm and the balances
they move, in one statement (PostgreSQL checks the statement's foreign keys when it
ends). Each set of rows is one JSON array of rows (:func:`rows_json`): encoded in one
call: an array parameter per column would have the driver check every element one by
one."""


_BET_COLUMNS = ("round_id", "player_id", "bet", "stake", "transaction_id", "funding", "status")


_ONE_STATEMENT = 1000
"""Entries up to which PostgreSQL gets new transactions, their entries, the round bets
they confirm and the balances they move in one statement (a batch of confirms); a
round's settlement takes COPY."""


_TX_COLUMNS = (
    "id",
    "idempotency_key",
    "kind",
    "round_id",
    "player_id",
    "reference_id",
    "author",
    "reason",
    "lines",
    "fingerprint",
)


LOCK_PG = text(
    "SELECT a.code, a.balance FROM unnest(CAST(:codes AS varchar[])) AS v(code) "
    "JOIN ledger_accounts AS a ON a.code = v.code ORDER BY a.code FOR UPDATE OF a"
)
"""The accounts of many codes (distinct), locked in the order of their codes. A join
with the array's elements, not ``code = ANY(…)``: on PostgreSQL's generic plan of a
prepared statement ``= ANY`` of a parameter is not hashed and the accounts would be scanned
against every code; the join probes the accounts' key once per code on either plan."""
_LOCK_SQLITE = text(
    "SELECT code, balance FROM ledger_accounts WHERE code IN :codes ORDER BY code"
).bindparams(bindparam("codes", expanding=True))


async def _lock_balances(conn: AsyncConnection, codes: Sequence[str]) -> dict[str, int]:
    """The accounts' balances, their rows locked (``FOR UPDATE`` on PostgreSQL; SQLite's
    ``BEGIN IMMEDIATE`` holds the whole database) in the order of ``codes``. PostgreSQL
    gets every code as one array parameter (a round's accounts in one statement,
    not an ``IN`` list of a thousand parameters compiled three times)."""
    held: dict[str, int] = {}
    if conn.dialect.name == "postgresql":
        if codes:
            rows = await conn.execute(LOCK_PG, {"codes": list(codes)})
            held.update({code: int(balance) for code, balance in rows})
        return held
    for start in range(0, len(codes), CHUNK):
        chunk = list(codes[start : start + CHUNK])
        rows = await conn.execute(_LOCK_SQLITE, {"codes": chunk})
        held.update({code: int(balance) for code, balance in rows})
    return held


_ADD_PG = text(
    "UPDATE ledger_accounts AS a SET balance = a.balance + v.delta "
    "FROM unnest(CAST(:codes AS varchar[]), CAST(:deltas AS bigint[])) AS v(code, delta) "
    "WHERE a.code = v.code"
)


async def _add_to_balances(conn: AsyncConnection, deltas: Mapping[str, int]) -> None:
    """Move every balance in one statement (PostgreSQL: ``UPDATE … FROM unnest``) or one
    prepared statement run for each account (SQLite's ``executemany``)."""
    if not deltas:
        return
    codes = sorted(deltas)
    if conn.dialect.name == "postgresql":
        await conn.execute(_ADD_PG, {"codes": codes, "deltas": [deltas[c] for c in codes]})
        return
    statement = (
        update(ACCOUNTS)
        .where(ACCOUNTS.c.code == bindparam("b_code"))
        .values(balance=ACCOUNTS.c.balance + bindparam("b_delta"))
    )
    await conn.execute(statement, [{"b_code": c, "b_delta": deltas[c]} for c in codes])
