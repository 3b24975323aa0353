"""Per-operator wallet routing (seamless mode): a wallet call for an operator's launched
player (user id ``<operator>.<player>``) goes to that operator's registered wallet — its
``wallet_url`` and dialect from the operators' table, signed with its keys (the punto
dialect with its secret, the hub88 dialect with its wallet key) — and every other call to
the server's own wallet (``PUNTO_WALLET_URL``). The outbox and reconciliation go through it,
so each call is retried at, and checked with, the operator that owes or holds it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from punto.errors import WalletError
from punto.ledger.dialects import DialectWallet, wallet_for
from punto.ledger.wallet import (
    LookupUnsupportedError,
    OperatorTransaction,
    Reconciles,
    RetryPolicy,
    Wallet,
    WalletReceipt,
)
from punto.server.store.operators import OperatorStore

__all__ = ["REFRESH", "RoutingWallet"]

REFRESH = 10.0
"""How long (seconds) an operator's wallet and a player's currency are kept before they are
read again: a wallet URL changed or a key rotated reaches every process within this."""


@dataclass(frozen=True, slots=True)
class _Route:
    read_at: float
    wallet: Wallet
    prefix: str | None
    """``<operator>.`` for an operator's own wallet (it knows its players without it)."""
    currency: str | None
    """The player's currency of its latest launch, for a call that names none."""


class RoutingWallet:
    """A :class:`~punto.ledger.wallet.Wallet` that sends each call to its player's
    operator's wallet, or to ``default`` (``None``: a call for a player of no operator
    with a wallet is refused with :class:`WalletError`)."""

    def __init__(
        self,
        default: Wallet | None,
        operators: OperatorStore,
        *,
        retry: RetryPolicy | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.default = default
        self._operators = operators
        self._retry = retry
        self._monotonic = monotonic
        self._routes: dict[str, _Route] = {}
        self._wallets: dict[tuple[str, str, str, str | None, str | None], DialectWallet] = {}
        """The adapters made, by operator, URL, dialect and keys (a change makes a new one)."""

    async def aclose(self) -> None:
        """Close the operators' adapters (not ``default``: its maker closes it)."""
        for wallet in self._wallets.values():
            await wallet.aclose()
        self._wallets.clear()

    def forget(self) -> None:
        """Read the operators' wallets again at the next call."""
        self._routes.clear()

    async def route(self, player_id: str) -> _Route:
        """Where ``player_id``'s calls go."""
        now = self._monotonic()
        known = self._routes.get(player_id)
        if known is not None and now - known.read_at < REFRESH:
            return known
        route = await self._read(player_id, now)
        self._routes[player_id] = route
        return route

    async def _read(self, player_id: str, now: float) -> _Route:
        operator_id, dot, _ = player_id.partition(".")
        operator = await self._operators.get(operator_id) if dot else None
        player = await self._operators.player(player_id) if operator is not None else None
        currency = player.currency if player is not None else None
        if operator is None or operator.wallet_url is None:
            if self.default is None:
                raise WalletError(f"no wallet for {player_id!r}: no operator wallet, none of ours")
            return _Route(now, self.default, None, currency)
        secret = await self._operators.secret(operator.id)
        key = await self._operators.wallet_key(operator.id)
        made = (operator.id, operator.wallet_url, operator.dialect, secret, key)
        wallet = self._wallets.get(made)
        if wallet is None:
            for old in [k for k in self._wallets if k[0] == operator.id]:
                await self._wallets.pop(old).aclose()
            wallet = wallet_for(
                operator.dialect,
                operator.wallet_url,
                secret=secret,
                key=key,
                operator_id=operator.id,
                currency=operator.currencies[0],
                retry=self._retry,
            )
            self._wallets[made] = wallet
        return _Route(now, wallet, f"{operator.id}.", currency)

    async def balance(self, player_id: str, *, currency: str | None = None) -> int:
        """The player's balance at its wallet."""
        route = await self.route(player_id)
        return await route.wallet.balance(player_id, currency=currency or route.currency)

    async def debit(
        self,
        player_id: str,
        amount: int,
        *,
        transaction_id: str,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """A debit at the player's wallet."""
        route = await self.route(player_id)
        return await route.wallet.debit(
            player_id,
            amount,
            transaction_id=transaction_id,
            round_id=round_id,
            currency=currency or route.currency,
        )

    async def credit(
        self,
        player_id: str,
        amount: int,
        *,
        transaction_id: str,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """A credit at the player's wallet."""
        route = await self.route(player_id)
        return await route.wallet.credit(
            player_id,
            amount,
            transaction_id=transaction_id,
            round_id=round_id,
            currency=currency or route.currency,
        )

    async def rollback(
        self,
        transaction_id: str,
        *,
        player_id: str,
        amount: int,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """A rollback at the player's wallet."""
        route = await self.route(player_id)
        return await route.wallet.rollback(
            transaction_id,
            player_id=player_id,
            amount=amount,
            round_id=round_id,
            currency=currency or route.currency,
        )

    async def transaction(
        self, transaction_id: str, *, player_id: str | None = None
    ) -> OperatorTransaction | None:
        """What the player's wallet holds of the call (its player named by the server's
        user id); :class:`LookupUnsupportedError` for a wallet with no look-up."""
        route = (
            await self.route(player_id)
            if player_id is not None
            else _Route(0.0, self.default, None, None)
            if self.default is not None
            else None
        )
        if route is None or not isinstance(route.wallet, Reconciles):
            raise LookupUnsupportedError("this wallet has no look-up of a transaction")
        held = await route.wallet.transaction(transaction_id, player_id=player_id)
        if (
            held is not None
            and route.prefix is not None
            and not held.player_id.startswith(route.prefix)
        ):
            held = replace(held, player_id=f"{route.prefix}{held.player_id}")
        return held
