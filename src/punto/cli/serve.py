"""``punto serve [--host H] [--port P] [--database-url URL] [--redis-url URL] [--demo] [--open]``.

Starts the table server (uvicorn): SQLite in the working folder unless a database URL is
given. With ``--demo`` (``make run``) it creates demo tables dealt by the RNG and demo
accounts (printed at start) and lets players register; without it the server is in
production mode and refuses to start unless ``PUNTO_SECRET`` is set. Ctrl-C or SIGTERM
stops it gracefully: no hand is opened any more, a hand being dealt at an RNG table is
finished and settled, a live table's hand is void and refunded, then the connections
close.
"""

from __future__ import annotations

import argparse

from punto.cli.extras import load_extra
from punto.cli.output import description_of

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser(
        "serve",
        help="run the table server (web client, WebSocket tables, REST API)",
        description=description_of(__doc__),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="sqlite:///punto.sqlite3 (default) or postgresql://user@host/db "
        "(also $PUNTO_DATABASE_URL)",
    )
    parser.add_argument(
        "--redis-url",
        metavar="URL",
        help="Redis for several processes serving one set of tables (also $PUNTO_REDIS_URL)",
    )
    demo = parser.add_mutually_exclusive_group()
    demo.add_argument(
        "--demo",
        action="store_true",
        default=None,
        help="demo tables, accounts and self-registration (development; also $PUNTO_DEMO=1)",
    )
    demo.add_argument(
        "--no-demo",
        dest="demo",
        action="store_false",
        help="no demo data: production mode (the default)",
    )
    parser.add_argument("--open", action="store_true", help="open the web client in a browser")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Start the server (its packages are the ``server`` extra: ``punto[server]``)."""
    serving = load_extra("punto.cli.serving", extra="server", command="serve")
    status: int = serving.run(args)
    return status
