"""Group-committed confirms: many confirms in one ledger transaction, each answered with
its own result, none taking a balance below zero [L]; and a database that cuts the
server's connections in the middle of a batch loses nothing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from ledger_support import BACKENDS, POSTGRES_ADMIN_URL, POSTGRESQL, ledger_database, ledger_store
from server_support import RunningServer, TableClient, betting_players, server_on
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from punto.bets import Bet
from punto.cards import parse_cards
from punto.coup import deal_coup
from punto.errors import InsufficientFundsError, PuntoError, RoundStateError
from punto.ledger import confirms, store
from punto.ledger.model import (
    Account,
    Transaction,
    TransactionKind,
    settle_players,
    transfer,
)
from punto.ledger.store import ConfirmRequest, KeptConnection, LedgerStore, Posted
from punto.ledger.wallet import InternalWallet
from punto.rules import preset
from punto.server.money.bank import Bank, Stake
from punto.server.store.migrate import upgrade_async
from punto.server.store.storage import ServerStore

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_batch_posts_the_good_confirms_and_refuses_the_bad_alone(
    backend: str, tmp_path: Path
) -> None:
    async with ledger_store(backend, tmp_path) as ledger:
        for player, amount in (("ann", 5000), ("bob", 1000)):
            await ledger.post(
                transfer(TransactionKind.DEPOSIT, player, amount, transaction_id=f"d-{player}")
            )
        await ledger.open_round("g1", table_id="t")
        batch = [
            ConfirmRequest("g1", "ann", {Bet.BANKER: 3000}, "c1"),
            ConfirmRequest("g1", "bob", {Bet.PLAYER: 2000}, "c2"),  # more than bob has
            ConfirmRequest("g1", "ann", {Bet.TIE: 2000}, "c3"),  # ann's last 2000
            ConfirmRequest("g1", "ann", {Bet.PLAYER: 1000}, "c4"),  # nothing left
            ConfirmRequest("g2", "bob", {Bet.PLAYER: 1000}, "c5"),  # no such round
            ConfirmRequest("g1", "ann", {Bet.BANKER: 3000}, "c1"),  # a replay of c1
        ]
        answers = await ledger.confirm_many(batch)
        assert [type(a).__name__ for a in answers] == [
            "Posted",
            "InsufficientFundsError",
            "Posted",
            "InsufficientFundsError",
            "RoundStateError",
            "Posted",
        ]
        assert isinstance(answers[1], InsufficientFundsError)
        assert isinstance(answers[4], RoundStateError)
        first, replay = answers[0], answers[5]
        assert not isinstance(first, Exception)
        assert not isinstance(replay, Exception)
        assert replay.replayed
        assert replay.transaction.id == first.transaction.id
        assert await ledger.balance(Account.player("ann")) == 0
        assert await ledger.balance(Account.player("bob")) == 1000
        bets = await ledger.round_bets("g1")
        assert dict(bets["ann"].bets) == {Bet.BANKER: 3000, Bet.TIE: 2000}
        assert "bob" not in bets
        again = await ledger.confirm_many(batch[:1])  # replayed in a later batch too
        assert not isinstance(again[0], Exception)
        assert again[0].replayed
        assert (await ledger.check()).ok


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_players_bets_in_a_round_keep_the_account_that_funded_the_first(
    backend: str, tmp_path: Path
) -> None:
    """A round's bets of one player come from one account [L]: a later confirm funded by
    another (the operator's, say) is refused alone, with nothing of it moved, whether the
    first bets were posted in an earlier batch or earlier in the same one; the other
    players of the batch are posted."""
    async with ledger_store(backend, tmp_path) as ledger:
        for player in ("ann", "bob"):
            await ledger.post(
                transfer(TransactionKind.DEPOSIT, player, 5000, transaction_id=f"d-{player}")
            )
        await ledger.open_round("g1", table_id="t")
        await ledger.confirm_bets("g1", "ann", {Bet.BANKER: 1000}, confirmation_id="c1")
        operator = Account.operator()
        answers = await ledger.confirm_many(
            [
                ConfirmRequest("g1", "ann", {Bet.TIE: 500}, "c2", funding=operator),
                ConfirmRequest("g1", "bob", {Bet.PLAYER: 1000}, "c3"),
                ConfirmRequest("g1", "bob", {Bet.TIE: 100}, "c4", funding=operator),
            ]
        )
        assert [type(a).__name__ for a in answers] == ["LedgerError", "Posted", "LedgerError"]
        assert "funded by player:ann" in str(answers[0])
        assert "funded by player:bob" in str(answers[2])
        bets = await ledger.round_bets("g1")
        assert dict(bets["ann"].bets) == {Bet.BANKER: 1000}
        assert dict(bets["bob"].bets) == {Bet.PLAYER: 1000}
        assert await ledger.balance(operator) == -10_000  # the two deposits only
        assert await ledger.balance(Account.player("ann")) == 4000
        assert (await ledger.check()).ok


@pytest.mark.parametrize("backend", BACKENDS[1:])  # PostgreSQL only
async def test_a_batch_looks_up_only_its_own_players_bets(backend: str, tmp_path: Path) -> None:
    """How a batch's players funded their earlier bets of the round is read by the round
    and player index, one look-up per player, also while the round's rows are newer than
    the table's statistics (a round being bet on): a plan that read every bet of the round
    and kept the batch's players' made each batch cost as much as the round so far."""
    async with ledger_store(backend, tmp_path) as ledger:
        players = await _round_of_bettors(ledger, 300, stake=100)
        async with ledger.engine.connect() as conn:
            plan = (
                await conn.exec_driver_sql(
                    "EXPLAIN (ANALYZE, FORMAT JSON) " + confirms.BATCH_PG,
                    (
                        ["g1"],
                        ["k1", "k2"],
                        players[:2],
                        [f"player:{p}" for p in players[:2]],
                        ["escrow:g1"],
                    ),
                )
            ).scalar_one()
        read = _rows_read(plan[0]["Plan"], "ledger_round_bets")
        assert 0 < read <= 2 * 2, read  # the two players' bets, not the round's 600


async def _round_of_bettors(ledger: LedgerStore, count: int, *, stake: int) -> list[str]:
    """``count`` players with 5,000 each, who have all bet ``stake`` on Player and on Tie
    in the open round ``g1`` (one batch); their names."""
    players = [f"p{n}" for n in range(count)]
    for p in players:
        await ledger.post(transfer(TransactionKind.DEPOSIT, p, 5000, transaction_id=f"d-{p}"))
    await ledger.open_round("g1", table_id="t")
    answers = await ledger.confirm_many(
        [ConfirmRequest("g1", p, {Bet.PLAYER: stake, Bet.TIE: stake}, f"c-{p}") for p in players]
    )
    assert not any(isinstance(a, Exception) for a in answers)
    return players


async def _settle_g1(ledger: LedgerStore) -> tuple[Transaction, ...]:
    """Settle round ``g1`` (of :func:`_round_of_bettors`) with a Player natural 9 against 5
    [M9]: the Player bets win even money, the Tie bets lose."""
    outcome = deal_coup(parse_cards("9S 8D KH 7C"))
    rules = preset("macau")
    return await ledger.settle_round("g1", lambda bets: settle_players(rules, outcome, bets))


async def _paid_once(ledger: LedgerStore, players: Sequence[str]) -> None:
    """Each of ``players`` has one settlement of round ``g1``, and the books check."""
    settles = [
        t for t in await ledger.transactions(round_id="g1") if t.kind is TransactionKind.SETTLE
    ]
    assert len(settles) == len(players)
    report = await ledger.check()
    assert report.ok, report.problems


def _rows_read(node: dict[str, Any], table: str) -> int:
    """The rows a plan's nodes over ``table`` read: those they returned and those their
    filters removed, every loop."""
    loops = int(node.get("Actual Loops", 1))
    read = 0
    if node.get("Relation Name") == table:
        kept = float(node.get("Actual Rows", 0))
        removed = float(node.get("Rows Removed by Filter", 0)) + float(
            node.get("Rows Removed by Index Recheck", 0)
        )
        read += round((kept + removed) * loops)
    return read + sum(_rows_read(child, table) for child in node.get("Plans", ()))


async def _register(server: RunningServer, name: str) -> str:
    answer = await server.http.post(
        "/api/auth/register", json={"username": name, "password": "pw-123456"}
    )
    answer.raise_for_status()
    return str(answer.json()["token"])


async def test_a_confirm_with_bets_is_one_message_and_bad_bets_change_nothing(
    tmp_path: Path,
) -> None:
    async with (
        server_on("sqlite", tmp_path, betting_seconds=600.0) as server,
        contextlib.AsyncExitStack() as stack,
    ):
        _, (ann,) = await betting_players(stack, server, [await server.token("ann")])
        table = server.node.runners["live-1"].table
        start = table.balance("ann")
        refusals: dict[str, list[dict[str, Any]]] = {
            "bad_message": [
                {"bets": {}},
                {"bets": {"nope": 1000}},
                {"bets": {"player": -1000}},
                {"bets": {"player": 1000.0}},
                {"bets": {"player": "1000"}},
                {"bets": {"player": True}},
                {"bets": {"player\x00": 1000}},
                {"bets": [["player", 1000]]},
            ],
            "amount": [{"bets": {"player": 600}}],  # not made of the table's chips
            "table_balance": [{"bets": {"player": start + 1000}}],
        }
        for code, messages in refusals.items():
            for message in messages:
                answer = await ann.request({"type": "confirm", **message})
                assert (answer["type"], answer["error"]) == ("error", code), (message, answer)
                if code == "table_balance":  # both amounts, for the client to say
                    assert answer["params"] == {"needed": start + 1000, "balance": start}
        assert table.balance("ann") == start
        assert dict(table.bets("ann")) == {}
        ann.skip_to_end()
        mark = len(ann.received)
        await ann.ok({"type": "confirm", "bets": {"player": 2000, "tie": 500}})
        confirmed = await ann.next_of("bets_confirmed")
        assert confirmed["event"]["added"] == {"player": 2000, "tie": 500}
        balance = await ann.next_of("balance")
        assert (balance["reason"], balance["table_balance"]) == ("confirmed", start - 2500)
        legal = await ann.next_of("legal_actions")  # bets in play: she may not leave now
        assert "leave" not in legal["legal"]["actions"]
        mark = len(ann.received)
        await ann.ok({"type": "confirm", "bets": {"player": 1000}})
        await ann.next_of("balance")
        # one message: no chip events, and of what ann may do only the room left on Player
        # changes (a refused request answered after everything the confirm sent her)
        assert (await ann.request({"type": "undo"}))["error"] == "betting"
        kinds = {
            m["type"] if m["type"] != "event" else m["event"]["kind"] for m in ann.received[mark:]
        }
        assert "chip_added" not in kinds, kinds
        after = [m["legal"] for m in ann.received[mark:] if m["type"] == "legal_actions"]
        room = legal["legal"]["bets"]["player"]["room"]
        assert [a["bets"]["player"]["room"] for a in after] == [room - 1000], after
        assert [a["actions"] for a in after] == [legal["legal"]["actions"]]
        ledger = server.node.bank.ledger
        bets = await ledger.round_bets(str(table.game))
        assert dict(bets["ann"].bets) == {Bet.PLAYER: 3000, Bet.TIE: 500}
        assert (await ledger.check()).ok


async def test_confirms_arriving_together_are_refused_alone_in_their_batch(
    tmp_path: Path,
) -> None:
    """On the server's own wallet a confirm is checked in its batch only [L]: bad ones
    sent together with good ones are each refused there with their own typed error, and
    nothing of them is staked; the good ones are; once betting is closed a confirm is
    refused by its batch, with the hand still dealing."""
    async with (
        server_on("sqlite", tmp_path, betting_seconds=600.0) as server,
        contextlib.AsyncExitStack() as stack,
    ):
        names = ("ann", "bob", "carl", "dora")
        tokens = [await _register(server, f"{n}-batch") for n in names]
        dealer, clients = await betting_players(stack, server, tokens)
        table = server.node.runners["live-1"].table
        start = table.balance("ann-batch")
        asked = [
            {"player": 1000},  # good
            {"player": 600},  # not made of the table's chips
            {"player": start + 1000},  # more than the balance
            {"banker": 2000},  # good
        ]
        answers = await asyncio.gather(
            *(
                c.request({"type": "confirm", "bets": b})
                for c, b in zip(clients, asked, strict=True)
            )
        )
        got = [a["type"] if a["type"] == "ok" else a["error"] for a in answers]
        assert got == ["ok", "amount", "table_balance", "ok"], answers
        game = str(table.game)
        bets = await server.node.bank.ledger.round_bets(game)
        assert {p: dict(b.bets) for p, b in bets.items()} == {
            "ann-batch": {Bet.PLAYER: 1000},
            "dora-batch": {Bet.BANKER: 2000},
        }
        assert table.balance("bob-batch") == table.balance("carl-batch") == start
        await dealer.ok({"type": "close_betting"})
        late = await clients[1].request({"type": "confirm", "bets": {"player": 1000}})
        assert (late["type"], late["error"]) == ("error", "phase"), late
        assert "bob-batch" not in await server.node.bank.ledger.round_bets(game)
        assert (await server.node.bank.ledger.check()).ok


@pytest.mark.slow
@pytest.mark.parametrize("placed", [False, True], ids=["chips", "placed"])
@pytest.mark.parametrize("backend", BACKENDS)
async def test_one_player_five_connections_never_confirms_more_than_the_balance(
    backend: str, placed: bool, tmp_path: Path
) -> None:
    balance = 20_000
    async with server_on(
        backend, tmp_path, betting_seconds=600.0, demo_balance=balance, confirm_window=0.005
    ) as server:
        dealer_token = await server.token("dana")
        token = await _register(server, "greedy")
        async with contextlib.AsyncExitStack() as stack:
            dealer = await stack.enter_async_context(
                TableClient.connect(server, "live-1", dealer_token)
            )
            await dealer.ok({"type": "start_shoe"})
            await dealer.ok({"type": "open_betting"})
            clients = [
                await stack.enter_async_context(TableClient.connect(server, "live-1", token))
                for _ in range(5)
            ]
            await clients[0].ok({"type": "join"})
            await clients[0].ok({"type": "watch", "tier": "low"})
            await clients[0].ok({"type": "choose_chip", "chip": 1000})

            async def bettor(client: TableClient) -> list[dict[str, Any]]:
                answers = []
                for _ in range(20):
                    if placed:  # the bet and its confirm in one message
                        confirm = {"type": "confirm", "bets": {"player": 1000}}
                        answers.append(await client.request(confirm))
                        continue
                    await client.request({"type": "add_chip", "bet": "player"})
                    answers.append(await client.request({"type": "confirm"}))
                return answers

            # one confirm alone first, so that something is staked whatever the schedule:
            # with chips, five connections adding to one slip may each see it change before
            # their confirm lands ("the bets changed … confirm again") until the slip is
            # more than the balance, and then no confirm of it can be accepted
            if placed:
                await clients[0].ok({"type": "confirm", "bets": {"player": 1000}})
            else:
                await clients[0].ok({"type": "add_chip", "bet": "player"})
                await clients[0].ok({"type": "confirm"})
            answers = [a for each in await asyncio.gather(*map(bettor, clients)) for a in each]
            assert len(answers) == 100
            errors = {a["error"] for a in answers if a["type"] == "error"}
            assert errors
            assert all(a.get("error") != "internal" for a in answers), errors
            ledger = server.node.bank.ledger
            staked = sum(
                sum(b.bets.values())
                for b in (
                    await ledger.round_bets(str(server.node.runners["live-1"].table.game))
                ).values()
            )
            assert 1000 <= staked <= balance, sorted(errors)
            assert await ledger.balance(Account.player("greedy")) == balance - staked
            table = server.node.runners["live-1"].table
            assert table.balance("greedy") == balance - staked
            assert sum(table.bets("greedy").values()) == staked
            assert (await ledger.check()).ok


async def _terminate(url: str) -> int:
    """Terminate every connection to the database of ``url`` but this one, waiting until
    each backend has exited (PostgreSQL 14+): how many."""
    admin = create_async_engine(
        urlsplit(POSTGRES_ADMIN_URL)._replace(scheme="postgresql+asyncpg").geturl(),
        isolation_level="AUTOCOMMIT",
    )
    try:
        async with admin.connect() as conn:
            killed = await conn.scalar(
                text(
                    "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
                    "WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": urlsplit(url).path.lstrip("/")},
            )
            return int(killed or 0)
    finally:
        await admin.dispose()


@contextlib.contextmanager
def _cut_before(
    engine: AsyncEngine, url: str, at: set[int], cuts: list[int], *, matching: str = ""
) -> Iterator[None]:
    """Cut the database's connections (``pg_terminate_backend``, from a connection of its
    own, on another thread) just before the engine's statements numbered ``at`` run
    (counting those whose text has ``matching``): the statement then meets a terminated
    backend, wherever it is in its unit of work."""
    count = 0

    def cut(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        nonlocal count
        if matching not in statement:
            return
        count += 1
        if count in at:
            with ThreadPoolExecutor(1) as pool:  # the test's loop waits: it is mid-statement
                cuts.append(pool.submit(asyncio.run, _terminate(url)).result())

    event.listen(engine.sync_engine, "before_cursor_execute", cut)
    try:
        yield
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", cut)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[1:])  # PostgreSQL only
async def test_connections_cut_during_a_batch_of_confirms_lose_nothing(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path, betting_seconds=600.0) as server:
        url = server.node.settings.database_url
        tokens = [await _register(server, f"cut{n}") for n in range(10)]
        async with contextlib.AsyncExitStack() as stack:
            dealer, players = await betting_players(stack, server, tokens)

            async def bettor(client: TableClient) -> list[str]:
                outcomes = []
                for _ in range(6):
                    await client.request({"type": "add_chip", "bet": "banker"})
                    answer = await client.request({"type": "confirm"})
                    outcomes.append(answer["type"] if answer["type"] == "ok" else answer["error"])
                    if answer["type"] == "error":
                        await client.request({"type": "clear"})
                return outcomes

            cuts: list[int] = []
            # cut inside the group commits: before the ledger's 2nd, 9th and 16th statements
            # (a batch asks the rounds, the keys, the funding and the accounts, then writes)
            with _cut_before(server.node.engine, url, {2, 9, 16}, cuts, matching="ledger_"):
                outcomes = [o for each in await asyncio.gather(*map(bettor, players)) for o in each]
            assert len(cuts) == 3, cuts  # cut three times,
            assert all(cuts), cuts  # each time for real
            assert "internal" not in outcomes
            assert "ok" in outcomes
            runner = server.node.runners["live-1"]
            game = str(runner.table.game)
            ledger = server.node.bank.ledger
            bets = await ledger.round_bets(game)
            for n in range(10):  # the ledger holds exactly what the table confirmed
                mine = bets.get(f"cut{n}")
                table_bets = {b: a for b, a in runner.table.bets(f"cut{n}").items() if a}
                assert (dict(mine.bets) if mine else {}) == table_bets
            # the table carries on by itself: the hand is dealt and settled
            await dealer.ok({"type": "close_betting"})
            await dealer.deal("9S", "8D", "KH", "7C")  # a Player natural 9 against 5 [M9]
            await dealer.next_of("hand_settled", timeout=30)
            info = await ledger.round(game)
            assert info.status.value == "settled"
            report = await ledger.check()
            assert report.ok, report.problems


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[1:])  # PostgreSQL only
async def test_connections_cut_during_a_settlement_pay_once(backend: str, tmp_path: Path) -> None:
    async with ledger_store(backend, tmp_path) as ledger:
        players = await _round_of_bettors(ledger, 400, stake=1000)
        url = ledger.engine.url.render_as_string(hide_password=False)
        cuts: list[int] = []
        tries = 0
        # cut before the settlement's first statement, its third and its sixth (counted over
        # the tries): at the round's lock, and further in, in the retried units
        with _cut_before(ledger.engine, url, {1, 3, 6}, cuts):
            while True:  # as the table's retry does: until the settlement is durable
                tries += 1
                try:
                    await _settle_g1(ledger)
                    break
                except Exception:  # a cut connection, twice in a row
                    assert tries < 50
        assert len(cuts) == 3, cuts  # cut three times,
        assert all(cuts), cuts  # each time for real
        assert tries > 1  # a cut failed the settlement's unit even after its own retry
        again = await _settle_g1(ledger)
        assert len(again) == len(players)  # a replay returns what was posted
        await _paid_once(ledger, players)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[1:])  # PostgreSQL only
async def test_a_connection_cut_during_a_settlements_copy_is_retried_and_pays_once(
    backend: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A settlement of more than a statement's entries sends its rows by ``COPY`` on the
    driver itself; a connection cut in that ``COPY`` fails as a statement's cut does: the
    connection is invalidated and the ledger runs the unit again by itself, which pays
    each player once (the caller sees no error)."""
    async with ledger_store(backend, tmp_path) as ledger:
        # 520 players: 1,040 entries, more than one statement takes (posting._ONE_STATEMENT)
        players = await _round_of_bettors(ledger, 520, stake=1000)
        url = ledger.engine.url.render_as_string(hide_password=False)
        cuts: list[int] = []
        with (
            caplog.at_level(logging.WARNING),
            _cut_before(ledger.engine, url, {1}, cuts, matching="COPY ledger_entries"),
        ):
            posted = await _settle_g1(ledger)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # no traceback
        assert len(cuts) == 1, cuts  # cut once,
        assert cuts[0] >= 1, cuts  # for real
        assert len(posted) == len(players)
        balances = await ledger.balances()  # 5,000 less 2,000 staked, 2,000 back [M9]
        assert {balances[Account.player(p).code] for p in players} == {5000}
        await _paid_once(ledger, players)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_batches_of_several_tables_go_in_one_write_each_answered_alone(
    backend: str, tmp_path: Path
) -> None:
    """Batches of three tables that arrive while a write is under way go to the ledger
    together [L]: one transaction, each batch answered as if alone. One player betting at
    two tables at once with money for one bet never goes below zero."""
    async with ledger_database(backend, tmp_path) as url:
        await upgrade_async(url)
        engine = store.create_engine(url)
        try:
            ledger = LedgerStore(engine)
            written: list[int] = []
            first = asyncio.Event()
            go_on = asyncio.Event()
            confirm_many = ledger.confirm_many

            async def held(
                requests: Sequence[ConfirmRequest], *, kept: KeptConnection | None = None
            ) -> list[Posted | PuntoError]:
                written.append(len(requests))
                if len(written) == 1:  # the first write waits until the others queue
                    first.set()
                    await go_on.wait()
                return await confirm_many(requests, kept=kept)

            ledger.confirm_many = held  # type: ignore[method-assign]
            bank = _bank(ledger, engine)
            for player, amount in (("ann", 5_000), ("bob", 3_000), ("cleo", 1_000)):
                await ledger.post(
                    transfer(TransactionKind.DEPOSIT, player, amount, transaction_id=f"d-{player}")
                )
            opening = asyncio.create_task(
                bank.stake_many(
                    "g0", table_id="t0", stakes=[Stake("ann", {Bet.BANKER: 1_000}, "c0")]
                )
            )
            await first.wait()
            tables = [
                bank.stake_many(
                    "g1",
                    table_id="t1",
                    stakes=[
                        Stake("ann", {Bet.PLAYER: 2_000}, "c1"),
                        Stake("bob", {Bet.PLAYER: 9_000}, "c2"),  # more than bob has
                    ],
                ),
                bank.stake_many(
                    "g2", table_id="t2", stakes=[Stake("cleo", {Bet.TIE: 1_000}, "c3")]
                ),
                # cleo at a third table at the same moment, with money for one bet only
                bank.stake_many(
                    "g3", table_id="t3", stakes=[Stake("cleo", {Bet.TIE: 1_000}, "c4")]
                ),
            ]
            waiting = [asyncio.create_task(t) for t in tables]
            while bank.commits.waiting < 3:  # each table's round opened, its batch handed over
                await asyncio.sleep(0.001)
            go_on.set()
            assert await opening == [4_000]
            one, two, three = [await t for t in waiting]
            assert written == [1, 4]  # the three tables' batches in one write
            assert bank.commits.writes == 2
            assert one[0] == 2_000
            assert isinstance(one[1], InsufficientFundsError)
            # cleo's two bets at two tables: the first in the write is taken, the other
            # refused alone (the batches queued in the order their rounds opened)
            cleo = sorted((two[0], three[0]), key=lambda a: isinstance(a, PuntoError))
            assert cleo[0] == 0
            assert isinstance(cleo[1], InsufficientFundsError)
            assert await ledger.balance(Account.player("cleo")) == 0
            assert await ledger.balance(Account.player("bob")) == 3_000
            assert (await ledger.check()).ok
        finally:
            await engine.dispose()


