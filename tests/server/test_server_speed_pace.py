"""The demo's Speed table runs at its rules' pace [L] on a real server whose clock the test
holds: betting stays open the rules' 10 s, every card is dealt the moment betting closes,
and the result shows the rules' 2 s before the next hand opens — where the server's own
pace (a card every 5 s, a result for 30 s) would have held the table still. The clock
moves only by hand, so every time in the events is exact."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on

from punto.server.clock import GivenClock
from punto.table import ManualClock

pytestmark = pytest.mark.asyncio

START = 1_765_000_000.0
"""The held clock's first second (a December 2026 epoch time)."""


@pytest.mark.parametrize("backend", BACKENDS)
async def test_l_the_speed_demo_table_bets_deals_and_shows_its_result_at_its_rules_pace(
    backend: str, tmp_path: Path
) -> None:
    held = ManualClock(START)
    async with server_on(
        backend,
        tmp_path,
        clock=GivenClock(held),
        betting_seconds=None,  # the rules' own betting time
        card_delay=5.0,
        result_seconds=30.0,
    ) as server:
        runner = server.node.runners["speed-rng"]
        async with TableClient.connect(server, "speed-rng") as watcher:
            game = await watcher.betting_open()  # opened as the server started, clock held
            told = [
                m["event"]["closes_at"]
                for m in watcher.received
                if m.get("type") == "event" and m["event"]["kind"] == "betting_opened"
            ]
            closes_at = told[0] if told else watcher.snapshot["state"]["closes_at"]
            assert closes_at == START + 10.0  # the rules' betting time, not a server's
            opened = {"game": game}
            held.advance(10.0)
            runner.wake()
            closed = (await watcher.next_of("betting_closed"))["event"]
            settled = (await watcher.next_of("hand_settled"))["event"]
            hand = [
                m["event"]
                for m in watcher.received
                if m.get("type") == "event" and m["event"].get("game") == opened["game"]
            ]
            cards = [e for e in hand if e["kind"] == "card_placed"]
            assert len(cards) >= 4
            # the cards at once: every card, the result and the settlement at the close
            assert {e["at"] for e in cards} == {closed["at"]}
            assert settled["at"] == closed["at"]
            held.advance(2.0)  # the rules' result time, not the server's 30 s
            runner.wake()
            following = (
                await watcher.next_of(
                    "betting_opened", lambda m: m["event"]["game"] != opened["game"]
                )
            )["event"]
            assert following["at"] == settled["at"] + 2.0
            assert following["closes_at"] - following["at"] == 10.0
