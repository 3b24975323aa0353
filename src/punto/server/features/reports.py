"""Reports read from the ledger: a player's transactions; turnover, payouts and observed
RTP per table, currency and day (UTC); and per operator, currency and day (bets, players,
turnover, payouts, GGR), corrections and voids included.

A currency is its own book (no exchange rates): no figure ever sums two currencies, so
every row is of one currency, named in it, its amounts integer minor units of it.
Turnover is the stakes settled; the house result (GGR) is what the table's ``house``
accounts gained (settlements, corrections, voids); payouts are turnover minus the house
result: everything paid back to the players, stakes returned included.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from punto.currencies import minor_units
from punto.errors import ProtocolError
from punto.ledger.model import Account
from punto.server.operators.model import operator_of

if TYPE_CHECKING:
    from punto.server.store.books import MoneyBooks
    from punto.server.store.storage import ServerStore

__all__ = [
    "MAX_REPORT_DAYS",
    "OPERATOR_REPORT_COLUMNS",
    "closings_text",
    "daily_report",
    "operator_report",
    "player_transactions",
    "report_span",
]

_MONEY_KINDS = ("settle", "correction", "void", "refund")

MAX_REPORT_DAYS = 92
"""The most days one operator report spans (a quarter): longer asks are refused, not
read whole into memory."""

OPERATOR_REPORT_COLUMNS = (
    "date",
    "operator",
    "currency",
    "digits",
    "bets",
    "players",
    "turnover",
    "payouts",
    "ggr",
    "observed_rtp",
)
"""The keys of an operator report's row, in the CSV's order."""


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


def _rtp(payouts: int, turnover: int) -> str | None:
    """Payouts over turnover as a decimal string (``None``: nothing staked)."""
    if not turnover:
        return None
    return str((Decimal(payouts) / Decimal(turnover)).quantize(Decimal("0.00001")))


def _closings(closed: dict[str, int], hands: int) -> dict[str, dict[str, Any]]:
    """[EZ-C] Each side bet the shoe's edge closed: in how many of the table's ``hands``,
    and that share as a decimal string."""
    return {
        bet: {"hands": n, "share": _rtp(n, hands) if hands else None}
        for bet, n in sorted(closed.items())
    }


def closings_text(closed: dict[str, dict[str, Any]], hands: int) -> str:
    """A row's ``side_bets_closed`` as one CSV cell: ``dragon7=12/80 panda8=3/80``.

    >>> closings_text({"dragon7": {"hands": 12, "share": "0.15000"}}, 80)
    'dragon7=12/80'
    """
    return " ".join(f"{bet}={c['hands']}/{hands}" for bet, c in closed.items())


def _book(entries: Sequence[tuple[str, int]], house_currency: str) -> str | None:
    """The currency of a transaction's house and escrow entries (``None``: it has none,
    so it moved nothing a report counts)."""
    for code, _amount in entries:
        return Account.parse(code).currency or house_currency
    return None


def _house_gain(entries: Sequence[tuple[str, int]]) -> int:
    return sum(amount for code, amount in entries if code.startswith("house:"))


def _settled_lines(tx: dict[str, Any]) -> list[list[Any]]:
    if tx["kind"] != "settle":
        return []
    lines: list[list[Any]] = json.loads(tx["lines"] or "[]")
    return lines


def _day_of(value: datetime) -> date:
    if value.tzinfo is None:  # SQLite keeps UTC without its zone
        return value.date()
    return value.astimezone(UTC).date()


async def daily_report(
    store: ServerStore, *, day: date, currency: str, table: str | None = None
) -> list[dict[str, Any]]:
    """Turnover, payouts, house result and observed RTP per table and currency for one
    UTC day (``currency``: the house currency, the book of accounts that name none).
    ``side_bets_closed``: each side bet the shoe's edge closed, in how many of the
    table's ``hands`` and that share [EZ-C].
    ``hands`` and ``void_hands`` are the table's, whatever the currency: they are on
    each of its rows (a table that dealt without money has a row in the house currency)."""
    start, end = _bounds(day)
    per: dict[tuple[str, str], dict[str, Any]] = {}

    def entry(table_id: str, book: str) -> dict[str, Any]:
        return per.setdefault(
            (table_id, book),
            {
                "date": day.isoformat(),
                "table": table_id,
                "currency": book,
                "digits": minor_units(book),
                "hands": 0,
                "void_hands": 0,
                "bets": 0,
                "turnover": 0,
                "payouts": 0,
                "house_result": 0,
                "observed_rtp": None,
                "side_bets_closed": {},
            },
        )

    books = await store.day_books(start=start, end=end, kinds=_MONEY_KINDS)
    for tx in books.money.transactions:
        table_id = _table_of(tx["round_id"])
        if table is not None and table_id != table:
            continue
        moved = books.money.entries.get(tx["id"], [])
        book = _book(moved, currency)
        if book is None:
            continue
        row = entry(table_id, book)
        lines = _settled_lines(tx)
        row["turnover"] += sum(int(stake) for _bet, stake, _class, _net in lines)
        row["bets"] += len(lines)
        row["house_result"] += _house_gain(moved)
    voids: dict[str, int] = {}
    for round_id in books.voided:
        table_id = _table_of(round_id)
        voids[table_id] = voids.get(table_id, 0) + 1
    for table_id in {*voids, *books.hands}:
        if (table is None or table_id == table) and not any(t == table_id for t, _ in per):
            entry(table_id, currency)
    for (table_id, _book_of), row in per.items():
        row["hands"] = books.hands.get(table_id, 0)
        row["side_bets_closed"] = _closings(books.closed.get(table_id, {}), row["hands"])
        row["void_hands"] = voids.get(table_id, 0)
        row["payouts"] = row["turnover"] - row["house_result"]
        row["observed_rtp"] = _rtp(row["payouts"], row["turnover"])
    return [per[key] for key in sorted(per)]


def report_span(first: str | None, last: str | None, *, today: date) -> tuple[date, date]:
    """The UTC days ``from`` .. ``to`` (``YYYY-MM-DD``, both included; either left out:
    ``today``) of a report; :class:`ProtocolError` for a bad date, ``from`` after ``to``
    or more than :data:`MAX_REPORT_DAYS` days.

    >>> report_span("2026-12-01", None, today=date(2026, 12, 3))
    (datetime.date(2026, 12, 1), datetime.date(2026, 12, 3))
    """

    def day(text: str | None, name: str) -> date:
        if text is None or text == "":
            return today
        try:
            if len(text) != 10:
                raise ValueError(text)
            return date.fromisoformat(text)
        except ValueError:
            raise ProtocolError(f"{name} must be a date YYYY-MM-DD, not {text!r}") from None

    start, end = day(first, "from"), day(last, "to")
    if start > end:
        raise ProtocolError(f"from ({start}) is after to ({end})")
    if (end - start).days + 1 > MAX_REPORT_DAYS:
        raise ProtocolError(
            f"a report spans at most {MAX_REPORT_DAYS} days, not {(end - start).days + 1}"
        )
    return start, end


async def operator_report(
    store: ServerStore,
    *,
    first: date,
    last: date,
    currency: str,
    operator: str | None = None,
) -> list[dict[str, Any]]:
    """Per UTC day, operator and currency, from ``first`` to ``last`` (both included): the
    bets settled (``bets``), the distinct players who had them (``players``), the stakes
    settled (``turnover``), everything paid back to the players — stakes returned on wins,
    ties and voids included, corrections counted the day they were made — (``payouts``),
    the house's gross gaming revenue ``ggr`` = ``turnover`` − ``payouts`` (what the
    tables' ``house`` accounts gained), and ``observed_rtp`` = ``payouts`` / ``turnover``
    (a decimal string; ``None`` when nothing was staked). Integer minor units of the
    row's ``currency`` (``digits`` after the point). ``operator``: only that operator's
    players (the others are not read); ``currency``: the house currency. Players of no
    operator (password accounts) are operator ``None``."""
    start, _ = _bounds(first)
    _, end = _bounds(last)
    prefix = None if operator is None else f"{operator}."
    books = await store.money_books(start=start, end=end, kinds=_MONEY_KINDS, player_prefix=prefix)
    return _operator_rows(books, currency)


def _operator_rows(books: MoneyBooks, currency: str) -> list[dict[str, Any]]:
    per: dict[tuple[date, str, str], dict[str, Any]] = {}
    players: dict[tuple[date, str, str], set[str]] = {}
    for tx in books.transactions:
        moved = books.entries.get(tx["id"], [])
        book = _book(moved, currency)
        if book is None:
            continue
        owner = operator_of(tx["player_id"] or "")
        key = (_day_of(tx["created_at"]), owner or "", book)
        row = per.setdefault(
            key,
            {
                "date": key[0].isoformat(),
                "operator": owner,
                "currency": book,
                "digits": minor_units(book),
                "bets": 0,
                "players": 0,
                "turnover": 0,
                "payouts": 0,
                "ggr": 0,
                "observed_rtp": None,
            },
        )
        lines = _settled_lines(tx)
        if lines:
            row["bets"] += len(lines)
            row["turnover"] += sum(int(stake) for _bet, stake, _class, _net in lines)
            players.setdefault(key, set()).add(str(tx["player_id"]))
        row["ggr"] += _house_gain(moved)
    for key, row in per.items():
        row["players"] = len(players.get(key, ()))
        row["payouts"] = row["turnover"] - row["ggr"]
        row["observed_rtp"] = _rtp(row["payouts"], row["turnover"])
    return [per[key] for key in sorted(per)]
