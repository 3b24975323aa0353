"""The ledger store on SQLite and PostgreSQL: atomic, idempotent settlement, crashes,
recovery, corrections and the books check."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic import command as alembic_command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from ledger_support import BACKENDS, ledger_database, ledger_store
from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError

from punto.bets import Bet
from punto.cards import parse_cards
from punto.coup import deal_coup
from punto.errors import (
    IdempotencyConflictError,
    InsufficientFundsError,
    LedgerError,
    RoundStateError,
)
from punto.ledger import model
from punto.ledger.driver import insert_rows, on_driver
from punto.ledger.engine import run_snapshot
from punto.ledger.migrate import alembic_config
from punto.ledger.model import Account, TransactionKind
from punto.ledger.rows import ACCOUNTS
from punto.ledger.store import (
    ConfirmRequest,
    LedgerStore,
    RoundInfo,
    RoundStatus,
    create_engine,
)
from punto.ledger.tables import VERSION_TABLE, Base
from punto.rules import preset
from punto.settlement import Settlement

pytestmark = [pytest.mark.asyncio, pytest.mark.parametrize("backend", BACKENDS)]

MACAU = preset("macau")
BANKER_NATURAL_8 = deal_coup(parse_cards("2S 9H 3D 9C"))  # Banker 8 beats Player 5
PLAYER_NATURAL_9 = deal_coup(parse_cards("9S 8D KH 7C"))  # Player 9 beats Banker 5
ALICE_BETS = {Bet.BANKER: 10_000, Bet.TIE: 1_000}
BOB_BETS = {Bet.PLAYER: 5_000}


def settlements(coup: Any, **bets: dict[Bet, int]) -> dict[str, Settlement]:
    return model.settle_players(MACAU, coup, bets)


async def fund(store: LedgerStore, player: str, amount: int) -> None:
    tx = model.transfer(TransactionKind.DEPOSIT, player, amount, transaction_id=f"fund-{player}")
    await store.post(tx)


async def open_round_with_bets(store: LedgerStore, round_id: str = "r1") -> None:
    await fund(store, "alice", 50_000)
    await fund(store, "bob", 50_000)
    await store.open_round(round_id, table_id="t1")
    await store.confirm_bets(round_id, "alice", ALICE_BETS, confirmation_id=f"{round_id}-a")
    await store.confirm_bets(round_id, "bob", BOB_BETS, confirmation_id=f"{round_id}-b")


@contextmanager
def crash_on(store: LedgerStore, sql_prefix: str) -> Iterator[None]:
    """Raise inside the database transaction when a statement starting with
    ``sql_prefix`` is about to run: a crash in the middle of a unit of work."""

    def boom(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith(sql_prefix):
            raise RuntimeError("simulated crash")

    engine = store.engine.sync_engine
    event.listen(engine, "before_cursor_execute", boom)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", boom)


async def test_migrations_match_the_tables(backend: str, tmp_path: Path) -> None:
    def diff(connection: Connection) -> list[Any]:
        context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
        return list(compare_metadata(context, Base.metadata))

    async with (
        ledger_database(backend, tmp_path) as url,
        LedgerStore.open(url) as store,
        store.engine.connect() as conn,
    ):
        assert await conn.run_sync(diff) == []


async def test_a_round_settles_in_double_entry(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store)
        assert await store.balance(Account.escrow("r1")) == 16_000
        assert await store.balance(Account.player("alice")) == 39_000
        done = await store.settle_round(
            "r1", settlements(BANKER_NATURAL_8, alice=ALICE_BETS, bob=BOB_BETS)
        )
        assert [t.kind for t in done] == [TransactionKind.SETTLE] * 2
        # alice: banker wins 0.95 (9500 + stake back), tie lost; bob's player bet lost
        assert await store.balance(Account.player("alice")) == 39_000 + 19_500
        assert await store.balance(Account.player("bob")) == 45_000
        assert await store.balance(Account.house("t1")) == -9_500 + 1_000 + 5_000
        assert await store.balance(Account.escrow("r1")) == 0
        assert (await store.round("r1")).status is RoundStatus.SETTLED
        report = await store.check()
        assert report.ok, report.problems
        assert sum(report.balances.values()) == 0


async def test_a_retried_settlement_pays_once(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store)
        result = settlements(PLAYER_NATURAL_9, alice=ALICE_BETS, bob=BOB_BETS)
        first = await store.settle_round("r1", result)
        before = await store.balances()
        again = await store.settle_round("r1", result)
        assert [t.id for t in again] == [t.id for t in first]
        assert await store.balances() == before
        other = settlements(BANKER_NATURAL_8, alice=ALICE_BETS, bob=BOB_BETS)
        with pytest.raises(IdempotencyConflictError, match="correction"):
            await store.settle_round("r1", other)
        assert await store.balances() == before


async def test_concurrent_settlements_pay_once(backend: str, tmp_path: Path) -> None:
    async with ledger_database(backend, tmp_path) as url:
        async with LedgerStore.open(url) as store:
            await open_round_with_bets(store)
        result = settlements(PLAYER_NATURAL_9, alice=ALICE_BETS, bob=BOB_BETS)
        stores = [LedgerStore.open(url) for _ in range(4)]  # four separate connection pools
        try:
            done = await asyncio.gather(*(s.settle_round("r1", result) for s in stores))
        finally:
            for s in stores:
                await s.close()
        assert len({tuple(t.id for t in d) for d in done}) == 1
        async with LedgerStore.open(url) as store:
            assert await store.balance(Account.player("bob")) == 45_000 + 10_000
            assert len(await store.transactions(round_id="r1")) == 4  # 2 stakes, 2 settles
            assert (await store.check()).ok


async def test_a_crash_while_settling_leaves_nothing_half_done(
    backend: str, tmp_path: Path
) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store)
        before = await store.balances()
        result = settlements(BANKER_NATURAL_8, alice=ALICE_BETS, bob=BOB_BETS)
        # the last statement of the unit: every entry and balance was already written
        with crash_on(store, "UPDATE LEDGER_ROUNDS"), pytest.raises(RuntimeError):
            await store.settle_round("r1", result)
        assert await store.balances() == before
        assert (await store.round("r1")).status is RoundStatus.OPEN
        assert [t.kind for t in await store.transactions(round_id="r1")] == [
            TransactionKind.STAKE
        ] * 2
        assert (await store.check()).ok
        await store.settle_round("r1", result)  # the retry after the crash pays once
        assert await store.balance(Account.player("alice")) == 39_000 + 19_500
        assert (await store.check()).ok


async def test_a_crash_while_confirming_posts_no_stake(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await fund(store, "alice", 50_000)
        await store.open_round("r1", table_id="t1")
        # the unit's last write: SQLite's round bets after the stake and its entries;
        # PostgreSQL writes them all, and moves the balances, in one statement
        last = "WITH L AS" if backend == "postgresql" else "INSERT INTO LEDGER_ROUND_BETS"
        with crash_on(store, last), pytest.raises(RuntimeError):
            await store.confirm_bets("r1", "alice", ALICE_BETS, confirmation_id="c1")
        assert await store.balance(Account.player("alice")) == 50_000
        assert await store.transaction(key="stake:c1") is None
        assert (await store.check()).ok


async def test_insufficient_funds_posts_nothing(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await fund(store, "alice", 5_000)
        await store.open_round("r1", table_id="t1")
        with pytest.raises(InsufficientFundsError, match=r"player:alice holds 5000"):
            await store.confirm_bets("r1", "alice", ALICE_BETS, confirmation_id="c1")
        assert await store.round_bets("r1") == {}
        assert await store.balance(Account.player("alice")) == 5_000
        posted = await store.confirm_bets("r1", "alice", {Bet.BANKER: 5_000}, confirmation_id="c2")
        replay = await store.confirm_bets("r1", "alice", {Bet.BANKER: 5_000}, confirmation_id="c2")
        assert replay.replayed
        assert replay.transaction.id == posted.transaction.id
        assert await store.balance(Account.player("alice")) == 0


async def test_m12_a_change_of_stakes_is_whole_or_nothing(backend: str, tmp_path: Path) -> None:
    """A player's change of their bets on an open round [M12]: their confirms cancelled
    and the new bets staked in one transaction, funded by what the cancels gave back;
    a stake the wallet cannot fund leaves the old stakes where they were; a replay moves
    nothing."""
    async with ledger_store(backend, tmp_path) as store:
        await fund(store, "alice", 12_000)
        await store.open_round("r1", table_id="t1")
        await store.confirm_bets("r1", "alice", {Bet.BANKER: 10_000}, confirmation_id="a1")
        await store.confirm_bets("r1", "alice", {Bet.TIE: 1_000}, confirmation_id="a2")
        wallet = Account.player("alice")
        too_much = ConfirmRequest("r1", "alice", {Bet.BANKER: 13_000}, "raise-1")
        with pytest.raises(InsufficientFundsError, match="holds 12000"):
            await store.change_stakes(["a1", "a2"], reason="standing bets changed", stake=too_much)
        assert await store.balance(wallet) == 1_000  # the cancels went back with it
        assert dict((await store.round_bets("r1"))["alice"].bets) == {
            Bet.BANKER: 10_000,
            Bet.TIE: 1_000,
        }
        raise_ = ConfirmRequest("r1", "alice", {Bet.BANKER: 12_000}, "raise-2")
        cancels, staked = await store.change_stakes(
            ["a1", "a2"], reason="standing bets changed", stake=raise_
        )
        assert [c.replayed for c in cancels] == [False, False]
        assert staked is not None
        assert staked.balances[wallet.code] == 0
        assert dict((await store.round_bets("r1"))["alice"].bets) == {Bet.BANKER: 12_000}
        again, restaked = await store.change_stakes(
            ["a1", "a2"], reason="standing bets changed", stake=raise_
        )
        assert [c.replayed for c in again] == [True, True]
        assert restaked is not None
        assert restaked.replayed
        assert await store.balance(wallet) == 0
        assert (await store.check()).ok


async def test_no_bets_after_the_round_closed(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store)
        await store.settle_round(
            "r1", settlements(PLAYER_NATURAL_9, alice=ALICE_BETS, bob=BOB_BETS)
        )
        with pytest.raises(RoundStateError, match="no more bets"):
            await store.confirm_bets("r1", "bob", BOB_BETS, confirmation_id="late")
        with pytest.raises(LedgerError, match="missing: bob"):
            await store.correct_round(
                "r1",
                settlements(PLAYER_NATURAL_9, alice=ALICE_BETS),
                correction_id="x",
                author="sup",
                reason="r",
            )


async def test_recovery_voids_and_refunds_open_rounds(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store, "r1")
        await open_round_with_bets(store, "r2")
        await store.record_result("r2", {"cards": "9S 8D KH 7C"})

        def resume(info: RoundInfo, bets: Any) -> dict[str, Settlement] | None:
            if info.result is None:
                return None
            return model.settle_players(MACAU, deal_coup(parse_cards(info.result["cards"])), bets)

        recovery = await store.recover(resume=resume)
        assert recovery.voided == ("r1",)
        assert recovery.settled == ("r2",)
        refunds = [t for t in await store.transactions(round_id="r1") if t.kind.value == "refund"]
        assert {t.player_id: t.amount_of(Account.player(t.player_id or "")) for t in refunds} == {
            "alice": 11_000,
            "bob": 5_000,
        }
        assert all(t.author == "recovery" and t.reason for t in refunds)
        # r1 refunded; r2 settled (player 9 wins: alice loses 11000, bob wins 5000)
        assert await store.balance(Account.player("alice")) == 50_000 - 11_000
        assert await store.balance(Account.player("bob")) == 50_000 + 5_000
        assert (await store.recover()).voided == ()
        report = await store.check()
        assert report.ok, report.problems
        assert report.open_rounds == 0


async def test_what_a_round_keeps_from_its_opening_until_its_result(
    backend: str, tmp_path: Path
) -> None:
    """The server keeps its record's facts with a round as it opens (``result`` without
    an outcome): read back as kept, left as they are when the round is opened again,
    replaced by the recorded result, and no outcome for a restart to settle."""
    async with ledger_store(backend, tmp_path) as store:
        kept = {"facts": {"dealer": "Dana", "opened_at": 12.5}}
        info = await store.open_round("r1", table_id="t1", result=kept)
        assert info.result == kept
        assert (await store.round("r1")).result == kept
        assert (await store.open_round("r1", table_id="t1")).result == kept  # once
        await store.open_round("r2", table_id="t1", result=kept)
        await store.record_result("r2", {"cards": "9S 8D KH 7C"})
        assert (await store.round("r2")).result == {"cards": "9S 8D KH 7C"}
        recovery = await store.recover(
            resume=lambda info, bets: {} if "cards" in (info.result or {}) else None
        )
        assert recovery == type(recovery)(settled=("r2",), voided=("r1",))
        assert (await store.round("r1")).result == kept  # the void keeps them


async def test_corrections_post_only_the_difference(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store)
        wrong = settlements(PLAYER_NATURAL_9, alice=ALICE_BETS, bob=BOB_BETS)
        originals = {t.player_id: t for t in await store.settle_round("r1", wrong)}
        right = settlements(BANKER_NATURAL_8, alice=ALICE_BETS, bob=BOB_BETS)
        fixes = await store.correct_round(
            "r1", right, correction_id="fix-1", author="supervisor:kim", reason="misread card"
        )
        by_player = {t.player_id: t for t in fixes}
        # alice was paid 0, is owed 19500; bob was paid 10000, is owed 0
        assert by_player["alice"].amount_of(Account.player("alice")) == 19_500
        assert by_player["bob"].amount_of(Account.player("bob")) == -10_000
        for player, fix in by_player.items():
            assert fix.kind is TransactionKind.CORRECTION
            assert fix.reference == originals[player].id
            assert (fix.author, fix.reason) == ("supervisor:kim", "misread card")
        again = await store.correct_round(
            "r1", right, correction_id="fix-1", author="supervisor:kim", reason="misread card"
        )
        assert [t.id for t in again] == [t.id for t in fixes]
        # correcting to the result already in force moves nothing but is still recorded
        same = await store.correct_round(
            "r1", right, correction_id="fix-2", author="supervisor:kim", reason="re-check"
        )
        assert all(t.entries == () for t in same)
        assert await store.balance(Account.player("alice")) == 39_000 + 19_500
        assert await store.balance(Account.player("bob")) == 45_000
        # the original settlements are untouched
        assert await store.transaction(id=originals["bob"].id) == originals["bob"]
        assert (await store.check()).ok


async def test_text_that_json_and_sql_quote_differently_is_kept_exactly(
    backend: str, tmp_path: Path
) -> None:
    """A posting's text goes to PostgreSQL inside one JSON document of rows: an author and
    a reason with quotes, backslashes, a new line, accents, Chinese and an emoji are kept
    exactly, and the books' fingerprints check."""
    author = "supervisor:k\\\"im'"
    reason = 'misread "card" \\ back\\slash\nline two, é, 百家乐, 🂡, {a,b}, NULL'
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store)
        wrong = settlements(PLAYER_NATURAL_9, alice=ALICE_BETS, bob=BOB_BETS)
        await store.settle_round("r1", wrong)
        right = settlements(BANKER_NATURAL_8, alice=ALICE_BETS, bob=BOB_BETS)
        fixes = await store.correct_round(
            "r1", right, correction_id="fix-1", author=author, reason=reason
        )
        for fix in fixes:
            stored = await store.transaction(id=fix.id)
            assert stored == fix
            assert (stored.author, stored.reason) == (author, reason)
        assert (await store.check()).ok


