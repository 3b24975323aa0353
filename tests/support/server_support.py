"""A real table server for the tests: uvicorn on a free loopback port, in the test's event
loop, on a fresh SQLite or PostgreSQL database; and a small WebSocket client.

Nothing is mocked: the tests talk HTTP and WebSocket to the server, which talks SQL to a
real database (and, for scale-out, to a real Redis).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets
from ledger_support import ledger_database
from websockets.asyncio.client import ClientConnection

from punto.ledger.store import LedgerStore, create_engine
from punto.ledger.wallet import InternalWallet, RetryPolicy, SeamlessWallet, Wallet
from punto.server.app import create_app
from punto.server.auth import Actor, Role
from punto.server.config import Settings
from punto.server.fanout.bus import LocalBus
from punto.server.fanout.hub import Hub
from punto.server.fanout.protocol import MAX_MESSAGE, parse_command
from punto.server.fanout.wsprotocol import PUBLIC, ws_protocol
from punto.server.metrics import Metrics
from punto.server.money.bank import Bank
from punto.server.node import Node
from punto.server.services import ServerClock, Services
from punto.server.store.migrate import upgrade_async
from punto.server.store.storage import ServerStore
from punto.server.tables.configs import TableConfig
from punto.server.tables.runner import TableRunner
from punto.table.kinds import Dealing

__all__ = [
    "FAST",
    "Process",
    "RunningServer",
    "SeamlessTable",
    "SkewClock",
    "TableClient",
    "free_port",
    "http_client",
    "login",
    "lone_table",
    "running_server",
    "seamless_live_table",
    "server_on",
    "server_settings",
    "until",
]

FAST: dict[str, object] = {
    "betting_seconds": 1.5,
    "card_delay": 0.02,
    "squeeze_seconds": 0.5,
    "result_seconds": 0.1,
    "password_cost": 1024,
    "lease_seconds": 5.0,
    "secret": "test-secret-0123456789abcdef-0123456789",
    "demo": True,
}
"""Short timers and a fast password hash for tests."""


class SkewClock:
    """The wall clock, moved forward by hand: a test jumps over a grace period at once
    (the tables run on it, so an open countdown ends too)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        """Epoch seconds plus what the test added."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward."""
        self.offset += seconds

    def monotonic(self) -> float:
        """The server's timers run on real time (not moved by hand)."""
        return time.monotonic()


class Process:
    """One ``punto serve`` process."""

    def __init__(
        self, url: str, *, name: str, env: dict[str, str], log: Path, port: int | None = None
    ) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.name = name
        self.log = log
        self._out = log.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "punto", "serve", "--port", str(self.port)],
            env={**os.environ, **env, "PUNTO_DATABASE_URL": url, "PUNTO_PROCESS_ID": name},
            stdout=self._out,
            stderr=subprocess.STDOUT,
            cwd=log.parent,
        )

    async def ready(self, http: httpx.AsyncClient) -> dict[str, object]:
        """Wait for ``/healthz``."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited: {self.log.read_text()[-2000:]}")
            try:
                answer = await http.get(f"{self.url}/healthz")
                if answer.status_code == 200:
                    return dict(answer.json())
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)
        raise TimeoutError(f"{self.name} did not start")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Signal the process and wait for it."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(60)
        finally:
            self._out.close()


def redis_answers(host: str = "127.0.0.1", port: int = 6379) -> bool:
    """Whether a Redis server (the machine's own, as on CI) takes connections."""
    try:
        with socket.create_connection((host, port), 2):
            return True
    except OSError:
        return False


async def until(
    condition: Callable[[], bool], message: str = "never held", timeout: float = 30.0
) -> None:
    """Wait, looking again every 10 ms, until ``condition`` holds (the server's own state,
    in this loop or another process); fails with ``message`` only after ``timeout``
    seconds, so a busy machine is never a failure."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(message)
        await asyncio.sleep(0.01)


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_settings(url: str, **changes: object) -> Settings:
    """Test settings on the database ``url``."""
    return Settings(database_url=url, **{**FAST, **changes})  # type: ignore[arg-type]


@dataclass
class RunningServer:
    """A server running in the test's event loop."""

    url: str
    node: Node
    server: uvicorn.Server
    task: asyncio.Task[None]
    http: httpx.AsyncClient = field(init=False)

    def __post_init__(self) -> None:
        self.http = http_client(self.url)

    @property
    def ws_url(self) -> str:
        """The WebSocket root."""
        return self.url.replace("http://", "ws://")

    async def token(self, user: str, password: str | None = None) -> str:
        """Log ``user`` in (demo password by default)."""
        return await login(self.http, user, password)

    async def headers(self, user: str) -> dict[str, str]:
        """The HTTP headers of ``user`` logged in (demo password)."""
        return {"Authorization": f"Bearer {await self.token(user)}"}

    async def stop(self) -> None:
        """Stop gracefully (the lifespan's shutdown runs)."""
        self.server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self.task, 60)
        await self.http.aclose()


