"""What the operator tests share: an operator's server signing its calls, and a production
server (``punto serve`` with ``PUNTO_SECRET``, no demo data) in a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from ledger_support import ledger_database
from server_support import Process, http_client
from sqlalchemy import func, select

from punto.ledger.signing import signature
from punto.ledger.store import create_engine
from punto.server.store.schema import UserRow

__all__ = ["Operator", "launch_token", "operators_cli", "production", "users_count"]


def operators_cli(url: str, *args: str) -> dict[str, Any]:
    """``punto operators … --json`` on the server's database."""
    done = subprocess.run(
        [sys.executable, "-m", "punto", "operators", *args, "--json", "--database-url", url],
        capture_output=True,
        text=True,
        check=True,
    )
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@dataclass
class Operator:
    """An operator's server, as it calls ours."""

    id: str
    secret: str
    http: httpx.AsyncClient

    def body(self, **changes: object) -> bytes:
        fields: dict[str, object] = {
            "player_id": "p-1",
            "display_name": "Ann",
            "currency": "EUR",
            "language": "en",
            "timestamp": int(time.time()),
        }
        fields.update(changes)
        return json.dumps({k: v for k, v in fields.items() if v is not None}).encode()

    async def launch(
        self, body: bytes, *, sign: str | None = None, operator: str | None = None
    ) -> httpx.Response:
        headers = {
            "Content-Type": "application/json",
            "X-Punto-Operator": operator or self.id,
            "X-Punto-Signature": sign if sign is not None else signature(self.secret, body),
        }
        return await self.http.post("/api/operator/v1/launch", content=body, headers=headers)


@asynccontextmanager
async def production(
    backend: str, tmp_path: Path
) -> AsyncIterator[tuple[str, Process, httpx.AsyncClient]]:
    async with ledger_database(backend, tmp_path) as url:
        server = Process(
            url,
            name="prod",
            env={
                "PUNTO_SECRET": "s" * 40,
                "PUNTO_DEMO": "",
                "PUNTO_ENV": "production",
                "PUNTO_CARD_DELAY": "0.02",
                "PUNTO_SQUEEZE_SECONDS": "0.5",
                "PUNTO_RESULT_SECONDS": "0.1",
                "PUNTO_PASSWORD_COST": "1024",
            },
            log=tmp_path / "server.log",
        )
        http = http_client(server.url)
        try:
            await server.ready(http)
            yield url, server, http
        finally:
            server.stop()
            await http.aclose()


async def users_count(url: str) -> int:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(UserRow))).scalar_one())
    finally:
        await engine.dispose()


def launch_token(launch_url: str) -> str:
    return launch_url.split("launch=")[1].split("#")[0]


async def launched_session(http: httpx.AsyncClient, operator: Operator, **fields: object) -> str:
    """The session token of a player ``operator`` launches (``fields``: the launch's body)."""
    answer = await operator.launch(operator.body(**fields))
    assert answer.status_code == 200, answer.text
    redeemed = await http.post(
        "/api/auth/launch", json={"launch": launch_token(answer.json()["url"])}
    )
    assert redeemed.status_code == 200, redeemed.text
    return str(redeemed.json()["token"])


@dataclass
class RemoteServer:
    """A server in another process, as a :class:`TableClient` reaches it."""

    url: str

    @property
    def ws_url(self) -> str:
        """The WebSocket root."""
        return self.url.replace("http://", "ws://")
