"""Table server throughput, on SQLite and on PostgreSQL.

1. **Bets accepted per second** and the confirm latency (p50, p99): players connected over
   WebSocket to a real ``punto serve`` process, each betting and confirming again and
   again at four live tables whose betting stays open: the bet and its confirm in one
   message (``{"type": "confirm", "bets": {...}}``, a client that knows its bets), and
   apart as a chip and then a confirm, two messages (a player clicking); and five times
   as many players all at one table (a popular table). On PostgreSQL, the ceiling the
   issue measured the server against, on the same machine just after: each bet its own
   database transaction (debit, credit, two entries; 32 connections), at one table and at
   four, and the server's rate as a multiple of the one-table ceiling.
2. **Settling a round with 10,000 bets**: 2,500 players with four bets each on one table;
   the time from the dealer's last card to the ledger's settlement committed, the hand
   record stored and the last player's balance message sent (and, apart, until the
   dealer's command returned: after the balances the table sends what each player may
   do next); and the size of the settled hand's event for a player, a spectator and the
   dealer.
3. **Staking again the bets a tie left standing** [M12]: 2,500 players' Banker bets on a
   Macau table, a tie; the time the dealer's opening of the next hand takes (every
   standing bet staked again in the ledger, the table held meanwhile).
4. **Broadcasting a table event to 5,000 clients**: 5,000 WebSocket watchers of one RNG
   table; for each card dealt, the time from the event until the last client has it.

The players of parts 1–3 bet in three currencies, a third each (``--currencies``, default
``EUR,JPY,USD``): password accounts in the house currency (EUR), and two operators' launched
players in JPY and in USD, each on the same tier amounts in their own ledger book;
``--currencies EUR`` runs everyone in the house currency.

Run: ``python benchmarks/bench_server.py [--backend sqlite|postgresql|both] [--quick] [--json]
[--repeat N] [--currencies EUR,JPY,USD]`` (``--json``: after the human-readable lines, one
JSON object per backend on a line of its own; ``--repeat N``: the saturated confirms
measured N times, each on a fresh server and database, and the median run reported, with
every run's rate).

Each saturated run of confirms is preceded by the machine's speed at that moment
(``calibration_ms``: a fixed single-threaded Python workload, lower is faster; on this
machine it moves within minutes and with the hour by up to three times, and the server
runs on one core), and the confirm figures say
how busy the server, the load generator and the whole machine were and the server's CPU
time per accepted bet (``server_cpu_us_per_bet``): what the code costs, apart from how
much of the machine it got.
PostgreSQL is the one at ``$PUNTO_TEST_POSTGRES_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``); its part is skipped, saying so, when no
server answers. Each run uses a fresh database, dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import websockets
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from naive_ceiling import naive_ceiling
from punto.bets import Bet
from punto.currencies import minor_units
from punto.ledger.signing import signature
from punto.ledger.store import LedgerStore, create_engine
from punto.ledger.wallet import InternalWallet
from punto.server import collector
from punto.server.auth import Actor, Role
from punto.server.config import Settings
from punto.server.fanout.bus import LocalBus
from punto.server.fanout.hub import Hub
from punto.server.fanout.protocol import parse_command
from punto.server.metrics import Metrics
from punto.server.money.bank import Bank
from punto.server.services import Services
from punto.server.store.migrate import upgrade_async
from punto.server.store.storage import ServerStore
from punto.server.tables.configs import TableConfig
from punto.server.tables.runner import TableRunner
from punto.table.kinds import Dealing
from punto.table.purses import Purse
from punto.tiers import LimitTier

POSTGRES = os.environ.get("PUNTO_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


SERVERS: dict[str, int] = {}
"""The process id of each server started, by its base URL (to read its CPU time)."""


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) a process has used so far, where ``/proc`` tells."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_ticks() -> tuple[int, int] | None:
    """All CPUs' busy and total clock ticks so far (``/proc/stat``), where it tells."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle and waiting for I/O
    total = sum(values[:8])  # the guest's ticks are counted in user already
    return total - idle, total


def _busy_since(start: tuple[int, int] | None) -> float | None:
    """The fraction of the machine's CPU time busy since ``start`` (every process's)."""
    end = _machine_ticks()
    if start is None or end is None or end[1] == start[1]:
        return None
    return (end[0] - start[0]) / (end[1] - start[1])


@dataclass(frozen=True, slots=True)
class _Sample:
    """A small frozen record, as the server makes many of (:func:`calibrate`)."""

    player: str
    bets: tuple[tuple[str, int], ...]


