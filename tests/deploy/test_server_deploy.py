"""The production topology of ``deploy/`` started for real: PostgreSQL, Redis, two ``punto
serve`` processes without ``--demo`` sharing them and ``PUNTO_SECRET``, and Caddy
terminating TLS in front with the repository's own ``deploy/Caddyfile``.

Where podman can build and run ``deploy/compose.yaml`` (its base images at hand), the
compose file itself is started; everywhere, the same topology runs as plain processes: the
machine's PostgreSQL (a fresh database) and Redis, the two servers, and Debian's ``caddy``
(``make integration`` installs it when missing) with the upstream addresses and ports given
through the Caddyfile's environment placeholders. Both are checked the same way, through
the proxy over HTTPS: health, the first administrator made with ``punto users add``, a
login, tables created and leased by both processes, a WebSocket to each table, and an
operator's launch URL that says ``https://`` (the proxy's ``X-Forwarded-Proto`` trusted).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shutil
import ssl
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from ledger_support import POSTGRESQL, ledger_database
from operator_support import Operator
from server_support import Process, TableClient, free_port, redis_answers

pytestmark = [pytest.mark.asyncio, pytest.mark.integration]

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
REDIS_URL = os.environ.get("PUNTO_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PASSWORD = "deploy-test-password"
TABLES = 12
"""The most tables created before both processes own one (each new table is owned by the
process that took its request, and the proxy picks a process at random among the least
busy: all of them failing to reach the second one is a chance of 2 in 4,096)."""

(_POSTGRES,) = POSTGRESQL
needs_services = [
    *_POSTGRES.marks,
    pytest.mark.skipif(not redis_answers(), reason="no Redis server answers at 127.0.0.1:6379"),
    pytest.mark.skipif(
        shutil.which("caddy") is None,
        reason="no caddy (Debian's package: apt-get install caddy; make integration installs it)",
    ),
]

Cli = Callable[[Sequence[str], str], str]
"""Runs ``punto ARGS`` on the deployment's database with standard input; its output."""


@dataclass(frozen=True)
class Deployment:
    """A started deployment, as its operator reaches it."""

    url: str
    """The proxy's HTTPS root."""
    verify: ssl.SSLContext | bool
    processes: frozenset[str]
    """The ``PUNTO_PROCESS_ID`` of each server process."""
    punto: Cli


def _client(deployment: Deployment) -> httpx.AsyncClient:
    # A new connection per request: each request is balanced anew by the proxy.
    return httpx.AsyncClient(
        base_url=deployment.url,
        verify=deployment.verify,
        timeout=20,
        limits=httpx.Limits(max_keepalive_connections=0),
    )


