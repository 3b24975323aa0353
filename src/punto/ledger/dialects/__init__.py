"""Wallet dialects: the contracts an operator's seamless wallet may speak, each an adapter
behind the one :class:`~punto.ledger.wallet.Wallet` protocol.

- ``punto`` (:mod:`.punto`): Punto's own contract, HMAC-signed with the operator's secret.
- ``hub88`` (:mod:`.hub88`): the Hub88 Operator wallet API, RSA-signed with Punto's key.

:func:`wallet_for` builds the adapter of a dialect.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import httpx

from punto.errors import ProtocolError
from punto.ledger.dialects.hub88 import Hub88Wallet
from punto.ledger.wallet import RetryPolicy, SeamlessWallet

__all__ = ["DIALECTS", "DialectWallet", "wallet_for"]

DIALECTS = ("punto", "hub88")
"""The dialects, by name (an operator's ``dialect``)."""

DialectWallet = SeamlessWallet | Hub88Wallet
"""An adapter of a dialect: a :class:`~punto.ledger.wallet.Wallet` with ``transaction``
(reconciliation) and ``aclose``."""


def wallet_for(
    dialect: str,
    url: str,
    *,
    secret: str | None = None,
    key: str | None = None,
    api_key: str | None = None,
    operator_id: str | None = None,
    currency: str | None = None,
    client: httpx.AsyncClient | None = None,
    retry: RetryPolicy | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> DialectWallet:
    """The wallet at ``url`` speaking ``dialect``: ``punto`` signs with ``secret`` (HMAC),
    ``hub88`` with ``key`` (a PEM RSA private key) and sends ``currency`` when a call names
    none. ``operator_id`` strips the server's ``<operator>.`` prefix from its players' ids."""
    if dialect == "punto":
        return SeamlessWallet(
            url,
            client=client,
            retry=retry,
            api_key=api_key,
            sleep=sleep,
            operator_id=operator_id,
            secret=secret,
        )
    if dialect == "hub88":
        return Hub88Wallet(
            url,
            private_key=key,
            currency=currency,
            operator_id=operator_id,
            client=client,
            retry=retry,
            sleep=sleep,
        )
    raise ProtocolError(f"the wallet dialect is one of {', '.join(DIALECTS)}, not {dialect!r}")
