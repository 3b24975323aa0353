"""Helpers of the browser tests: a real ``punto serve`` on a free port with a temporary
SQLite database and short timers, Debian's Chromium, and the client's own pages.

Nothing here downloads a browser: Playwright drives ``/usr/bin/chromium`` (the Debian
package, installed by the Makefile's test setup).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx

from punto.ledger.signing import signature

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "SERVER_ENV",
    "Server",
    "add_operator",
    "chromium_missing",
    "free_port",
    "minor",
    "money",
    "run_server",
    "signed_launch",
]

CHROMIUM = Path(os.environ.get("PUNTO_CHROMIUM", "/usr/bin/chromium"))
"""Debian's Chromium (package ``chromium``)."""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

SERVER_ENV = {
    "PUNTO_DEMO": "1",
    "PUNTO_BETTING_SECONDS": "6",
    "PUNTO_CARD_DELAY": "0.25",
    "PUNTO_SQUEEZE_SECONDS": "8",
    "PUNTO_RESULT_SECONDS": "1",
    "PUNTO_PASSWORD_COST": "1024",
    "PUNTO_LOG_LEVEL": "WARNING",
}
"""Short timers: an RNG hand every ~8 s."""


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or ``None`` when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[dev]')"
    if not CHROMIUM.exists():
        return f"Debian's Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)"
    return None


def money(minor: int) -> str:
    """Minor units as the client shows them (2 digits, grouped): 1234500 → ``12,345.00``."""
    sign = "−" if minor < 0 else ""
    whole, cents = divmod(abs(minor), 100)
    return f"{sign}{whole:,}.{cents:02d}"


def free_port(span: int = 1) -> int:
    """A TCP port free on 127.0.0.1 now (with ``span``, the ``span - 1`` after it too, for
    TCP and UDP)."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port: int = s.getsockname()[1]
        if port + span <= 65536 and all(_free(p) for p in range(port + 1, port + span)):
            return port


def _free(port: int) -> bool:
    for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
        with socket.socket(socket.AF_INET, kind) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                return False
    return True


class Server:
    """A running server: its base URL and a REST helper."""

    def __init__(self, base: str, process: subprocess.Popen[bytes], log: Path) -> None:
        self.base = base
        self.process = process
        self.log = log

    def url(self, path: str) -> str:
        """An absolute URL on this server."""
        return f"{self.base}{path}"

    def token(self, user: str, password: str | None = None) -> str:
        """A session token (a demo account's password by default)."""
        answer = httpx.post(
            self.url("/api/auth/login"),
            json={"username": user, "password": password or f"{user}-demo"},
        )
        answer.raise_for_status()
        token: str = answer.json()["token"]
        return token

    def headers(self, user: str, password: str | None = None) -> dict[str, str]:
        """The HTTP headers of ``user`` logged in (a demo account's password by default)."""
        return {"Authorization": f"Bearer {self.token(user, password)}"}

    def get(self, path: str, user: str | None = None, password: str | None = None) -> object:
        """``GET`` a JSON document (as ``user`` when given)."""
        headers = self.headers(user, password) if user else {}
        answer = httpx.get(self.url(path), headers=headers)
        answer.raise_for_status()
        return answer.json()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextlib.contextmanager
def run_server(**env: str) -> Iterator[Server]:
    """Start ``punto serve`` on 127.0.0.1 with a fresh SQLite database; stop it after."""
    folder = Path(tempfile.mkdtemp(prefix="punto-e2e-"))
    port = free_port()
    log = folder / "server.log"
    environment = {
        **os.environ,
        **SERVER_ENV,
        **env,
        "PUNTO_DATABASE_URL": f"sqlite:///{folder / 'punto.sqlite3'}",
    }
    command = [sys.executable, "-m", "punto", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=folder, env=environment, stdout=out, stderr=subprocess.STDOUT
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"punto serve exited:\n{log.read_text(errors='replace')}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"punto serve did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.2)
        yield Server(base, process, log)
    finally:
        _stop(process)
        shutil.rmtree(folder, ignore_errors=True)


def minor(text: str) -> int:
    """A shown amount back in minor units: ``12,345.00`` → 1234500."""
    clean = text.strip().replace(",", "").replace("−", "-").replace("+", "")
    whole, _, cents = clean.partition(".")
    sign = -1 if whole.startswith("-") else 1
    return sign * (abs(int(whole)) * 100 + int((cents or "0").ljust(2, "0")[:2]))


def add_operator(server: Server, currencies: Sequence[str] = ("EUR",)) -> tuple[str, str]:
    """A new operator (Casino Example), registered by the administrator: its id and secret."""
    operator_id = f"op{secrets.token_hex(3)}"
    answer = httpx.post(
        server.url("/api/admin/operators"),
        json={"id": operator_id, "name": "Casino Example", "currencies": list(currencies)},
        headers=server.headers("admin"),
    )
    answer.raise_for_status()
    return operator_id, str(answer.json()["secret"])


def signed_launch(server: Server, operator_id: str, secret: str, **fields: Any) -> httpx.Response:
    """An operator's launch of a new player (Mei, in EUR, now) signed with ``secret``;
    ``fields`` add to the body or replace its values."""
    body = json.dumps(
        {
            "player_id": f"u{secrets.token_hex(4)}",
            "display_name": "Mei",
            "currency": "EUR",
            "timestamp": int(time.time()),
            **fields,
        }
    ).encode()
    return httpx.post(
        server.url("/api/operator/v1/launch"),
        content=body,
        headers={
            "Content-Type": "application/json",
            "X-Punto-Operator": operator_id,
            "X-Punto-Signature": signature(secret, body),
        },
    )
