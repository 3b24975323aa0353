"""The run of ``punto reports …`` (see :mod:`punto.cli.reports`): the server's store,
which is the ``server`` extra."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from datetime import UTC, date, datetime
from typing import Any

from punto.cli.database import server_database
from punto.cli.output import write_json
from punto.currencies import is_currency
from punto.errors import NotFoundError, ProtocolError
from punto.ledger.store import database_url, reach
from punto.server.features.backoffice import rows_csv
from punto.server.features.reports import OPERATOR_REPORT_COLUMNS, operator_report, report_span
from punto.server.store.operators import OperatorStore
from punto.server.store.storage import ServerStore

__all__ = ["amount_text", "run"]


def run(args: argparse.Namespace) -> int:
    """Run the chosen report; 0 when done (a bad argument raises: exit 2)."""
    currency = (args.currency or os.environ.get("PUNTO_CURRENCY") or "EUR").upper()
    if not is_currency(currency):
        raise ProtocolError(f"--currency must be an ISO 4217 code, not {currency!r}")
    today = datetime.now(UTC).date()
    first, last = report_span(args.first, args.last, today=today)
    url = database_url(args.database_url)
    asyncio.run(reach(url))  # a database that cannot be opened: one line, exit 2
    rows = asyncio.run(_rows(url, first, last, currency, args.operator))
    if args.json:
        write_json({"from": first.isoformat(), "to": last.isoformat(), "rows": rows})
    elif args.csv:
        sys.stdout.write(rows_csv(rows, OPERATOR_REPORT_COLUMNS))
    else:
        _print(rows)
    return 0


async def _rows(
    url: str, first: date, last: date, currency: str, operator: str | None
) -> list[dict[str, Any]]:
    async with server_database(url) as engine:
        if operator is not None and await OperatorStore(engine).get(operator) is None:
            raise NotFoundError(f"no operator {operator!r}")
        return await operator_report(
            ServerStore(engine), first=first, last=last, currency=currency, operator=operator
        )


def amount_text(minor: int, currency: str, digits: int) -> str:
    """Minor units in the currency's units, exactly: ``-1250, "EUR", 2`` → ``-12.50 EUR``.

    >>> amount_text(-1250, "EUR", 2), amount_text(500, "JPY", 0), amount_text(5, "KWD", 3)
    ('-12.50 EUR', '500 JPY', '0.005 KWD')
    """
    sign = "-" if minor < 0 else ""
    whole, part = divmod(abs(minor), 10**digits)
    fraction = f".{part:0{digits}d}" if digits else ""
    return f"{sign}{whole}{fraction} {currency}"


def _print(rows: list[dict[str, Any]]) -> None:
    if not rows:
        print("no bets settled in these days")
        return
    print(
        f"{'date':<10}  {'operator':<16}  {'bets':>6}  {'players':>7}  {'turnover':>18}  "
        f"{'payouts':>18}  {'ggr':>18}  rtp"
    )
    for row in rows:
        money = [
            amount_text(row[key], row["currency"], row["digits"])
            for key in ("turnover", "payouts", "ggr")
        ]
        print(
            f"{row['date']:<10}  {row['operator'] or '-':<16}  {row['bets']:>6}  "
            f"{row['players']:>7}  {money[0]:>18}  {money[1]:>18}  {money[2]:>18}  "
            f"{row['observed_rtp'] or '-'}"
        )
