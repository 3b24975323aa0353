"""``punto users add|list [--json] [--database-url URL]``: the server's staff accounts.

A production server has no demo accounts: its first administrator (and any dealer or
supervisor) is made here, on the server's database; the administrator then makes the rest
in the administration page. ``add`` reads the password from standard input with
``--password-stdin``, else makes a random one and prints it once.
"""

from __future__ import annotations

import argparse

from punto.cli.database import add_database_options
from punto.cli.extras import load_extra

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``users`` subcommand and its actions."""
    parser = subparsers.add_parser(
        "users",
        help="make the server's staff accounts (its first administrator)",
        description="Make staff accounts on the server's database, or list the accounts.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="make an account")
    add.add_argument("user_id", metavar="NAME", help="3-32 characters of a-z 0-9 _ -")
    add.add_argument("--role", required=True, choices=["admin", "supervisor", "dealer", "player"])
    add.add_argument("--name", help="the display name (default: NAME)")
    add.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input"
    )
    actions.add_parser("list", help="every account")
    add_database_options(actions.choices.values())
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen action (the store's packages are the ``server`` extra)."""
    admin = load_extra("punto.cli.users_admin", extra="server", command="users")
    status: int = admin.run(args)
    return status
