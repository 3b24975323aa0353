"""``punto ledger check|migrate [--database-url URL]``.

``check`` proves the books: it exits 0 when they balance and 1, listing every problem,
when they do not (``--json``: one JSON object). ``check --operator`` also reconciles the
seamless wallet's calls with the operator (``--wallet-url``, else ``$PUNTO_WALLET_URL``):
every call still pending, refused, or held differently by the operator is a problem.
``migrate`` brings the database's ledger schema to the newest revision. The database is
``--database-url``, else ``$PUNTO_DATABASE_URL``, else the SQLite file ``punto.sqlite3``.
"""

from __future__ import annotations

import argparse

from punto.cli.database import add_database_options
from punto.cli.extras import load_extra

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
    check.add_argument(
        "--operator",
        action="store_true",
        help="also reconcile the seamless wallet's calls with the operator",
    )
    check.add_argument(
        "--wallet-url", metavar="URL", help="the operator's wallet root (default $PUNTO_WALLET_URL)"
    )
    check.add_argument(
        "--wallet-api-key", metavar="KEY", help="the operator's API key ($PUNTO_WALLET_API_KEY)"
    )
    check.add_argument(
        "--wallet-secret",
        metavar="SECRET",
        help="signs the calls to the operator ($PUNTO_WALLET_SECRET)",
    )
    check.add_argument(
        "--wallet-dialect",
        choices=["punto", "hub88"],
        help="the contract the wallet at --wallet-url speaks ($PUNTO_WALLET_DIALECT; punto)",
    )
    check.add_argument(
        "--wallet-key",
        metavar="FILE",
        help="the PEM private key that signs hub88 wallet calls ($PUNTO_WALLET_KEY)",
    )
    actions.add_parser(
        "migrate",
        help="create or upgrade the ledger tables",
        description="Bring the ledger schema to the newest revision (idempotent).",
    )
    add_database_options((check, actions.choices["migrate"]), answers_json=False)
    parser.set_defaults(handler=run)


_CHECK_HELP = (
    "Check that every transaction balances and is unchanged, that all accounts sum to "
    "zero, that no player wallet is negative and that every confirmed bet is settled, "
    "refunded or still open in a live round."
)


def run(args: argparse.Namespace) -> int:
    """Run the chosen action (the store's packages are the ``server`` extra)."""
    books = load_extra("punto.cli.ledger_books", extra="server", command="ledger")
    status: int = books.run(args)
    return status