@pytest.mark.parametrize("writers", [2, 4])
@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_writes_under_way_at_once_never_take_a_player_below_zero(
    backend: str, writers: int, tmp_path: Path
) -> None:
    """Several ledger writes of confirms under way at once (``PUNTO_CONFIRM_WRITERS``; the
    server's PostgreSQL default is four) [L]: players betting at four tables at once, each with
    money for three of their four bets, in writes that overlap. Every write locks the rounds
    and the accounts it moves in one order, so writes with a player in common run one after
    the other on the player's lock, none deadlocks, and each player has exactly three bets
    taken and nothing left."""
    async with ledger_database(backend, tmp_path) as url:
        await upgrade_async(url)
        engine = store.create_engine(url)
        try:
            ledger = LedgerStore(engine)
            most = 0
            confirm_many = ledger.confirm_many
            overlapping = asyncio.Event()

            async def counted(
                requests: Sequence[ConfirmRequest], *, kept: KeptConnection | None = None
            ) -> list[Posted | PuntoError]:
                # the first writes wait until ``writers`` are under way (each table hands
                # its first batch over while they wait: they overlap however the loop runs)
                nonlocal most
                most = max(most, bank.commits.under_way)
                if most >= writers:
                    overlapping.set()
                await asyncio.wait_for(overlapping.wait(), 30)
                return await confirm_many(requests, kept=kept)

            ledger.confirm_many = counted  # type: ignore[method-assign]
            # a write takes one table's batch (three confirms) and a second starts as soon as
            # one waits: two tables' first batches never merge into one write, which would
            # leave fewer than ``writers`` writes to wait for each other
            bank = _bank(ledger, engine, writers=writers, spare_from=1, size=3)
            players = [f"p{n}" for n in range(12)]
            for player in players:
                await ledger.post(
                    transfer(TransactionKind.DEPOSIT, player, 3_000, transaction_id=f"d-{player}")
                )
            tables = [f"t{n}" for n in range(4)]

            async def table(n: int) -> list[int | PuntoError | None]:
                # each table's batches one after the other, as a table sends them
                answers: list[int | PuntoError | None] = []
                order = players[n:] + players[:n]  # every table its own order of players
                for start in range(0, len(order), 3):
                    answers += await bank.stake_many(
                        f"g{n}",
                        table_id=tables[n],
                        stakes=[
                            Stake(p, {Bet.BANKER: 1_000}, f"c{n}-{p}")
                            for p in order[start : start + 3]
                        ],
                    )
                return answers

            results = await asyncio.gather(*(table(n) for n in range(4)))
            answers = [a for r in results for a in r]
            refused = [a for a in answers if isinstance(a, PuntoError)]
            assert all(isinstance(a, InsufficientFundsError) for a in refused), refused
            assert len(answers) - len(refused) == 3 * len(players)  # three bets each
            for player in players:
                assert await ledger.balance(Account.player(player)) == 0
            assert most == writers  # that many writes were under way at once
            assert (await ledger.check()).ok
        finally:
            await engine.dispose()


