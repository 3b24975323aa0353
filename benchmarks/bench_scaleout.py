"""Scale-out: two ``punto serve`` processes on PostgreSQL and Redis hold 10,000 WebSocket
clients at one table between them (or one process holds them all), and every client gets
every event.

The benchmark starts two real ``punto serve`` processes on a fresh PostgreSQL database of
its own (dropped afterwards) and one Redis under a key prefix of its own; process *a* owns
the tables, process *b* gets the table's events through Redis. Client processes
(``--workers``, each raising its open-file limit) connect ``--clients`` anonymous watchers to
the RNG table ``macau-1``, half to each server, while a few players (``--bettors``) bet
on every hand. Then, for ``--events`` table events, each client's events are counted
against those a monitor saw, and for each event the time from the event (its ``at``)
until the last client has it.

It prints: clients connected (and how long that took), events delivered and missed,
clients that missed anything or were dropped, the time to the last client (median over
events, and the worst), and each server's resident memory before and after the clients
connected: megabytes per 1,000 connections. ``--json`` prints only one JSON object (the
running account goes to stderr), with at least ``clients``, ``missed_events``,
``mb_per_1000_connections`` (the servers' resident memory grown over the connections they
hold), ``last_client_p50_ms`` and ``last_client_max_ms``. ``--servers 1``: one process
holds every client (no Redis fan-out between processes).

Run: ``python benchmarks/bench_scaleout.py [--clients 10000] [--workers 4] [--events 60]
[--servers 2] [--json]`` (``--quick``: 1,000 clients). It needs PostgreSQL at
``$PUNTO_TEST_POSTGRES_URL``
(default ``postgresql://postgres@127.0.0.1:5432/test``) and Redis at
``$PUNTO_TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``), and open files: each
server holds one per client (plus ~50), each client process one per client it opens; the
kernel's ``fs.file-max``, ``fs.nr_open`` and the local port range are printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import websockets

from bench_server import database  # a fresh PostgreSQL database of the run, dropped after

POSTGRES = os.environ.get("PUNTO_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("PUNTO_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
TABLE = "macau-1"


# -- limits ------------------------------------------------------------------------------


def raise_fd_limit() -> tuple[int, int]:
    """Raise this process's open-file limit to its hard limit; the new (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip().replace("\t", "-")
    except OSError:
        return "?"


def limits_report(clients: int, workers: int, servers: int = 2) -> tuple[str, bool]:
    """What the run needs of the open-file limits and the kernel, and whether it has it."""
    soft, hard = raise_fd_limit()
    per_server = clients // servers + 100
    per_worker = -(-clients // workers) + 50
    low, high = (int(x) for x in _read("/proc/sys/net/ipv4/ip_local_port_range").split("-"))
    ok = hard >= max(per_server, per_worker) and high - low >= clients // servers
    lines = (
        f"open files: soft {soft}, hard {hard} (ulimit -n; each server needs ~{per_server:,}, "
        f"each client process ~{per_worker:,}); fs.file-max {_read('/proc/sys/fs/file-max')}, "
        f"fs.nr_open {_read('/proc/sys/fs/nr_open')}, net.core.somaxconn "
        f"{_read('/proc/sys/net/core/somaxconn')}, local ports {low}-{high} "
        f"({high - low + 1:,} per server address; {clients // servers:,} needed)"
    )
    return lines, ok


# -- the services --------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or default_port), 2
        ):
            return True
    except OSError:
        return False


