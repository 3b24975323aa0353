"""``punto operators add|list|show|limits|rotate-secret|disable|enable [--database-url URL]``.

The operators (tenants) that may launch their players onto this server's tables
(``docs/operators.md``). ``add`` and ``rotate-secret`` print the operator's new secret once:
it is never shown again. ``--json`` answers with one JSON object. The database is
``--database-url``, else ``$PUNTO_DATABASE_URL``, else the SQLite file ``punto.sqlite3``.
"""

from __future__ import annotations

import argparse

from punto.cli.database import add_database_options
from punto.cli.extras import load_extra

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``operators`` subcommand and its actions."""
    parser = subparsers.add_parser(
        "operators",
        help="register and manage the operators that launch players",
        description="Register the operators (tenants) that launch their players here.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="register an operator and print its secret once")
    add.add_argument("operator_id", metavar="ID", help="2-16 characters of a-z 0-9 _ -")
    add.add_argument("--name", required=True, help="the operator's name")
    add.add_argument(
        "--currencies", required=True, metavar="CODES", help="ISO 4217 codes: EUR,USD,JPY"
    )
    add.add_argument("--wallet-url", metavar="URL", help="the operator's wallet root")
    add.add_argument("--dialect", default="punto", choices=["punto"], help="its wallet contract")
    add.add_argument("--languages", default="en,zh,zh-Hant", metavar="CODES", help="en,zh,zh-Hant")
    add.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="an origin whose pages may frame the game (https://casino.example); repeatable",
    )
    add.add_argument(
        "--limit-groups",
        metavar="FILE",
        help="its limit groups: a JSON file of chips and tier amounts by currency (- reads stdin)",
    )
    limits = actions.add_parser("limits", help="replace an operator's limit groups")
    limits.add_argument("operator_id", metavar="ID")
    limits.add_argument("file", metavar="FILE", help="the limit groups' JSON file (- reads stdin)")
    actions.add_parser("list", help="every operator")
    for name, text in (
        ("show", "one operator"),
        ("rotate-secret", "give an operator a new secret (the old one stops signing)"),
        ("disable", "stop an operator's launches"),
        ("enable", "let a disabled operator launch again"),
    ):
        action = actions.add_parser(name, help=text)
        action.add_argument("operator_id", metavar="ID")
    add_database_options(actions.choices.values())
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen action (the store's packages are the ``server`` extra)."""
    admin = load_extra("punto.cli.operators_admin", extra="server", command="operators")
    status: int = admin.run(args)
    return status
