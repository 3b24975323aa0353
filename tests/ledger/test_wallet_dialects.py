"""Both wallet dialects against their reference operators (over ASGI): the contract's
moves, replays, tombstones and refusals, the hub88 dialect's exact units and RSA
signatures, and each reference operator refusing an unsigned call."""

from __future__ import annotations

import json

import httpx
import pytest
from dialect_support import DIALECTS, key, reference, wallet_of

from punto.errors import (
    AmountUnitsError,
    IdempotencyConflictError,
    InsufficientFundsError,
    LedgerError,
    WalletCurrencyError,
    WalletError,
    WalletRolledBackError,
)
from punto.ledger.dialects import wallet_for
from punto.ledger.dialects.hub88 import Hub88Wallet, from_units, to_units, transaction_uuid
from punto.ledger.signing import new_rsa_key, public_key_of, rsa_signature, rsa_verify
from punto.ledger.wallet import RetryPolicy, Wallet

_ONE = RetryPolicy(attempts=1)


def _pair(dialect: str, **balances: int) -> tuple[object, Wallet, httpx.AsyncClient]:
    operator, app, root = reference(dialect, balances)
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app))
    return operator, wallet_of(dialect, f"http://operator{root}", client=client, retry=_ONE), client


@pytest.mark.asyncio
@pytest.mark.parametrize("dialect", DIALECTS)
async def test_the_contract_in_each_dialect(dialect: str) -> None:
    operator, wallet, client = _pair(dialect, ann=10_000)
    balances = operator.balances  # type: ignore[attr-defined]
    async with client:
        assert await wallet.balance("ann", currency="EUR") == 10_000
        bet = await wallet.debit("ann", 1_250, transaction_id="c-1", round_id="r-1")
        assert (bet.balance, balances["ann"]) == (8_750, 8_750)
        await wallet.debit("ann", 1_250, transaction_id="c-1", round_id="r-1")  # a replay
        assert balances["ann"] == 8_750
        with pytest.raises(IdempotencyConflictError):
            await wallet.debit("ann", 999, transaction_id="c-1", round_id="r-1")
        await wallet.credit("ann", 2_500, transaction_id="s-1", round_id="r-1", currency="EUR")
        await wallet.credit("ann", 2_500, transaction_id="s-1", round_id="r-1", currency="EUR")
        assert balances["ann"] == 11_250
        # a rollback of a bet it has refunds it once; the bet again is refused
        await wallet.rollback("c-1", player_id="ann", amount=1_250)
        await wallet.rollback("c-1", player_id="ann", amount=1_250)
        assert balances["ann"] == 12_500
        with pytest.raises(WalletRolledBackError):
            await wallet.debit("ann", 1_250, transaction_id="c-1", round_id="r-1")
        # a rollback first tombstones the bet: it is refused when it arrives
        told = await wallet.rollback("c-2", player_id="ann", amount=500)
        assert told.status == "tombstoned"
        with pytest.raises(WalletRolledBackError):
            await wallet.debit("ann", 500, transaction_id="c-2")
        with pytest.raises(InsufficientFundsError):
            await wallet.debit("ann", 12_501, transaction_id="c-3")
        with pytest.raises(WalletCurrencyError):
            await wallet.debit("ann", 100, transaction_id="c-4", currency="USD")
        assert balances["ann"] == 12_500
        held = await wallet.transaction("s-1", player_id="ann")  # type: ignore[attr-defined]
        wanted = ("credit", "ann", 2_500, "ok")
        assert (held.kind, held.player_id, held.amount, held.status) == wanted
        gone = await wallet.transaction("c-2", player_id="ann")  # type: ignore[attr-defined]
        assert (gone.kind, gone.status) == ("tombstone", "tombstoned")
        assert await wallet.transaction("nope", player_id="ann") is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("signing", ["unsigned", "forged"])
@pytest.mark.asyncio
async def test_each_reference_operator_refuses_an_unsigned_or_forged_call(
    dialect: str, signing: str
) -> None:
    operator, app, root = reference(dialect, {"ann": 10_000})
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as client:
        wrong = wallet_for(
            dialect,
            f"http://operator{root}",
            secret="pso_other" if signing == "forged" else None,
            key=new_rsa_key() if signing == "forged" and dialect == "hub88" else None,
            currency="EUR",
            client=client,
            retry=_ONE,
        )
        with pytest.raises(WalletError):
            await wrong.debit("ann", 100, transaction_id="c-1")
        with pytest.raises(WalletError):
            await wrong.balance("ann")
    assert operator.balances["ann"] == 10_000


@pytest.mark.asyncio
async def test_hub88_bodies_carry_units_uuids_and_an_rsa_signature() -> None:
    seen: list[httpx.Request] = []
    _, app, _ = reference("hub88", {"acme.u-1": 0, "u-1": 100_000}, currency="KWD")
    inner = httpx.ASGITransport(app=app)

    async def record(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return await inner.handle_async_request(request)

    transport = httpx.MockTransport(record)
    async with httpx.AsyncClient(transport=transport) as client:
        wallet = Hub88Wallet(
            "http://operator", private_key=key(), currency="KWD", operator_id="acme", client=client
        )
        await wallet.debit("acme.u-1", 1_234, transaction_id="c-9", round_id="r-9")
    body = json.loads(seen[0].content)
    assert seen[0].url.path == "/transaction/bet"
    assert body["user"] == "u-1"  # the operator's own id of its player
    assert body["amount"] == 123_400  # 1.234 KWD (3 digits) in 1/100000 units
    assert (body["currency"], body["round"]) == ("KWD", "r-9")
    assert body["transaction_uuid"] == transaction_uuid("c-9")
    assert body["supplier_transaction_id"] == "c-9"
    rsa_verify(public_key_of(key()), seen[0].content, seen[0].headers["X-Hub88-Signature"])


def test_hub88_units_convert_exactly_or_not_at_all() -> None:
    assert [to_units(1, c) for c in ("JPY", "EUR", "KWD")] == [100_000, 1_000, 100]
    assert from_units(100_000, "JPY") == 1
    with pytest.raises(AmountUnitsError):
        from_units(99_999, "JPY")
    assert from_units(99_999, "JPY", exact=False) == 0  # a balance: what can be staked
    with pytest.raises(AmountUnitsError):
        to_units(1.5, "EUR")  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_a_hub88_call_without_a_currency_is_refused_before_it_is_sent() -> None:
    wallet = Hub88Wallet("http://operator.invalid", private_key=None)
    with pytest.raises(LedgerError, match="currency"):
        await wallet.debit("ann", 100, transaction_id="c-1")
    await wallet.aclose()


def test_rsa_signatures_verify_only_the_body_they_sign() -> None:
    private = key()
    header = rsa_signature(private, b'{"a":1}')
    rsa_verify(public_key_of(private), b'{"a":1}', header)
    from punto.errors import AuthError

    for body, sign in ((b'{"a":2}', header), (b'{"a":1}', None), (b'{"a":1}', "!!")):
        with pytest.raises(AuthError):
            rsa_verify(public_key_of(private), body, sign)