def http_client(base_url: str = "") -> httpx.AsyncClient:
    """A test's HTTP client of a server: a new connection for every request. A pooled
    connection left idle as long as the server keeps one open (uvicorn's and httpx's
    defaults are both 5 s) may be closed by the server just as the client sends on it —
    the request then fails with ``ReadError`` (seen after a hand of a few seconds); with
    none kept, no request ever goes out on a connection the server is closing."""
    return httpx.AsyncClient(
        base_url=base_url, timeout=20, limits=httpx.Limits(max_keepalive_connections=0)
    )


async def login(http: httpx.AsyncClient, user: str, password: str | None = None) -> str:
    """A session token for ``user``."""
    answer = await http.post(
        "/api/auth/login", json={"username": user, "password": password or f"{user}-demo"}
    )
    answer.raise_for_status()
    return str(answer.json()["token"])


def server_ws_protocol() -> str | type[asyncio.Protocol]:
    """The WebSocket protocol test servers run: ``punto serve``'s, or uvicorn's public one
    with ``PUNTO_TEST_WS=public`` (the whole suite without the private hook)."""
    if os.environ.get("PUNTO_TEST_WS") == "public":
        return PUBLIC
    return ws_protocol()


@asynccontextmanager
async def running_server(
    settings: Settings,
    *,
    wallet: Wallet | None = None,
    clock: ServerClock | None = None,
    ws: str | type[asyncio.Protocol] | None = None,
    ping: tuple[float, float] | None = None,
) -> AsyncIterator[RunningServer]:
    """Start a server with ``settings`` (and a wallet and a clock of the test's) and stop
    it afterwards; ``ws``: uvicorn's WebSocket protocol (``punto serve``'s by default);
    ``ping``: the keepalive's interval and timeout (uvicorn's 20 s and 20 s otherwise)."""
    if ws is None:
        ws = server_ws_protocol()
    node = Node(settings, wallet=wallet, clock=clock)
    app = create_app(settings, node=node)
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        ws=ws,
        ws_max_size=MAX_MESSAGE,
        ws_per_message_deflate=settings.ws_deflate,
        ws_ping_interval=20.0 if ping is None else ping[0],
        ws_ping_timeout=20.0 if ping is None else ping[1],
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    deadline = time.monotonic() + 60
    while not server.started:
        if task.done():
            task.result()
            raise RuntimeError("the server stopped while starting")
        if time.monotonic() > deadline:
            raise TimeoutError("the server did not start")
        await asyncio.sleep(0.02)
    running = RunningServer(f"http://127.0.0.1:{port}", node, server, task)
    try:
        yield running
    finally:
        await running.stop()


@asynccontextmanager
async def server_on(
    backend: str,
    tmp_path: Path,
    *,
    wallet_of: Wallet | None = None,
    clock: ServerClock | None = None,
    **changes: object,
) -> AsyncIterator[RunningServer]:
    """A server on a fresh database of ``backend``."""
    async with (
        ledger_database(backend, tmp_path) as url,
        running_server(server_settings(url, **changes), wallet=wallet_of, clock=clock) as server,
    ):
        yield server