async def test_voiding_a_settled_hand_refunds_through_the_difference(
    backend: str, tmp_path: Path
) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store)
        await store.settle_round(
            "r1", settlements(PLAYER_NATURAL_9, alice=ALICE_BETS, bob=BOB_BETS)
        )
        # bob withdraws his winnings before the void
        await store.post(
            model.transfer(TransactionKind.WITHDRAWAL, "bob", 53_000, transaction_id="out")
        )
        voids = await store.void_round("r1", author="supervisor:kim", reason="card dropped [L]")
        assert {t.kind for t in voids} == {TransactionKind.VOID}
        assert await store.balance(Account.player("alice")) == 50_000
        # bob must give back 5000 but holds 2000: the rest is his receivable
        assert await store.balance(Account.player("bob")) == 0
        assert await store.balance(Account.receivable("bob")) == -3_000
        assert (await store.round("r1")).status is RoundStatus.VOIDED
        assert [t.id for t in await store.void_round("r1", author="x", reason="y")] == [
            t.id for t in voids
        ]
        with pytest.raises(RoundStateError):
            await store.correct_round("r1", {}, correction_id="z", author="x", reason="y")
        report = await store.check()
        assert report.ok, report.problems


async def test_seamless_bets_are_funded_by_the_operator(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        operator = Account.operator("op1")
        await store.open_round("r1", table_id="t1")
        await store.confirm_bets("r1", "carol", BOB_BETS, confirmation_id="c1", funding=operator)
        await store.settle_round("r1", settlements(PLAYER_NATURAL_9, carol=BOB_BETS))
        assert await store.balance(operator) == 5_000  # carol's winnings, owed to the operator
        assert await store.balance(Account.player("carol")) == 0
        assert (await store.check()).ok


async def test_check_finds_rows_changed_behind_its_back(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store)
        await store.settle_round(
            "r1", settlements(PLAYER_NATURAL_9, alice=ALICE_BETS, bob=BOB_BETS)
        )
        assert (await store.check()).ok
        settle_ids = (
            "SELECT id FROM ledger_transactions WHERE kind = 'settle' AND player_id = 'bob'"
        )
        async with store.engine.begin() as conn:  # balanced, but not what was posted
            for code, change in (("player:bob", 100), ("house:t1", -100)):
                await conn.execute(
                    text(
                        "UPDATE ledger_entries SET amount = amount + :change "
                        f"WHERE account_code = :code AND transaction_id IN ({settle_ids})"
                    ),
                    {"code": code, "change": change},
                )
        report = await store.check()
        assert any("changed after it was posted" in p for p in report.problems)
        async with store.engine.begin() as conn:  # and now money from nowhere
            await conn.execute(
                text(
                    "UPDATE ledger_entries SET amount = amount + 100 "
                    f"WHERE account_code = 'player:bob' AND transaction_id IN ({settle_ids})"
                )
            )
        report = await store.check()
        assert not report.ok
        assert any("accounts sum to 100" in p for p in report.problems)
        assert any("entries sum to 100, not 0" in p for p in report.problems)
        assert any("account player:bob shows" in p for p in report.problems)


async def test_books_kept_before_migration_0002_check_after_it(
    backend: str, tmp_path: Path
) -> None:
    """Migration 0002 drops the entries' foreign keys and keeps every row."""

    def to(revision: str) -> Callable[[Connection], None]:
        def run(connection: Connection) -> None:
            config = alembic_config(connection)
            if revision == "0001":
                alembic_command.downgrade(config, revision)
            else:
                alembic_command.upgrade(config, revision)

        return run

    async with ledger_database(backend, tmp_path) as url:
        engine = create_engine(url)
        try:
            async with engine.begin() as conn:
                await conn.run_sync(to("0001"))
            async with LedgerStore.open(url) as store:
                await open_round_with_bets(store)
                await store.settle_round(
                    "r1", settlements(PLAYER_NATURAL_9, alice=ALICE_BETS, bob=BOB_BETS)
                )
                before = await store.check()
            async with engine.begin() as conn:
                await conn.run_sync(to("head"))
        finally:
            await engine.dispose()
        async with LedgerStore.open(url) as store:
            after = await store.check()
        assert before.ok
        assert after.ok
        assert after.balances == before.balances
        assert after.transactions == before.transactions


async def test_check_finds_entries_of_no_transaction_or_no_account(
    backend: str, tmp_path: Path
) -> None:
    """The entries carry no foreign keys (a bulk settlement's speed): the check proves
    what they would have."""
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store)
        await store.settle_round(
            "r1", settlements(PLAYER_NATURAL_9, alice=ALICE_BETS, bob=BOB_BETS)
        )
        assert (await store.check()).ok
        async with store.engine.begin() as conn:  # a pair of entries that sums to zero
            for code, amount in (("player:nobody", 50), ("house:t1", -50)):
                await conn.execute(
                    text(
                        "INSERT INTO ledger_entries (transaction_id, account_code, amount) "
                        "VALUES ('never-posted', :code, :amount)"
                    ),
                    {"code": code, "amount": amount},
                )
        report = await store.check()
        assert not report.ok
        assert any("account player:nobody, which does not exist" in p for p in report.problems)
        assert any("transaction never-posted, which was never posted" in p for p in report.problems)


