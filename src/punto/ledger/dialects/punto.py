"""The punto wallet dialect: Punto's own seamless contract (``docs/ledger.md``), JSON over
HTTP, signed ``X-Punto-Signature`` (HMAC-SHA256 with the operator's secret) when it has
one. The adapter is :class:`punto.ledger.wallet.SeamlessWallet`."""

from __future__ import annotations

from punto.ledger.wallet import SeamlessWallet

__all__ = ["PuntoWallet"]

PuntoWallet = SeamlessWallet
"""The punto dialect's adapter."""