def calibrate(rounds: int = 5) -> float:
    """The machine's speed for Python at this moment, in milliseconds (lower: faster): the
    median of ``rounds`` runs of a fixed single-threaded workload like the server's own
    (dictionaries, small objects, strings, JSON). On this machine the same code's figures
    move with the hour by up to three times, and every figure here is the server's on one
    core: this says how fast a core ran Python at that moment — no more (the other core's
    load moves it within seconds; compare code by alternated runs, benchmarks/RESULTS.md)."""

    def work() -> int:
        made = 0
        for n in range(20_000):
            bets = {"player": 1000 + n % 7, "banker": n % 3 * 500}
            bet = _Sample(f"p{n % 50}", tuple(sorted(bets.items())))
            text_ = orjson.dumps({"type": "event", "player": bet.player, "bets": bets})
            made += len(text_) + len(str(bet.bets))
        return made

    times = []
    for _ in range(rounds):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return statistics.median(times) * 1000


DEFLATE = ["0"]
"""``PUNTO_WS_DEFLATE`` of the servers started (``--deflate``: compression offered)."""

CURRENCIES = ["EUR", "JPY", "USD"]
"""The players' currencies, dealt to them in turn (``--currencies``): the first is the house
currency (password accounts); each other one an operator's launched players."""

_LOW = {"min_bet": 1000, "max_bet": 100_000, "side_min": 500, "side_max": 25_000}
"""``online_8deck``'s low tier, given in every currency (the bets are the same numbers)."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _postgres_answers() -> bool:
    parts = urlsplit(POSTGRES)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 5432), 2):
            return True
    except OSError:
        return False


@asynccontextmanager
async def database(backend: str) -> AsyncIterator[str]:
    """A fresh, empty database URL of ``backend`` (plain scheme)."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        return
    name = f"punto_bench_{secrets.token_hex(5)}"
    parts = urlsplit(POSTGRES)
    admin = create_async_engine(
        parts._replace(scheme="postgresql+asyncpg").geturl(), isolation_level="AUTOCOMMIT"
    )
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield parts._replace(path=f"/{name}").geturl()
        finally:
            async with admin.connect() as conn:
                await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()


@asynccontextmanager
async def server_process(url: str, **env: str) -> AsyncIterator[str]:
    """A ``punto serve`` process on ``url``; yields its base URL."""
    port = _free_port()
    environment = {
        **os.environ,
        "PUNTO_CURRENCY": CURRENCIES[0],
        "PUNTO_DATABASE_URL": url,
        "PUNTO_PASSWORD_COST": "1024",
        "PUNTO_SECRET": "bench-secret-0123456789abcdef-0123456789",
        "PUNTO_DEMO": "1",
        "PUNTO_LOG_LEVEL": "WARNING",
        "PUNTO_WS_QUEUE": "5000",
        "PUNTO_WS_DEFLATE": DEFLATE[0],
        **env,
    }
    with tempfile.TemporaryDirectory() as folder:
        log = (Path(folder) / "server.log").open("w")
        proc = subprocess.Popen(
            [sys.executable, "-m", "punto", "serve", "--port", str(port)],
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=folder,
        )
        base = f"http://127.0.0.1:{port}"
        SERVERS[base] = proc.pid
        try:
            async with httpx.AsyncClient() as http:
                for _ in range(300):
                    with contextlib.suppress(httpx.TransportError):
                        if (await http.get(f"{base}/healthz")).status_code == 200:
                            break
                    if proc.poll() is not None:
                        raise RuntimeError((Path(folder) / "server.log").read_text()[-3000:])
                    await asyncio.sleep(0.2)
            yield base
        finally:
            proc.terminate()
            proc.wait(60)
            log.close()


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- 1. bets accepted per second ------------------------------------------------------


async def _token(http: httpx.AsyncClient, user: str, password: str) -> str:
    answer = await http.post("/api/auth/login", json={"username": user, "password": password})
    answer.raise_for_status()
    return str(answer.json()["token"])


async def _register(http: httpx.AsyncClient, name: str) -> str:
    answer = await http.post("/api/auth/register", json={"username": name, "password": "pw-123456"})
    answer.raise_for_status()
    return str(answer.json()["token"])


