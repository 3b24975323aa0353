"""The ledger's tables as SQLAlchemy handles, and their rows read back as the model's
objects: balances, rounds and their confirmed bets, transactions with their entries."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, cast

import orjson
from sqlalchemy import Row, Table, and_, bindparam, select, text, true
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.bets import Bet
from punto.errors import RoundStateError
from punto.ledger import model
from punto.ledger.driver import on_driver
from punto.ledger.model import Account, Line, Transaction, TransactionKind
from punto.ledger.records import PlayerBets, RoundInfo, RoundStatus
from punto.ledger.tables import AccountRow, EntryRow, RoundBetRow, RoundRow, TransactionRow

__all__ = [
    "ACCOUNTS",
    "CANCELLED",
    "CHUNK",
    "CONFIRMED",
    "ENTRIES",
    "KEYS_PG",
    "ROUNDS",
    "ROUND_BETS",
    "TRANSACTIONS",
    "all_balances",
    "balance_of",
    "by_key",
    "by_keys",
    "find_round",
    "lines_json",
    "list_rounds",
    "load_transactions",
    "need_round",
    "round_bets",
    "round_info",
    "transaction_by",
    "transaction_of",
    "transactions_of",
]

ACCOUNTS = cast(Table, AccountRow.__table__)
"""The accounts and their cached balances."""
TRANSACTIONS = cast(Table, TransactionRow.__table__)
"""The posted transactions."""
ENTRIES = cast(Table, EntryRow.__table__)
"""The transactions' entries."""
ROUNDS = cast(Table, RoundRow.__table__)
"""The rounds."""
ROUND_BETS = cast(Table, RoundBetRow.__table__)
"""The bets confirmed (or cancelled) in the rounds."""
CONFIRMED = "confirmed"
"""A round bet's status while it stands."""
CANCELLED = "cancelled"
"""A round bet's status once its confirm was undone."""

CHUNK = 1000
"""Keys per ``IN (…)`` list (SQLite allows 32,766 parameters; PostgreSQL 32,767)."""


async def balance_of(conn: AsyncConnection, code: str) -> int:
    """The balance of the account ``code`` (0 for one never used)."""
    value = await conn.scalar(select(ACCOUNTS.c.balance).where(ACCOUNTS.c.code == code))
    return int(value or 0)


async def all_balances(conn: AsyncConnection) -> dict[str, int]:
    """Every account's balance, by account code."""
    rows = await conn.execute(select(ACCOUNTS.c.code, ACCOUNTS.c.balance).order_by(ACCOUNTS.c.code))
    return {code: int(balance) for code, balance in rows}


def round_info(row: Row[Any]) -> RoundInfo:
    """A round's row as a :class:`RoundInfo`."""
    result = json.loads(row.result) if row.result else None
    times = row._mapping  # (a confirm's look-up reads no times)
    opened, closed = _aware(times.get("created_at")), _aware(times.get("closed_at"))
    return RoundInfo(row.id, row.table_id, RoundStatus(row.status), result, opened, closed)


def _aware(moment: datetime | str | None) -> datetime | None:
    """A time read back (SQLite gives no zone back, and text to a textual query: the
    ledger writes UTC)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


async def find_round(
    conn: AsyncConnection, round_id: str, *, lock: bool = False
) -> RoundInfo | None:
    """The round ``round_id`` if the ledger has it (its row locked with ``lock``)."""
    query = select(ROUNDS).where(ROUNDS.c.id == round_id)
    if lock:
        query = query.with_for_update()
    row = (await conn.execute(query)).first()
    return None if row is None else round_info(row)


async def need_round(conn: AsyncConnection, round_id: str, *, lock: bool = False) -> RoundInfo:
    """The round ``round_id``, or :class:`RoundStateError` if the ledger has none."""
    found = await find_round(conn, round_id, lock=lock)
    if found is None:
        raise RoundStateError(f"no round {round_id!r} in the ledger")
    return found


async def list_rounds(
    conn: AsyncConnection,
    *,
    status: RoundStatus | None = None,
    table_id: str | None = None,
    latest: int | None = None,
) -> list[RoundInfo]:
    """The rounds in the order they opened; only those in ``status``, of ``table_id``, or
    the ``latest`` few."""
    query = select(ROUNDS)
    if status is not None:
        query = query.where(ROUNDS.c.status == status.value)
    if table_id is not None:
        query = query.where(ROUNDS.c.table_id == table_id)
    if latest is None:
        query = query.order_by(ROUNDS.c.created_at, ROUNDS.c.id)
        return [round_info(row) for row in await conn.execute(query)]
    query = query.order_by(ROUNDS.c.created_at.desc(), ROUNDS.c.id.desc()).limit(latest)
    return [round_info(row) for row in reversed(list(await conn.execute(query)))]


_ROUND_BETS_PG = (
    f"SELECT player_id, bet, stake, funding FROM {ROUND_BETS.name} "
    "WHERE round_id = $1 AND status = $2 ORDER BY id"
)


async def round_bets(conn: AsyncConnection, round_id: str) -> dict[str, PlayerBets]:
    """The round's confirmed bets, by player. PostgreSQL's rows come from the driver
    itself, in the caller's transaction (:func:`~punto.ledger.driver.on_driver`)."""
    rows: Iterable[Sequence[Any]]
    if conn.dialect.name == "postgresql":
        rows = await on_driver(conn, _ROUND_BETS_PG, (round_id, CONFIRMED))
    else:
        rb = ROUND_BETS.c
        rows = await conn.execute(
            select(rb.player_id, rb.bet, rb.stake, rb.funding)
            .where(rb.round_id == round_id, rb.status == CONFIRMED)
            .order_by(rb.id)
        )
    bets: dict[str, dict[Bet, int]] = defaultdict(dict)
    funding: dict[str, str] = {}
    kinds = {b.value: b for b in Bet}
    for player, bet, stake, source in rows:
        mine = bets[player]
        kind = kinds[bet]
        mine[kind] = mine.get(kind, 0) + stake
        funding[player] = source
    accounts = {code: Account.parse(code) for code in set(funding.values())}
    return {player: PlayerBets(accounts[funding[player]], bets[player]) for player in bets}