class TableClient:
    """One WebSocket client of one table: send commands, wait for events and messages."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self._seen = 0
        self._n = 0
        self.snapshot: dict[str, Any] = {}
        self._seen_open = False

    @classmethod
    @asynccontextmanager
    async def connect(
        cls, server: RunningServer, table: str, token: str | None = None
    ) -> AsyncIterator[TableClient]:
        """Connect and read the snapshot."""
        url = f"{server.ws_url}/ws/tables/{table}" + (f"?token={token}" if token else "")
        # An unbounded queue: a client that reads only what it waits for still reads the
        # socket, so the server's closing frame behind a backlog is seen at once (with a
        # bounded one, reading pauses and each close waited the 10 s close timeout).
        async with websockets.connect(url, max_size=2**24, max_queue=None) as ws:
            client = cls(ws)
            client.snapshot = await client.next_of("snapshot")
            yield client

    async def _recv(self, timeout: float) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(message)
        return message

    async def next_of(
        self,
        kind: str,
        where: Callable[[dict[str, Any]], bool] = lambda m: True,
        *,
        timeout: float = 20.0,
    ) -> dict[str, Any]:
        """The next message of ``type`` ``kind`` (or, for events, of event kind ``kind``)
        that ``where`` accepts, after the ones already consumed."""
        deadline = time.monotonic() + timeout
        while True:
            while self._seen < len(self.received):
                message = self.received[self._seen]
                self._seen += 1
                if _matches(message, kind) and where(message):
                    return message
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind} within {timeout} s")
            await self._recv(left)

    async def request(self, message: Mapping[str, Any], *, timeout: float = 20.0) -> dict[str, Any]:
        """Send a command and return its ``ok`` or ``error`` answer."""
        self._n += 1
        rid = f"r{self._n}"
        await self.ws.send(json.dumps({**message, "request_id": rid}))
        return await self.answer(rid, timeout=timeout)

    async def answer(self, rid: str, *, timeout: float = 20.0) -> dict[str, Any]:
        """The ``ok`` or ``error`` answering request ``rid`` (other messages are kept)."""
        deadline = time.monotonic() + timeout
        index = 0
        while True:
            for message in self.received[index:]:
                if message.get("type") in ("ok", "error") and message.get("request_id") == rid:
                    return message
            index = len(self.received)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer to {rid}")
            await self._recv(left)

    async def ok(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """Send a command that must succeed."""
        answer = await self.request(message)
        assert answer["type"] == "ok", answer
        return answer

    async def betting_open(self, *, timeout: float = 40.0) -> str:
        """The game whose betting is open: the snapshot's, if it is still open, else the
        next one to open."""
        state = self.snapshot.get("state", {})
        closed = any(
            m.get("type") == "event" and m["event"]["kind"] == "betting_closed"
            for m in self.received
        )
        if state.get("phase") == "betting_open" and not closed and not self._seen_open:
            self._seen_open = True
            return str(state["game"])
        self._seen_open = True
        opened = await self.next_of("betting_opened", timeout=timeout)
        return str(opened["event"]["game"])

    async def deal(self, *cards: str) -> None:
        """As the dealer, deal ``cards`` in turn (shoe order: P1 B1 P2 B2, then thirds)."""
        for card in cards:
            await self.ok({"type": "deal_card", "card": card})

    async def take_seat(self, seat: int, *, chip: int, tier: str = "low") -> None:
        """Join the table, sit at ``seat`` with ``tier``'s limits and choose ``chip``."""
        await self.ok({"type": "join"})
        await self.ok({"type": "sit", "seat": seat, "tier": tier})
        await self.ok({"type": "choose_chip", "chip": chip})

    async def confirm_in_a_round(self, *bets: str) -> str:
        """Add the chosen chip to each of ``bets`` and confirm, round after round until a
        confirm is taken (betting may close between the chips and the confirm); its game."""
        while True:
            game = await self.betting_open()
            for bet in bets:
                await self.request({"type": "add_chip", "bet": bet})
            if (await self.request({"type": "confirm"}))["type"] == "ok":
                return game

    async def settled(self, game: str) -> dict[str, Any]:
        """Wait until hand ``game`` is settled and the balance after it told; the
        ``hand_settled`` message."""
        message = await self.next_of("hand_settled", lambda m: m["event"]["game"] == game)
        await self.next_of("balance", lambda m: m["reason"] == "settled")
        return message

    def skip_to_end(self) -> None:
        """Forget what was received so far (wait only for what comes next)."""
        self._seen = len(self.received)


