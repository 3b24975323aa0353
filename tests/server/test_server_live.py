"""A live-dealer table over the real protocol: the dealer console scans the cards, the
coup machine places them, faults void and refund [L], [M10], [S8]."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, a_hand, add_macau_live, macau_players, server_on

from punto.bets import Bet

pytestmark = pytest.mark.asyncio


async def _open_hand(dealer: TableClient, player: TableClient, bets: dict[str, int]) -> str:
    await dealer.ok({"type": "open_betting"})
    opened = await player.next_of("betting_opened")
    for bet, amount in bets.items():
        for _ in range(amount // 1000):
            await player.ok({"type": "add_chip", "bet": bet})
    await player.ok({"type": "confirm"})
    await dealer.ok({"type": "close_betting"})
    return str(opened["event"]["game"])


@pytest.mark.parametrize("backend", BACKENDS)
async def test_l_dealer_deals_a_live_hand_and_a_void_refunds(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path, betting_seconds=30.0) as server:
        dealer_token = await server.token("dana")
        player_token = await server.token("cleo")
        async with (
            TableClient.connect(server, "live-1", dealer_token) as dealer,
            TableClient.connect(server, "live-1", player_token) as player,
        ):
            assert dealer.snapshot["you"]["viewer"] == "dealer"
            await dealer.ok({"type": "start_shoe"})
            await player.take_seat(2, chip=1000)
            wallet = await server.node.bank.balance("cleo")

            game = await _open_hand(dealer, player, {"player": 2000})
            await dealer.deal("9S", "8D", "KH", "7C")  # P1 B1 P2 B2: Player natural 9 [M9]
            refused = await dealer.request({"type": "deal_card", "card": "2C"})
            assert refused["error"] == "phase"  # the hand is over: settled at once [S8]
            settled = await player.next_of("hand_settled", lambda m: m["event"]["game"] == game)
            assert settled["event"]["results"][0]["settlement"]["total_net"] == 2000
            await player.next_of("balance", lambda m: m["reason"] == "settled")
            assert await server.node.bank.balance("cleo") == wallet + 2000

            game = await _open_hand(dealer, player, {"banker": 3000})
            assert await server.node.bank.balance("cleo") == wallet + 2000 - 3000
            bad = await dealer.request({"type": "deal_card", "card": "ZZ"})
            assert bad["error"] == "card"
            wrong_spot = await dealer.request({"type": "deal_card", "card": "4D", "position": "B1"})
            assert wrong_spot["error"] == "tableau"  # the next card is P1 [M7]
            await dealer.ok({"type": "deal_card", "card": "4D"})
            await dealer.ok({"type": "report_fault", "fault": "m10_misdeal_void", "detail": "flip"})
            voided = await player.next_of("hand_voided")
            assert voided["event"]["game"] == game
            await player.next_of("balance", lambda m: m["reason"] == "refunded")
            assert await server.node.bank.balance("cleo") == wallet + 2000

            forbidden = await player.request({"type": "deal_card", "card": "5S"})
            assert forbidden["error"] == "forbidden"
        hand = await server.node.store.hand(game)
        assert hand is not None
        assert hand["void"] is True
        assert hand["status"] == "voided"
        report = await server.node.ledger.check()
        assert report.ok, report.problems


@pytest.mark.parametrize("backend", BACKENDS)
async def test_m12_bets_standing_after_a_tie_are_staked_again_and_can_be_changed(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path, betting_seconds=30.0) as server:
        await add_macau_live(server)
        async with (
            TableClient.connect(server, "macau-live", await server.token("dana")) as dealer,
            TableClient.connect(server, "macau-live", await server.token("ann")) as player,
        ):
            await dealer.ok({"type": "start_shoe"})
            await player.take_seat(1, chip=1000)
            wallet = await server.node.bank.balance("ann")
            await _open_hand(dealer, player, {"banker": 2000})
            await dealer.deal("4S", "4H", "3S", "3H")  # Player 7, Banker 7: a tie [M12]
            settled = await player.next_of("hand_settled")
            assert settled["event"]["results"][0]["standing"] == {"banker": 2000}
            await dealer.ok({"type": "open_betting"})
            opened = await player.next_of("betting_opened")
            assert opened["event"]["standing"] == [["ann", {"banker": 2000}]]
            game = opened["event"]["game"]
            assert await server.node.bank.balance("ann") == wallet - 2000  # staked again
            raised = await player.request({"type": "change_tie_bets", "bets": {"banker": 5000}})
            assert raised["type"] == "ok", raised
            assert await server.node.bank.balance("ann") == wallet - 5000
            await dealer.ok({"type": "close_betting"})
            await dealer.deal("2S", "9H", "3C", "KH")  # Player 5 draws, Banker 9 natural
            settled = await player.next_of("hand_settled", lambda m: m["event"]["game"] == game)
            (result,) = settled["event"]["results"]
            assert result["settlement"]["total_stake"] == 5000
            await player.next_of("balance", lambda m: m["reason"] == "settled")
            assert await server.node.bank.balance("ann") == wallet + 4750  # 5000 × 0.95
            bets = await server.node.bank.round_bets(game)
            assert bets == {"ann": {Bet.BANKER: 5000}}
        report = await server.node.ledger.check()
        assert report.ok, report.problems


async def test_m12_after_a_tie_each_player_gets_their_own_standing_bets_and_all_the_totals(
    tmp_path: Path,
) -> None:
    """Issue 11: a hand opened after a tie tells a player their own standing bets, a
    spectator none and the dealer everyone's; a change to one player's standing bets goes
    to them and the dealer, the others get the table's totals — live and in a snapshot."""
    async with server_on("sqlite", tmp_path, betting_seconds=600.0) as server:
        await add_macau_live(server)
        tokens = {name: await server.token(name) for name in ("dana", "ann", "bob")}
        async with (
            TableClient.connect(server, "macau-live", tokens["dana"]) as dealer,
            TableClient.connect(server, "macau-live", tokens["ann"]) as ann,
            TableClient.connect(server, "macau-live", tokens["bob"]) as bob,
            TableClient.connect(server, "macau-live") as spectator,
        ):
            await dealer.ok({"type": "start_shoe"})
            for seat, player in enumerate((ann, bob), start=1):
                await player.ok({"type": "join"})
                await player.ok({"type": "sit", "seat": seat, "tier": "low"})
            await dealer.ok({"type": "open_betting"})
            await ann.ok({"type": "confirm", "bets": {"banker": 2000}})
            await bob.ok({"type": "confirm", "bets": {"player": 3000}})
            await dealer.ok({"type": "close_betting"})
            await dealer.deal("4S", "4H", "3S", "3H")  # Player 7, Banker 7: a tie [M12]
            await dealer.next_of("hand_settled")
            await dealer.ok({"type": "open_betting"})
            opened = await dealer.next_of("betting_opened")
            standing = {"dealer": opened["event"]["standing"]}
            for who, client in (("ann", ann), ("bob", bob), ("spectator", spectator)):
                seen = await client.next_of(
                    "betting_opened", lambda m: m["event"]["game"] == opened["event"]["game"]
                )
                standing[who] = seen["event"]["standing"]
            assert standing == {
                "dealer": [["ann", {"banker": 2000}], ["bob", {"player": 3000}]],
                "ann": [["ann", {"banker": 2000}]],
                "bob": [["bob", {"player": 3000}]],
                "spectator": [],
            }
            totals = {"banker": {"amount": 2000, "bettors": 1}}
            totals["player"] = {"amount": 3000, "bettors": 1}
            for client in (ann, bob, spectator):  # everyone's standing bets, as totals
                await client.next_of("bet_totals", lambda m: m["totals"] == totals)

            changed = await bob.request({"type": "change_tie_bets", "bets": {"player": 5000}})
            assert changed["type"] == "ok", changed
            raised = await dealer.next_of("tie_bets_changed")
            assert raised["event"]["player"] == "bob"
            mine = await bob.next_of("tie_bets_changed")
            assert mine["event"]["bets"] == {"player": 5000}
            totals["player"] = {"amount": 5000, "bettors": 1}
            for client in (ann, spectator):  # the totals, not bob's event
                after = await client.next_of("bet_totals", lambda m: m["totals"] == totals)
                assert after["seq"] >= raised["seq"]
                kinds = [m["event"]["kind"] for m in client.received if m["type"] == "event"]
                assert "tie_bets_changed" not in kinds

            async with TableClient.connect(server, "macau-live", tokens["ann"]) as again:
                recent = again.snapshot["recent"]
                shown = [e["standing"] for e in recent if e["kind"] == "betting_opened"]
                assert shown == [[["ann", {"banker": 2000}]]]
                assert not [e for e in recent if e["kind"] == "tie_bets_changed"]
                assert again.snapshot["state"]["totals"] == totals
        report = await server.node.ledger.check()
        assert report.ok, report.problems


