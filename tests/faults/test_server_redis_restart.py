"""Redis restarted in the middle of a hand: the server subscribes again, the table waits
for the bus rather than lose its events, the hand is settled once and the table goes on by
itself. The test runs its own ``redis-server`` (never the shared one)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import TableClient, free_port, server_on

pytestmark = pytest.mark.asyncio

REDIS_SERVER = shutil.which("redis-server")


def _start(port: int, folder: Path) -> subprocess.Popen[bytes]:
    assert REDIS_SERVER is not None
    proc = subprocess.Popen(
        [
            REDIS_SERVER,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                return proc
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("redis-server did not start") from None
            time.sleep(0.05)


@contextlib.contextmanager
def _redis(folder: Path) -> Iterator[tuple[int, list[subprocess.Popen[bytes]]]]:
    port = free_port()
    procs = [_start(port, folder)]
    try:
        yield port, procs
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(10)


@pytest.mark.slow
@pytest.mark.skipif(REDIS_SERVER is None, reason="no redis-server binary to run a private Redis")
async def test_redis_restarted_mid_hand_loses_no_money_and_the_table_goes_on(
    tmp_path: Path,
) -> None:
    with _redis(tmp_path) as (port, procs):
        async with server_on(
            "sqlite",
            tmp_path / "db",
            redis_url=f"redis://127.0.0.1:{port}/0",
            redis_prefix=f"t{secrets.token_hex(4)}",
            betting_seconds=2.0,
        ) as server:
            token = await server.token("cleo")
            async with TableClient.connect(server, "macau-1", token) as client:
                await client.take_seat(2, chip=1000)
                game = await client.confirm_in_a_round("player")
                procs[0].terminate()  # Redis goes away mid-hand …
                procs[0].wait(10)
                await asyncio.sleep(0.5)
                procs.append(_start(port, tmp_path))  # … and comes back
                settled = await client.next_of(
                    "hand_settled", lambda m: m["event"]["game"] == game, timeout=60
                )
                assert settled["event"]["results"][0]["player"] == "cleo"
                await client.next_of("balance", lambda m: m["reason"] == "settled", timeout=30)
                nxt = await client.next_of(  # the table goes on by itself
                    "betting_opened", lambda m: m["event"]["game"] != game, timeout=60
                )
                assert nxt["event"]["game"] != game
            ledger = server.node.bank.ledger
            assert (await ledger.round(game)).status.value == "settled"
            settles = [
                t for t in await ledger.transactions(round_id=game) if t.kind.value == "settle"
            ]
            assert len(settles) == 1
            report = await ledger.check()
            assert report.ok, report.problems