@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_two_batches_of_one_round_run_side_by_side_and_a_settlement_waits_for_them(
    backend: str, tmp_path: Path
) -> None:
    """A batch of confirms holds its round ``FOR SHARE`` and its players' accounts from its
    check to its commit, and the round's escrow only from its post: a second batch of the
    same round, other players, is checked and posted meanwhile (a table writes its next
    batch while its last is in the database); a settlement of the round, which locks it
    ``FOR UPDATE``, waits until the first batch ends. Waiting is seen in
    ``pg_stat_activity``, not timed."""
    async with ledger_store(backend, tmp_path) as ledger:
        for player in ("ann", "bob"):
            await ledger.post(
                transfer(TransactionKind.DEPOSIT, player, 5_000, transaction_id=f"d-{player}")
            )
        await ledger.open_round("g1", table_id="t")
        async with ledger.engine.connect() as first:
            await first.begin()
            await first.exec_driver_sql(  # the first batch, checked and not yet posted
                confirms.BATCH_PG,
                (["g1"], ["stake:c-ann"], ["ann"], ["player:ann"], ["escrow:g1"]),
            )
            second = asyncio.create_task(
                ledger.confirm_many([ConfirmRequest("g1", "bob", {Bet.BANKER: 2_000}, "c-bob")])
            )
            await _done_or_waiting(ledger, second)
            assert second.done()  # not held by the first batch's locks
            (answer,) = second.result()
            assert isinstance(answer, Posted)
            assert answer.balances["escrow:g1"] == 2_000  # read back as posted
            outcome = deal_coup(parse_cards("9S 8D KH 7C"))  # Player 9 against 5 [M9]
            rules = preset("macau")
            settle = asyncio.create_task(
                ledger.settle_round("g1", lambda bets: settle_players(rules, outcome, bets))
            )
            await _done_or_waiting(ledger, settle)
            assert not settle.done()  # waits for the first batch's share of the round
            await first.rollback()
        await settle
        assert await ledger.balance(Account.escrow("g1")) == 0
        assert (await ledger.check()).ok


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_round_opened_without_its_escrow_gets_it_from_its_first_batch(
    backend: str, tmp_path: Path
) -> None:
    """A round opened before rounds were opened with their escrow account (a database of
    an earlier version): its first batch of confirms makes the escrow, and locks it, as
    before."""
    async with ledger_store(backend, tmp_path) as ledger:
        await ledger.post(transfer(TransactionKind.DEPOSIT, "ann", 5_000, transaction_id="d-a"))
        async with ledger.engine.begin() as conn:
            await conn.execute(
                text("INSERT INTO ledger_rounds (id, table_id, status) VALUES ('g0', 't', 'open')")
            )
        (answer,) = await ledger.confirm_many(
            [ConfirmRequest("g0", "ann", {Bet.BANKER: 2_000}, "c-ann")]
        )
        assert isinstance(answer, Posted)
        assert answer.balances == {"player:ann": 3_000, "escrow:g0": 2_000}
        await ledger.open_round("g1", table_id="t")  # opened now: with its escrow, empty
        assert await ledger.balance(Account.escrow("g1")) == 0
        assert (await ledger.check()).ok


async def _done_or_waiting(ledger: LedgerStore, task: asyncio.Task[Any]) -> None:
    """Until ``task`` is done or one of the database's sessions waits for a lock."""
    while not task.done():
        async with ledger.engine.connect() as conn:
            waiting = (
                await conn.exec_driver_sql(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock'"
                )
            ).scalar_one()
        if waiting:
            return
        await asyncio.sleep(0.01)


def _bank(
    ledger: LedgerStore,
    engine: AsyncEngine,
    *,
    writers: int = 1,
    spare_from: int = 1,
    size: int = 500,
) -> Bank:
    """A bank of the internal wallet over ``ledger`` (its group commit through whatever
    ``ledger.confirm_many`` is when made)."""
    return Bank(
        ledger,
        InternalWallet(ledger),
        ServerStore(engine),
        seamless=False,
        operator_id="default",
        commit_size=size,
        commit_writers=writers,
        commit_spare_from=spare_from,
    )
