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
import asyncio
import contextlib
import sys
import threading
import webbrowser
from types import FrameType

import uvicorn

from punto.server.config import Settings
from punto.server.node import DEMO_USERS, Node
from punto.server.protocol import MAX_MESSAGE

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser(
        "serve",
        help="run the table server (web client, WebSocket tables, REST API)",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
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


class _Server(uvicorn.Server):
    """uvicorn, but the first Ctrl-C / SIGTERM drains the tables before the sockets go."""

    def __init__(self, config: uvicorn.Config, node: Node) -> None:
        super().__init__(config)
        self._node = node
        self._draining: asyncio.Task[None] | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._draining is not None or self.should_exit:
            super().handle_exit(sig, frame)  # a second signal: stop now
            return
        print("punto: finishing the hands in play, then stopping", file=sys.stderr)
        self._draining = asyncio.get_event_loop().create_task(self._drain(sig, frame))

    async def _drain(self, sig: int, frame: FrameType | None) -> None:
        with contextlib.suppress(Exception):
            await self._node.stop()
        super().handle_exit(sig, frame)
        # A stop that was asked for and done cleanly exits 0 (uvicorn would re-raise it).
        self._captured_signals.clear()


def run(args: argparse.Namespace) -> int:
    """Run the server until it is stopped."""
    from punto.server.app import create_app

    overrides: dict[str, object] = {
        "database_url": args.database_url,
        "redis_url": args.redis_url,
        "demo": args.demo,
    }
    settings = Settings.from_env(None, **overrides)
    problems = settings.production_problems()
    if problems:
        for problem in problems:
            print(f"punto: refusing to start in production mode: {problem}", file=sys.stderr)
        print("punto: for a local demo run `punto serve --demo` (make run)", file=sys.stderr)
        return 2
    node = Node(settings)
    app = create_app(settings, node=node, logs=True)
    url = f"http://{args.host}:{args.port}/"
    print(f"punto: serving {url} (database: {settings.backend})", file=sys.stderr)
    if settings.demo:
        accounts = ", ".join(f"{u} ({r.value})" for u, r, _ in DEMO_USERS)
        print(f"punto: demo accounts, password <name>-demo: {accounts}", file=sys.stderr)
    if args.open:
        threading.Timer(1.5, lambda: webbrowser.open(url)).start()
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_config=None,
        ws="websockets-sansio",
        ws_max_size=MAX_MESSAGE,  # a frame may be no larger than a message
        lifespan="on",
    )
    _Server(config, node).run()
    return 0
