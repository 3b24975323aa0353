"""Money first [L]: when the ledger refuses a hand's settlement, the table stops in a
visible *settlement pending* state (players and the dealer see it, in the snapshot and as a
message), says nothing of the result until the money has moved, opens no new hand,
retries with backoff and resumes by itself. The hand's record, written alongside the
settlement, is withdrawn with it and saved once the money has moved."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import RunningServer, TableClient, a_hand, macau_players, server_on
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

pytestmark = pytest.mark.asyncio

_BLOCK = (
    "ALTER TABLE ledger_transactions ADD CONSTRAINT punto_test_no_settle "
    "CHECK (kind <> 'settle') NOT VALID"
)
_UNBLOCK = "ALTER TABLE ledger_transactions DROP CONSTRAINT punto_test_no_settle"


async def _one_bet_before_the_last_card(
    stack: contextlib.AsyncExitStack, server: RunningServer
) -> tuple[TableClient, TableClient, int, str]:
    """live-1's dealer, and cleo in seat 2 with 10.00 on Player, three cards dealt (the
    fourth, 7C, makes a Player natural 9 [M9]); cleo's wallet before the bet; the game."""
    dealer = await stack.enter_async_context(
        TableClient.connect(server, "live-1", await server.token("dana"))
    )
    player = await stack.enter_async_context(
        TableClient.connect(server, "live-1", await server.token("cleo"))
    )
    await dealer.ok({"type": "start_shoe"})
    await player.take_seat(2, chip=1000)
    wallet = await server.node.bank.balance("cleo")
    await dealer.ok({"type": "open_betting"})
    opened = await player.next_of("betting_opened")
    await player.ok({"type": "add_chip", "bet": "player"})
    await player.ok({"type": "confirm"})
    await dealer.ok({"type": "close_betting"})
    await dealer.deal("9S", "8D", "KH")
    return dealer, player, wallet, str(opened["event"]["game"])


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[1:])  # a constraint added live: PostgreSQL
async def test_l_a_settlement_the_ledger_refuses_stops_the_table_until_it_is_posted(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path, betting_seconds=30.0) as server:
        url = server.node.settings.database_url
        engine = create_async_engine(url.replace("postgresql://", "postgresql+asyncpg://"))
        player_token = await server.token("cleo")
        async with contextlib.AsyncExitStack() as stack:
            dealer, player, wallet, game = await _one_bet_before_the_last_card(stack, server)
            async with engine.begin() as conn:
                await conn.execute(text(_BLOCK))
            try:
                await dealer.ok({"type": "deal_card", "card": "7C"})  # Player natural 9 [M9]
                for client in (player, dealer):
                    pending = await client.next_of("settlement_pending")
                    assert pending["pending"] is True
                    assert pending["game"] == game
                    assert pending["retry_in"] >= 0
                assert not any(  # no word of a result whose money has not moved
                    m.get("type") == "event" and m["event"]["kind"] == "hand_settled"
                    for m in player.received
                )
                assert not any(m.get("reason") == "settled" for m in player.received)
                # the record saved alongside the settlement was withdrawn with it: no
                # record says "settled" of money that did not move
                assert await server.node.store.hand(game) is None
                async with TableClient.connect(server, "live-1", player_token) as late:
                    assert late.snapshot["settlement_pending"]["pending"] is True
                refused = await dealer.request({"type": "open_betting"})
                assert refused["error"] == "unavailable"
                assert "resumes by itself" in refused["message"]
                assert await server.node.bank.balance("cleo") == wallet - 1000
            finally:
                async with engine.begin() as conn:
                    await conn.execute(text(_UNBLOCK))
                await engine.dispose()
            settled = await player.next_of(
                "hand_settled", lambda m: m["event"]["game"] == game, timeout=60
            )
            assert settled["event"]["results"][0]["settlement"]["total_net"] == 1000
            paid = await player.next_of("balance", lambda m: m["reason"] == "settled")
            assert paid["wallet_balance"] == wallet + 1000
            done = await dealer.next_of("settlement_pending", lambda m: not m["pending"])
            assert done["game"] == game
            record = await server.node.store.hand(game)  # saved before anyone heard
            assert record is not None
            assert record["status"] == "settled"
            assert record["results"]["cleo"]["settlement"]["total_net"] == 1000
            await dealer.ok({"type": "open_betting"})  # the table goes on
        assert await server.node.bank.balance("cleo") == wallet + 1000
        report = await server.node.ledger.check()
        assert report.ok, report.problems
        settles = [
            t
            for t in await server.node.ledger.transactions(round_id=game)
            if t.kind.value == "settle"
        ]
        assert len(settles) == 1  # paid once


