"""Operator wallets: where a player's money lives between rounds.

Two modes share one protocol, :class:`Wallet` — ``debit``, ``credit`` and ``rollback``,
each keyed by a transaction id chosen by the caller, so a retry of the same call never
moves money twice:

- :class:`InternalWallet` (transfer mode): the balance lives in Punto's ledger; the
  operator moves money in (``credit``) and out (``debit``) of the player's wallet, and
  the player's bets are staked from it.
- :class:`SeamlessWallet`: the balance lives at the operator; Punto calls the operator's
  HTTP endpoints (``docs/ledger.md`` has the contract) with idempotency keys and bounded
  retries with backoff on network errors and 5xx answers.

In both, a rollback that arrives before its debit is recorded, and the late debit is
refused with :class:`~punto.errors.WalletRolledBackError`: after a debit whose outcome is
unknown, the caller rolls it back and can be sure no money stays taken.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable
from urllib.parse import quote, urlsplit

import httpx

from punto.errors import (
    IdempotencyConflictError,
    InsufficientFundsError,
    LedgerError,
    WalletCurrencyError,
    WalletError,
    WalletRolledBackError,
    WalletUnavailableError,
)
from punto.ledger import model
from punto.ledger.model import Account, Transaction, TransactionKind
from punto.ledger.signing import SIGNATURE_HEADER, signature
from punto.ledger.store import LedgerStore

__all__ = [
    "HttpWallet",
    "InternalWallet",
    "LookupUnsupportedError",
    "OperatorTransaction",
    "Reconciles",
    "RetryPolicy",
    "SeamlessWallet",
    "TryAgain",
    "Wallet",
    "WalletReceipt",
]


@dataclass(frozen=True, slots=True)
class WalletReceipt:
    """A wallet's answer: the player's balance after the call (minor units), and whether
    the call had been done before (``replayed``: nothing moved this time).

    ``status`` is ``ok``, ``replayed``, ``rolled_back`` or ``tombstoned`` (a rollback
    recorded before its debit arrived)."""

    transaction_id: str
    balance: int
    status: str = "ok"

    @property
    def replayed(self) -> bool:
        """The call had been made before with this transaction id."""
        return self.status == "replayed"


@dataclass(frozen=True, slots=True)
class OperatorTransaction:
    """A call as the operator recorded it: ``kind`` ``debit``, ``credit`` or ``tombstone``
    (a rollback that came first); ``status`` ``ok``, ``rolled_back`` or ``tombstoned``."""

    transaction_id: str
    kind: str
    player_id: str
    amount: int
    status: str


@runtime_checkable
class Wallet(Protocol):
    """Where a player's money is: debit, credit and rollback keyed by transaction id.

    ``currency`` names the ISO 4217 currency of the amount (minor units of it); omitted,
    it is the player's own (the wallet's default). Each dialect of an operator's wallet
    (:mod:`punto.ledger.dialects`) is one of these."""

    async def balance(self, player_id: str, *, currency: str | None = None) -> int:
        """The player's balance in minor units."""
        ...

    async def debit(
        self,
        player_id: str,
        amount: int,
        *,
        transaction_id: str,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """Take ``amount`` from the player (idempotent by ``transaction_id``)."""
        ...

    async def credit(
        self,
        player_id: str,
        amount: int,
        *,
        transaction_id: str,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """Give ``amount`` to the player (idempotent by ``transaction_id``)."""
        ...

    async def rollback(
        self,
        transaction_id: str,
        *,
        player_id: str,
        amount: int,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """Undo the debit ``transaction_id``; before it arrives, refuse it for good."""
        ...


@runtime_checkable
class Reconciles(Protocol):
    """A wallet that can tell what it holds of a call (``punto ledger check --operator``)."""

    async def transaction(
        self, transaction_id: str, *, player_id: str | None = None
    ) -> OperatorTransaction | None:
        """What the operator holds of the call ``transaction_id``; ``None``: never saw it."""
        ...


class InternalWallet:
    """The transfer wallet: balances are the ledger's player accounts; the counterpart
    of every transfer is the operator's settlement account.

    A debit is a ``WITHDRAWAL`` keyed ``wallet:<transaction_id>``, a credit a
    ``DEPOSIT``; a rollback posts the reversal of the debit, or, when the debit has not
    arrived yet, an empty ``ROLLBACK`` under the debit's own key (a tombstone).
    """

    def __init__(
        self, store: LedgerStore, *, operator_id: str = "default", currency: str = "EUR"
    ) -> None:
        self._store = store
        self._operator_id = operator_id
        self._currency = currency
        """The house currency: its balances are the unqualified accounts; each other
        currency is a book of its own (``player:<id>/<code>``)."""

    def _book(self, currency: str | None) -> str:
        return "" if currency is None or currency == self._currency else currency

    async def balance(self, player_id: str, *, currency: str | None = None) -> int:
        """The player's wallet balance in ``currency``."""
        return await self._store.balance(Account.player(player_id, self._book(currency)))

    async def _transfer(
        self,
        kind: TransactionKind,
        player_id: str,
        amount: int,
        transaction_id: str,
        currency: str | None,
    ) -> WalletReceipt:
        book = self._book(currency)
        wanted = model.transfer(
            kind,
            player_id,
            amount,
            transaction_id=transaction_id,
            operator_id=self._operator_id,
            currency=book,
        )
        try:
            posted = await self._store.post(wanted)
        except IdempotencyConflictError:
            existing = await self._store.transaction(key=wanted.idempotency_key)
            if existing is not None and existing.kind is TransactionKind.ROLLBACK:
                raise WalletRolledBackError(
                    f"transaction {transaction_id} was rolled back before it arrived"
                ) from None
            raise
        if posted.replayed and await self._rolled_back(posted.transaction):
            raise WalletRolledBackError(f"transaction {transaction_id} was rolled back")
        status = "replayed" if posted.replayed else "ok"
        balance = await self.balance(player_id, currency=currency)
        return WalletReceipt(transaction_id, balance, status)

    async def _rolled_back(self, transaction: Transaction) -> bool:
        key = f"rollback:{transaction.idempotency_key}"
        return await self._store.transaction(key=key) is not None

    async def debit(
        self,
        player_id: str,
        amount: int,
        *,
        transaction_id: str,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """Take ``amount`` out of the player's wallet to the operator (a transfer out);
        :class:`InsufficientFundsError` if the wallet is short."""
        return await self._transfer(
            TransactionKind.WITHDRAWAL, player_id, amount, transaction_id, currency
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
        """Put ``amount`` into the player's wallet from the operator (a transfer in)."""
        return await self._transfer(
            TransactionKind.DEPOSIT, player_id, amount, transaction_id, currency
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
        """Undo the debit ``transaction_id`` (idempotent); tombstone it if not seen yet."""
        balance = functools.partial(self.balance, player_id, currency=currency)
        key = f"wallet:{transaction_id}"
        for _ in range(2):
            existing = await self._store.transaction(key=key)
            if existing is None:
                try:
                    await self._store.post(model.tombstone(key, player_id=player_id))
                except IdempotencyConflictError:
                    continue  # the debit arrived meanwhile: roll it back
                return WalletReceipt(transaction_id, await balance(), "tombstoned")
            if existing.kind is TransactionKind.ROLLBACK:
                return WalletReceipt(transaction_id, await balance(), "replayed")
            if existing.kind is not TransactionKind.WITHDRAWAL or existing.player_id != player_id:
                raise WalletError(f"transaction {transaction_id} is not a debit of {player_id}")
            posted = await self._store.post(model.reversal(existing, reason="wallet_rollback"))
            status = "replayed" if posted.replayed else "rolled_back"
            return WalletReceipt(transaction_id, await balance(), status)
        raise LedgerError(f"rollback of {transaction_id} kept racing its debit")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Bounded retries: ``attempts`` in all, waiting ``base_delay × 2ⁿ`` seconds (at most
    ``max_delay``) after the n-th failure. Only network errors, 429 and 5xx are retried;
    the same idempotency key is sent every time."""

    attempts: int = 4
    base_delay: float = 0.2
    max_delay: float = 2.0
    timeout: float = 5.0

    def delay(self, failures: int) -> float:
        """Seconds to wait after ``failures`` failed attempts.

        >>> [RetryPolicy().delay(n) for n in (1, 2, 3, 5)]
        [0.2, 0.4, 0.8, 2.0]
        """
        return float(min(self.max_delay, self.base_delay * 2 ** (failures - 1)))


class LookupUnsupportedError(WalletError):
    """The operator's wallet has no look-up of a transaction: reconciliation can check only
    Punto's side of the calls."""

    kind: ClassVar[str] = "wallet_lookup_unsupported"


class _UnknownTransactionError(WalletError):
    """The operator never saw this transaction (reconciliation)."""

    kind: ClassVar[str] = "unknown_transaction"


_RETRY_STATUS = frozenset({429, 500, 502, 503, 504})

_A = TypeVar("_A")


class TryAgain(Exception):  # noqa: N818 (a signal to the retry loop, not an error)
    """Raised by an answer's reader: the outcome is unknown, the same call again."""


class HttpWallet:
    """What every wallet on an operator's HTTP API shares, whatever its dialect: the
    client (its own, or one passed in: tests pass one on ``httpx.ASGITransport``), the
    retries of a call whose outcome is unknown, and the operator's own ids of its
    launched players (``operator_id``: their user ids here start with ``<operator>.``)."""

    def __init__(
        self,
        base_url: str,
        *,
        client: httpx.AsyncClient | None = None,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        operator_id: str | None = None,
    ) -> None:
        self._base = base_url.rstrip("/")
        self._retry = retry or RetryPolicy()
        self._prefix = f"{operator_id}." if operator_id else None
        self._own_client = client is None
        self._client = client or httpx.AsyncClient(timeout=self._retry.timeout)
        self._sleep = sleep

    async def aclose(self) -> None:
        """Close the HTTP client if the wallet made it."""
        if self._own_client:
            await self._client.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _their(self, player_id: str) -> str:
        """The operator's own id of the player ``player_id``."""
        if self._prefix is not None and player_id.startswith(self._prefix):
            return player_id[len(self._prefix) :]
        return player_id

    async def _send(
        self,
        method: str,
        path: str,
        read: Callable[[httpx.Response], _A],
        *,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> _A:
        """``method path`` at the operator, tried as the retry policy says while no
        answer comes, the operator is busy or failing (429, 5xx), or ``read`` raises
        :class:`TryAgain`; then :class:`WalletUnavailableError` (the outcome is unknown)."""
        url = f"{self._base}{path}"
        problem = ""
        for attempt in range(1, self._retry.attempts + 1):
            if attempt > 1:
                await self._sleep(self._retry.delay(attempt - 1))
            try:
                response = await self._client.request(method, url, content=content, headers=headers)
            except httpx.TransportError as exc:
                problem = f"{type(exc).__name__}: {exc}"
                continue
            if response.status_code in _RETRY_STATUS:
                problem = f"HTTP {response.status_code}"
                continue
            try:
                return read(response)
            except TryAgain as again:
                problem = str(again)
        raise WalletUnavailableError(
            f"the operator did not answer {method} {path} after {self._retry.attempts} "
            f"attempts ({problem}); the outcome is unknown: roll the transaction back"
        )


class SeamlessWallet(HttpWallet):
    """The seamless wallet: the operator keeps the balances and Punto calls its HTTP API.

    ``base_url`` is the operator's wallet root (``https://operator.example/wallet``).
    Pass ``client`` to reuse an ``httpx.AsyncClient`` (tests pass one on
    ``httpx.ASGITransport``); ``sleep`` waits between retries.
    """

    def __init__(
        self,
        base_url: str,
        *,
        client: httpx.AsyncClient | None = None,
        retry: RetryPolicy | None = None,
        api_key: str | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        operator_id: str | None = None,
        secret: str | None = None,
    ) -> None:
        super().__init__(base_url, client=client, retry=retry, sleep=sleep, operator_id=operator_id)
        self._secret = secret
        """Signs every call (``X-Punto-Signature``) when the operator gave one."""
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

    async def _call(
        self, method: str, path: str, *, key: str | None, body: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        headers = dict(self._headers)
        if key is not None:
            headers["Idempotency-Key"] = key
        content = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        if content is not None:
            headers["Content-Type"] = "application/json"
        if self._secret is not None:
            signed = content if content is not None else urlsplit(self._base + path).path.encode()
            headers[SIGNATURE_HEADER] = signature(self._secret, signed)
        return await self._send(
            method, path, functools.partial(_answer, path), content=content, headers=headers
        )

    async def balance(self, player_id: str, *, currency: str | None = None) -> int:
        """The player's balance at the operator (``?currency=`` when given)."""
        their = quote(self._their(player_id), safe="")
        query = f"?currency={quote(currency, safe='')}" if currency else ""
        answer = await self._call("GET", f"/balance/{their}{query}", key=None)
        return _int(answer, "balance")

    def _body(
        self,
        transaction_id: str,
        player_id: str,
        amount: int,
        round_id: str | None,
        currency: str | None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "transaction_id": transaction_id,
            "player_id": self._their(player_id),
            "amount": amount,
        }
        if round_id is not None:
            body["round_id"] = round_id
        if currency is not None:
            body["currency"] = currency
        return body

    async def _move(
        self,
        action: str,
        player_id: str,
        amount: int,
        transaction_id: str,
        round_id: str | None,
        currency: str | None,
    ) -> WalletReceipt:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise LedgerError(f"a {action} must be a positive whole number of minor units")
        body = self._body(transaction_id, player_id, amount, round_id, currency)
        answer = await self._call("POST", f"/{action}", key=transaction_id, body=body)
        return _receipt(transaction_id, answer)

    async def debit(
        self,
        player_id: str,
        amount: int,
        *,
        transaction_id: str,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """``POST /debit``; :class:`InsufficientFundsError` on 402,
        :class:`WalletRolledBackError` when the id was rolled back,
        :class:`WalletCurrencyError` for a currency not the player's,
        :class:`WalletUnavailableError` when no answer came."""
        return await self._move("debit", player_id, amount, transaction_id, round_id, currency)

    async def credit(
        self,
        player_id: str,
        amount: int,
        *,
        transaction_id: str,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """``POST /credit``."""
        return await self._move("credit", player_id, amount, transaction_id, round_id, currency)

    async def rollback(
        self,
        transaction_id: str,
        *,
        player_id: str,
        amount: int,
        round_id: str | None = None,
        currency: str | None = None,
    ) -> WalletReceipt:
        """``POST /rollback`` of the debit ``transaction_id`` (key ``rollback:<id>``)."""
        body = self._body(transaction_id, player_id, amount, round_id, currency)
        answer = await self._call("POST", "/rollback", key=f"rollback:{transaction_id}", body=body)
        return _receipt(transaction_id, answer)

    async def transaction(
        self, transaction_id: str, *, player_id: str | None = None
    ) -> OperatorTransaction | None:
        """``GET /transactions/{id}``: what the operator holds of a call (reconciliation);
        ``None`` when it never saw it."""
        try:
            answer = await self._call(
                "GET", f"/transactions/{quote(transaction_id, safe='')}", key=None
            )
        except _UnknownTransactionError:
            return None
        kind, player, status = (answer.get(k) for k in ("kind", "player_id", "status"))
        if not all(isinstance(v, str) for v in (kind, player, status)):
            raise WalletError("the operator's transaction answer lacks kind, player_id or status")
        return OperatorTransaction(
            transaction_id, str(kind), str(player), _int(answer, "amount"), str(status)
        )


def _answer(path: str, response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise WalletError(
            f"the operator answered {path} with HTTP {response.status_code}, not JSON"
        )
    if response.status_code == 200:
        return body
    error, message = str(body.get("error", "")), str(body.get("message", ""))
    if response.status_code == 402 or error == "insufficient_funds":
        raise InsufficientFundsError(f"the operator refused {path}: {message or error}")
    if error == "rolled_back":
        raise WalletRolledBackError(f"the operator refused {path}: {message or error}")
    if error == "unknown_transaction":
        raise _UnknownTransactionError(f"the operator has no {path}")
    if error == "wrong_currency":
        raise WalletCurrencyError(f"the operator refused {path}: {message or error}")
    if error == "idempotency_conflict":
        raise IdempotencyConflictError(f"the operator refused {path}: {message or error}")
    raise WalletError(
        f"the operator refused {path} with HTTP {response.status_code}: {message or error}"
    )


def _int(answer: Mapping[str, Any], name: str) -> int:
    value = answer.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise WalletError(f"the operator's answer has no integer {name!r}")
    return value


def _receipt(transaction_id: str, answer: Mapping[str, Any]) -> WalletReceipt:
    return WalletReceipt(transaction_id, _int(answer, "balance"), str(answer.get("status", "ok")))
