"""``punto jurisdictions add|list|show|remove [--database-url URL]``.

The jurisdiction profiles a signed launch may name for its player (``docs/operators.md``):
a reality check every so often, a session limit, the least time between a player's bets on
consecutive hands, and features turned off (``chat``, ``side_bets``). Durations are written
with units ``s``, ``m`` and ``h`` (``90s``, ``60m``, ``2h``, ``1h30m``, ``2.5s``). ``add``
replaces the profile of the same id. ``--json`` answers with one JSON object. The database
is ``--database-url``, else ``$PUNTO_DATABASE_URL``, else the SQLite file ``punto.sqlite3``.
"""

from __future__ import annotations

import argparse

from punto.cli.database import add_database_options
from punto.cli.extras import load_extra

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``jurisdictions`` subcommand and its actions."""
    parser = subparsers.add_parser(
        "jurisdictions",
        help="keep the jurisdiction profiles a launch may name",
        description="Keep the jurisdiction profiles (reality checks, session limits, the "
        "least time between hands, features off) that an operator's launch may name.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="add a profile (or replace the one of its id)")
    add.add_argument("jurisdiction_id", metavar="ID", help="2-16 characters of a-z 0-9 _ -")
    add.add_argument("--name", required=True, help="the profile's name")
    add.add_argument("--reality-check", metavar="DURATION", help="a reality check this often (60m)")
    add.add_argument("--session-limit", metavar="DURATION", help="no bet after this long (2h)")
    add.add_argument(
        "--min-hand-interval",
        metavar="DURATION",
        help="the least time between bets on consecutive hands (2.5s)",
    )
    add.add_argument(
        "--features-off", default="", metavar="FEATURES", help="some of chat,side_bets"
    )
    actions.add_parser("list", help="every profile")
    for name, text in (("show", "one profile"), ("remove", "remove a profile")):
        action = actions.add_parser(name, help=text)
        action.add_argument("jurisdiction_id", metavar="ID")
    add_database_options(actions.choices.values())
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen action (the store's packages are the ``server`` extra)."""
    admin = load_extra("punto.cli.jurisdictions_admin", extra="server", command="jurisdictions")
    status: int = admin.run(args)
    return status