@asynccontextmanager
async def _two_bettors(
    backend: str, tmp_path: Path
) -> AsyncIterator[tuple[TableClient, TableClient, TableClient, TableClient, TableClient, str]]:
    """live-1 with its betting closed on a hand where cleo (seat 2) staked 10.00 on Player
    and dev (seat 3) 10.00 on Banker, ann (seat 4) sat without betting and a spectator
    watches: the dealer's console, cleo, dev, ann, the spectator, and the hand's game."""
    async with (
        server_on(backend, tmp_path, betting_seconds=30.0) as server,
        TableClient.connect(server, "live-1", await server.token("dana")) as dealer,
        TableClient.connect(server, "live-1", await server.token("cleo")) as cleo,
        TableClient.connect(server, "live-1", await server.token("dev")) as dev,
        TableClient.connect(server, "live-1", await server.token("ann")) as ann,
        TableClient.connect(server, "live-1") as spectator,
    ):
        await dealer.ok({"type": "start_shoe"})
        for player, seat in ((cleo, 2), (dev, 3), (ann, 4)):
            await player.take_seat(seat, chip=1000)
        await dealer.ok({"type": "open_betting"})
        opened = await cleo.next_of("betting_opened")
        game = str(opened["event"]["game"])
        for player, bet in ((cleo, "player"), (dev, "banker")):  # ann watches this hand
            await player.ok({"type": "add_chip", "bet": bet})
            await player.ok({"type": "confirm"})
        await dealer.ok({"type": "close_betting"})
        yield dealer, cleo, dev, ann, spectator, game


