"""The operator's wallet failing (seamless mode): a debit answered 500 or timing out
refuses that confirm alone with a typed error and moves nothing; a credit answered 500 is
queued and delivered when the operator is back; the table goes on meanwhile, and the books
check afterwards."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest
from dialect_support import call_of, reference, wallet_of
from ledger_support import BACKENDS
from server_support import a_hand, macau_players, seamless_live_table

from punto.bets import Bet
from punto.ledger.operator_ref import ReferenceOperator, create_app
from punto.ledger.wallet import RetryPolicy, Wallet
from punto.server.store.storage import OUTBOX_PENDING

pytestmark = pytest.mark.asyncio


class _Faulty(httpx.AsyncBaseTransport):
    """The reference operator, failing the calls it is told to (``500`` or a timeout)."""

    def __init__(
        self, operator: ReferenceOperator, app: object = None, dialect: str = "punto"
    ) -> None:
        self._inner = httpx.ASGITransport(app=app or create_app(operator))  # type: ignore[arg-type]
        self._dialect = dialect
        self.faults: dict[tuple[str, str], str] = {}
        """(call, player or ``*``) → ``"500"`` or ``"timeout"``."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        call, player = call_of(self._dialect, request)
        fault = self.faults.get((call, player)) or self.faults.get((call, "*"))
        if fault == "500":
            return httpx.Response(500, json={"error": "internal", "message": "down"})
        if fault == "timeout":
            raise httpx.ReadTimeout("the operator did not answer", request=request)
        return await self._inner.handle_async_request(request)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