async def test_the_database_refuses_a_second_entry_of_a_transaction_on_one_account(
    backend: str, tmp_path: Path
) -> None:
    """A transaction's entries are keyed by its id and the account (migration 0004): the
    model refuses two entries on one account, and so does the database."""
    async with ledger_store(backend, tmp_path) as store:
        await open_round_with_bets(store)
        settled = await store.settle_round(
            "r1", settlements(PLAYER_NATURAL_9, alice=ALICE_BETS, bob=BOB_BETS)
        )
        again = text(
            "INSERT INTO ledger_entries (transaction_id, account_code, amount) "
            "VALUES (:t, 'escrow:r1', 1)"
        )
        with pytest.raises(IntegrityError):
            async with store.engine.begin() as conn:
                await conn.execute(again, {"t": settled[0].id})
        assert (await store.check()).ok


async def test_unclaimed_money_is_kept_apart(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as store:
        await fund(store, "dora", 7_000)
        moved = model.unclaimed(
            Account.player("dora"),
            7_000,
            idempotency_key="unclaimed:dora:2026",
            author="cage:lee",
            reason="wallet dormant 12 months [S15]",
            player_id="dora",
        )
        await store.post(moved)
        assert (await store.post(moved)).replayed
        assert await store.balance(Account.unclaimed()) == 7_000
        assert await store.balance(Account.player("dora")) == 0
        assert (await store.check()).ok


async def test_the_check_reads_the_books_as_of_one_moment(backend: str, tmp_path: Path) -> None:
    """The check reads several tables; on PostgreSQL each statement of a READ COMMITTED
    transaction sees what committed before it, so a posting between two of them looked
    like entries of a transaction that was never posted. Its unit runs at REPEATABLE
    READ: a transaction another connection commits meanwhile is not seen."""
    if backend != "postgresql":
        pytest.skip("SQLite serializes its transactions: no write lands inside a read")
    async with ledger_store(backend, tmp_path) as store:
        await fund(store, "alice", 1_000)
        count = text("SELECT count(*) FROM ledger_transactions")

        async def unit(conn: Any) -> tuple[str, int, int]:
            level = (await conn.execute(text("SHOW transaction_isolation"))).scalar()
            before = (await conn.execute(count)).scalar()
            await fund(store, "bob", 2_000)  # on another connection, committed
            return level, before, (await conn.execute(count)).scalar()

        level, before, after = await run_snapshot(store.engine, unit)
        assert (level, after) == ("repeatable read", before)
        async with store.engine.connect() as conn:
            assert (await conn.execute(count)).scalar() == before + 1
        assert (await store.check()).ok


async def test_the_pool_replaces_a_connection_the_database_closed(
    backend: str, tmp_path: Path
) -> None:
    """Without SQLAlchemy's pre-ping (three round trips before every unit of work), a
    pooled connection the database closed — a restart, ``pg_terminate_backend`` — is
    refused when the pool lends it and a new one is opened: a plain unit of work, with no
    retry of its own, still runs."""
    if backend != "postgresql":
        pytest.skip("SQLite has no server to close a connection")
    async with ledger_store(backend, tmp_path) as store:
        async with store.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            closed = raw.driver_connection
            assert closed is not None
            closed.terminate()  # the socket closes under the pool, as a cut does
        async with store.engine.connect() as conn:
            assert (await conn.execute(text("SELECT 1"))).scalar() == 1
            raw = await conn.get_raw_connection()
            assert raw.driver_connection is not closed


async def test_a_statement_on_the_driver_is_seen_and_fails_as_sqlalchemy_would(
    backend: str, tmp_path: Path
) -> None:
    """The batch of confirms' two statements run on the driver itself (no result layer),
    and nothing else changes for them: the engine's ``before_cursor_execute`` listeners
    see them, a unique key taken first is an ``IntegrityError``, another database error a
    ``DBAPIError``, and a connection the database cut under one (``pg_terminate_backend``)
    is invalidated and said so — what :meth:`LedgerStore._run` runs a unit again on."""
    if backend != "postgresql":
        pytest.skip("statements go to the driver itself on PostgreSQL only")
    async with ledger_store(backend, tmp_path) as store:
        seen: list[str] = []

        def listen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            seen.append(statement)

        event.listen(store.engine.sync_engine, "before_cursor_execute", listen)
        insert = "INSERT INTO ledger_accounts (code, kind, key) VALUES ($1, 'player', $2)"
        async with store.engine.begin() as conn:
            assert [tuple(r) for r in await on_driver(conn, "SELECT $1::int", (7,))] == [(7,)]
            await on_driver(conn, insert, ("player:dup", "dup"))
        assert seen.count("SELECT $1::int") == 1
        with pytest.raises(IntegrityError):
            async with store.engine.begin() as conn:
                await on_driver(conn, insert, ("player:dup", "dup"))
        with pytest.raises(DBAPIError) as failed:
            async with store.engine.begin() as conn:
                await on_driver(conn, "SELECT * FROM no_such_table", ())
        assert not failed.value.connection_invalidated
        async with store.engine.connect() as conn:
            pid = (await conn.exec_driver_sql("SELECT pg_backend_pid()")).scalar_one()
            async with store.engine.connect() as other:
                await other.execute(text("SELECT pg_terminate_backend(:p, 5000)"), {"p": pid})
            with pytest.raises(DBAPIError) as cut:
                await on_driver(conn, "SELECT 1", ())
            assert cut.value.connection_invalidated
            assert conn.invalidated
        async with store.engine.connect() as conn:  # cut before the unit's first statement
            driver: Any = (await conn.get_raw_connection()).driver_connection
            pid = await driver.fetchval("SELECT pg_backend_pid()")
            async with store.engine.connect() as other:
                await other.execute(text("SELECT pg_terminate_backend(:p, 5000)"), {"p": pid})
            with pytest.raises(DBAPIError) as cut:
                await on_driver(conn, "SELECT 1", ())  # its transaction cannot begin
            assert cut.value.connection_invalidated
        async with store.engine.begin() as conn:  # the pool lends a working connection
            assert [tuple(r) for r in await on_driver(conn, "SELECT 2", ())] == [(2,)]


async def test_statements_on_the_driver_run_in_the_units_transaction_even_first(
    backend: str, tmp_path: Path
) -> None:
    """A unit whose first statements go to the driver itself runs them in its one
    transaction [L] (SQLAlchemy begins one only with a statement of its own): the rows a
    batch of confirms locks to check the balances stay locked until it has posted. Two
    statements see the same transaction id, and a unit that fails takes back what they
    wrote, a ``COPY`` first in its unit included."""
    if backend != "postgresql":
        pytest.skip("statements go to the driver itself on PostgreSQL only")
    async with ledger_store(backend, tmp_path) as store:
        xid = "SELECT txid_current()"
        async with store.engine.begin() as conn:
            first = await on_driver(conn, xid, ())
            second = await on_driver(conn, xid, ())
        assert first == second  # one transaction (each statement alone: two ids)
        insert = "INSERT INTO ledger_accounts (code, kind, key) VALUES ($1, 'player', $2)"

        copied = [(f"player:c{n}", "player", f"c{n}", 0) for n in range(60)]  # by COPY

        async def failing(opening: str) -> None:
            async with store.engine.begin() as conn:
                if opening == "statement":
                    await on_driver(conn, insert, ("player:gone", "gone"))
                else:
                    await insert_rows(conn, ACCOUNTS, ("code", "kind", "key", "balance"), copied)
                raise RuntimeError("the unit failed")

        for opening in ("statement", "copy"):
            with pytest.raises(RuntimeError, match="the unit failed"):
                await failing(opening)
        async with store.engine.connect() as conn:
            found = await on_driver(
                conn,
                "SELECT count(*) FROM ledger_accounts WHERE code = $1 OR code LIKE 'player:c%'",
                ("player:gone",),
            )
        assert found[0][0] == 0  # rolled back with the unit