_FAIL_ONCE = (
    "CREATE SEQUENCE punto_test_record_tries",
    "CREATE FUNCTION punto_test_record_once() RETURNS trigger AS $$ BEGIN "
    "IF nextval('punto_test_record_tries') = 1 THEN "
    "RAISE EXCEPTION 'record write cut'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
    "CREATE TRIGGER punto_test_record_once BEFORE INSERT ON server_hands "
    "FOR EACH ROW EXECUTE FUNCTION punto_test_record_once()",
)
_FAIL_ONCE_UNDO = (
    "DROP TRIGGER punto_test_record_once ON server_hands",
    "DROP FUNCTION punto_test_record_once()",
    "DROP SEQUENCE punto_test_record_tries",
)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[1:])  # a trigger added live: PostgreSQL
async def test_a_record_beside_the_settlement_that_fails_is_saved_again(
    backend: str, tmp_path: Path
) -> None:
    """The record written beside the settlement fails (its first write refused by the
    database) while the settlement goes through: it is saved again, alone, before the
    hand is heard of, and the money moved once."""
    async with server_on(backend, tmp_path, betting_seconds=30.0) as server:
        url = server.node.settings.database_url
        engine = create_async_engine(url.replace("postgresql://", "postgresql+asyncpg://"))
        async with contextlib.AsyncExitStack() as stack:
            dealer, player, wallet, game = await _one_bet_before_the_last_card(stack, server)
            async with engine.begin() as conn:
                for statement in _FAIL_ONCE:
                    await conn.execute(text(statement))
            try:
                await dealer.ok({"type": "deal_card", "card": "7C"})  # Player natural 9 [M9]
                await player.next_of("hand_settled", lambda m: m["event"]["game"] == game)
                record = await server.node.store.hand(game)  # saved before it was heard
                assert record is not None
                assert record["status"] == "settled"
                async with engine.begin() as conn:  # the first write was refused
                    tries = await conn.scalar(
                        text("SELECT last_value FROM punto_test_record_tries")
                    )
                assert tries == 2
            finally:
                async with engine.begin() as conn:
                    for statement in _FAIL_ONCE_UNDO:
                        await conn.execute(text(statement))
                await engine.dispose()
            paid = await player.next_of("balance", lambda m: m["reason"] == "settled")
            assert paid["wallet_balance"] == wallet + 1000
        report = await server.node.ledger.check()
        assert report.ok, report.problems


_NO_STAKE = (
    "ALTER TABLE ledger_transactions ADD CONSTRAINT punto_test_no_stake "
    "CHECK (kind <> 'stake') NOT VALID"
)
_STAKE_AGAIN = "ALTER TABLE ledger_transactions DROP CONSTRAINT punto_test_no_stake"


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[1:])  # a constraint added live: PostgreSQL
async def test_m12_standing_bets_the_ledger_refuses_to_stake_hold_the_new_hand(
    backend: str, tmp_path: Path
) -> None:
    """The one transaction that stakes every standing bet [M12] again fails: the table is
    settlement pending, says nothing of the new hand, and once the ledger takes stakes
    again stakes each exactly once and opens the hand."""
    async with server_on(backend, tmp_path, betting_seconds=600.0) as server:
        url = server.node.settings.database_url
        engine = create_async_engine(url.replace("postgresql://", "postgresql+asyncpg://"))
        bank = server.node.bank
        async with macau_players(server) as (dealer, (ann, bob)):
            wallets = {name: await bank.balance(name) for name in ("ann", "bob")}
            first = await a_hand(dealer, [(ann, {"banker": 2000}), (bob, {"player": 3000})])
            async with engine.begin() as conn:
                await conn.execute(text(_NO_STAKE))
            try:
                await dealer.ok({"type": "open_betting"})
                pending = await ann.next_of("settlement_pending")
                assert pending["pending"] is True
                assert not any(  # no word of a hand whose stakes have not moved
                    m.get("type") == "event"
                    and m["event"]["kind"] == "betting_opened"
                    and m["event"]["game"] != first
                    for m in ann.received
                )
                refused = await bob.request({"type": "confirm", "bets": {"banker": 1000}})
                assert refused["error"] == "unavailable"
                assert await bank.balance("ann") == wallets["ann"]  # nothing staked yet
            finally:
                async with engine.begin() as conn:
                    await conn.execute(text(_STAKE_AGAIN))
                await engine.dispose()
            opened = await ann.next_of(
                "betting_opened", lambda m: m["event"]["game"] != first, timeout=60
            )
            game = opened["event"]["game"]
            await dealer.next_of("settlement_pending", lambda m: not m["pending"])
            assert await bank.balance("ann") == wallets["ann"] - 2000
            assert await bank.balance("bob") == wallets["bob"] - 3000
            stakes = [
                t
                for t in await server.node.ledger.transactions(round_id=game)
                if t.kind.value == "stake"
            ]
            assert sorted(t.player_id or "" for t in stakes) == ["ann", "bob"]  # once each
        report = await server.node.ledger.check()
        assert report.ok, report.problems
