"""``punto reports operators [--from D] [--to D] [--operator ID] [--json|--csv]
[--currency CODE] [--database-url URL]``: the server's reports, read from its database.

``operators``: bets, players, turnover, payouts, GGR and observed RTP per UTC day,
operator and currency (``docs/operators.md``), ``--from`` .. ``--to`` (``YYYY-MM-DD``,
both included, default today, at most 92 days). Amounts are printed in the currency's
units (``12.50 EUR``, ``500 JPY``); ``--json`` and ``--csv`` give the exact integer minor
units. A bad date or range exits 2. ``--currency`` names the house currency, the book of
the accounts that name none (default ``$PUNTO_CURRENCY``, else EUR).
"""

from __future__ import annotations

import argparse

from punto.cli.database import add_database_options
from punto.cli.extras import load_extra

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``reports`` subcommand and its reports."""
    parser = subparsers.add_parser(
        "reports",
        help="the server's reports (per operator, currency and day)",
        description="The server's reports, read from its database.",
    )
    actions = parser.add_subparsers(dest="action", metavar="REPORT", required=True)
    operators = actions.add_parser(
        "operators",
        help="bets, players, turnover, payouts and GGR per day, operator and currency",
    )
    operators.add_argument("--from", dest="first", metavar="DATE", help="YYYY-MM-DD (UTC)")
    operators.add_argument("--to", dest="last", metavar="DATE", help="YYYY-MM-DD (UTC)")
    operators.add_argument("--operator", metavar="ID", help="only this operator's players")
    operators.add_argument("--currency", metavar="CODE", help="the house currency")
    shape = operators.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true", help="answer in JSON")
    shape.add_argument("--csv", action="store_true", help="answer in CSV (a header row first)")
    add_database_options([operators], answers_json=False)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen report (the store's packages are the ``server`` extra)."""
    reading = load_extra("punto.cli.reports_read", extra="server", command="reports")
    status: int = reading.run(args)
    return status
