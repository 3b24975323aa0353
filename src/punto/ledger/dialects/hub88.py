"""The hub88 wallet dialect: Punto calls an operator's wallet as the Hub88 Operator API
describes it — ``POST /user/balance``, ``/transaction/bet``, ``/transaction/win`` and
``/transaction/rollback``, each body signed ``X-Hub88-Signature`` (base64 RSA-SHA256 by
Punto's private key), every answer HTTP 200 with a ``status`` (``RS_OK``,
``RS_ERROR_NOT_ENOUGH_MONEY`` …).

Amounts are integers in 1/100000 of the currency unit (``$3.56`` is ``356000``): Punto's
minor units are multiplied by ``10 ** (5 - digits)`` on the way out and divided on the way
back, and an amount that does not convert exactly is :class:`AmountUnitsError` (a balance is
rounded down to whole minor units: what can be staked). Transaction ids become UUIDs
(``transaction_uuid``: a UUID 5 of Punto's id, the same on every retry; the id itself is
``supplier_transaction_id``); a rollback is a transaction of its own whose
``reference_transaction_uuid`` is the bet's.

Reconciliation: the Hub88 API has no look-up of a transaction, so :meth:`transaction` asks
``POST /transaction/info`` — an extension the reference operator
(:mod:`punto.ledger.operator_hub88`) offers; an operator without it answers 404 and the
check covers Punto's side only (:class:`LookupUnsupportedError`).

>>> to_units(356, "USD"), to_units(1000, "JPY"), to_units(1, "KWD")
(356000, 100000000, 100)
>>> from_units(356000, "USD")
356
>>> from_units(356001, "USD")
Traceback (most recent call last):
...
punto.errors.AmountUnitsError: 356001 Hub88 units are not a whole number of USD minor units
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import httpx

from punto.currencies import minor_units
from punto.errors import (
    AmountUnitsError,
    IdempotencyConflictError,
    InsufficientFundsError,
    LedgerError,
    WalletCurrencyError,
    WalletError,
    WalletRolledBackError,
)
from punto.ledger.signing import HUB88_SIGNATURE_HEADER, rsa_signature
from punto.ledger.wallet import (
    HttpWallet,
    LookupUnsupportedError,
    OperatorTransaction,
    RetryPolicy,
    TryAgain,
    WalletReceipt,
)

__all__ = [
    "NAMESPACE",
    "SCALE_DIGITS",
    "Hub88Wallet",
    "from_units",
    "to_units",
    "transaction_uuid",
]

SCALE_DIGITS = 5
"""Hub88 amounts are integers of 10⁻⁵ of the currency unit."""

NAMESPACE = uuid.UUID("6f0d3c55-8a3e-5b4c-9d2e-70756e746f00")
"""The namespace of the UUID 5 that carries a Punto transaction id."""

RS_OK = "RS_OK"


def _scale(currency: str) -> int:
    digits = minor_units(currency)
    if digits > SCALE_DIGITS:  # pragma: no cover - no ISO 4217 currency has more than 4
        raise AmountUnitsError(f"{currency} has more minor digits than Hub88 units carry")
    return int(10 ** (SCALE_DIGITS - digits))


def to_units(amount: int, currency: str) -> int:
    """Punto minor units of ``currency`` as Hub88 units (exact)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise AmountUnitsError(f"{amount!r} is not a whole number of minor units")
    return amount * _scale(currency)


def from_units(units: int, currency: str, *, exact: bool = True) -> int:
    """Hub88 units as Punto minor units of ``currency``: :class:`AmountUnitsError` when they
    are not a whole number of them (``exact``), else rounded down."""
    if isinstance(units, bool) or not isinstance(units, int):
        raise AmountUnitsError(f"{units!r} is not an integer of Hub88 units")
    whole, rest = divmod(units, _scale(currency))
    if rest and exact:
        raise AmountUnitsError(
            f"{units} Hub88 units are not a whole number of {currency} minor units"
        )
    return whole


def transaction_uuid(transaction_id: str) -> str:
    """The ``transaction_uuid`` of Punto's transaction ``transaction_id`` (UUID 5).

    >>> transaction_uuid("c-1") == transaction_uuid("c-1") != transaction_uuid("c-2")
    True
    """
    return str(uuid.uuid5(NAMESPACE, transaction_id))