class Server:
    """One ``punto serve`` process."""

    def __init__(self, name: str, env: dict[str, str], folder: Path) -> None:
        self.name = name
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws/tables/{TABLE}"
        self.log = folder / f"{name}.log"
        self._out = self.log.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "punto", "serve", "--port", str(self.port)],
            env={**os.environ, **env, "PUNTO_PROCESS_ID": name},
            stdout=self._out,
            stderr=subprocess.STDOUT,
            cwd=folder,
        )

    async def ready(self, http: httpx.AsyncClient) -> dict[str, Any]:
        """Wait for ``/healthz``."""
        for _ in range(600):
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.TransportError):
                answer = await http.get(f"{self.base}/healthz")
                if answer.status_code == 200:
                    return dict(answer.json())
            await asyncio.sleep(0.2)
        raise TimeoutError(f"{self.name} did not start")

    def rss_mb(self) -> float:
        """Resident memory (MB)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        """SIGTERM (the server drains its tables), then wait."""
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(90)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._out.close()


# -- a client process ------------------------------------------------------------------------


class Watchers:
    """The clients of one client process: each counts the events it gets, by ``seq``."""

    def __init__(self) -> None:
        self.seqs: list[set[int]] = []
        self.last: dict[int, float] = {}
        """For each event, when the last of this process's clients got it (epoch s)."""
        self.at: dict[int, float] = {}
        self.ready = 0
        self.failed = 0
        self.closed = 0
        self.codes: dict[str, int] = {}

    async def watch(self, url: str, index: int, opened: asyncio.Event) -> None:
        """One anonymous watcher, reading until cancelled."""
        seen = self.seqs[index]
        try:
            async with websockets.connect(
                url, max_size=2**24, open_timeout=300, ping_interval=None, close_timeout=5
            ) as ws:
                await ws.recv()  # the snapshot
                self.ready += 1
                opened.set()
                async for raw in ws:
                    now = time.time()
                    message = orjson.loads(raw)
                    if message.get("type") != "event":
                        continue
                    seq = int(message["seq"])
                    seen.add(seq)
                    self.last[seq] = now  # clients read in turn: the latest is the last
                    if seq not in self.at:
                        at = message["event"].get("at")
                        if isinstance(at, (int, float)):
                            self.at[seq] = float(at)
                self.closed += 1
                code = str(ws.close_code)
                self.codes[code] = self.codes.get(code, 0) + 1
        except asyncio.CancelledError:
            raise
        except websockets.ConnectionClosed as exc:
            self.closed += 1
            code = str(exc.rcvd.code if exc.rcvd is not None else None)
            self.codes[code] = self.codes.get(code, 0) + 1
        except Exception as exc:  # a connection refused or timed out
            self.failed += 1
            name = type(exc).__name__
            if isinstance(exc, websockets.InvalidStatus):
                name = f"HTTP {exc.response.status_code}"
            self.codes[name] = self.codes.get(name, 0) + 1
        finally:
            opened.set()