@pytest.mark.parametrize("dialect", ["punto", "hub88"])
async def test_operator_500s_and_timeouts_move_nothing_twice(
    backend: str, dialect: str, tmp_path: Path
) -> None:
    operator, app, root = reference(dialect, {"ann": 100_000, "bob": 100_000})
    transport = _Faulty(operator, app, dialect)
    retry = RetryPolicy(attempts=2, base_delay=0.01)

    def wallet(client: httpx.AsyncClient) -> Wallet:
        return wallet_of(dialect, f"http://operator{root}", client=client, retry=retry)

    async with seamless_live_table(
        backend, tmp_path, transport, retry=retry, wallet_of=wallet
    ) as t:
        server, console, ann, bob = t.server, t.console, t.ann, t.bob
        await bob.ok({"type": "add_chip", "bet": "banker"})
        for fault in ("500", "timeout"):
            transport.faults[("debit", "bob")] = fault
            refused = await bob.request({"type": "confirm"})
            assert refused["type"] == "error", refused
            assert refused["error"] == "wallet_unavailable", refused
            assert operator.balances["bob"] == 100_000  # nothing moved
        del transport.faults[("debit", "bob")]
        await bob.ok({"type": "confirm"})
        # a bet and its confirm in one message: refused alone, nothing left on the layout
        table = server.node.runners["live-1"].table
        transport.faults[("debit", "ann")] = "500"
        refused = await ann.request({"type": "confirm", "bets": {"player": 1000}})
        assert refused["error"] == "wallet_unavailable", refused
        assert operator.balances["ann"] == 100_000
        assert (dict(table.bets("ann")), dict(table.pending("ann"))) == ({}, {})
        del transport.faults[("debit", "ann")]
        await ann.ok({"type": "confirm", "bets": {"player": 1000}})
        assert operator.balances == {"ann": 99_000, "bob": 99_000}
        transport.faults[("credit", "*")] = "500"
        await console.ok({"type": "close_betting"})
        await console.deal("9S", "8D", "KH", "7C")  # Player natural 9 [M9]
        await ann.next_of("hand_settled")
        told = await ann.next_of("balance", lambda m: m["reason"] == "settled")
        assert told["wallet_balance"] is None or told["wallet_balance"] == 99_000
        await console.ok({"type": "open_betting"})  # the table goes on meanwhile
        assert operator.balances["ann"] == 99_000
        assert [
            i.player_id for i in await server.node.store.outbox_items(states=[OUTBOX_PENDING])
        ] == ["ann"]
        del transport.faults[("credit", "*")]
        deadline = time.monotonic() + 30
        while operator.balances["ann"] != 101_000:  # delivered once the operator is back
            assert time.monotonic() < deadline, operator.balances
            await asyncio.sleep(0.1)
        assert operator.balances["bob"] == 99_000


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
async def test_m12_leaving_with_standing_bets_is_credited_once_and_the_round_stays(
    backend: str, tmp_path: Path
) -> None:
    """Seamless: a player who leaves while betting is open with the main bets a tie left
    standing [M12] is credited them once by the operator, outside the table's lock; the
    round and the other player's bet stay and are settled and paid."""
    operator = ReferenceOperator({"ann": 100_000, "bob": 100_000})
    async with seamless_live_table(
        backend, tmp_path, _Faulty(operator), retry=RetryPolicy(attempts=2, base_delay=0.01)
    ) as t:
        server = t.server
        async with macau_players(server, dealer="lin") as (dealer, (ann, bob)):
            first = await a_hand(dealer, [(ann, {"banker": 2000})])  # a tie [M12]
            await dealer.ok({"type": "open_betting"})
            opened = await bob.next_of("betting_opened", lambda m: m["event"]["game"] != first)
            game = opened["event"]["game"]
            staked = await ann.next_of("tie_bets_changed")  # debited, outside the lock
            assert staked["event"]["reason"] == "standing_staked"
            assert operator.balances["ann"] == 98_000  # the standing bet debited again
            await bob.ok({"type": "confirm", "bets": {"banker": 1000}})
            assert (await ann.request({"type": "leave"}))["type"] == "ok"
            await ann.next_of("balance", lambda m: m["reason"] in ("refunded", "left"))
            assert operator.balances["ann"] == 100_000  # credited back, once
            await dealer.ok({"type": "close_betting"})
            await dealer.deal("2S", "9H", "3C", "KH")  # Player 5, Banker 9 natural
            await bob.settled(game)
            assert operator.balances["bob"] == 100_950  # paid, as the table showed
            assert operator.balances["ann"] == 100_000


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
async def test_m12_standing_bets_whose_debit_the_operator_refuses_go_back_at_once(
    backend: str, tmp_path: Path
) -> None:
    """After a tie, each player's standing bets are staked again by a debit of their own
    operator call [M12]: one answered 500 returns that player's bets at once (betting
    still open, whatever the tie option), moving nothing; the other's is staked, stays on
    the table and is settled."""
    operator = ReferenceOperator({"ann": 100_000, "bob": 100_000})
    transport = _Faulty(operator)
    async with seamless_live_table(
        backend, tmp_path, transport, retry=RetryPolicy(attempts=2, base_delay=0.01)
    ) as t:
        server = t.server
        async with macau_players(server, dealer="lin") as (dealer, (ann, bob)):
            bets = [(ann, {"banker": 2000}), (bob, {"banker": 1000})]
            first = await a_hand(dealer, bets)  # a tie [M12]
            for player in (ann, bob):  # the push credited before the next debits
                await player.next_of("balance", lambda m: m["reason"] == "settled")
            transport.faults[("debit", "ann")] = "500"
            await dealer.ok({"type": "open_betting"})
            back = await ann.next_of("tie_bets_changed", lambda m: m["event"]["game"] != first)
            assert back["event"]["reason"] == "standing_not_staked"
            assert (back["event"]["bets"], back["event"]["credited"]) == ({}, 2000)
            kept = await bob.next_of("tie_bets_changed", lambda m: m["event"]["game"] != first)
            assert kept["event"]["reason"] == "standing_staked"
            assert kept["event"]["bets"] == {"banker": 1000}
            game = kept["event"]["game"]
            assert server.node.runners["macau-live"].table.phase.value == "betting_open"
            assert operator.balances == {"ann": 100_000, "bob": 99_000}
            del transport.faults[("debit", "ann")]
            await dealer.ok({"type": "close_betting"})
            await dealer.deal("2S", "9H", "3C", "KH")  # Player 5, Banker 9 natural
            await bob.next_of("balance", lambda m: m["reason"] == "settled")
            assert operator.balances == {"ann": 100_000, "bob": 100_950}
            assert await server.node.bank.round_bets(game) == {"bob": {Bet.BANKER: 1000}}


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
async def test_m12_changed_standing_bets_whose_debit_the_operator_refuses_go_back(
    backend: str, tmp_path: Path
) -> None:
    """A player's own change of the bets a tie left standing [M12], seamless: the old
    stake is credited back and the changed bets wait for their debit; the operator
    answering it 500 returns them to the player at once (betting still open), nothing
    staked twice or lost. Another player's cancel is one credit and no debit."""
    operator = ReferenceOperator({"ann": 100_000, "bob": 100_000})
    transport = _Faulty(operator)
    async with seamless_live_table(
        backend, tmp_path, transport, retry=RetryPolicy(attempts=2, base_delay=0.01)
    ) as t:
        server = t.server
        async with macau_players(server, dealer="lin") as (dealer, (ann, bob)):
            first = await a_hand(dealer, [(ann, {"banker": 2000}), (bob, {"player": 1000})])
            for player in (ann, bob):
                await player.next_of("balance", lambda m: m["reason"] == "settled")
            await dealer.ok({"type": "open_betting"})
            for player in (ann, bob):
                kept = await player.next_of(
                    "tie_bets_changed", lambda m: m["event"]["game"] != first
                )
                assert kept["event"]["reason"] == "standing_staked"
            game = kept["event"]["game"]
            assert operator.balances == {"ann": 98_000, "bob": 99_000}
            transport.faults[("debit", "ann")] = "500"
            changed = await ann.request({"type": "change_tie_bets", "bets": {"banker": 5000}})
            assert changed["type"] == "ok", changed
            back = await ann.next_of(
                "tie_bets_changed", lambda m: m["event"]["reason"] == "standing_not_staked"
            )
            assert (back["event"]["bets"], back["event"]["credited"]) == ({}, 5000)
            assert server.node.runners["macau-live"].table.phase.value == "betting_open"
            cancelled = await bob.request({"type": "change_tie_bets", "bets": {}})
            assert cancelled["type"] == "ok", cancelled
            await bob.next_of(  # told once the operator has the credit
                "balance",
                lambda m: m["reason"] == "tie_bets_changed" and m["wallet_balance"] == 100_000,
            )
            assert operator.balances == {"ann": 100_000, "bob": 100_000}
            assert await server.node.bank.round_bets(game) == {}
            del transport.faults[("debit", "ann")]
            await dealer.ok({"type": "close_betting"})
            await dealer.deal("2S", "9H", "3C", "KH")  # Player 5, Banker 9 natural
            await dealer.next_of("hand_settled", lambda m: m["event"]["game"] == game)
            assert operator.balances == {"ann": 100_000, "bob": 100_000}
            assert not await server.node.store.outbox_items(states=[OUTBOX_PENDING])
            runner = server.node.runners["macau-live"]
            assert (runner.table.balance("ann"), runner.table.balance("bob")) == (
                100_000,
                100_000,
            )
