"""Scale-out: two ``punto serve`` processes on one PostgreSQL database and one Redis serve
one set of tables. Each table is owned by one process; a client of the other process plays
through it (commands forwarded, events fanned out through Redis); when the owner dies,
the other process takes its tables over and recovers their rounds."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from ledger_support import POSTGRESQL, ledger_database
from server_support import (
    Process,
    RunningServer,
    TableClient,
    http_client,
    login,
    redis_answers,
)

from punto.server.tables.configs import DEMO_TABLES

pytestmark = pytest.mark.asyncio

REDIS_URL = os.environ.get("PUNTO_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
ROOT = Path(__file__).resolve().parents[2]


(_POSTGRES,) = POSTGRESQL
needs_services = [
    *_POSTGRES.marks,
    pytest.mark.skipif(not redis_answers(), reason="no Redis server answers at 127.0.0.1:6379"),
]


@asynccontextmanager
async def two_processes(tmp_path: Path) -> AsyncIterator[tuple[str, Process, Process]]:
    """Process ``a`` (owns every table) and process ``b`` on one database and Redis."""
    env = {
        "PUNTO_REDIS_URL": REDIS_URL,
        "PUNTO_REDIS_PREFIX": f"punto-test-{secrets.token_hex(4)}",
        "PUNTO_SECRET": "scale-out-test-secret-0123456789",
        "PUNTO_DEMO": "1",
        "PUNTO_BETTING_SECONDS": "2",
        "PUNTO_CARD_DELAY": "0.02",
        "PUNTO_SQUEEZE_SECONDS": "0.5",
        "PUNTO_RESULT_SECONDS": "0.1",
        "PUNTO_PASSWORD_COST": "1024",
        "PUNTO_LEASE_SECONDS": "3",
    }
    async with ledger_database("postgresql", tmp_path) as url:
        plain = url.replace("postgresql+asyncpg://", "postgresql://")
        a = Process(plain, name="p-a", env=env, log=tmp_path / "a.log")
        procs = [a]
        try:
            async with http_client() as http:
                assert (await a.ready(http))["tables_owned"] == len(DEMO_TABLES)
                b = Process(plain, name="p-b", env=env, log=tmp_path / "b.log")
                procs.append(b)
                assert (await b.ready(http))["tables_owned"] == 0
            yield plain, a, b
        finally:
            for p in procs:
                p.stop()


def _as_server(process: Process) -> RunningServer:
    """A handle the table client accepts (only its URLs are used)."""
    server = RunningServer.__new__(RunningServer)
    server.url = process.url
    return server


@pytest.mark.slow
@pytest.mark.parametrize("_services", [pytest.param(None, marks=needs_services)])
async def test_two_processes_serve_one_table_and_fail_over(_services: None, tmp_path: Path) -> None:
    async with (
        two_processes(tmp_path) as (url, a, b),
        http_client(a.url) as http_a,
        http_client(b.url) as http_b,
    ):
        ann = await login(http_b, "ann")
        bob = await login(http_a, "bob")
        async with (
            TableClient.connect(_as_server(b), "macau-1", ann) as via_b,
            TableClient.connect(_as_server(a), "macau-1", bob) as via_a,
        ):
            await via_b.ok({"type": "join"})  # forwarded from b to a, the owner
            sat = await via_b.ok({"type": "sit", "seat": 2, "tier": "low"})
            assert sat["events"] == 1  # counted from the owner's answer
            await via_b.ok({"type": "choose_chip", "chip": 1000})
            game = await via_b.confirm_in_a_round("banker")
            seen = await via_a.next_of(  # ann's confirm reached a's client through Redis,
                "bet_totals",  # as the totals other players get (not the event itself)
                lambda m: m["game"] == game and "banker" in m["totals"],
            )
            assert seen["totals"]["banker"]["bettors"] == 1
            settled = await via_b.next_of("hand_settled", lambda m: m["event"]["game"] == game)
            assert settled["event"]["results"][0]["player"] == "ann"
            await via_b.next_of("balance", lambda m: m["reason"] == "settled")

        bot = await asyncio.create_subprocess_exec(
            sys.executable,
            str(ROOT / "examples" / "bot.py"),
            "--url",
            b.url,
            "--hands",
            "2",
            "--table",
            "nocomm-1",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(bot.communicate(), 120)
        assert bot.returncode == 0, err.decode()
        assert out.decode().strip().splitlines()[-1].isdigit()

        # a client of b watches macau-1 while its owner dies without a word
        async with TableClient.connect(_as_server(b), "macau-1", ann) as watcher:
            before = int(watcher.snapshot["seq"])
            a.stop(signal.SIGKILL)
            deadline = time.monotonic() + 30
            while (await http_b.get("/healthz")).json()["tables_owned"] < len(DEMO_TABLES):
                assert time.monotonic() < deadline, "b did not take the tables over"
                await asyncio.sleep(0.5)
            # b numbers macau-1's events from 0 again: its clients are told to resync, and
            # the events after the new snapshot reach them (none is filtered as old)
            await watcher.next_of("table_opened", timeout=30)
            await watcher.ws.send(json.dumps({"type": "resync", "request_id": "again"}))
            fresh = await watcher.next_of("snapshot", lambda m: m.get("request_id") == "again")
            assert int(fresh["seq"]) < before
            await watcher.next_of("betting_opened", timeout=60)
        lobby = (await http_b.get("/api/lobby")).json()["tables"]
        assert {t["id"] for t in lobby} >= {"macau-1", "live-1"}
        assert b.stop() == 0
        check = subprocess.run(
            [sys.executable, "-m", "punto", "ledger", "check", "--database-url", url],
            capture_output=True,
            text=True,
            check=False,
        )
        assert check.returncode == 0, check.stdout + check.stderr
