"""Reports read from the ledger: a player's transactions, and turnover, payouts and
observed RTP per table and day (UTC), corrections and voids included.

Turnover is the stakes settled; the house result is what the table's ``house`` account
gained (settlements, corrections, voids); payouts are turnover minus the house result.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from punto.ledger.model import Account

if TYPE_CHECKING:
    from punto.server.store.storage import ServerStore

__all__ = ["daily_report", "player_transactions"]

_MONEY_KINDS = ("settle", "correction", "void", "refund")


async def player_transactions(
    store: ServerStore,
    player: str,
    *,
    limit: int = 50,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[dict[str, Any]]:
    """The player's ledger transactions (made in [``since``, ``until``) when given), newest
    first, with what each moved into (+) or out of (−) the player's money (wallet or,
    seamless, the operator on their behalf)."""
    mine = {Account.player(player).code, Account.receivable(player).code}
    out = []
    found = await store.player_transactions(player, limit=limit, since=since, until=until)
    for row, moved in found:
        amount = sum(a for code, a in moved if code in mine)
        if not any(code in mine for code, _ in moved):  # seamless: escrow/house side
            amount = -sum(a for code, a in moved if code.startswith(("escrow:", "house:")))
        out.append(
            {
                "id": row["id"],
                "kind": row["kind"],
                "round_id": row["round_id"],
                "amount": amount,
                "reference": row["reference_id"],
                "author": row["author"],
                "reason": row["reason"],
                "at": None if row["created_at"] is None else _epoch(row["created_at"]),
            }
        )
    return out


def _epoch(value: datetime) -> float:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


def _bounds(day: date) -> tuple[datetime, datetime]:
    start = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return start, start + timedelta(days=1)


def _table_of(round_id: str | None) -> str:
    if not round_id:
        return ""
    return round_id.rsplit("-", 2)[0]


async def daily_report(
    store: ServerStore, *, day: date, table: str | None = None
) -> list[dict[str, Any]]:
    """Turnover, payouts, house result and observed RTP per table for one UTC day."""
    start, end = _bounds(day)
    per: dict[str, dict[str, Any]] = {}

    def entry(table_id: str) -> dict[str, Any]:
        return per.setdefault(
            table_id,
            {
                "date": day.isoformat(),
                "table": table_id,
                "hands": 0,
                "void_hands": 0,
                "bets": 0,
                "turnover": 0,
                "payouts": 0,
                "house_result": 0,
                "observed_rtp": None,
            },
        )

    books = await store.day_books(start=start, end=end, kinds=_MONEY_KINDS)
    for tx in books.transactions:
        table_id = _table_of(tx["round_id"])
        if table is not None and table_id != table:
            continue
        row = entry(table_id)
        if tx["kind"] == "settle":
            lines: Sequence[list[Any]] = json.loads(tx["lines"] or "[]")
            row["turnover"] += sum(int(stake) for _bet, stake, _class, _net in lines)
            row["bets"] += len(lines)
        row["house_result"] += books.house.get(tx["id"], 0)
    for round_id in books.voided:
        table_id = _table_of(round_id)
        if table is None or table_id == table:
            entry(table_id)["void_hands"] += 1
    for table_id, count in books.hands.items():
        if table is None or table_id == table:
            entry(table_id)["hands"] = count
    for row in per.values():
        row["payouts"] = row["turnover"] - row["house_result"]
        if row["turnover"]:
            rtp = Decimal(row["payouts"]) / Decimal(row["turnover"])
            row["observed_rtp"] = str(rtp.quantize(Decimal("0.00001")))
    return sorted(per.values(), key=lambda r: r["table"])
