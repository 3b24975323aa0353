"""Money in several currencies: each currency is a book of its own (accounts keyed
``…/JPY``), a round of players of three currencies settles each in its own, and the books
check holds every currency to zero on its own."""

from __future__ import annotations

import pytest
from ledger_support import BACKENDS, ledger_store

from punto.bets import Bet
from punto.cards import parse_cards
from punto.coup import deal_coup
from punto.errors import UnbalancedTransactionError
from punto.ledger import model
from punto.ledger.model import Account, Entry, Transaction, TransactionKind
from punto.ledger.store import ConfirmRequest, LedgerStore
from punto.rules import preset

pytestmark = [pytest.mark.asyncio, pytest.mark.parametrize("backend", BACKENDS)]

ONLINE = preset("online_8deck")
BANKER_NATURAL_8 = deal_coup(parse_cards("2S 9H 3D 9C"))  # Banker 8 beats Player 5
PLAYERS = {"acme.ann": "", "acme.ken": "JPY", "beta.bo": "USD"}
"""Each player's book: ann in the house currency (EUR), ken in yen, bo in dollars."""


async def _funded(store: LedgerStore) -> None:
    for player, book in PLAYERS.items():
        await store.post(
            model.transfer(
                TransactionKind.DEPOSIT,
                player,
                100_000,
                transaction_id=f"fund-{player}",
                operator_id=player.split(".")[0],
                currency=book,
            )
        )


async def test_one_round_settles_each_player_in_their_own_currency(
    backend: str, tmp_path: object
) -> None:
    async with ledger_store(backend, tmp_path) as store:  # type: ignore[arg-type]
        await _funded(store)
        await store.open_round("t1-001-001", table_id="t1")
        requests = [
            ConfirmRequest(
                "t1-001-001",
                player,
                {Bet.BANKER: 10_000},
                f"c-{player}",
                Account.player(player, book) if book else None,
            )
            for player, book in PLAYERS.items()
        ]
        answers = await store.confirm_many(requests)
        assert all(not isinstance(a, Exception) for a in answers), answers
        for book in ("", "JPY", "USD"):
            assert await store.balance(Account.escrow("t1-001-001", book)) == 10_000
        done = await store.settle_round(
            "t1-001-001",
            lambda bets: model.settle_players(ONLINE, BANKER_NATURAL_8, bets),
        )
        assert {tx.currency for tx in done} == {"", "JPY", "USD"}
        for player, book in PLAYERS.items():
            assert await store.balance(Account.player(player, book)) == 100_000 + 9_500
            assert await store.balance(Account.house("t1", book)) == -9_500
            assert await store.balance(Account.escrow("t1-001-001", book)) == 0
        report = await store.check()
        assert report.ok, report.problems
        books = {(b.currency, b.operator): b for b in report.books()}
        for book in ("", "JPY", "USD"):
            assert books[(book, None)].total == 0  # each currency sums to zero alone
        assert books[("JPY", "acme")].players == 109_500
        assert books[("USD", "beta")].players == 109_500
        assert ("JPY", "beta") not in books


async def test_a_void_refunds_each_currency_to_its_own_wallet(
    backend: str, tmp_path: object
) -> None:
    async with ledger_store(backend, tmp_path) as store:  # type: ignore[arg-type]
        await _funded(store)
        await store.open_round("t1-001-002", table_id="t1")
        await store.confirm_many(
            [
                ConfirmRequest(
                    "t1-001-002",
                    "acme.ken",
                    {Bet.PLAYER: 3_000},
                    "c-ken",
                    Account.player("acme.ken", "JPY"),
                )
            ]
        )
        await store.void_round("t1-001-002", author="sup", reason="dealer error")
        assert await store.balance(Account.player("acme.ken", "JPY")) == 100_000
        assert (await store.check()).ok


async def test_a_transaction_moves_one_currency(backend: str, tmp_path: object) -> None:
    with pytest.raises(UnbalancedTransactionError, match="two currencies"):
        Transaction(
            TransactionKind.DEPOSIT,
            "k",
            (Entry(Account.player("a", "JPY"), 5), Entry(Account.operator("acme"), -5)),
        )
    assert Account.parse("player:acme.ken/JPY").currency == "JPY"
    assert Account.player("acme.ken").of_currency("USD").code == "player:acme.ken/USD"
