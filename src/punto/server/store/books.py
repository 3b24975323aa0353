"""The server's reads of the ledger's books, in the same database: wallet balances of
many players at once, and the transactions and entries the reports are made of. The
ledger's own writes and checks are :mod:`punto.ledger.store`'s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.ledger.tables import AccountRow, EntryRow, RoundRow, TransactionRow
from punto.server.store.database import StorePart
from punto.server.store.schema import HandRow

__all__ = ["BookStore", "DayBooks", "MoneyBooks"]

_AC = cast(Table, AccountRow.__table__)
_TX = cast(Table, TransactionRow.__table__)
_EN = cast(Table, EntryRow.__table__)
_RD = cast(Table, RoundRow.__table__)
_H = cast(Table, HandRow.__table__)


@dataclass(frozen=True, slots=True)
class MoneyBooks:
    """The money transactions of a span of time and what each moved on the accounts that
    name its currency and its house result (:meth:`BookStore.money_books`)."""

    transactions: list[dict[str, Any]]
    """``id``, ``kind``, ``round_id``, ``player_id``, ``lines`` and ``created_at``."""
    entries: dict[str, list[tuple[str, int]]]
    """Each transaction's entries on ``house`` and ``escrow`` accounts (``(account code,
    amount)``), by transaction id: the house's gain, and the book it was in."""


@dataclass(frozen=True, slots=True)
class DayBooks:
    """What one day's report is made of (:meth:`BookStore.day_books`)."""

    money: MoneyBooks
    """The money transactions of the day."""
    voided: list[str]
    """The rounds voided that day."""
    hands: dict[str, int]
    """The hands each table closed that day."""
    closed: dict[str, dict[str, int]] = field(default_factory=dict)
    """[EZ-C] Of those, how many each side bet was closed in, per table and bet."""


class BookStore(StorePart):
    """Reads of the ledger's tables for the server."""

    async def account_balances(self, codes: Sequence[str]) -> dict[str, int]:
        """The balance of each of the ledger accounts ``codes`` that exists."""

        async def unit(conn: AsyncConnection) -> dict[str, int]:
            rows = await conn.execute(
                select(_AC.c.code, _AC.c.balance).where(_AC.c.code.in_(list(codes)))
            )
            return {str(code): int(balance) for code, balance in rows}

        return await self._db.read_one(unit)

    async def player_transactions(
        self,
        player: str,
        *,
        limit: int,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[tuple[dict[str, Any], list[tuple[str, int]]]]:
        """The player's latest ``limit`` ledger transactions (made in [``since``,
        ``until``) when given), newest first, each with its entries (``(account code,
        amount)``)."""

        async def unit(
            conn: AsyncConnection,
        ) -> list[tuple[dict[str, Any], list[tuple[str, int]]]]:
            query = select(_TX).where(_TX.c.player_id == player)
            if since is not None:
                query = query.where(_TX.c.created_at >= since)
            if until is not None:
                query = query.where(_TX.c.created_at < until)
            rows = [
                dict(r._mapping)
                for r in await conn.execute(query.order_by(_TX.c.seq.desc()).limit(limit))
            ]
            ids = [r["id"] for r in rows]
            entries: dict[str, list[tuple[str, int]]] = {}
            if ids:
                for e in await conn.execute(
                    select(_EN.c.transaction_id, _EN.c.account_code, _EN.c.amount).where(
                        _EN.c.transaction_id.in_(ids)
                    )
                ):
                    entries.setdefault(e.transaction_id, []).append((e.account_code, int(e.amount)))
            return [(r, entries.get(r["id"], [])) for r in rows]

        return await self._db.run(unit)

    async def money_books(
        self,
        *,
        start: datetime,
        end: datetime,
        kinds: Sequence[str],
        player_prefix: str | None = None,
    ) -> MoneyBooks:
        """The transactions of ``kinds`` made in [``start``, ``end``) (of the players whose
        ids start with ``player_prefix`` when given), each with its entries on ``house``
        and ``escrow`` accounts."""

        async def unit(conn: AsyncConnection) -> MoneyBooks:
            return await _money_books(conn, start, end, kinds, player_prefix)

        return await self._db.run(unit)

    async def day_books(self, *, start: datetime, end: datetime, kinds: Sequence[str]) -> DayBooks:
        """The transactions of ``kinds`` made in [``start``, ``end``) with their house and
        escrow entries, the rounds voided and the hands closed per table then."""

        async def unit(conn: AsyncConnection) -> DayBooks:
            money = await _money_books(conn, start, end, kinds, None)
            voided = await conn.scalars(
                select(_RD.c.id).where(
                    and_(_RD.c.status == "voided", _RD.c.closed_at >= start, _RD.c.closed_at < end)
                )
            )
            hands = await conn.execute(
                select(_H.c.table_id, func.count())
                .where(and_(_H.c.closed_at >= start.timestamp(), _H.c.closed_at < end.timestamp()))
                .group_by(_H.c.table_id)
            )
            day = and_(_H.c.closed_at >= start.timestamp(), _H.c.closed_at < end.timestamp())
            closings = await conn.execute(
                select(_H.c.table_id, _H.c.closed_bets, func.count())
                .where(and_(day, _H.c.closed_bets != ""))
                .group_by(_H.c.table_id, _H.c.closed_bets)
            )
            closed: dict[str, dict[str, int]] = {}
            for table_id, bets, count in closings:
                for bet in str(bets).split():
                    per = closed.setdefault(str(table_id), {})
                    per[bet] = per.get(bet, 0) + int(count)
            return DayBooks(
                money=money,
                voided=[str(r) for r in voided],
                hands={str(t): int(n) for t, n in hands},
                closed=closed,
            )

        return await self._db.run(unit)


_CHUNK = 500
"""Transaction ids a look-up of their entries names at once (SQLite binds at most 999)."""


async def _money_books(
    conn: AsyncConnection,
    start: datetime,
    end: datetime,
    kinds: Sequence[str],
    player_prefix: str | None,
) -> MoneyBooks:
    query = select(
        _TX.c.id, _TX.c.kind, _TX.c.round_id, _TX.c.player_id, _TX.c.lines, _TX.c.created_at
    ).where(and_(_TX.c.kind.in_(list(kinds)), _TX.c.created_at >= start, _TX.c.created_at < end))
    if player_prefix is not None:
        # the prefix is an operator id and a dot: no LIKE wildcard in either
        query = query.where(_TX.c.player_id.startswith(player_prefix, autoescape=True))
    txs = [dict(t._mapping) for t in await conn.execute(query.order_by(_TX.c.seq))]
    entries: dict[str, list[tuple[str, int]]] = {}
    ids = [t["id"] for t in txs]
    for at in range(0, len(ids), _CHUNK):
        for e in await conn.execute(
            select(_EN.c.transaction_id, _EN.c.account_code, _EN.c.amount).where(
                and_(
                    _EN.c.transaction_id.in_(ids[at : at + _CHUNK]),
                    or_(_EN.c.account_code.like("house:%"), _EN.c.account_code.like("escrow:%")),
                )
            )
        ):
            entries.setdefault(e.transaction_id, []).append((e.account_code, int(e.amount)))
    return MoneyBooks(transactions=txs, entries=entries)