async def _players(http: httpx.AsyncClient, admin: dict[str, str], players: int) -> list[str]:
    """``players`` sessions, the n-th in ``CURRENCIES[n % len(CURRENCIES)]``: password
    accounts in the house currency, the others launched by an operator of their currency
    (registered here, its low tier and a 1000 chip in it) and given money."""
    secrets_of: dict[str, str] = {}
    for currency in CURRENCIES[1:]:
        body = {
            "id": f"bench{currency.lower()}",
            "name": f"Bench {currency}",
            "currencies": [currency],
            "limit_groups": {"default": {currency: {"chips": [1000], "tiers": {"low": _LOW}}}},
        }
        made = await http.post("/api/admin/operators", json=body, headers=admin)
        made.raise_for_status()
        secrets_of[currency] = str(made.json()["secret"])

    async def player(n: int) -> str:
        currency = CURRENCIES[n % len(CURRENCIES)]
        name = f"b{n}-{secrets.token_hex(3)}"
        if currency == CURRENCIES[0]:
            return await _register(http, name)
        operator = f"bench{currency.lower()}"
        launch = json.dumps(
            {
                "player_id": name,
                "display_name": name,
                "currency": currency,
                "language": "en",
                "timestamp": int(time.time()),
            }
        ).encode()
        headers = {
            "Content-Type": "application/json",
            "X-Punto-Operator": operator,
            "X-Punto-Signature": signature(secrets_of[currency], launch),
        }
        url = await http.post("/api/operator/v1/launch", content=launch, headers=headers)
        url.raise_for_status()
        token = str(url.json()["url"]).split("launch=")[1].split("#")[0]
        session = await http.post("/api/auth/launch", json={"launch": token})
        session.raise_for_status()
        paid = await http.post(
            f"/api/admin/players/{operator}.{name}/deposit",
            json={"amount": 100_000_000, "transaction_id": f"bench-{operator}-{name}"},
            headers=admin,
        )
        paid.raise_for_status()
        return str(session.json()["token"])

    return list(await asyncio.gather(*(player(n) for n in range(players))))


class _Socket:
    """A WebSocket client that reads all the time (as a browser does) and matches each
    answer to its request."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.n = 0
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                if '"request_id"' not in raw:
                    continue
                message: dict[str, Any] = orjson.loads(raw)
                future = self._waiting.pop(str(message.get("request_id")), None)
                if future is not None and not future.done():
                    future.set_result(message)

    async def send(self, message: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
        """Send a request; its ``ok`` or ``error`` to come."""
        self.n += 1
        rid = f"q{self.n}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        await self.ws.send(orjson.dumps({**message, "request_id": rid}).decode())
        return future

    async def call(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a request and wait for its ``ok`` or ``error``."""
        return await (await self.send(message))

    async def close(self) -> None:
        """Stop reading."""
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