@pytest.mark.parametrize("backend", BACKENDS)
async def test_each_player_gets_their_own_result_and_everyone_the_hands_summary(
    backend: str, tmp_path: Path
) -> None:
    """Issue 11: a settled hand brings each player their own result, a spectator and a
    player who did not bet the hand's summary only (never the others' winnings), and the
    dealer every result."""
    async with _two_bettors(backend, tmp_path) as (dealer, cleo, dev, ann, spectator, game):
        await dealer.deal("9S", "8D", "KH", "7C")  # Player natural 9 against 5 [M9]

        def settled(m: dict[str, Any]) -> bool:
            return bool(m["event"]["game"] == game)

        summary = {"players": 2, "areas_won": ["player"]}
        for client, name, net in ((cleo, "cleo", 1000), (dev, "dev", -1000)):
            event = (await client.next_of("hand_settled", settled))["event"]
            (result,) = event["results"]
            assert result["player"] == name
            assert result["settlement"]["total_net"] == net
            assert event["summary"] == summary
        for client in (ann, spectator):
            event = (await client.next_of("hand_settled", settled))["event"]
            assert event["results"] == []
            assert event["summary"] == summary
        event = (await dealer.next_of("hand_settled", settled))["event"]
        assert sorted(r["player"] for r in event["results"]) == ["cleo", "dev"]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_m10_each_player_gets_their_own_refund_of_a_void_and_a_spectator_none(
    backend: str, tmp_path: Path
) -> None:
    """A voided hand's refund brings each player their own refund, a spectator and a
    player who did not bet the refund's summary only (never the others' stakes), and
    the dealer every refund; ``everyone`` tells them all the layout is empty."""
    async with _two_bettors(backend, tmp_path) as (dealer, cleo, dev, ann, spectator, game):
        await dealer.deal("9S", "8D")
        await dealer.ok({"type": "report_fault", "fault": "m10_misdeal_void", "detail": "flip"})

        def refunded(m: dict[str, Any]) -> bool:
            return bool(m["event"]["game"] == game)

        for client, name, bet in ((cleo, "cleo", "player"), (dev, "dev", "banker")):
            event = (await client.next_of("bets_refunded", refunded))["event"]
            (mine,) = event["refunds"]
            assert mine["player"] == name
            assert mine["returned"] == 1000
            assert [line["bet"] for line in mine["settlement"]["results"]] == [bet]
            assert event["summary"] == {"players": 2}
            assert event["everyone"] is True
        for client in (ann, spectator):
            event = (await client.next_of("bets_refunded", refunded))["event"]
            assert event["refunds"] == []
            assert event["summary"] == {"players": 2}
            assert event["everyone"] is True
        event = (await dealer.next_of("bets_refunded", refunded))["event"]
        assert sorted(r["player"] for r in event["refunds"]) == ["cleo", "dev"]
        assert "summary" not in event
        for client in (cleo, spectator, dealer):
            await client.next_of("hand_voided", refunded)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_m12_a_player_who_leaves_with_standing_bets_takes_back_only_theirs(
    backend: str, tmp_path: Path
) -> None:
    """Leaving while betting is open takes back the main bets a tie left standing [M12]:
    in the ledger that player's stake only. Before, the whole round was voided there:
    another player's bet, still on the table, was settled by the table and paid nothing."""
    async with server_on(backend, tmp_path, betting_seconds=30.0) as server:
        async with macau_players(server) as (dealer, (ann, bob)):
            ann_wallet = await server.node.bank.balance("ann")
            bob_wallet = await server.node.bank.balance("bob")
            await a_hand(dealer, [(ann, {"banker": 1000})])  # a tie [M12]
            await dealer.ok({"type": "open_betting"})
            opened = await ann.next_of("betting_opened", lambda m: m["event"]["standing"])
            game = opened["event"]["game"]
            assert await server.node.bank.balance("ann") == ann_wallet - 1000  # staked again
            await bob.ok({"type": "confirm", "bets": {"banker": 1000}})
            left = await ann.request({"type": "leave"})
            assert left["type"] == "ok", left
            assert await server.node.bank.balance("ann") == ann_wallet  # the standing bet back
            assert await server.node.bank.round_bets(game) == {"bob": {Bet.BANKER: 1000}}
            await dealer.ok({"type": "close_betting"})
            await dealer.deal("2S", "9H", "3C", "KH")  # Player 5, Banker 9 natural
            settled = await bob.next_of("hand_settled", lambda m: m["event"]["game"] == game)
            (result,) = settled["event"]["results"]
            assert result["settlement"]["total_net"] == 950
            await bob.next_of("balance", lambda m: m["reason"] == "settled")
            assert await server.node.bank.balance("bob") == bob_wallet + 950  # paid, as shown
            assert await server.node.bank.balance("ann") == ann_wallet
        report = await server.node.ledger.check()
        assert report.ok, report.problems