async def _until_healthy(url: str, verify: ssl.SSLContext | bool, *, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(verify=verify, timeout=5) as http:
        while True:
            with contextlib.suppress(httpx.TransportError):
                if (await http.get(f"{url}/healthz")).status_code == 200:
                    return
            assert time.monotonic() < deadline, f"{url}/healthz never answered 200"
            await asyncio.sleep(0.2)


async def _health_by_process(http: httpx.AsyncClient, processes: frozenset[str]) -> dict[str, Any]:
    """Each process's latest health answer, asked through the proxy until every process
    has answered."""
    seen: dict[str, Any] = {}
    deadline = time.monotonic() + 30
    while set(seen) != processes:
        assert time.monotonic() < deadline, f"only {sorted(seen)} answered through the proxy"
        answer = await http.get("/healthz")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["database"] == "postgresql"
        assert body["redis"] is True
        seen[body["process"]] = body
    return seen


async def check(deployment: Deployment) -> None:
    """What an operator does with a fresh deployment, through the proxy over HTTPS."""
    async with _client(deployment) as http:
        health = await _health_by_process(http, deployment.processes)
        assert all(h["status"] == "ok" for h in health.values())
        # no demo data: nobody can log in until the first administrator is made
        refused = await http.post("/api/auth/login", json={"username": "admin", "password": "x"})
        assert refused.status_code == 401, refused.text
        made = deployment.punto(
            ["users", "add", "boss", "--role", "admin", "--password-stdin"], PASSWORD
        )
        assert made.split() == ["boss", "admin", "made"], made
        login = await http.post("/api/auth/login", json={"username": "boss", "password": PASSWORD})
        assert login.status_code == 200, login.text
        token = login.json()["token"]
        admin = {"Authorization": f"Bearer {token}"}

        # tables opened through the proxy until both processes own one (leases on both)
        tables: list[str] = []
        while min(h["tables_owned"] for h in health.values()) == 0:
            assert len(tables) < TABLES, f"one process took every table: {health}"
            table = f"deploy-{len(tables) + 1}"
            created = await http.post(
                "/api/admin/tables",
                json={"id": table, "name": f"Deploy {len(tables) + 1}", "rules": "macau"},
                headers=admin,
            )
            assert created.status_code == 201, created.text
            tables.append(table)
            health = await _health_by_process(http, deployment.processes)
        assert sum(h["tables_owned"] for h in health.values()) == len(tables)

        # a WebSocket through the proxy to each table hears its next round open, whichever
        # process the proxy sent it to (the other's table's events come through Redis)
        root = deployment.url.replace("https://", "wss://")
        verify = deployment.verify
        context = verify if isinstance(verify, ssl.SSLContext) else _unverified()
        for table in tables[-2:]:
            async with websockets.connect(
                f"{root}/ws/tables/{table}?token={token}",
                ssl=context,
                max_size=2**24,
                max_queue=None,
            ) as ws:
                client = TableClient(ws)
                client.snapshot = await client.next_of("snapshot")
                assert "state" in client.snapshot
                assert (await client.betting_open(timeout=30)).startswith(table)

        # an operator registered on the database launches a player: the URL is https://,
        # as the proxy told the server (X-Forwarded-Proto from a trusted address)
        added = json.loads(
            deployment.punto(
                ["operators", "add", "acme", "--name", "Acme", "--currencies", "EUR", "--json"], ""
            )
        )
        acme = Operator("acme", added["secret"], http)
        launched = await acme.launch(acme.body())
        assert launched.status_code == 200, launched.text
        assert launched.json()["url"].startswith(f"{deployment.url}/app/?launch=")


def _unverified() -> ssl.SSLContext:
    """For the compose run only: the proxy's internal CA is inside its container's volume,
    and the certificate's checks are the plain-process run's (verified with that root)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


# -- the same topology as plain processes --------------------------------------------------


def _cli(database_url: str) -> Cli:
    def punto(args: Sequence[str], stdin: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "punto", *args, "--database-url", database_url],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return punto


@asynccontextmanager
async def processes(tmp_path: Path) -> AsyncIterator[Deployment]:
    """PostgreSQL, Redis, two ``punto serve`` and ``caddy run`` on deploy/Caddyfile."""
    env = {
        "PUNTO_SECRET": secrets.token_hex(32),
        "PUNTO_ENV": "production",
        "PUNTO_DEMO": "",
        "PUNTO_REDIS_URL": REDIS_URL,
        "PUNTO_REDIS_PREFIX": f"punto-deploy-{secrets.token_hex(4)}",
        "PUNTO_BETTING_SECONDS": "1.5",
        "PUNTO_CARD_DELAY": "0.02",
        "PUNTO_SQUEEZE_SECONDS": "0.5",
        "PUNTO_RESULT_SECONDS": "0.1",
        "PUNTO_PASSWORD_COST": "1024",
    }
    async with ledger_database("postgresql", tmp_path) as url:
        plain = url.replace("postgresql+asyncpg://", "postgresql://")
        servers = [
            Process(plain, name=name, env=env, log=tmp_path / f"{name}.log")
            for name in ("punto-1", "punto-2")
        ]
        proxy: subprocess.Popen[bytes] | None = None
        try:
            async with httpx.AsyncClient(timeout=5) as http:
                for server in servers:
                    await server.ready(http)
            https_port = free_port()
            data = tmp_path / "caddy"
            with (tmp_path / "caddy.log").open("w") as log:
                proxy = subprocess.Popen(
                    [
                        "caddy",
                        "run",
                        "--config",
                        str(DEPLOY / "Caddyfile"),
                        "--adapter",
                        "caddyfile",
                    ],
                    env={
                        **os.environ,
                        "HOME": str(data),
                        "XDG_DATA_HOME": str(data / "data"),
                        "XDG_CONFIG_HOME": str(data / "config"),
                        "PUNTO_DOMAIN": "localhost",
                        "PUNTO_TLS": "internal",
                        "PUNTO_HTTPS_PORT": str(https_port),
                        "PUNTO_HTTP_PORT": str(free_port()),
                        "PUNTO_PROXY_ADMIN": "off",
                        "PUNTO_UPSTREAM_1": f"127.0.0.1:{servers[0].port}",
                        "PUNTO_UPSTREAM_2": f"127.0.0.1:{servers[1].port}",
                    },
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    cwd=tmp_path,
                )
            # Caddy makes its CA and the certificate for localhost as it starts
            root = data / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
            deadline = time.monotonic() + 30
            while not root.exists():
                assert proxy.poll() is None, (tmp_path / "caddy.log").read_text()[-2000:]
                assert time.monotonic() < deadline, "caddy made no internal CA"
                await asyncio.sleep(0.1)
            url_root = f"https://localhost:{https_port}"
            verify = ssl.create_default_context(cafile=str(root))
            await _until_healthy(url_root, verify, timeout=30)
            yield Deployment(
                url=url_root,
                verify=verify,
                processes=frozenset(s.name for s in servers),
                punto=_cli(plain),
            )
        finally:
            if proxy is not None:
                proxy.terminate()
                proxy.wait(30)
            for server in servers:
                server.stop()


@pytest.mark.parametrize("_services", [pytest.param(None, marks=needs_services)])
async def test_the_deploy_topology_as_processes_serves_through_the_proxy(
    _services: None, tmp_path: Path
) -> None:
    async with processes(tmp_path) as deployment:
        await check(deployment)


# -- the compose file, where podman runs it -------------------------------------------------


def _compose() -> list[str] | None:
    """The compose command of podman (``podman compose``, else ``podman-compose``)."""
    if shutil.which("podman") is None:
        return None
    probe = subprocess.run(["podman", "compose", "version"], capture_output=True, timeout=60)
    if probe.returncode == 0:
        return ["podman", "compose"]
    return ["podman-compose"] if shutil.which("podman-compose") else None


def _images() -> list[str]:
    """The images the compose file needs from a registry (its services' and the base of
    the Containerfile)."""
    text = (DEPLOY / "compose.yaml").read_text()
    images = [
        line.split("image:", 1)[1].strip()
        for line in text.splitlines()
        if "image: docker.io/" in line
    ]
    for line in (DEPLOY / "Containerfile").read_text().splitlines():
        if line.startswith("ARG PYTHON_IMAGE="):
            images.append(line.split("=", 1)[1].strip())
    return images


def podman_problem() -> str | None:
    """Why the compose file cannot be started here (``None``: it can)."""
    if _compose() is None:
        return "no podman with compose (podman compose or podman-compose)"
    for image in _images():
        there = subprocess.run(["podman", "image", "exists", image], capture_output=True)
        if there.returncode != 0:
            pulled = subprocess.run(
                ["podman", "pull", "-q", image], capture_output=True, text=True, timeout=300
            )
            if pulled.returncode != 0:
                last = (pulled.stderr.strip().splitlines() or ["?"])[-1]
                return f"podman cannot pull {image} ({last[-160:]})"
    ran = subprocess.run(
        ["podman", "run", "--rm", _images()[0], "true"], capture_output=True, text=True, timeout=120
    )
    if ran.returncode != 0:
        return f"podman cannot run a container: {(ran.stderr.strip().splitlines() or ['?'])[-1]}"
    return None


@asynccontextmanager
async def composed(tmp_path: Path) -> AsyncIterator[Deployment]:
    """``deploy/compose.yaml`` built and started under a project of its own."""
    compose = _compose()
    assert compose is not None
    project = f"punto-test-{secrets.token_hex(3)}"
    https_port = free_port()
    env = {
        **os.environ,
        "PUNTO_SECRET": secrets.token_hex(32),
        "POSTGRES_PASSWORD": secrets.token_hex(16),
        "PUNTO_DOMAIN": "localhost",
        "PUNTO_TLS": "internal",
        "PUNTO_HTTPS_PORT": str(https_port),
        "PUNTO_HTTP_PORT": str(free_port()),
    }
    command = [*compose, "-p", project, "-f", str(DEPLOY / "compose.yaml")]

    def run(*args: str, stdin: str = "", timeout: float = 120) -> str:
        done = subprocess.run(
            [*command, *args], input=stdin, capture_output=True, text=True, env=env, timeout=timeout
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    def punto(args: Sequence[str], stdin: str) -> str:
        return run("exec", "-T", "punto-1", "punto", *args, stdin=stdin)

    try:
        run("up", "-d", "--build", timeout=900)
        url = f"https://localhost:{https_port}"
        await _until_healthy(url, _unverified(), timeout=180)
        yield Deployment(
            url=url, verify=_unverified(), processes=frozenset({"punto-1", "punto-2"}), punto=punto
        )
    finally:
        with contextlib.suppress(Exception):
            (tmp_path / "compose.log").write_text(run("logs", timeout=60))
        run("down", "--volumes", timeout=300)


@pytest.mark.slow
async def test_the_compose_file_serves_through_the_proxy(tmp_path: Path) -> None:
    problem = podman_problem()
    if problem is not None:
        pytest.skip(f"{problem}; the processes test runs the same topology without containers")
    async with composed(tmp_path) as deployment:
        await check(deployment)
