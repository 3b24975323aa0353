"""Logins under a flood: does password hashing stall other clients, and can a stranger
tell known usernames from unknown ones by the time a wrong password takes?

Starts ``punto serve`` with demo data (SQLite, the default scrypt cost 2**14, login limits raised
so that every attempt is really hashed), then, while a WebSocket client pings its table
every 20 ms, sends wrong-password logins from 10 concurrent clients. Prints the ping's
median and 99th percentile during the flood and when idle; then, one login at a time, the
answer time of a wrong password for a known and for an unknown username.

Run: ``python benchmarks/bench_login.py [--logins 300]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _pinger(url: str, stop: asyncio.Event, out: list[float]) -> None:
    async with websockets.connect(url) as ws:
        await ws.recv()  # the snapshot
        n = 0
        while not stop.is_set():
            n += 1
            started = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "request_id": f"p{n}"}))
            while json.loads(await ws.recv()).get("request_id") != f"p{n}":
                pass
            out.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.02)


async def _pings(url: str, seconds: float) -> list[float]:
    out: list[float] = []
    stop = asyncio.Event()
    task = asyncio.create_task(_pinger(url, stop, out))
    await asyncio.sleep(seconds)
    stop.set()
    await task
    return out


async def _oracle(base: str, tries: int) -> dict[str, list[float]]:
    """One wrong login at a time, alternating a known and an unknown username."""
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for n in range(2 * tries):
            kind = "known" if n % 2 else "unknown"
            user = "bob" if kind == "known" else f"stranger{n}"
            started = time.perf_counter()
            answer = await http.post(
                "/api/auth/login", json={"username": user, "password": "wrong-password"}
            )
            assert answer.status_code == 401, answer.text
            times[kind].append((time.perf_counter() - started) * 1000)
    return times


async def _flood(base: str, logins: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(logins):
        queue.put_nowait(n)

    async def worker(http: httpx.AsyncClient) -> None:
        while not queue.empty():
            n = queue.get_nowait()
            kind = "known" if n % 2 else "unknown"
            user = "ann" if kind == "known" else f"nobody{n}"
            started = time.perf_counter()
            answer = await http.post(
                "/api/auth/login", json={"username": user, "password": "wrong-password"}
            )
            assert answer.status_code == 401, answer.text
            times[kind].append((time.perf_counter() - started) * 1000)

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        await asyncio.gather(*(worker(http) for _ in range(10)))
    return times


def _figures(name: str, values: list[float]) -> str:
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    return f"{name}: median {statistics.median(values):.1f} ms, p99 {p99:.1f} ms (n={len(values)})"


async def _measure(base: str, logins: int) -> None:
    ws = base.replace("http://", "ws://") + "/ws/tables/macau-1"
    idle = await _pings(ws, 2.0)
    out: list[float] = []
    stop = asyncio.Event()
    pinger = asyncio.create_task(_pinger(ws, stop, out))
    await _flood(base, logins)
    stop.set()
    await pinger
    times = await _oracle(base, 30)
    print(_figures("ping, idle", idle))
    print(_figures("ping, during the login flood", out))
    print(_figures("wrong password, known username (one at a time)", times["known"]))
    print(_figures("wrong password, unknown username (one at a time)", times["unknown"]))


def main() -> int:
    """Run the measurement against a fresh ``punto serve`` with demo data."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logins", type=int, default=300)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="punto-bench-login-"))
    port = _port()
    env = {
        **os.environ,
        "PUNTO_DATABASE_URL": f"sqlite:///{folder / 'punto.sqlite3'}",
        "PUNTO_LOG_LEVEL": "WARNING",
        "PUNTO_DEMO": "1",
        "PUNTO_LOGIN_ATTEMPTS": "1000000",
        "PUNTO_LOGIN_ADDRESS_ATTEMPTS": "1000000",
    }
    command = [sys.executable, "-m", "punto", "serve", "--port", str(port)]
    with (folder / "server.log").open("wb") as log:
        proc = subprocess.Popen(command, env=env, cwd=folder, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        asyncio.run(_measure(base, args.logins))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
