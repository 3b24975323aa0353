"""[L] A live hand's record names the dealer who dealt it: the signed-in dealer who opens
its betting takes the table (a ``dealer_changed`` event), whatever name the roster gave the
table; a complaint about the hand quotes that name."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, a_hand, macau_players, server_on

pytestmark = pytest.mark.asyncio

PLAYER_WINS = ("9S", "8D", "KH", "7C")
"""A Player natural 9 against 5 (shoe order P1 B1 P2 B2) [M9]."""


@pytest.mark.parametrize("backend", BACKENDS)
async def test_l_each_hand_is_recorded_as_dealt_by_the_dealer_who_dealt_it(
    backend: str, tmp_path: Path
) -> None:
    async with (
        server_on(backend, tmp_path, betting_seconds=600.0) as server,
        macau_players(server, dealer="dana") as (dana, (ann, _bob)),
        TableClient.connect(server, "macau-live", await server.token("lin")) as lin,
    ):
        bet = [(ann, {"player": 1000})]
        first = await a_hand(dana, bet, PLAYER_WINS)
        await lin.next_of("hand_settled", lambda m: m["event"]["game"] == first)  # not its own
        second = await a_hand(lin, bet, PLAYER_WINS)
        third = await a_hand(lin, bet, PLAYER_WINS)
        assert len({first, second, third}) == 3
        dealers = []
        for game in (first, second, third):
            record = await server.node.store.hand(game)
            assert record is not None
            dealers.append(record["dealer"])
        assert dealers == ["Dana", "Lin", "Lin"]
        changed = [
            m["event"]["dealer"]
            for m in ann.received
            if m.get("type") == "event" and m["event"]["kind"] == "dealer_changed"
        ]
        assert changed[-1] == "Lin"
        assert server.node.runners["macau-live"].table.dealer == "Lin"