class Hub88Wallet(HttpWallet):
    """An operator's wallet spoken to in the hub88 dialect.

    ``base_url`` is the root of the operator's Hub88 wallet endpoints; ``private_key`` the
    PEM key that signs every body (``None``: unsigned, which a Hub88 operator refuses);
    ``currency`` the currency of a call that names none. ``operator_id`` strips the server's
    ``<operator>.`` prefix from the user ids of its launched players. ``token`` gives the
    ``token`` field of a player's calls (default ``punto-<player>``: a launch through
    Punto's own API has no Hub88 game session).
    """

    def __init__(
        self,
        base_url: str,
        *,
        private_key: str | None = None,
        currency: str | None = None,
        game_code: str = "punto_baccarat",
        operator_id: str | None = None,
        client: httpx.AsyncClient | None = None,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        token: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__(base_url, client=client, retry=retry, sleep=sleep, operator_id=operator_id)
        self._key = private_key
        self._currency = currency
        self._game = game_code
        self._token = token or (lambda player: f"punto-{player}")
        self._bets: dict[tuple[str, str], str] = {}
        """The first bet this process placed per (player, round): what a win references."""

    def _currency_of(self, currency: str | None) -> str:
        chosen = currency or self._currency
        if chosen is None:
            raise LedgerError("a hub88 wallet call needs its currency (none given, no default)")
        return chosen

    async def _call(self, path: str, body: Mapping[str, Any]) -> dict[str, Any]:
        content = json.dumps(body, separators=(",", ":")).encode()
        headers = {"Content-Type": "application/json"}
        if self._key is not None:
            headers[HUB88_SIGNATURE_HEADER] = rsa_signature(self._key, content)

        def read(response: httpx.Response) -> dict[str, Any]:
            if response.status_code == 404 and path == "/transaction/info":
                raise LookupUnsupportedError("the operator's wallet has no /transaction/info")
            try:
                answer = response.json()
            except ValueError:
                answer = None
            if response.status_code != 200 or not isinstance(answer, dict):
                raise WalletError(
                    f"the operator answered {path} with HTTP {response.status_code}, "
                    "not a Hub88 JSON answer"
                )
            if answer.get("status") == "RS_ERROR_UNKNOWN":
                raise TryAgain("RS_ERROR_UNKNOWN")  # the outcome is unknown: the same call
            return answer

        return await self._send("POST", path, read, content=content, headers=headers)

    def _base_body(self, player_id: str) -> dict[str, Any]:
        their = self._their(player_id)
        return {
            "user": their,
            "token": self._token(their),
            "request_uuid": str(uuid.uuid4()),
            "game_code": self._game,
        }

    def _balance_of(self, answer: Mapping[str, Any], currency: str, path: str) -> int:
        held = answer.get("currency")
        if held is not None and held != currency:
            raise WalletCurrencyError(f"the operator answered {path} in {held}, not {currency}")
        value = answer.get("balance")
        if isinstance(value, bool) or not isinstance(value, int):
            raise WalletError(f"the operator's answer to {path} has no integer balance")
        return from_units(value, currency, exact=False)

    async def balance(self, player_id: str, *, currency: str | None = None) -> int:
        """``POST /user/balance``: the player's balance in minor units."""
        chosen = self._currency_of(currency)
        answer = await self._call("/user/balance", self._base_body(player_id))
        _refusal("/user/balance", answer)
        return self._balance_of(answer, chosen, "/user/balance")

    async def _move(
        self,
        path: str,
        player_id: str,
        amount: int,
        transaction_id: str,
        round_id: str | None,
        currency: str | None,
    ) -> WalletReceipt:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise LedgerError("a wallet call's amount is a positive whole number of minor units")
        chosen = self._currency_of(currency)
        uid = transaction_uuid(transaction_id)
        body = self._base_body(player_id)
        body.update(
            {
                "transaction_uuid": uid,
                "supplier_transaction_id": transaction_id,
                "round": round_id or transaction_id,
                "round_closed": path == "/transaction/win",
                "is_free": False,
                "currency": chosen,
                "amount": to_units(amount, chosen),
            }
        )
        if path == "/transaction/bet":
            body["bet"] = "baccarat"
        else:
            reference = self._bets.get((body["user"], round_id or ""))
            if reference is None:
                reference = transaction_uuid(f"round:{round_id}") if round_id else uid
            body["reference_transaction_uuid"] = reference
        answer = await self._call(path, body)
        status = answer.get("status")
        if path == "/transaction/bet" and status == "RS_ERROR_TRANSACTION_DOES_NOT_EXIST":
            raise WalletRolledBackError(
                f"the operator refused the bet {transaction_id}: it was rolled back"
            )
        _refusal(path, answer)
        if path == "/transaction/bet" and round_id is not None:
            self._bets.setdefault((body["user"], round_id), uid)
        return WalletReceipt(transaction_id, self._balance_of(answer, chosen, path))

    async def debit(
        self,
        player_id: str,
        amount: int,
        *,
        transaction_id: str,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """``POST /transaction/bet``."""
        return await self._move(
            "/transaction/bet", player_id, amount, transaction_id, round_id, currency
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
        """``POST /transaction/win``."""
        return await self._move(
            "/transaction/win", player_id, amount, transaction_id, round_id, currency
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
        """``POST /transaction/rollback`` of the bet ``transaction_id``: its own
        ``transaction_uuid`` is of ``rollback:<id>``; a bet the operator never saw
        (``RS_ERROR_TRANSACTION_DOES_NOT_EXIST``) is ``tombstoned``."""
        chosen = self._currency_of(currency)
        body = self._base_body(player_id)
        body.update(
            {
                "transaction_uuid": transaction_uuid(f"rollback:{transaction_id}"),
                "supplier_transaction_id": f"rollback:{transaction_id}",
                "reference_transaction_uuid": transaction_uuid(transaction_id),
                "round": round_id or transaction_id,
                "round_closed": True,
            }
        )
        answer = await self._call("/transaction/rollback", body)
        status = "rolled_back"
        if answer.get("status") == "RS_ERROR_TRANSACTION_DOES_NOT_EXIST":
            status = "tombstoned"
        else:
            _refusal("/transaction/rollback", answer)
        if "balance" not in answer:
            return WalletReceipt(transaction_id, 0, status)
        return WalletReceipt(
            transaction_id, self._balance_of(answer, chosen, "/transaction/rollback"), status
        )

    async def transaction(
        self, transaction_id: str, *, player_id: str | None = None
    ) -> OperatorTransaction | None:
        """``POST /transaction/info`` (an extension of the Hub88 API): what the operator
        holds of Punto's transaction ``transaction_id``; ``None`` when it never saw it;
        :class:`LookupUnsupportedError` when the operator has no such call."""
        body: dict[str, Any] = {
            "request_uuid": str(uuid.uuid4()),
            "transaction_uuid": transaction_uuid(transaction_id),
            "supplier_transaction_id": transaction_id,
        }
        if player_id is not None:
            body["user"] = self._their(player_id)
        answer = await self._call("/transaction/info", body)
        if answer.get("status") == "RS_ERROR_TRANSACTION_DOES_NOT_EXIST":
            return None
        if answer.get("status") == "RS_ERROR_WRONG_SYNTAX":
            raise LookupUnsupportedError("the operator's wallet has no /transaction/info")
        _refusal("/transaction/info", answer)
        kind, user, currency = (answer.get(k) for k in ("kind", "user", "currency"))
        if not all(isinstance(v, str) for v in (kind, user, currency)):
            raise WalletError("the operator's /transaction/info lacks kind, user or currency")
        units = answer.get("amount", 0)
        amount = from_units(units if isinstance(units, int) else -1, str(currency))
        ours = {"bet": "debit", "win": "credit", "tombstone": "tombstone"}.get(str(kind), kind)
        state = "rolled_back" if answer.get("rolled_back") else "ok"
        if ours == "tombstone":
            state = "tombstoned"
        return OperatorTransaction(transaction_id, str(ours), str(user), amount, state)


def _refusal(path: str, answer: Mapping[str, Any]) -> None:
    """Raise the typed error of a Hub88 answer that is not ``RS_OK``."""
    status = answer.get("status")
    if status == RS_OK:
        return
    text = f"the operator refused {path}: {status}"
    if status == "RS_ERROR_NOT_ENOUGH_MONEY":
        raise InsufficientFundsError(text)
    if status == "RS_ERROR_DUPLICATE_TRANSACTION":
        raise IdempotencyConflictError(text)
    if status == "RS_ERROR_WRONG_CURRENCY":
        raise WalletCurrencyError(text)
    raise WalletError(text)
