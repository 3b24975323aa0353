"""The internal (transfer) wallet on the ledger, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from ledger_support import BACKENDS, ledger_database, ledger_store

from punto.errors import InsufficientFundsError, WalletError, WalletRolledBackError
from punto.ledger.model import Account, TransactionKind
from punto.ledger.store import LedgerStore
from punto.ledger.wallet import InternalWallet, Wallet

pytestmark = [pytest.mark.asyncio, pytest.mark.parametrize("backend", BACKENDS)]


async def test_transfers_in_and_out(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        wallet = InternalWallet(store, operator_id="op1")
        assert isinstance(wallet, Wallet)
        assert (await wallet.credit("alice", 10_000, transaction_id="in-1")).balance == 10_000
        again = await wallet.credit("alice", 10_000, transaction_id="in-1")
        assert again.replayed
        assert again.balance == 10_000
        assert (await wallet.debit("alice", 4_000, transaction_id="out-1")).balance == 6_000
        with pytest.raises(InsufficientFundsError, match="player:alice holds 6000"):
            await wallet.debit("alice", 7_000, transaction_id="out-2")
        assert await store.balance(Account.operator("op1")) == -6_000
        kinds = [t.kind for t in await store.transactions(player_id="alice")]
        assert kinds == [TransactionKind.DEPOSIT, TransactionKind.WITHDRAWAL]
        assert (await store.check()).ok


async def test_rollbacks_before_and_after_the_debit(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        wallet = InternalWallet(store)
        await wallet.credit("alice", 10_000, transaction_id="in-1")
        early = await wallet.rollback("late", player_id="alice", amount=1_000)
        assert early.status == "tombstoned"
        with pytest.raises(WalletRolledBackError, match="before it arrived"):
            await wallet.debit("alice", 1_000, transaction_id="late")
        await wallet.debit("alice", 2_500, transaction_id="d1")
        undone = await wallet.rollback("d1", player_id="alice", amount=2_500)
        assert (undone.status, undone.balance) == ("rolled_back", 10_000)
        assert (await wallet.rollback("d1", player_id="alice", amount=2_500)).replayed
        with pytest.raises(WalletRolledBackError):
            await wallet.debit("alice", 2_500, transaction_id="d1")
        with pytest.raises(WalletError, match="not a debit"):
            await wallet.rollback("in-1", player_id="alice", amount=10_000)
        assert await wallet.balance("alice") == 10_000
        assert (await store.check()).ok


async def test_a_debit_racing_its_rollback_never_keeps_the_money(
    backend: str, tmp_path: Path
) -> None:
    async with ledger_database(backend, tmp_path) as url:
        async with LedgerStore.open(url) as store:
            await InternalWallet(store).credit("alice", 10_000, transaction_id="in")
        stores = [LedgerStore.open(url) for _ in range(2)]
        try:
            for n in range(5):
                debit = InternalWallet(stores[0]).debit("alice", 1_000, transaction_id=f"d{n}")
                rollback = InternalWallet(stores[1]).rollback(
                    f"d{n}", player_id="alice", amount=1_000
                )
                await asyncio.gather(debit, rollback, return_exceptions=True)
            assert await InternalWallet(stores[0]).balance("alice") == 10_000
            assert (await stores[0].check()).ok
        finally:
            for s in stores:
                await s.close()