async def bets_per_second(
    base: str,
    *,
    tables: int,
    players: int,
    confirms: int,
    pace: float | None = None,
    chips: bool = False,
) -> tuple[str, dict[str, float]]:
    """Confirms per second and their latency, players spread over live tables: each player
    bets again as soon as answered (the server's capacity), or when a schedule says
    (latency under an offered load below capacity): the bets of all players are the
    arrivals of one Poisson process of ``players / pace`` bets/s, dealt to the players in
    turn (each bets every ``pace`` seconds on average). The schedule is kept whatever the
    answers' latency (an open loop: a player behind it bets at once), so the offered rate
    is the rate asked for, and a latency is timed from the moment the bet was due."""
    ws_base = base.replace("http", "ws")
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        admin = {"Authorization": f"Bearer {await _token(http, 'admin', 'admin-demo')}"}
        ids = [f"bench-{n}" for n in range(tables)]
        for table_id in ids:
            body: dict[str, object] = {
                "id": table_id,
                "name": table_id,
                "rules": "online_8deck",
                "dealing": "live",
                "betting_seconds": 600,
            }
            (await http.post("/api/admin/tables", json=body, headers=admin)).raise_for_status()
        dealer = await _token(http, "dana", "dana-demo")
        tokens = await _players(http, admin, players)
    dealers: list[_Socket] = []
    async with contextlib.AsyncExitStack() as stack:
        for table_id in ids:
            ws = await stack.enter_async_context(
                websockets.connect(f"{ws_base}/ws/tables/{table_id}?token={dealer}")
            )
            await ws.recv()
            d = _Socket(ws)
            dealers.append(d)
            for message in ({"type": "start_shoe"}, {"type": "open_betting"}):
                answer = await d.call(message)
                assert answer["type"] == "ok", answer
        sockets: list[_Socket] = []
        for n, token in enumerate(tokens):
            url = f"{ws_base}/ws/tables/{ids[n % tables]}?token={token}"
            ws = await stack.enter_async_context(websockets.connect(url, max_size=2**24))
            await ws.recv()
            s = _Socket(ws)
            steps: list[dict[str, Any]] = [
                {"type": "join"},
                {"type": "watch", "tier": "low"},
                {"type": "choose_chip", "chip": 1000},
            ]
            for step in steps:
                answer = await s.call(step)
                assert answer["type"] == "ok", answer
            sockets.append(s)
        latencies: list[float] = []
        refused = 0

        schedule: list[float] = []
        if pace is not None:
            at = 0.0
            for _ in range(players * confirms):
                at += random.expovariate(players / pace)
                schedule.append(at)

        async def player(s: _Socket, n: int) -> None:
            nonlocal refused
            due = 0.0
            for k in range(confirms):
                if pace is not None:
                    due = started_all + schedule[k * players + n]
                    if (wait := due - time.perf_counter()) > 0:
                        await asyncio.sleep(wait)
                started = time.perf_counter() if pace is None else due
                if chips:  # a chip, then a confirm, pipelined (one connection is in order)
                    chip = await s.send({"type": "add_chip", "bet": "player"})
                    answer = await s.call({"type": "confirm"})
                    refused += (await chip)["type"] != "ok"
                else:  # the bet and its confirm in one message
                    answer = await s.call({"type": "confirm", "bets": {"player": 1000}})
                latencies.append(time.perf_counter() - started)
                refused += answer["type"] != "ok"

        pid = SERVERS.get(base)
        server_cpu = None if pid is None else _cpu_seconds(pid)
        own_cpu = time.process_time()
        ticks = _machine_ticks()
        started = started_all = time.perf_counter()
        await asyncio.gather(*(player(s, n) for n, s in enumerate(sockets)))
        elapsed = time.perf_counter() - started
        own_cpu = time.process_time() - own_cpu
        machine = _busy_since(ticks)
        if server_cpu is not None and pid is not None:
            server_cpu = (_cpu_seconds(pid) or server_cpu) - server_cpu
        for s in [*sockets, *dealers]:
            await s.close()
    accepted = len(latencies) - refused
    how = (
        "as fast as answered"
        if pace is None
        else f"{players / pace:,.0f} bets/s offered: one bet every {pace:g} s on average"
    ) + (", a chip then a confirm" if chips else ", bet and confirm in one message")
    per_bet = None if server_cpu is None else server_cpu / max(accepted, 1) * 1e6
    busy = (
        ""
        if server_cpu is None
        else f"; CPU busy: server {server_cpu / elapsed:.0%} ({per_bet:.0f} µs a bet), "
        f"load generator {own_cpu / elapsed:.0%}"
    )
    if machine is not None:
        busy += f", the machine {machine:.0%} of its {os.cpu_count()} cores"
    figures = {
        "bets_per_second": accepted / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": _pct(latencies, 0.99) * 1000,
    }
    if per_bet is not None:
        figures["server_cpu_us_per_bet"] = per_bet
    text = (
        f"bets accepted ({how}): {accepted / elapsed:,.0f}/s ({accepted} confirms by "
        f"{players} players at {tables} tables in {elapsed:.2f} s, {refused} refused); "
        f"confirm latency p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms{busy}"
    )
    return text, figures


# -- 2. settling a round with 10,000 bets ------------------------------------------------


class _TimedBus(LocalBus):
    """The in-process bus, noting when each ``balance`` message was handed to it."""

    def __init__(self, hub: Hub) -> None:
        super().__init__(hub)
        self.balances: list[float] = []
        self.settled: dict[str, Any] = {}
        """The settled hand's event envelope (its sizes are read after the timing)."""

    async def publish(self, envelope: Any) -> None:
        await super().publish(envelope)
        message = envelope.get("message") if isinstance(envelope, dict) else None
        if isinstance(message, dict) and message.get("type") == "balance":
            self.balances.append(time.perf_counter())
        texts = envelope.get("texts") if isinstance(envelope, dict) else None
        if texts and '"hand_settled"' in (texts.get("watcher") or ""):
            self.settled = envelope

    def settled_sizes(self) -> dict[str, int]:
        """The size of the settled hand's event (bytes) for each kind of client."""
        texts = self.settled["texts"]
        spectator = len(texts["watcher"].encode())
        own = self.settled.get("own", {}).values()
        return {
            "dealer": len(texts["dealer"].encode()),
            "spectator": spectator,
            "player": max((len(t.encode()) for t in own), default=spectator),
        }