async def by_key(conn: AsyncConnection, key: str) -> Transaction | None:
    """The transaction posted under idempotency key ``key``, if any."""
    found = await load_transactions(conn, TRANSACTIONS.c.idempotency_key == key)
    return found[0] if found else None


async def by_keys(conn: AsyncConnection, keys: Sequence[str]) -> dict[str, Transaction]:
    """The transactions already posted under any of ``keys`` (a few queries in all;
    PostgreSQL gets the keys as one array)."""
    wanted = sorted(set(keys))
    found: dict[str, Transaction] = {}
    if conn.dialect.name == "postgresql":
        for t in await load_transactions(conn, KEYS_PG.bindparams(keys=wanted)):
            found[t.idempotency_key] = t
        return found
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        for t in await load_transactions(conn, _KEYS_SQLITE.bindparams(keys=chunk)):
            found[t.idempotency_key] = t
    return found


async def transaction_by(
    conn: AsyncConnection, *, key: str | None = None, id: str | None = None
) -> Transaction | None:
    """The transaction with this idempotency key or, without one, this id, if posted."""
    tx = TRANSACTIONS.c
    found = await load_transactions(
        conn, tx.idempotency_key == key if key is not None else tx.id == id
    )
    return found[0] if found else None


async def transactions_of(
    conn: AsyncConnection, *, round_id: str | None = None, player_id: str | None = None
) -> list[Transaction]:
    """Posted transactions in posting order, optionally of one round and/or player."""
    conditions = []
    if round_id is not None:
        conditions.append(TRANSACTIONS.c.round_id == round_id)
    if player_id is not None:
        conditions.append(TRANSACTIONS.c.player_id == player_id)
    return await load_transactions(conn, and_(true(), *conditions))


KEYS_PG = text("idempotency_key IN (SELECT k FROM unnest(CAST(:keys AS varchar[])) AS k)")
"""Posted under one of many keys: a join with the array's elements (as
:data:`~punto.ledger.posting.LOCK_PG`), never a scan comparing every transaction with every
key."""
# made once: an ``in_()`` built for each batch cost more than the query
_KEYS_SQLITE = text("idempotency_key IN :keys").bindparams(bindparam("keys", expanding=True))


def lines_json(lines: Sequence[Line]) -> str:
    """A transaction's lines as the text of its ``lines`` column."""
    return orjson.dumps([[ln.bet, ln.stake, ln.payout_class, ln.net] for ln in lines]).decode()


def _lines_of(text: str) -> tuple[Line, ...]:
    return tuple(Line(str(b), int(s), str(c), int(n)) for b, s, c, n in json.loads(text))


async def load_transactions(conn: AsyncConnection, where: Any) -> list[Transaction]:
    """The transactions matching ``where``, with their entries, in posting order."""
    query = select(TRANSACTIONS).where(where).order_by(TRANSACTIONS.c.seq)
    rows = (await conn.execute(query)).all()
    if not rows:
        return []
    entries: dict[str, list[model.Entry]] = defaultdict(list)
    ids = [row.id for row in rows]
    e = ENTRIES.c
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for tid, code, amount in await conn.execute(
            select(e.transaction_id, e.account_code, e.amount)
            .where(e.transaction_id.in_(chunk))
            .order_by(e.transaction_id, e.account_code)
        ):
            entries[tid].append(model.Entry(Account.parse(code), amount))
    return [transaction_of(row, entries[row.id]) for row in rows]


def transaction_of(row: Row[Any], entries: Iterable[model.Entry]) -> Transaction:
    """A transaction's row and entries as the model's :class:`Transaction`."""
    return Transaction(
        TransactionKind(row.kind),
        row.idempotency_key,
        tuple(entries),
        round_id=row.round_id,
        player_id=row.player_id,
        reference=row.reference_id,
        author=row.author,
        reason=row.reason,
        lines=_lines_of(row.lines),
    )