async def add_macau_live(server: RunningServer) -> str:
    """Create ``macau-live``, a live table on the Macau rules, where a tie leaves the main
    bets standing [M12] (the demo tables' rules return them); its id."""
    admin = await server.headers("admin")
    table = {"id": "macau-live", "name": "Macau live", "rules": "macau", "dealing": "live"}
    created = await server.http.post("/api/admin/tables", json=table, headers=admin)
    assert created.status_code == 201, created.text
    return "macau-live"


@asynccontextmanager
async def macau_players(
    server: RunningServer, names: Sequence[str] = ("ann", "bob"), *, dealer: str = "dana"
) -> AsyncIterator[tuple[TableClient, tuple[TableClient, ...]]]:
    """``macau-live`` (created here, :func:`add_macau_live`) with its shoe started: its
    dealer's console and a client for each of ``names``, joined and seated in seats 1, 2,
    … (low tier)."""
    await add_macau_live(server)
    async with contextlib.AsyncExitStack() as stack:
        console = await stack.enter_async_context(
            TableClient.connect(server, "macau-live", await server.token(dealer))
        )
        players = [
            await stack.enter_async_context(
                TableClient.connect(server, "macau-live", await server.token(name))
            )
            for name in names
        ]
        await console.ok({"type": "start_shoe"})
        for seat, player in enumerate(players, start=1):
            await player.ok({"type": "join"})
            await player.ok({"type": "sit", "seat": seat, "tier": "low"})
        yield console, tuple(players)


TIE = ("4S", "4H", "3S", "3H")
"""A coup of Player 7 against Banker 7, no third card: a tie [M12] (shoe order P1 B1 P2 B2)."""


async def crash(node: Node) -> None:
    """Stop a node's tables abruptly, as a killed process would: no settlement, no
    refund, no payout written after it, leases kept."""
    for runner in list(node.runners.values()):
        await runner.abandon()
    node.runners.clear()


async def a_hand(
    dealer: TableClient,
    bets: Sequence[tuple[TableClient, Mapping[str, int]]],
    cards: Sequence[str] = TIE,
) -> str:
    """One hand at a live table: betting opened, each client's bets confirmed (a bet and
    its confirm in one message), betting closed, ``cards`` dealt (a tie by default); its
    game, once the dealer has it settled."""
    await dealer.ok({"type": "open_betting"})
    game = str((await dealer.next_of("betting_opened"))["event"]["game"])
    for player, placed in bets:
        await player.ok({"type": "confirm", "bets": dict(placed)})
    await dealer.ok({"type": "close_betting"})
    await dealer.deal(*cards)
    await dealer.next_of("hand_settled", lambda m: m["event"]["game"] == game)
    return game


async def betting_players(
    stack: contextlib.AsyncExitStack, server: RunningServer, tokens: list[str]
) -> tuple[TableClient, list[TableClient]]:
    """live-1 with a shoe started and betting open: its dealer's console, and one client
    per player's token, each at the table watching (low tier) with a 10.00 chip."""
    dealer = await stack.enter_async_context(
        TableClient.connect(server, "live-1", await server.token("dana"))
    )
    await dealer.ok({"type": "start_shoe"})
    await dealer.ok({"type": "open_betting"})
    players = [
        await stack.enter_async_context(TableClient.connect(server, "live-1", token))
        for token in tokens
    ]
    for player in players:
        await player.ok({"type": "join"})
        await player.ok({"type": "watch", "tier": "low"})
        await player.ok({"type": "choose_chip", "chip": 1000})
    return dealer, players


