"""A slow operator delays only its own player (seamless wallet, in each wallet dialect):
the balance read of a join, the wallet's debit of a confirm and the credits of a
settlement are made outside the table's lock, so another player's commands, and the
table's dealing, never wait behind them."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from dialect_support import DIALECTS, call_of, reference, wallet_of
from ledger_support import BACKENDS
from server_support import (
    SeamlessTable,
    TableClient,
    a_hand,
    macau_players,
    seamless_live_table,
)
from starlette.types import ASGIApp
from websockets.exceptions import ConnectionClosed

from punto.bets import Bet
from punto.ledger.wallet import RetryPolicy
from punto.server.store.storage import OUTBOX_PENDING

pytestmark = pytest.mark.asyncio


class _Stalling(httpx.AsyncBaseTransport):
    """A reference operator's ``app``, holding every call about ``player`` until
    released."""

    def __init__(self, app: ASGIApp, dialect: str, player: str) -> None:
        self._inner = httpx.ASGITransport(app=app)
        self._dialect = dialect
        self.player = player
        self.release = asyncio.Event()
        self.held = 0
        self._arrived = asyncio.Event()

    def hold(self) -> int:
        """Hold the player's calls from now on; how many were held so far."""
        self.release.clear()
        return self.held

    async def held_after(self, held: int) -> None:
        """Wait until more than ``held`` of the player's calls have been held."""
        while self.held == held:
            self._arrived.clear()
            await self._arrived.wait()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        _, player = call_of(self._dialect, request) if request.method == "POST" else ("", "")
        if player == self.player or request.url.path.endswith(self.player):
            self.held += 1
            self._arrived.set()
            await self.release.wait()
        return await self._inner.handle_async_request(request)


_RETRY = RetryPolicy(attempts=1, base_delay=0.01, timeout=120)
"""One try, waited on as long as the test holds it."""


