"""The run of ``punto serve``: uvicorn over the table server, drained on the first Ctrl-C
or SIGTERM (see :mod:`punto.cli.serve`; these packages are the ``server`` extra)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import sys
import threading
import webbrowser
from types import FrameType

import uvicorn

from punto.ledger.store import reach
from punto.server import collector
from punto.server.config import Settings
from punto.server.fanout.bus import reach_redis
from punto.server.fanout.protocol import MAX_MESSAGE
from punto.server.fanout.wsprotocol import ws_protocol
from punto.server.node import DEMO_USERS, Node

__all__ = ["run"]


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


def open_files() -> int:
    """Raise this process's open-file limit to its hard limit (one file per connected
    client: the usual soft limit of 1,024 would refuse the 1,000-and-somethingth
    client); the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


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
    # A database that cannot be opened is said in one line (exit 2), before uvicorn starts,
    asyncio.run(reach(settings.database_url))
    if settings.redis_url:  # and a Redis that does not answer
        asyncio.run(reach_redis(settings.redis_url))
    node = Node(settings)
    app = create_app(settings, node=node, logs=True)
    url = f"http://{args.host}:{args.port}/"
    files = open_files()
    print(
        f"punto: serving {url} (database: {settings.backend}; up to {files:,} open files)",
        file=sys.stderr,
    )
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
        ws=ws_protocol(),  # uvicorn's websockets-sansio, lending sockets to the hub
        ws_max_size=MAX_MESSAGE,  # a frame may be no larger than a message
        ws_per_message_deflate=settings.ws_deflate,
        lifespan="on",
    )
    collector.calm()
    _Server(config, node).run()
    return 0