@pytest.mark.parametrize("backend", BACKENDS)
async def test_m12_every_standing_bet_is_staked_again_in_one_commit(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The main bets a tie left standing [M12] are staked again when the next hand opens:
    every player's in one ledger transaction (before, one each, with the table held: after
    a tie at a table of thousands, thousands of commits before anyone could bet). One
    player whose wallet no longer holds the stake (spent at another table meanwhile) has
    theirs taken back alone."""
    async with server_on(backend, tmp_path, betting_seconds=600.0) as server:
        names = ("ann", "bob", "cleo")
        bank = server.node.bank
        async with macau_players(server, names) as (dealer, (ann, bob, cleo)):
            wallets = {name: await bank.balance(name) for name in names}
            bets = [(ann, {"banker": 2000}), (bob, {"player": 3000}), (cleo, {"banker": 1000})]
            await a_hand(dealer, bets)  # a tie [M12]
            assert {name: await bank.balance(name) for name in names} == wallets  # pushed
            # cleo spends all but 5.00 elsewhere: their standing 10.00 can no longer be staked
            await server.node.wallet.debit("cleo", wallets["cleo"] - 500, transaction_id="other")

            batches: list[list[str]] = []
            stake_many = bank.stake_many

            async def counted(round_id: str, *, table_id: str, stakes: Any) -> Any:
                batches.append([stake.player for stake in stakes])
                return await stake_many(round_id, table_id=table_id, stakes=stakes)

            monkeypatch.setattr(bank, "stake_many", counted)
            await dealer.ok({"type": "open_betting"})
            opened = await dealer.next_of("betting_opened", lambda m: m["event"]["standing"])
            game = opened["event"]["game"]
            taken = await cleo.next_of("tie_bets_changed")
            assert taken["event"]["bets"] == {}
            assert batches == [["ann", "bob", "cleo"]]  # one transaction for the three
            assert await bank.round_bets(game) == {
                "ann": {Bet.BANKER: 2000},
                "bob": {Bet.PLAYER: 3000},
            }
            assert await bank.balance("ann") == wallets["ann"] - 2000
            assert await bank.balance("bob") == wallets["bob"] - 3000
            assert await bank.balance("cleo") == 500
        report = await server.node.ledger.check()
        assert report.ok, report.problems
