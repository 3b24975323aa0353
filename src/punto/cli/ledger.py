"""``punto ledger check|migrate [--database-url URL]``.

``check`` proves the books: it exits 0 when they balance and 1, listing every problem,
when they do not (``--json``: one JSON object). ``migrate`` brings the database's ledger
schema to the newest revision. The database is ``--database-url``, else
``$PUNTO_DATABASE_URL``, else the SQLite file ``punto.sqlite3``.
"""

from __future__ import annotations

import argparse
import asyncio

from punto.cli.output import write_json
from punto.ledger import migrate
from punto.ledger.store import CheckReport, LedgerStore, database_url

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``ledger`` subcommand and its ``check`` and ``migrate`` actions."""
    parser = subparsers.add_parser(
        "ledger",
        help="check or migrate the money ledger",
        description="Prove that the ledger's books balance, or migrate its schema.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check", help="exit 0 only when the books balance", description=_CHECK_HELP
    )
    check.add_argument("--json", action="store_true", help="answer in JSON")
    actions.add_parser(
        "migrate",
        help="create or upgrade the ledger tables",
        description="Bring the ledger schema to the newest revision (idempotent).",
    )
    for action in (check, actions.choices["migrate"]):
        action.add_argument(
            "--database-url",
            metavar="URL",
            help="e.g. sqlite:///punto.sqlite3 or postgresql://user@host/db "
            "(default: $PUNTO_DATABASE_URL, else punto.sqlite3)",
        )
    parser.set_defaults(handler=run)


_CHECK_HELP = (
    "Check that every transaction balances and is unchanged, that all accounts sum to "
    "zero, that no player wallet is negative and that every confirmed bet is settled, "
    "refunded or still open in a live round."
)


def run(args: argparse.Namespace) -> int:
    """Run the chosen action."""
    url = database_url(args.database_url)
    if args.action == "migrate":
        migrate.upgrade(url)
        print(f"ledger schema at revision {migrate.head()}")
        return 0
    report = asyncio.run(_check(url))
    if args.json:
        write_json(
            {
                "ok": report.ok,
                "problems": list(report.problems),
                "accounts": report.accounts,
                "transactions": report.transactions,
                "entries_total": report.entries_total,
                "open_rounds": report.open_rounds,
            }
        )
    elif report.ok:
        print(
            f"books balance: {report.transactions} transactions, {report.accounts} accounts "
            f"summing to 0, {report.open_rounds} open rounds"
        )
    else:
        print(f"books do NOT balance: {len(report.problems)} problems")
        for problem in report.problems:
            print(f"  {problem}")
    return 0 if report.ok else 1


async def _check(url: str) -> CheckReport:
    async with LedgerStore.open(url) as store:
        return await store.check()