@dataclass
class _BenchTable:
    """One table run in this process (no WebSocket): its runner, its dealer, the ledger
    and the bus that notes when each balance message went."""

    runner: TableRunner
    ledger: LedgerStore
    bus: _TimedBus
    engine: Any
    wallet: InternalWallet
    mixed: bool = True
    dealer: Actor = field(default_factory=lambda: Actor("dana", Role.DEALER, "Dana"))

    async def do(self, actor: Actor, message: dict[str, Any]) -> None:
        await self.runner.execute(actor, parse_command(message))

    async def seat_bettors(self, players: int, bets: dict[str, int]) -> float:
        """``players`` players join, watch and confirm ``bets``, 500 at a time (betting
        is open); how long that took."""
        started = time.perf_counter()

        async def bettor(n: int) -> None:
            p = Actor(f"p{n}", Role.PLAYER, f"P{n}")
            book = _purse_of(p.player) if self.mixed else None
            currency = None if book is None else book.currency
            await self.wallet.credit(
                p.player, 1_000_000, transaction_id=f"bench:{n}", currency=currency
            )
            await self.do(p, {"type": "join"})
            await self.do(p, {"type": "watch", "tier": "low"})
            await self.do(p, {"type": "confirm", "bets": bets})

        for start in range(0, players, 500):
            await asyncio.gather(*(bettor(n) for n in range(start, min(players, start + 500))))
        return time.perf_counter() - started

    async def deal(self, cards: Sequence[str]) -> None:
        for card in cards:
            await self.do(self.dealer, {"type": "deal_card", "card": card})

    async def close(self) -> None:
        """Stop the table; the books must check."""
        await self.runner.abandon()
        report = await self.ledger.check()
        await self.engine.dispose()
        assert report.ok, report.problems


def _purse_of(player: str) -> Purse | None:
    """Player ``p<n>``'s purse at the in-process table: ``CURRENCIES[n % len(CURRENCIES)]``
    (``None``, the house currency, for the first)."""
    currency = CURRENCIES[int(player.removeprefix("p")) % len(CURRENCIES)]
    if currency == CURRENCIES[0]:
        return None
    low = LimitTier(
        name="low",
        min_bet=_LOW["min_bet"],
        max_bet=_LOW["max_bet"],
        side_min=_LOW["side_min"],
        side_max=_LOW["side_max"],
    )
    return Purse(
        currency, digits=minor_units(currency), book=currency, tiers={"low": low}, chips=(1000,)
    )


async def _purse(player: str) -> Purse | None:
    return _purse_of(player)


async def _currency_of(player: str) -> str | None:
    found = _purse_of(player)
    return None if found is None else found.currency


async def _house(player: str) -> None:
    return None


@asynccontextmanager
async def _bench_table(url: str, rules: str, *, mixed: bool = True) -> AsyncIterator[_BenchTable]:
    """A live table of ``rules`` on a fresh ledger, its shoe started and betting open;
    ``mixed``: its players in ``CURRENCIES`` in turn, else all in the house currency."""
    await upgrade_async(url)
    collector.calm()  # as `punto serve` does
    engine = create_engine(url)
    ledger = LedgerStore(engine)
    store = ServerStore(engine)
    wallet = InternalWallet(ledger, currency=CURRENCIES[0])
    settings = Settings(
        database_url=url, password_cost=1024, betting_seconds=3600, currency=CURRENCIES[0]
    )
    bank = Bank(
        ledger,
        wallet,
        store,
        seamless=False,
        operator_id="default",
        currency=CURRENCIES[0],
        currency_of_player=_currency_of if mixed else _house,
    )
    services = Services(
        settings=settings,
        store=store,
        bank=bank,
        bus=(bus := _TimedBus(Hub(queue_size=10))),
        metrics=Metrics(),
        purse=_purse if mixed else _house,
    )
    config = TableConfig(id="bench", name="bench", rules=rules, dealing=Dealing.LIVE)
    await store.create_table(config)
    table = _BenchTable(TableRunner(config, services), ledger, bus, engine, wallet, mixed)
    await table.do(table.dealer, {"type": "start_shoe"})
    await table.do(table.dealer, {"type": "open_betting"})
    try:
        yield table
    finally:
        await table.close()


