"""A multiplier table [LB] on a real server (SQLite and PostgreSQL): created through the
back office's API with the ``lightning`` preset, dealt live from the dealer console. The
table's RNG draws the lightning cards once betting closes and every client is sent them;
the first card waits for their show (the server's clock, held by the test); the fee is
charged with every confirm through the ledger, a winning hand's lit card multiplies its
payout, a confirm the balance cannot cover with its fee is refused, and the books check."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from ledger_support import BACKENDS
from lightning_support import player_natural_with
from server_support import TableClient, server_on

from punto.bets import Bet
from punto.cards import Card
from punto.coup import coup_of_hands
from punto.ledger.operator_ref import ReferenceOperator, create_app
from punto.ledger.wallet import RetryPolicy, SeamlessWallet
from punto.multipliers import LightningDraw
from punto.rules import preset
from punto.server.clock import GivenClock
from punto.settlement import settle
from punto.table import ManualClock

pytestmark = pytest.mark.asyncio

START = 1_765_000_000.0
SHOW = 2.0


@pytest.mark.parametrize("backend", BACKENDS)
async def test_lb_a_lit_card_multiplies_the_win_and_every_bet_pays_its_fee(
    backend: str, tmp_path: Path
) -> None:
    held = ManualClock(START)
    async with server_on(
        backend, tmp_path, clock=GivenClock(held), betting_seconds=30.0, lightning_seconds=SHOW
    ) as server:
        admin = {"Authorization": f"Bearer {await server.token('admin')}"}
        table = {"id": "bolt", "name": "Bolt", "rules": "lightning", "dealing": "live"}
        created = await server.http.post("/api/admin/tables", json=table, headers=admin)
        assert created.status_code == 201, created.text
        async with (
            TableClient.connect(server, "bolt", await server.token("dana")) as dealer,
            TableClient.connect(server, "bolt", await server.token("cleo")) as player,
        ):
            await dealer.ok({"type": "start_shoe"})
            await player.ok({"type": "join"})
            await player.ok({"type": "sit", "seat": 2, "tier": "low"})
            wallet = await server.node.bank.balance("cleo")
            await dealer.ok({"type": "open_betting"})
            opened = await player.next_of("betting_opened")
            game = opened["event"]["game"]
            # the whole wallet on Player: with its 20% fee more than the balance [LB]
            refused = await player.request({"type": "confirm", "bets": {"player": wallet}})
            assert refused["type"] == "error", refused
            assert refused["error"] == "table_balance", refused
            assert await server.node.bank.balance("cleo") == wallet
            assert await server.node.bank.round_bets(game) == {}
            confirmed = await player.request(
                {"type": "confirm", "bets": {"player": 10_000, "banker": 5_000}}
            )
            assert confirmed["type"] == "ok", confirmed
            event = (await player.next_of("bets_confirmed"))["event"]
            assert (event["debited"], event["fee"]) == (15_000, 3_000)
            assert await server.node.bank.balance("cleo") == wallet - 18_000
            await dealer.ok({"type": "close_betting"})
            drawn = (await player.next_of("lightning_drawn"))["event"]
            assert drawn["game"] == game
            assert drawn["shown_until"] == pytest.approx(held.now() + SHOW)
            cards = [(Card.parse(code), multiplier) for code, multiplier in drawn["cards"]]
            codes, multiplier = player_natural_with(cards)
            early = await dealer.request({"type": "deal_card", "card": codes.split()[0]})
            assert early["error"] == "phase"  # the lightning cards are being shown
            held.advance(SHOW)
            for card in codes.split():
                await dealer.ok({"type": "deal_card", "card": card})
            settled = await player.next_of("hand_settled", lambda m: m["event"]["game"] == game)
            (result,) = settled["event"]["results"]
            nets = {r["bet"]: r["net"] for r in result["settlement"]["results"]}
            assert nets == {"player": 10_000 * multiplier, "banker": -5_000}
            await player.next_of("balance", lambda m: m["reason"] == "settled")
            after = wallet - 3_000 - 5_000 + 10_000 * multiplier
            assert await server.node.bank.balance("cleo") == after
        hand = await server.node.store.hand(game)
        assert hand is not None
        assert hand["lightning"] == drawn["cards"]  # the hand's record keeps the draw
        assert hand["fees"] == {"cleo": 3_000}
        cleo = {"Authorization": f"Bearer {await server.token('cleo')}"}
        recall = (await server.http.get(f"/api/me/recall/{game}", headers=cleo)).json()
        assert recall["lightning"] == drawn["cards"]
        assert recall["fees"] == {"cleo": 3_000}
        report = await server.node.ledger.check()
        assert report.ok, report.problems


@pytest.mark.parametrize("backend", BACKENDS)
async def test_lb_the_rng_demo_table_draws_shows_and_settles_a_hand_multiplied(
    backend: str, tmp_path: Path
) -> None:
    held = ManualClock(START)
    async with server_on(
        backend,
        tmp_path,
        clock=GivenClock(held),
        betting_seconds=10.0,
        card_delay=0.0,
        result_seconds=1.0,
        lightning_seconds=SHOW,
    ) as server:
        runner = server.node.runners["lightning-rng"]
        async with TableClient.connect(server, "lightning-rng", await server.token("ann")) as ann:
            await ann.ok({"type": "join"})
            await ann.ok({"type": "sit", "seat": 1, "tier": "low"})
            game = await ann.betting_open()
            wallet = await server.node.bank.balance("ann")
            bets = {"player": 10_000, "banker": 10_000, "tie": 5_000}
            confirmed = await ann.request({"type": "confirm", "bets": bets})
            assert confirmed["type"] == "ok", confirmed
            assert await server.node.bank.balance("ann") == wallet - 25_000 - 5_000
            held.advance(10.0)
            runner.wake()
            closed = (await ann.next_of("betting_closed"))["event"]
            drawn = (await ann.next_of("lightning_drawn"))["event"]
            assert drawn["game"] == game
            assert drawn["shown_until"] == closed["at"] + SHOW
            held.advance(SHOW)
            runner.wake()
            settled = await ann.next_of("hand_settled", lambda m: m["event"]["game"] == game)
            hand = [
                m["event"]
                for m in ann.received
                if m.get("type") == "event" and m["event"].get("game") == game
            ]
            cards = [e for e in hand if e["kind"] == "card_placed"]
            assert min(e["at"] for e in cards) == drawn["shown_until"]  # after the show
            # the payout the rules give this coup under this draw, to the minor unit
            coup = coup_of_hands(
                [Card.parse(e["card"]) for e in cards if e["position"].startswith("P")],
                [Card.parse(e["card"]) for e in cards if e["position"].startswith("B")],
            )
            draw = LightningDraw.parse(",".join(f"{c}={m}" for c, m in drawn["cards"]))
            expected = settle(
                preset("lightning"), coup, {Bet(b): a for b, a in bets.items()}, lightning=draw
            )
            (result,) = settled["event"]["results"]
            assert result["settlement"]["total_net"] == expected.total_net
            await ann.next_of("balance", lambda m: m["reason"] == "settled")
            returned = expected.total_returned
            assert await server.node.bank.balance("ann") == wallet - 30_000 + returned
        report = await server.node.ledger.check()
        assert report.ok, report.problems


@pytest.mark.parametrize("backend", BACKENDS)
async def test_lb_with_the_operators_wallet_the_fee_is_debited_with_the_stake(
    backend: str, tmp_path: Path
) -> None:
    operator = ReferenceOperator({"ann": 100_000})
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(operator)))
    wallet = SeamlessWallet(
        "http://operator/wallet", client=client, retry=RetryPolicy(attempts=2, base_delay=0.01)
    )
    held = ManualClock(START)
    try:
        async with server_on(
            backend,
            tmp_path,
            wallet_of=wallet,
            wallet="seamless",
            wallet_url="http://operator/wallet",
            clock=GivenClock(held),
            betting_seconds=10.0,
            card_delay=0.0,
            lightning_seconds=SHOW,
        ) as server:
            runner = server.node.runners["lightning-rng"]
            token = await server.token("ann")
            async with TableClient.connect(server, "lightning-rng", token) as ann:
                await ann.ok({"type": "join"})
                await ann.ok({"type": "sit", "seat": 1, "tier": "low"})
                game = await ann.betting_open()
                refused = await ann.request({"type": "confirm", "bets": {"player": 100_000}})
                assert refused["error"] == "table_balance", refused  # 100,000 + its 20,000
                assert operator.balances["ann"] == 100_000  # no call reached the operator
                confirmed = await ann.request({"type": "confirm", "bets": {"player": 10_000}})
                assert confirmed["type"] == "ok", confirmed
                assert operator.balances["ann"] == 100_000 - 12_000  # stake and fee at once
                held.advance(10.0)
                runner.wake()
                await ann.next_of("lightning_drawn")
                held.advance(SHOW)
                runner.wake()
                settled = await ann.next_of("hand_settled", lambda m: m["event"]["game"] == game)
                (result,) = settled["event"]["results"]
                await ann.next_of("balance", lambda m: m["reason"] == "settled")
                assert operator.balances["ann"] == 88_000 + result["returned"]
            report = await server.node.ledger.check()
            assert report.ok, report.problems
    finally:
        await client.aclose()
