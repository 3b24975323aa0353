"""A live-dealer table over the real protocol: the dealer console scans the cards, the
coup machine places them, faults void and refund [L], [M10], [S8]."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger_support import BACKENDS
from server_support import TableClient, server_on

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
            await player.ok({"type": "join"})
            await player.ok({"type": "sit", "seat": 2, "tier": "low"})
            await player.ok({"type": "choose_chip", "chip": 1000})
            wallet = await server.node.bank.balance("cleo")

            game = await _open_hand(dealer, player, {"player": 2000})
            for card in ("9S", "8D", "KH", "7C"):  # P1 B1 P2 B2: Player natural 9 [M9]
                await dealer.ok({"type": "deal_card", "card": card})
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
