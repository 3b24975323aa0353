"""The run of ``punto ledger check|migrate`` (see :mod:`punto.cli.ledger`): the SQLAlchemy
store and the Alembic migrations, which are the ``server`` extra."""

from __future__ import annotations

import argparse
import asyncio
import os
from typing import TYPE_CHECKING

from punto.cli.output import write_json
from punto.ledger import migrate
from punto.ledger.store import CheckReport, LedgerStore, database_url, reach

if TYPE_CHECKING:
    from punto.server.money.outbox import Reconciliation

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Run the chosen action."""
    url = database_url(args.database_url)
    asyncio.run(reach(url))  # a database that cannot be opened: one line, exit 2
    if args.action == "migrate":
        migrate.upgrade(url)
        print(f"ledger schema at revision {migrate.head()}")
        return 0
    operator = None
    if args.operator:
        operator = args.wallet_url or os.environ.get("PUNTO_WALLET_URL")
        if not operator:
            print("punto ledger check --operator needs --wallet-url or $PUNTO_WALLET_URL")
            return 2
    key = args.wallet_api_key or os.environ.get("PUNTO_WALLET_API_KEY") or None
    secret = args.wallet_secret or os.environ.get("PUNTO_WALLET_SECRET") or None
    report, reconciliation = asyncio.run(_check(url, operator, key, secret))
    house = os.environ.get("PUNTO_CURRENCY") or "EUR"
    ok = report.ok and (reconciliation is None or reconciliation.ok)
    if args.json:
        write_json(
            {
                "ok": ok,
                "operator": None
                if reconciliation is None
                else {
                    "ok": reconciliation.ok,
                    "checked": reconciliation.checked,
                    "problems": list(reconciliation.problems),
                },
                "problems": list(report.problems),
                "accounts": report.accounts,
                "transactions": report.transactions,
                "entries_total": report.entries_total,
                "open_rounds": report.open_rounds,
                "books": [
                    {
                        "currency": book.currency or house,
                        "operator": book.operator,
                        "accounts": book.accounts,
                        "total": book.total,
                        "players": book.players,
                    }
                    for book in report.books()
                ],
            }
        )
    elif report.ok:
        print(
            f"books balance: {report.transactions} transactions, {report.accounts} accounts "
            f"summing to 0, {report.open_rounds} open rounds"
        )
        for book in report.books():
            who = f"operator {book.operator}" if book.operator else "book"
            print(
                f"  {book.currency or house} {who}: {book.accounts} accounts summing to "
                f"{book.total}, players' wallets {book.players}"
            )
    else:
        print(f"books do NOT balance: {len(report.problems)} problems")
        for problem in report.problems:
            print(f"  {problem}")
    if reconciliation is not None and not args.json:
        if reconciliation.ok:
            print(f"operator agrees: {reconciliation.checked} wallet calls, none pending")
        else:
            print(
                f"operator does NOT agree: {len(reconciliation.problems)} of "
                f"{reconciliation.checked} wallet calls"
            )
            for problem in reconciliation.problems:
                print(f"  {problem}")
    return 0 if ok else 1


async def _check(
    url: str, operator: str | None, api_key: str | None, secret: str | None
) -> tuple[CheckReport, Reconciliation | None]:
    from sqlalchemy.exc import SQLAlchemyError

    from punto.errors import PuntoError
    from punto.ledger.wallet import SeamlessWallet
    from punto.server.money.outbox import Reconciliation, reconcile
    from punto.server.store.storage import ServerStore

    async with LedgerStore.open(url) as store:
        report = await store.check()
        if operator is None:
            return report, None
        async with SeamlessWallet(operator, api_key=api_key, secret=secret) as wallet:
            try:
                return report, await reconcile(ServerStore(store.engine), wallet)
            except (PuntoError, SQLAlchemyError) as exc:
                return report, Reconciliation(0, (f"cannot reconcile: {exc}",))
