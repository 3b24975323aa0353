"""What the wallet-dialect tests share: each dialect's reference operator and a wallet
signed for it, and an ASGI app served on a real loopback port in a thread of its own."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import httpx
import uvicorn
from server_support import free_port
from starlette.types import ASGIApp

from punto.ledger import operator_hub88, operator_ref
from punto.ledger.dialects import DialectWallet, wallet_for
from punto.ledger.signing import new_rsa_key, public_key_of
from punto.ledger.wallet import RetryPolicy

__all__ = ["DIALECTS", "SECRET", "Reference", "key", "reference", "serving", "wallet_of"]

DIALECTS = ("punto", "hub88")
SECRET = "pso_test-secret"
"""What signs the punto dialect's calls in these tests."""

Reference = operator_ref.ReferenceOperator | operator_hub88.Hub88Operator
"""A reference operator: ``balances`` (minor units), ``fail`` and ``heal`` in both."""


@cache
def key() -> str:
    """Punto's private key for the hub88 dialect's calls (one per test run: making one
    takes a while)."""
    return new_rsa_key()


def reference(
    dialect: str, balances: Mapping[str, int], *, signed: bool = True, currency: str = "EUR"
) -> tuple[Any, ASGIApp, str]:
    """The dialect's reference operator holding ``balances``, its app (checking
    signatures when ``signed``) and the path of its wallet root."""
    if dialect == "punto":
        punto = operator_ref.ReferenceOperator(balances, currency=currency)
        app = operator_ref.create_app(punto, secret=SECRET if signed else None)
        return punto, app, "/wallet"
    hub88 = operator_hub88.Hub88Operator(balances, currency=currency)
    hub_app = operator_hub88.create_app(hub88, public_key=public_key_of(key()) if signed else None)
    return hub88, hub_app, ""


def wallet_of(
    dialect: str,
    url: str,
    *,
    client: httpx.AsyncClient | None = None,
    retry: RetryPolicy | None = None,
    currency: str = "EUR",
) -> DialectWallet:
    """A wallet of ``dialect`` at ``url`` signed as :func:`reference` checks."""
    return wallet_for(
        dialect,
        url,
        secret=SECRET if dialect == "punto" else None,
        key=key() if dialect == "hub88" else None,
        currency=currency,
        client=client,
        retry=retry,
    )


def call_of(dialect: str, request: httpx.Request) -> tuple[str, str]:
    """A wallet call as the punto dialect names it (``debit``, ``credit``, ``rollback``,
    ``balance``) and its player, in either dialect (for stand-ins that fail calls)."""
    import json

    tail = request.url.path.rsplit("/", 1)[-1]
    body = json.loads(request.content or b"{}")
    if dialect == "hub88":
        return operator_hub88.ACTIONS.get(tail, tail), str(body.get("user", ""))
    return tail, str(body.get("player_id", ""))


@contextlib.contextmanager
def serving(app: ASGIApp) -> Iterator[str]:
    """``app`` on a loopback port, in a thread of its own; yields ``http://127.0.0.1:PORT``."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the operator did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