@asynccontextmanager
async def _slow_table(
    backend: str,
    tmp_path: Path,
    dialect: str,
    balances: Mapping[str, int],
    slow: str,
    **changes: object,
) -> AsyncIterator[tuple[Any, _Stalling, SeamlessTable]]:
    """The table of ``seamless_live_table`` on the reference operator of ``dialect``
    holding ``balances``; its stand-in (released until the test holds ``slow``'s calls)."""
    operator, app, root = reference(dialect, balances)
    transport = _Stalling(app, dialect, slow)
    transport.release.set()

    def wallet(client: httpx.AsyncClient) -> Any:
        return wallet_of(dialect, f"http://operator{root}", client=client, retry=_RETRY)

    async with seamless_live_table(
        backend, tmp_path, transport, retry=_RETRY, wallet_of=wallet, **changes
    ) as t:
        yield operator, transport, t


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_slow_operator_delays_only_its_own_players_confirm(
    backend: str, dialect: str, tmp_path: Path
) -> None:
    balances = {"ann": 100_000, "bob": 100_000}
    slow = "bob"
    async with _slow_table(backend, tmp_path, dialect, balances, slow) as (operator, transport, t):
        console, ann, bob = t.console, t.ann, t.bob
        held = transport.hold()
        await bob.ok({"type": "add_chip", "bet": "banker"})
        await ann.ok({"type": "add_chip", "bet": "player"})
        await bob.ws.send(json.dumps({"type": "confirm", "request_id": "slow"}))
        await transport.held_after(held)  # bob's debit is at the operator, held
        assert (await ann.request({"type": "confirm"}, timeout=30))["type"] == "ok"
        assert operator.balances["ann"] == 99_000
        assert (await console.request({"type": "close_betting"}))["type"] == "ok"
        assert not any(m.get("request_id") == "slow" for m in bob.received)
        transport.release.set()
        late = await bob.answer("slow", timeout=30)
        assert late["type"] == "error"  # betting closed while the operator thought
        assert late["error"] in ("betting", "bet_closed", "phase"), late
        for _ in range(10):  # the refused confirm's debit is rolled back
            if operator.balances["bob"] == 100_000:
                break
            await asyncio.sleep(0.1)
        assert operator.balances["bob"] == 100_000


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_slow_operator_credit_delays_only_its_own_players_balance(
    backend: str, dialect: str, tmp_path: Path
) -> None:
    """[L] Money first, and per player: a settlement's credits go to the operator outside
    the table's lock, one task per player; a credit the operator sits on holds back only
    that player's ``balance`` message — the other winner hears at once and the dealer opens
    the next hand meanwhile."""
    balances = {"ann": 100_000, "bob": 100_000}
    slow = "bob"
    async with _slow_table(backend, tmp_path, dialect, balances, slow) as (operator, transport, t):
        console, ann, bob = t.console, t.ann, t.bob
        for player in (ann, bob):
            await player.ok({"type": "add_chip", "bet": "player"})
            await player.ok({"type": "confirm"})
        await console.ok({"type": "close_betting"})
        held = transport.hold()  # from now on the operator sits on bob's calls
        await console.deal("9S", "8D", "KH", "7C")  # Player natural 9 [M9]: both win
        paid = await ann.next_of("balance", lambda m: m["reason"] == "settled", timeout=30)
        assert paid["wallet_balance"] == 101_000
        await transport.held_after(held)  # bob's credit is at the operator, held
        assert operator.balances["bob"] == 99_000
        assert (await console.request({"type": "open_betting"}))["type"] == "ok"
        transport.release.set()
        late = await bob.next_of("balance", lambda m: m["reason"] == "settled", timeout=30)
        assert late["wallet_balance"] == 101_000
        assert operator.balances == {"ann": 101_000, "bob": 101_000}


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_slow_operator_delays_only_its_own_players_join(
    backend: str, dialect: str, tmp_path: Path
) -> None:
    """A join reads the player's balance from their operator outside the table's lock:
    while the operator sits on it, the other players bet and the dealer deals a whole
    hand; then the join brings the balance the operator gave."""
    balances = {"ann": 100_000, "bob": 100_000, "dev": 50_000}
    slow = "dev"
    async with _slow_table(backend, tmp_path, dialect, balances, slow) as (_, transport, t):
        token = await t.server.token("dev")
        async with TableClient.connect(t.server, "live-1", token) as dev:
            held = transport.hold()  # from now on the operator sits on dev's calls
            await dev.ws.send(json.dumps({"type": "join", "request_id": "slow"}))
            await transport.held_after(held)  # dev's balance is at the operator, held
            await t.ann.ok({"type": "add_chip", "bet": "player"})
            assert (await t.ann.request({"type": "confirm"}, timeout=30))["type"] == "ok"
            await t.console.ok({"type": "close_betting"})
            await t.console.deal("9S", "8D", "KH", "7C")  # Player natural 9 [M9]: ann wins
            paid = await t.ann.next_of("balance", lambda m: m["reason"] == "settled")
            assert paid["wallet_balance"] == 101_000
            assert not any(m.get("request_id") == "slow" for m in dev.received)
            transport.release.set()
            joined = await dev.answer("slow", timeout=30)
            assert joined["type"] == "ok", joined
            assert t.server.node.runners["live-1"].table.balance("dev") == 50_000


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_slow_operator_delays_only_its_own_players_standing_bets(
    backend: str, dialect: str, tmp_path: Path
) -> None:
    """[M12] After a tie, the operator's debit that stakes a player's standing bets again
    is made outside the table's lock: while the operator sits on it, another player bets
    and the dealer closes betting; the bets still waiting for their stake then go back to
    their player, and the debit, answered late, is given back."""
    balances = {"ann": 100_000, "bob": 100_000}
    slow = "ann"
    async with _slow_table(backend, tmp_path, dialect, balances, slow) as (operator, transport, t):
        server = t.server
        async with macau_players(server, dealer="lin") as (dealer, (ann, bob)):
            first = await a_hand(dealer, [(ann, {"banker": 2000})])  # a tie [M12]
            await ann.next_of("balance", lambda m: m["reason"] == "settled")
            assert operator.balances["ann"] == 100_000  # the push: paid back, then...
            held = transport.hold()  # ...from now on the operator sits on ann's calls
            assert (await dealer.request({"type": "open_betting"}))["type"] == "ok"
            await transport.held_after(held)  # ann's debit is at the operator, held
            opened = await bob.next_of("betting_opened", lambda m: m["event"]["game"] != first)
            game = opened["event"]["game"]
            assert (await bob.request({"type": "confirm", "bets": {"banker": 1000}}))[
                "type"
            ] == "ok"
            assert (await dealer.request({"type": "close_betting"}))["type"] == "ok"
            back = await ann.next_of("tie_bets_changed", lambda m: m["event"]["game"] == game)
            assert back["event"]["reason"] == "standing_not_staked"
            assert (back["event"]["action"], back["event"]["credited"]) == ("cancel", 2000)
            assert back["event"]["bets"] == {}
            await ann.next_of("betting_closed")  # after the bets went back
            await dealer.deal("2S", "9H", "3C", "KH")  # Player 5, Banker 9 natural
            await bob.next_of("balance", lambda m: m["reason"] == "settled")
            assert operator.balances["bob"] == 100_950
            assert await server.node.bank.round_bets(game) == {"bob": {Bet.BANKER: 1000}}
            transport.release.set()  # the debit answered late is given back
            deadline = time.monotonic() + 30
            store = server.node.store
            while (  # the late debit made, then rolled back: nothing pending
                operator.balances["ann"] != 100_000
                or await store.outbox_items(states=[OUTBOX_PENDING])
            ):
                assert time.monotonic() < deadline, operator.balances
                await asyncio.sleep(0.05)
            if dialect == "punto":  # its reconciliation look-up: made, then given back
                _, late = operator.transaction(f"standing:{game}:ann")
                assert (late["kind"], late["amount"], late["status"]) == (
                    "debit",
                    2000,
                    "rolled_back",
                )
            # a balance told while the late debit stood is followed by the wallet without it
            told = await ann.next_of("balance", lambda m: m["reason"] == "refunded")
            assert told["wallet_balance"] == 100_000
            assert server.node.runners["macau-live"].table.balance("ann") == 100_000


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_slow_operator_delays_only_its_own_players_change_of_standing_bets(
    backend: str, dialect: str, tmp_path: Path
) -> None:
    """[M12] A player's own change of the bets a tie left standing makes its operator
    calls outside the table's lock: the change is answered at once, and while the
    operator sits on the old stake's credit another player confirms. Once it answers,
    the credit comes before the debit of the raised stake (the raise is funded by the
    old stake: the player has no more), the raised bet is staked and settled, and no
    balance message ever showed the credit without the debit."""
    balances = {"ann": 5_000, "bob": 100_000}
    slow = "ann"
    async with _slow_table(backend, tmp_path, dialect, balances, slow) as (operator, transport, t):
        server = t.server
        async with macau_players(server, dealer="lin") as (dealer, (ann, bob)):
            first = await a_hand(dealer, [(ann, {"banker": 2000})])  # a tie [M12]
            await ann.next_of("balance", lambda m: m["reason"] == "settled")
            await dealer.ok({"type": "open_betting"})
            kept = await ann.next_of("tie_bets_changed", lambda m: m["event"]["game"] != first)
            assert kept["event"]["reason"] == "standing_staked"
            game = kept["event"]["game"]
            assert operator.balances["ann"] == 3_000  # the standing bet debited again
            held = transport.hold()  # from now on the operator sits on ann's calls
            raised = await ann.request(
                {"type": "change_tie_bets", "bets": {"banker": 5000}}, timeout=30
            )
            assert raised["type"] == "ok", raised  # answered without the operator
            told = len(ann.received)
            await transport.held_after(held)  # the old stake's credit is at the operator
            assert (await bob.request({"type": "confirm", "bets": {"banker": 1000}}, timeout=30))[
                "type"
            ] == "ok"
            runner = server.node.runners["macau-live"]
            assert runner.table.bets("ann") == {Bet.BANKER: 5000}  # on the layout, waiting
            assert operator.balances["ann"] == 3_000
            transport.release.set()
            staked = await ann.next_of(
                "tie_bets_changed", lambda m: m["event"]["reason"] == "standing_staked"
            )
            assert staked["event"]["bets"] == {"banker": 5000}
            assert operator.balances["ann"] == 0  # 3,000 + 2,000 back − 5,000
            assert await server.node.bank.round_bets(game) == {
                "ann": {Bet.BANKER: 5000},
                "bob": {Bet.BANKER: 1000},
            }
            await dealer.ok({"type": "close_betting"})
            await dealer.deal("2S", "9H", "3C", "KH")  # Player 5, Banker 9 natural
            await ann.next_of("balance", lambda m: m["reason"] == "settled")
            assert operator.balances["ann"] == 9_750  # 5,000 back and 4,750 won
            wallets = [m["wallet_balance"] for m in ann.received[told:] if m["type"] == "balance"]
            assert wallets[-1] == 9_750
            assert 5_000 not in wallets  # never the credit without the debit after it


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_session_that_expires_while_its_confirm_is_at_the_operator_is_answered_first(
    backend: str, dialect: str, tmp_path: Path
) -> None:
    """A socket whose session expires while one of its commands is under way (a confirm
    whose debit the operator holds) gets that command's answer, then the typed error,
    then the close with 4401: the expiry closes a reader only while it waits for the
    next message."""
    balances = {"ann": 100_000, "bob": 100_000}
    slow = "ann"
    ttl = 5.0  # time enough to sit down and confirm before the session expires
    async with (
        _slow_table(backend, tmp_path, dialect, balances, slow, token_ttl=ttl) as (
            operator,
            transport,
            t,
        ),
        # ann's own socket on a token issued now, whatever the set-up took: the confirm
        # below is under way long before the token expires
        TableClient.connect(t.server, "live-1", await t.server.token("ann")) as ann,
    ):
        expires = time.time() + ttl  # at the latest: the new token is older than this
        held = transport.hold()
        await ann.ws.send(
            json.dumps({"type": "confirm", "bets": {"player": 1000}, "request_id": "held"})
        )
        await transport.held_after(held)  # the debit is at the operator, held
        await asyncio.sleep(max(0.0, expires - time.time()) + 0.2)  # expired by now
        transport.release.set()
        with pytest.raises(ConnectionClosed):
            await ann.next_of("never", timeout=30)
        assert ann.ws.close_code == 4401
        answers = [m for m in ann.received if m.get("type") in ("ok", "error")]
        assert [(m["type"], m.get("request_id")) for m in answers[-2:]] == [
            ("ok", "held"),
            ("error", None),
        ], answers
        assert answers[-1]["message"] == "the session token has expired"
        assert operator.balances["ann"] == 99_000
