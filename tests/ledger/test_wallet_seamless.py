"""The seamless wallet against the reference operator: idempotent retries, network
failures, lost answers and a rollback that arrives before its debit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest

from punto.errors import (
    IdempotencyConflictError,
    InsufficientFundsError,
    WalletError,
    WalletRolledBackError,
    WalletUnavailableError,
)
from punto.ledger.operator_ref import ReferenceOperator, create_app
from punto.ledger.wallet import SeamlessWallet, Wallet

pytestmark = pytest.mark.asyncio


class FlakyTransport(httpx.AsyncBaseTransport):
    """The operator behind a network that fails on cue: ``refuse`` (the request never
    arrives), ``lose`` (it is processed, the answer is lost) or ``503``."""

    def __init__(self, inner: httpx.AsyncBaseTransport, faults: list[str]) -> None:
        self.inner = inner
        self.faults = faults

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        fault = self.faults.pop(0) if self.faults else None
        if fault == "refuse":
            raise httpx.ConnectError("connection refused", request=request)
        if fault == "503":
            return httpx.Response(503, json={"error": "unavailable"})
        response = await self.inner.handle_async_request(request)
        if fault == "lose":
            await response.aread()
            raise httpx.ReadTimeout("the answer was lost", request=request)
        return response


class Harness:
    def __init__(self, faults: list[str], api_key: str | None) -> None:
        self.operator = ReferenceOperator({"alice": 10_000, "bob": 0})
        self.faults = faults
        self.sleeps: list[float] = []
        app = create_app(self.operator, api_key="secret")
        transport = FlakyTransport(httpx.ASGITransport(app=app), faults)
        self.client = httpx.AsyncClient(transport=transport, base_url="http://operator")

        async def sleep(seconds: float) -> None:
            self.sleeps.append(seconds)

        self.wallet = SeamlessWallet(
            "http://operator/wallet", client=self.client, api_key=api_key, sleep=sleep
        )


@asynccontextmanager
async def harness(
    faults: list[str] | None = None, api_key: str = "secret"
) -> AsyncIterator[Harness]:
    h = Harness(faults if faults is not None else [], api_key)
    try:
        yield h
    finally:
        await h.client.aclose()


async def test_it_is_a_wallet_and_moves_money() -> None:
    async with harness() as h:
        assert isinstance(h.wallet, Wallet)
        debit = await h.wallet.debit("alice", 2_500, transaction_id="t1", round_id="r1")
        assert (debit.balance, debit.status) == (7_500, "ok")
        credit = await h.wallet.credit("alice", 5_000, transaction_id="t2", round_id="r1")
        assert credit.balance == 12_500
        assert await h.wallet.balance("alice") == 12_500


async def test_a_repeated_call_moves_money_once() -> None:
    async with harness() as h:
        await h.wallet.debit("alice", 2_500, transaction_id="t1")
        again = await h.wallet.debit("alice", 2_500, transaction_id="t1")
        assert again.replayed
        assert again.balance == 7_500
        with pytest.raises(IdempotencyConflictError):
            await h.wallet.debit("alice", 999, transaction_id="t1")
        assert h.operator.balances["alice"] == 7_500


async def test_a_network_failure_is_retried_with_backoff() -> None:
    async with harness(["refuse", "503", "refuse"]) as h:
        receipt = await h.wallet.debit("alice", 1_000, transaction_id="t1")
        assert receipt.status == "ok"
        assert receipt.balance == 9_000
        assert h.sleeps == [0.2, 0.4, 0.8]
        assert h.operator.requests == 1  # only the last attempt reached it


async def test_a_lost_answer_is_retried_without_paying_twice() -> None:
    async with harness(["lose"]) as h:
        receipt = await h.wallet.credit("bob", 4_000, transaction_id="win-1")
        assert receipt.replayed
        assert receipt.balance == 4_000
        assert h.operator.requests == 2


async def test_a_refusal_is_not_retried() -> None:
    async with harness() as h:
        with pytest.raises(InsufficientFundsError, match="cannot cover"):
            await h.wallet.debit("bob", 1, transaction_id="t1")
        with pytest.raises(WalletError, match="404"):
            await h.wallet.debit("nobody", 1, transaction_id="t2")
        assert h.operator.requests == 2
        assert h.sleeps == []


async def test_after_every_retry_fails_the_rollback_settles_it() -> None:
    # the debit never arrives; the rollback does, then the debit turns up late
    async with harness(["refuse"] * 4) as h:
        with pytest.raises(WalletUnavailableError, match="roll the transaction back"):
            await h.wallet.debit("alice", 3_000, transaction_id="t1")
        assert len(h.sleeps) == 3
        rollback = await h.wallet.rollback("t1", player_id="alice", amount=3_000)
        assert rollback.status == "tombstoned"
        with pytest.raises(WalletRolledBackError):
            await h.wallet.debit("alice", 3_000, transaction_id="t1")
        assert h.operator.balances["alice"] == 10_000


async def test_a_rollback_after_a_lost_debit_refunds_it_once() -> None:
    async with harness(["lose"] * 4) as h:
        with pytest.raises(WalletUnavailableError):
            await h.wallet.debit("alice", 3_000, transaction_id="t1")
        assert h.operator.balances["alice"] == 7_000  # taken, but we never heard
        first = await h.wallet.rollback("t1", player_id="alice", amount=3_000)
        second = await h.wallet.rollback("t1", player_id="alice", amount=3_000)
        assert (first.status, second.status) == ("rolled_back", "replayed")
        assert h.operator.balances["alice"] == 10_000
        with pytest.raises(WalletRolledBackError):
            await h.wallet.debit("alice", 3_000, transaction_id="t1")


async def test_the_operator_wants_its_api_key() -> None:
    async with harness(api_key="wrong") as h:
        with pytest.raises(WalletError, match="401"):
            await h.wallet.balance("alice")


@pytest.mark.parametrize("signing", [None, "wrong-secret"])
async def test_an_operator_that_asks_for_signatures_refuses_an_unsigned_or_badly_signed_call(
    signing: str | None,
) -> None:
    operator = ReferenceOperator({"alice": 10_000})
    app = create_app(operator, secret="operator-secret")
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://operator"
    ) as client:
        wallet = SeamlessWallet("http://operator/wallet", client=client, secret=signing)
        for call in (
            wallet.balance("alice"),
            wallet.debit("alice", 100, transaction_id="t1", round_id="r1"),
            wallet.credit("alice", 100, transaction_id="t2"),
            wallet.rollback("t1", player_id="alice", amount=100),
        ):
            with pytest.raises(WalletError, match="401"):
                await call
        assert operator.balances["alice"] == 10_000  # nothing moved
        signed = SeamlessWallet("http://operator/wallet", client=client, secret="operator-secret")
        assert await signed.balance("alice") == 10_000
        assert (
            await signed.debit("alice", 100, transaction_id="t1", round_id="r1")
        ).balance == 9_900
        assert (await signed.rollback("t1", player_id="alice", amount=100)).status == "rolled_back"
        assert await signed.transaction("t1") is not None


async def test_a_launched_players_wallet_calls_name_them_by_the_operators_own_id() -> None:
    operator = ReferenceOperator({"u-7": 5_000})
    app = create_app(operator)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://operator"
    ) as client:
        wallet = SeamlessWallet("http://operator/wallet", client=client, operator_id="acme")
        assert await wallet.balance("acme.u-7") == 5_000
        assert (await wallet.debit("acme.u-7", 500, transaction_id="t1")).balance == 4_500
        assert (await wallet.rollback("t1", player_id="acme.u-7", amount=500)).balance == 5_000
        assert operator.balances == {"u-7": 5_000}