def _matches(message: Mapping[str, Any], kind: str) -> bool:
    if message.get("type") == kind:
        return True
    return message.get("type") == "event" and message["event"]["kind"] == kind


@dataclass
class SeamlessTable:
    """live-1 on a server whose wallet is an operator's (seamless): its dealer's console,
    and ann and bob watching with a 10.00 chip chosen, betting open."""

    server: RunningServer
    console: TableClient
    ann: TableClient
    bob: TableClient


@asynccontextmanager
async def seamless_live_table(
    backend: str,
    tmp_path: Path,
    transport: httpx.AsyncBaseTransport,
    *,
    retry: RetryPolicy,
    wallet_of: Callable[[httpx.AsyncClient], Wallet] | None = None,
    **changes: object,
) -> AsyncIterator[SeamlessTable]:
    """A :class:`SeamlessTable` whose operator's wallet is reached through ``transport``
    (a test's stand-in that can fail or hold calls; ``wallet_of``: the wallet of another
    dialect on that client; ``changes``: other settings of the server); afterwards the
    ledger must check."""
    client = httpx.AsyncClient(transport=transport)
    wallet: Wallet = (
        wallet_of(client)
        if wallet_of is not None
        else SeamlessWallet("http://operator/wallet", client=client, retry=retry)
    )
    settings: dict[str, Any] = {"betting_seconds": 600.0, **changes}
    try:
        async with server_on(
            backend,
            tmp_path,
            wallet_of=wallet,
            wallet="seamless",
            wallet_url="http://operator/wallet",
            **settings,
        ) as server:
            async with (
                TableClient.connect(server, "live-1", await server.token("dana")) as console,
                TableClient.connect(server, "live-1", await server.token("ann")) as ann,
                TableClient.connect(server, "live-1", await server.token("bob")) as bob,
            ):
                await console.ok({"type": "start_shoe"})
                for player in (ann, bob):
                    await player.ok({"type": "join"})
                    await player.ok({"type": "watch", "tier": "low"})
                    await player.ok({"type": "choose_chip", "chip": 1000})
                await console.ok({"type": "open_betting"})
                yield SeamlessTable(server, console, ann, bob)
            report = await server.node.ledger.check()
            assert report.ok, report.problems
    finally:
        await client.aclose()


@asynccontextmanager
async def lone_table(
    url: str,
) -> AsyncIterator[tuple[TableRunner, Bank, LedgerStore, Callable[..., Any]]]:
    """A live ``online_8deck`` table alone in this process on a fresh database at
    ``url`` (no server, no sockets: its runner driven directly), whose dealer Dana opened
    betting; cleo confirmed 10.00 on Player. The runner, the bank, the ledger and the
    dealer's command."""
    await upgrade_async(url)
    engine = create_engine(url)
    try:
        ledger = LedgerStore(engine)
        store = ServerStore(engine)
        wallet = InternalWallet(ledger)
        bank = Bank(ledger, wallet, store, seamless=False, operator_id="default")
        services = Services(
            settings=Settings(database_url=url, password_cost=1024, betting_seconds=3600),
            store=store,
            bank=bank,
            bus=LocalBus(Hub(queue_size=10)),
            metrics=Metrics(),
        )
        config = TableConfig(id="t", name="t", rules="online_8deck", dealing=Dealing.LIVE)
        await store.create_table(config)
        runner = TableRunner(config, services)
        dealer = Actor("dana", Role.DEALER, "Dana")
        cleo = Actor("cleo", Role.PLAYER, "Cleo")

        async def deal(message: dict[str, Any]) -> None:
            await runner.execute(dealer, parse_command(message))

        await wallet.credit("cleo", 100_000, transaction_id="cleo:1")
        await deal({"type": "start_shoe"})
        await deal({"type": "open_betting"})
        for step in ({"type": "join"}, {"type": "watch", "tier": "low"}):
            await runner.execute(cleo, parse_command(step))
        await runner.execute(cleo, parse_command({"type": "confirm", "bets": {"player": 1000}}))
        try:
            yield runner, bank, ledger, deal
        finally:
            await runner.abandon()
    finally:
        await engine.dispose()