async def worker(urls: Sequence[str], count: int, batch: int) -> None:
    """A client process: ``count`` watchers spread over ``urls``; answers the parent's
    commands on stdin with one JSON line each on stdout."""
    raise_fd_limit()
    w = Watchers()
    w.seqs = [set() for _ in range(count)]
    tasks: list[asyncio.Task[None]] = []
    started = time.monotonic()
    for first in range(0, count, batch):
        events = []
        for n in range(first, min(count, first + batch)):
            opened = asyncio.Event()
            events.append(opened)
            tasks.append(asyncio.create_task(w.watch(urls[n % len(urls)], n, opened)))
        await asyncio.gather(*(e.wait() for e in events))
    _say({"ready": w.ready, "failed": w.failed, "seconds": time.monotonic() - started})
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        command = json.loads(line)
        if command["op"] == "has":  # how many clients have event ``seq``
            seq = int(command["seq"])
            _say({"has": sum(1 for s in w.seqs if seq in s)})
        elif command["op"] == "report":
            expected = set(command["seqs"])
            missing = [len(expected - s) for s in w.seqs]
            _say(
                {
                    "clients": count,
                    "connected": w.ready,
                    "failed": w.failed,
                    "closed": w.closed,
                    "codes": w.codes,
                    "missing": missing,
                    "last": {str(q): w.last[q] for q in expected if q in w.last},
                    "at": {str(q): w.at[q] for q in expected if q in w.at},
                }
            )
        elif command["op"] == "stop":
            break
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class Worker:
    """The parent's handle on a client process."""

    def __init__(self, urls: Sequence[str], count: int, batch: int) -> None:
        self.count = count
        self.proc = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--worker",
                "--count",
                str(count),
                "--batch",
                str(batch),
                *(f"--url={u}" for u in urls),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    async def line(self) -> dict[str, Any]:
        """The next answer."""
        assert self.proc.stdout is not None
        raw = await asyncio.to_thread(self.proc.stdout.readline)
        if not raw:
            raise RuntimeError("a client process exited")
        return dict(json.loads(raw))

    async def ask(self, command: dict[str, Any]) -> dict[str, Any]:
        """Send a command and read its answer."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        return await self.line()

    def stop(self) -> None:
        """Tell it to close its connections and exit."""
        if self.proc.poll() is None and self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.write(json.dumps({"op": "stop"}) + "\n")
                self.proc.stdin.flush()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# -- the table's events ---------------------------------------------------------------------


class Monitor:
    """An anonymous watcher of the parent: the events every watcher should get."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seqs: list[int] = []
        self.changed = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        async with websockets.connect(self.url, max_size=2**24, ping_interval=None) as ws:
            async for raw in ws:
                message = orjson.loads(raw)
                if message.get("type") == "event":
                    self.seqs.append(int(message["seq"]))
                    self.changed.set()

    async def next_events(self, count: int, *, timeout: float) -> list[int]:
        """The next ``count`` events' numbers."""
        first = len(self.seqs)
        deadline = time.monotonic() + timeout
        while len(self.seqs) < first + count:
            if self._task.done():
                self._task.result()
                raise RuntimeError("the monitor's connection closed")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), max(0.1, deadline - time.monotonic()))
            if time.monotonic() > deadline:
                raise TimeoutError(f"only {len(self.seqs) - first} events in {timeout:g} s")
        return self.seqs[first : first + count]

    async def close(self) -> None:
        """Stop watching."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task


async def _bettor(ws_url: str, token: str, stop: asyncio.Event) -> int:
    """A player who bets on every hand; the bets confirmed."""
    confirmed = 0
    n = 0
    async with websockets.connect(f"{ws_url}?token={token}", max_size=2**24) as ws:
        pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        opened = asyncio.Event()

        async def read() -> None:
            async for raw in ws:
                message = orjson.loads(raw)
                rid = message.get("request_id")
                if rid in pending:
                    pending.pop(rid).set_result(message)
                elif message.get("type") == "event" and (
                    message["event"].get("kind") == "betting_opened"
                ):
                    opened.set()

        async def call(body: dict[str, Any]) -> dict[str, Any]:
            nonlocal n
            n += 1
            rid = f"r{n}"
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            pending[rid] = future
            await ws.send(json.dumps({**body, "request_id": rid}))
            return await asyncio.wait_for(future, 60)

        reader = asyncio.create_task(read())
        try:
            for step in ({"type": "join"}, {"type": "watch", "tier": "low"}):
                await call(step)
            await call({"type": "choose_chip", "chip": 1000})
            while not stop.is_set():
                opened.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(opened.wait(), 1.0)
                if not opened.is_set():
                    continue
                await call({"type": "add_chip", "bet": "banker" if n % 2 else "player"})
                answer = await call({"type": "confirm"})
                confirmed += answer.get("type") == "ok"
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
    return confirmed


# -- the run --------------------------------------------------------------------------------


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Measure; prints as it goes and returns the figures."""
    clients, per_worker_batch = args.clients, args.batch
    env = {
        "PUNTO_REDIS_URL": REDIS,
        "PUNTO_REDIS_PREFIX": f"punto-bench-{secrets.token_hex(4)}",
        "PUNTO_SECRET": "scale-out-bench-secret-0123456789abcdef",
        "PUNTO_DEMO": "1",
        "PUNTO_PASSWORD_COST": "1024",
        "PUNTO_LOG_LEVEL": "WARNING",
        "PUNTO_BETTING_SECONDS": str(args.betting_seconds),
        "PUNTO_CARD_DELAY": str(args.card_delay),
        "PUNTO_SQUEEZE_SECONDS": "1",
        "PUNTO_RESULT_SECONDS": "1",
        # A burst of thousands of handshakes keeps a process busy for seconds on a loaded
        # machine; a lease shorter than that moves the table to the other process mid-run.
        "PUNTO_LEASE_SECONDS": str(args.lease_seconds),
    }
    out: dict[str, Any] = {"clients": clients, "servers": args.servers, "workers": args.workers}
    async with database("postgresql") as url, contextlib.AsyncExitStack() as stack:
        folder = Path(args.logs or stack.enter_context(tempfile.TemporaryDirectory()))
        folder.mkdir(parents=True, exist_ok=True)
        env["PUNTO_DATABASE_URL"] = url
        http = await stack.enter_async_context(httpx.AsyncClient(timeout=60))
        a = Server("bench-a", env, folder)
        stack.callback(a.stop)
        owned = (await a.ready(http))["tables_owned"]
        servers = [a]
        if args.servers == 2:
            b = Server("bench-b", env, folder)
            stack.callback(b.stop)
            await b.ready(http)
            servers.append(b)
            print(f"servers: a on :{a.port} owns {owned} tables, b on :{b.port} (Redis fan-out)")
        else:
            print(f"server: a on :{a.port} owns {owned} tables")

        stop_bets = asyncio.Event()
        tokens = []
        for n in range(args.bettors):
            answer = await http.post(
                f"{servers[n % len(servers)].base}/api/auth/register",
                json={"username": f"bettor{n}-{secrets.token_hex(3)}", "password": "pw-123456"},
            )
            answer.raise_for_status()
            tokens.append(str(answer.json()["token"]))
        bettors = [
            asyncio.create_task(_bettor(servers[n % len(servers)].ws, t, stop_bets))
            for n, t in enumerate(tokens)
        ]
        monitor = Monitor(a.ws)
        stack.push_async_callback(monitor.close)
        await monitor.next_events(5, timeout=120)  # the table is dealing; code paths warm
        before = {s.name: s.rss_mb() for s in servers}

        started = time.monotonic()
        share = [
            clients // args.workers + (i < clients % args.workers) for i in range(args.workers)
        ]
        workers = [Worker([s.ws for s in servers], n, per_worker_batch) for n in share]
        for w in workers:
            stack.callback(w.stop)
        hellos = [await w.line() for w in workers]
        connect_seconds = time.monotonic() - started
        connected = sum(int(h["ready"]) for h in hellos)
        refused = sum(int(h["failed"]) for h in hellos)
        await asyncio.sleep(2)  # what the connections left behind settles (buffers, GC)
        after = {s.name: s.rss_mb() for s in servers}
        print(
            f"clients connected: {connected:,} of {clients:,} ({refused} failed) from "
            f"{args.workers} client processes in {connect_seconds:.1f} s"
        )
        for server in servers:
            print(
                f"{server.name}: RSS {before[server.name]:.1f} MB before, "
                f"{after[server.name]:.1f} MB with its clients"
            )

        try:
            seqs = await monitor.next_events(args.events, timeout=args.events * 10 + 120)
        except TimeoutError as exc:  # count what came
            print(f"the table fell short of {args.events} events: {exc}")
            seqs = monitor.seqs[-args.events :]
        deadline = time.monotonic() + args.drain
        while time.monotonic() < deadline:  # the slowest clients get the last event
            has = sum([int((await w.ask({"op": "has", "seq": seqs[-1]}))["has"]) for w in workers])
            if has >= connected:
                break
            await asyncio.sleep(0.5)
        reports = [await w.ask({"op": "report", "seqs": seqs}) for w in workers]
        peak = {s.name: s.rss_mb() for s in servers}
        stop_bets.set()
        outcomes = await asyncio.gather(*bettors, return_exceptions=True)
        bets = sum(n for n in outcomes if isinstance(n, int))
        if any(isinstance(n, BaseException) for n in outcomes):  # a slow answer, say
            print(f"{sum(isinstance(n, BaseException) for n in outcomes)} bettors gave up")
        for w in workers:
            w.stop()

    missing = [m for r in reports for m in r["missing"]]
    delivered = sum(len(seqs) - m for m in missing)
    codes: dict[str, int] = {}
    for r in reports:
        for code, n in r["codes"].items():
            codes[code] = codes.get(code, 0) + n
    lag: list[float] = []
    for q in map(str, seqs):
        lasts = [r["last"][q] for r in reports if q in r["last"]]
        ats = [r["at"][q] for r in reports if q in r["at"]]
        if lasts and ats:
            lag.append((max(lasts) - ats[0]) * 1000)
    per_server = clients / len(before) / 1000
    mb = {name: (after[name] - before[name]) / per_server for name in before}
    grown = sum(after[name] - before[name] for name in before)
    out.update(
        connected=connected,
        connect_seconds=round(connect_seconds, 1),
        events=len(seqs),
        bets_confirmed=bets,
        delivered=delivered,
        missed=sum(missing),
        missed_events=sum(missing),
        clients_missing_any=sum(1 for m in missing if m),
        closed_early=codes,
        last_client_p50_ms=round(statistics.median(lag), 1) if lag else None,
        last_client_max_ms=round(max(lag), 1) if lag else None,
        rss_before_mb={k: round(v, 1) for k, v in before.items()},
        rss_connected_mb={k: round(v, 1) for k, v in after.items()},
        rss_after_events_mb={k: round(v, 1) for k, v in peak.items()},
        mb_per_1000_connections=round(grown / max(connected, 1) * 1000, 2),
        mb_per_1000_by_server={k: round(v, 2) for k, v in mb.items()},
    )
    print(
        f"events: {len(seqs)} (with {bets} bets confirmed by {args.bettors} players); "
        f"delivered {delivered:,} of {len(seqs) * clients:,}, missed {sum(missing):,} "
        f"({out['clients_missing_any']} clients missed any; connections closed: {codes or 0})"
    )
    if lag:
        print(
            f"time to the last of {connected:,} clients: median {statistics.median(lag):.0f} ms "
            f"over {len(lag)} events, worst {max(lag):.0f} ms"
        )
    for name in before:
        print(
            f"{name}: RSS {before[name]:.1f} MB before, {after[name]:.1f} MB with "
            f"{clients // len(before):,} clients, {peak[name]:.1f} MB after the events: "
            f"{mb[name]:.2f} MB per 1,000 connections"
        )
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Measure and print (or, with ``--worker``, be a client process)."""
    parser = argparse.ArgumentParser(description="two servers, 10,000 clients, one table")
    parser.add_argument("--clients", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=4, help="client processes")
    parser.add_argument(
        "--servers", type=int, choices=(1, 2), default=2, help="punto serve processes"
    )
    parser.add_argument("--events", type=int, default=60, help="table events to count")
    parser.add_argument("--bettors", type=int, default=20, help="players betting each hand")
    parser.add_argument("--batch", type=int, default=250, help="connections opened at once")
    parser.add_argument("--drain", type=float, default=30.0, help="seconds for the last event")
    parser.add_argument("--betting-seconds", type=float, default=3.0)
    parser.add_argument("--card-delay", type=float, default=0.5)
    parser.add_argument("--lease-seconds", type=float, default=30.0)
    parser.add_argument("--logs", help="keep the servers' logs in this folder")
    parser.add_argument("--quick", action="store_true", help="1,000 clients, 30 events")
    parser.add_argument(
        "--json", action="store_true", help="print only the figures, as one JSON object"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--url", action="append", default=[], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        asyncio.run(worker(args.url, args.count, args.batch))
        return
    if args.quick:
        args.clients, args.events = 1_000, 30
    out = sys.stdout
    # with --json the running account goes to stderr: stdout holds the one JSON object
    with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
        figures = _measure(args)
    if args.json:
        out.write(json.dumps(figures) + "\n")


def _measure(args: argparse.Namespace) -> dict[str, Any]:
    """The figures of a run, or why it was skipped (``skipped``)."""
    report, ok = limits_report(args.clients, args.workers, args.servers)
    print(report)
    if not ok:
        print("skipped: not enough open files or local ports for this many clients (see above)")
        return {"clients": args.clients, "skipped": "open files or local ports"}
    for name, where, port in (("PostgreSQL", POSTGRES, 5432), ("Redis", REDIS, 6379)):
        if not _answers(where, port):
            print(f"skipped: no {name} answers at {urlsplit(where).netloc}")
            return {"clients": args.clients, "skipped": f"no {name}"}
    return asyncio.run(run(args))


if __name__ == "__main__":
    main()
