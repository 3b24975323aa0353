"""``punto operators add|list|show|limits|rotate-secret|disable|enable|public-key|check
[--database-url URL]``.

The operators (tenants) that may launch their players onto this server's tables
(``docs/operators.md``). ``add`` and ``rotate-secret`` print the operator's new secret once:
it is never shown again; ``public-key`` prints the public key of the pair that signs Punto's
calls to a hub88 operator's wallet. ``check`` runs the wallet conformance kit against a live
operator wallet (exit 0 only when every case passes). ``--json`` answers with one JSON
object. The database is ``--database-url``, else ``$PUNTO_DATABASE_URL``, else the SQLite
file ``punto.sqlite3``.
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
    add.add_argument(
        "--dialect", default="punto", choices=["punto", "hub88"], help="its wallet contract"
    )
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
        ("public-key", "the public key that checks Punto's calls to a hub88 wallet"),
    ):
        action = actions.add_parser(name, help=text)
        action.add_argument("operator_id", metavar="ID")
    check = actions.add_parser(
        "check",
        help="run the wallet conformance kit against a live operator wallet",
        description="Run the wallet contract against a live operator wallet with a test "
        "player: each case passes or fails; exit 0 only when all pass.",
    )
    check.add_argument("operator_id", metavar="ID", nargs="?", help="a registered operator")
    check.add_argument("--wallet-url", metavar="URL", help="the wallet root (instead of ID)")
    check.add_argument("--dialect", choices=["punto", "hub88"], help="its contract (with URL)")
    check.add_argument("--secret", help="the punto dialect's signing secret (with URL)")
    check.add_argument("--key", metavar="FILE", help="the hub88 dialect's PEM private key")
    check.add_argument("--api-key", help="Authorization: Bearer KEY (punto dialect)")
    check.add_argument("--player", required=True, help="the operator's test player")
    check.add_argument("--currency", help="its currency (default: the operator's first)")
    check.add_argument("--amount", type=int, help="minor units each call moves (default: one unit)")
    check.add_argument(
        "--timeout", type=float, default=5.0, help="seconds a call may take (default 5)"
    )
    add_database_options(actions.choices.values())
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen action (the store's packages are the ``server`` extra)."""
    admin = load_extra("punto.cli.operators_admin", extra="server", command="operators")
    status: int = admin.run(args)
    return status