async def settle_10000(url: str, *, players: int) -> tuple[str, float, float, dict[str, int]]:
    """Time one hand holding ``players`` × 4 bets from its last card to the last balance
    message sent (the dealer's last card, the result, the settle); also until the
    dealer's command returned (after the balances, the table works out and sends what
    each of its players may do next)."""
    bets = (Bet.PLAYER, Bet.TIE, Bet.PLAYER_PAIR, Bet.BANKER_PAIR)
    async with _bench_table(url, "online_8deck") as t:
        setup = await t.seat_bettors(players, {bet.value: 1000 for bet in bets})
        await t.do(t.dealer, {"type": "close_betting"})
        await t.deal(("9S", "8D", "KH"))  # a Player natural 9 against 5 [M9]
        round_id = str(t.runner.table.game)
        t.bus.balances.clear()
        started = time.perf_counter()
        await t.deal(("7C",))
        if t.runner.table.phase.value != "settled":
            await t.do(t.dealer, {"type": "settle"})
        command = time.perf_counter() - started
        assert len(t.bus.balances) == players, len(t.bus.balances)  # one each, after the settle
        elapsed = t.bus.balances[-1] - started
        info = await t.ledger.round(round_id)
        assert info.status.value == "settled", info
    size = t.bus.settled_sizes()
    text = (
        f"settle a round of {players * 4:,} bets ({players:,} players): {elapsed:.3f} s from "
        "the last card to the last balance message (table, ledger, hand record, balance "
        f"messages); {command:.3f} s until the dealer's command returned (then what each "
        f"player may do next); confirming them took {setup:.1f} s\n"
        f"the settled hand's event: {size['player']:,} bytes to each player (at most), "
        f"{size['spectator']:,} to a spectator, {size['dealer']:,} to the dealer"
    )
    return text, elapsed, command, size


async def restake_after_tie(url: str, *, players: int) -> tuple[str, float]:
    """After a tie on the Macau rules, every player's Banker bet stands [M12]: the time
    the dealer's ``open_betting`` of the next hand takes, every standing bet staked again
    in the ledger and the hand announced (the table is held meanwhile: nobody bets)."""
    async with _bench_table(url, "macau", mixed=False) as t:  # [M14]: one currency
        await t.seat_bettors(players, {"banker": 1000})
        await t.do(t.dealer, {"type": "close_betting"})
        await t.deal(("4S", "4H", "3S", "3H"))  # Player 7, Banker 7: a tie [M12]
        if t.runner.table.phase.value != "settled":
            await t.do(t.dealer, {"type": "settle"})
        started = time.perf_counter()
        await t.do(t.dealer, {"type": "open_betting"})
        elapsed = time.perf_counter() - started
        round_id = str(t.runner.table.game)
        staked = await t.ledger.round_bets(round_id)
        assert len(staked) == players, len(staked)
    text = (
        f"a tie leaves {players:,} players' Banker bets standing [M12]: opening the next "
        f"hand, every one staked again, took {elapsed:.3f} s"
    )
    return text, elapsed


# -- 4. broadcast to 5,000 clients -------------------------------------------------------


class _Watcher(asyncio.Protocol):
    """A lean WebSocket watcher (RFC 6455 by hand: the upgrade, then unmasked frames read
    as they come): the time each ``card_placed`` event arrived. 5,000 clients of the
    ``websockets`` library in one Python process on the other core took longer to read an
    event than the server to send it to all of them, so the figure was the load
    generator's; this one reads a frame in a few microseconds."""

    def __init__(self, path: str, host: str, got: dict[float, list[float]]) -> None:
        self.path, self.host, self.got = path, host, got
        self.buffer = b""
        self.upgraded = False
        self.transport: asyncio.Transport | None = None
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        transport.write(
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        now = time.time()
        buffer = self.buffer + data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = buffer
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.ready.set_exception(RuntimeError(buffer[:200].decode(errors="replace")))
                return
            self.upgraded = True
            buffer = buffer[end + 4 :]
        at = 0
        while len(buffer) - at >= 2:
            size = buffer[at + 1] & 0x7F
            start = at + 2
            if size == 126:
                if len(buffer) - at < 4:
                    break
                size, start = int.from_bytes(buffer[at + 2 : at + 4], "big"), at + 4
            elif size == 127:
                if len(buffer) - at < 10:
                    break
                size, start = int.from_bytes(buffer[at + 2 : at + 10], "big"), at + 10
            if len(buffer) < start + size:
                break
            payload = buffer[start : start + size]
            opcode = buffer[at] & 0x0F
            at = start + size
            if opcode == 0x9 and self.transport is not None:  # a ping: its pong (masked)
                self.transport.write(bytes((0x8A, 0x80 | len(payload))) + bytes(4) + payload)
            elif opcode != 0x1:
                continue
            elif not self.ready.done():
                self.ready.set_result(None)  # the snapshot
            elif b'"card_placed"' in payload:
                # the event's time without decoding the whole frame
                begin = payload.index(b'"at":') + 5
                stamp = float(payload[begin : payload.index(b",", begin)])
                self.got.setdefault(stamp, []).append(now)
        self.buffer = buffer[at:]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ready.done():
            self.ready.set_exception(exc or RuntimeError("closed before the snapshot"))


async def broadcast(base: str, *, clients: int, events: int) -> tuple[str, dict[str, float]]:
    """Time from each card dealt until the last of ``clients`` watchers has it."""
    url = base.replace("http", "ws") + "/ws/tables/macau-1"
    got: dict[float, list[float]] = {}
    ready = 0
    parts = urlsplit(base)
    loop = asyncio.get_running_loop()

    async def watcher() -> None:
        nonlocal ready
        if DEFLATE[0] == "1":  # compression offered: a client that takes it
            async with websockets.connect(url, max_size=2**24, open_timeout=120) as ws:
                await ws.recv()
                ready += 1
                while True:
                    raw = await ws.recv()
                    if isinstance(raw, str) and '"card_placed"' in raw:
                        now = time.time()
                        start = raw.index('"at":') + 5
                        at = float(raw[start : raw.index(",", start)])
                        got.setdefault(at, []).append(now)
            return
        transport, protocol = await loop.create_connection(
            lambda: _Watcher("/ws/tables/macau-1", parts.netloc, got),
            parts.hostname or "127.0.0.1",
            parts.port or 80,
        )
        try:
            await asyncio.wait_for(protocol.ready, 120)
            ready += 1
            await asyncio.Event().wait()
        finally:
            transport.close()

    tasks: list[asyncio.Task[None]] = []
    for start in range(0, clients, 250):
        batch = [asyncio.create_task(watcher()) for _ in range(min(250, clients - start))]
        tasks.extend(batch)
        while ready < len(tasks):
            await asyncio.sleep(0.05)
    got.clear()
    deadline = time.monotonic() + 120
    while sum(1 for v in got.values() if len(v) == clients) < events:
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    complete = [(at, times) for at, times in got.items() if len(times) == clients]
    last = [max(times) - at for at, times in complete]
    median = [statistics.median(times) - at for at, times in complete]
    if not last:
        return f"broadcast to {clients:,} clients: no event reached every client", {}
    figures = {"p50_ms": statistics.median(last) * 1000, "max_ms": max(last) * 1000}
    text = (
        f"broadcast one table event to {clients:,} WebSocket clients: last client after "
        f"{figures['p50_ms']:.0f} ms (median of {len(last)} events; worst "
        f"{figures['max_ms']:.0f} ms), median client after "
        f"{statistics.median(median) * 1000:.0f} ms"
    )
    return text, figures


async def run(backend: str, quick: bool, repeat: int = 1) -> dict[str, object]:
    """Every measurement on one backend; prints them and returns the figures
    (``repeat``: the saturated confirms measured that many times, each on a fresh server
    and database, and their median run reported)."""
    print(f"-- {backend}")
    out: dict[str, object] = {"backend": backend, "quick": quick, "currencies": CURRENCIES}
    players, confirms = (40, 10) if quick else (200, 20)
    runs: list[dict[str, float]] = []
    for _ in range(repeat):
        async with database(backend) as url, server_process(url) as base:
            speed = calibrate()  # just before: the machine's speed moves within minutes
            text, figures = await bets_per_second(
                base, tables=4, players=players, confirms=confirms
            )
            print(f"{text} [the machine's speed: {speed:.0f} ms]")
            runs.append({**figures, "calibration_ms": speed})
    figures = sorted(runs, key=lambda f: f["bets_per_second"])[(len(runs) - 1) // 2]
    out["calibration_ms"] = round(figures["calibration_ms"])
    if repeat > 1:
        print(f"median of {repeat} runs: {figures['bets_per_second']:,.0f} bets/s")
        out["bets_per_second_runs"] = [round(f["bets_per_second"]) for f in runs]
        out["calibration_ms_runs"] = [round(f["calibration_ms"]) for f in runs]
    out["bets_per_second"] = round(figures["bets_per_second"])
    if backend == "postgresql":  # the ceiling (one table), then at four tables
        naive: dict[int, float] = {}
        for count in (1, 4):
            async with database(backend) as url:
                text, naive[count] = await naive_ceiling(url, tables=count, players=players)
            print(text)
        out["naive_bets_per_second"] = round(naive[1])
        out["naive_bets_per_second_4_tables"] = round(naive[4])
        ratio = figures["bets_per_second"] / naive[1]
        print(f"the server's median run: {ratio:.1f}× one transaction a bet at one table")
        out["bets_per_second_over_naive"] = round(ratio, 2)
    out["confirm_p50_ms"] = round(figures["p50_ms"], 1)
    out["confirm_p99_ms"] = round(figures["p99_ms"], 1)
    if "server_cpu_us_per_bet" in figures:
        out["server_cpu_us_per_bet"] = round(figures["server_cpu_us_per_bet"])
    async with database(backend) as url, server_process(url) as base:
        # a popular table: five times the players, all at one table (at most two of its
        # batches under way: the next one is checked while the last one is written)
        crowd = players * 5
        text, figures = await bets_per_second(
            base, tables=1, players=crowd, confirms=max(confirms // 2, 2)
        )
        print(text)
        out["bets_per_second_one_table"] = round(figures["bets_per_second"])
        out["confirm_p99_ms_one_table"] = round(figures["p99_ms"], 1)
    async with database(backend) as url, server_process(url) as base:
        text, figures = await bets_per_second(
            base, tables=4, players=players, confirms=confirms, chips=True
        )
        print(text)
        out["bets_per_second_chip_then_confirm"] = round(figures["bets_per_second"])
        out["confirm_p99_ms_chip_then_confirm"] = round(figures["p99_ms"], 1)
    async with database(backend) as url, server_process(url) as base:
        offered = 1000  # bets/s offered in all, below capacity: the latency then
        text, figures = await bets_per_second(
            base, tables=4, players=players, confirms=confirms // 2, pace=players / offered
        )
        print(text)
        out["confirm_p99_ms_at_1000"] = round(figures["p99_ms"], 1)
        out["confirm_p50_ms_at_1000"] = round(figures["p50_ms"], 1)
    async with database(backend) as url:
        text, seconds, command, sizes = await settle_10000(url, players=250 if quick else 2_500)
        print(text)
        size = "1000" if quick else "10000"
        out[f"settle_{size}_seconds"] = round(seconds, 3)
        out[f"settle_{size}_command_seconds"] = round(command, 3)
        for kind, length in sizes.items():
            out[f"settle_{size}_event_bytes_{kind}"] = length
    async with database(backend) as url:
        standing = 250 if quick else 2_500
        text, seconds = await restake_after_tie(url, players=standing)
        print(text)
        out[f"restake_{standing}_after_tie_seconds"] = round(seconds, 3)
    env: dict[str, str] = {"PUNTO_CARD_DELAY": "0.5", "PUNTO_BETTING_SECONDS": "3"}
    clients = 500 if quick else 5_000
    async with database(backend) as url, server_process(url, **env) as base:
        text, figures = await broadcast(base, clients=clients, events=4 if quick else 8)
        print(text)
        out[f"broadcast_{clients}_p50_ms"] = round(figures.get("p50_ms", -1.0), 1)
        out[f"broadcast_{clients}_max_ms"] = round(figures.get("max_ms", -1.0), 1)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description="table server benchmarks")
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--quick", action="store_true", help="smaller figures, faster")
    parser.add_argument(
        "--json", action="store_true", help="end with one JSON object per backend, a line each"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="measure the saturated confirms N times (fresh server and database each) and "
        "report the median run",
    )
    parser.add_argument(
        "--currencies",
        default=",".join(CURRENCIES),
        metavar="EUR,JPY,USD",
        help="the players' currencies, dealt in turn; the first is the house currency "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="the servers offer WebSocket compression (PUNTO_WS_DEFLATE=1; default off)",
    )
    args = parser.parse_args(argv)
    DEFLATE[0] = "1" if args.deflate else "0"
    CURRENCIES[:] = [code.strip().upper() for code in args.currencies.split(",") if code.strip()]
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    results: list[dict[str, object]] = []
    for backend in backends:
        if backend == "postgresql" and not _postgres_answers():
            print(f"-- postgresql: skipped, no server answers at {urlsplit(POSTGRES).netloc}")
            continue
        results.append(asyncio.run(run(backend, args.quick, max(args.repeat, 1))))
    if args.json:
        for figures in results:
            print(json.dumps(figures))


if __name__ == "__main__":
    main()
