"""``legal`` on the wire (issue 16): the snapshot carries what the viewer may do now, and
after events a ``legal_actions`` message goes to each viewer whose value changed — the
dealer with the guidance [M7], [M9], a player only their own, a spectator nothing."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from server_support import TableClient, server_on

pytestmark = pytest.mark.asyncio


async def test_snapshot_and_events_carry_each_viewers_legal_actions(tmp_path: Path) -> None:
    async with (
        server_on("sqlite", tmp_path, betting_seconds=600.0) as server,
        contextlib.AsyncExitStack() as stack,
    ):
        dealer = await stack.enter_async_context(
            TableClient.connect(server, "live-1", await server.token("dana"))
        )
        spectator = await stack.enter_async_context(TableClient.connect(server, "live-1"))
        ann = await stack.enter_async_context(
            TableClient.connect(server, "live-1", await server.token("ann"))
        )
        legal = dealer.snapshot["state"]["legal"]
        assert "start_shoe" in legal["actions"]
        assert "open_betting" not in legal["actions"]
        assert spectator.snapshot["state"]["legal"] == {"actions": [], "guidance": None}
        assert ann.snapshot["state"]["legal"] == {"actions": [], "guidance": None}

        await dealer.ok({"type": "start_shoe"})
        after = await dealer.next_of(
            "legal_actions", lambda m: "open_betting" in m["legal"]["actions"]
        )
        assert "start_shoe" not in after["legal"]["actions"]
        assert after["seq"] >= dealer.snapshot["seq"]

        await ann.ok({"type": "join"})
        await ann.ok({"type": "sit", "seat": 1, "tier": "low"})
        mine = await ann.next_of("legal_actions", lambda m: "stand" in m["legal"]["actions"])
        assert mine["legal"]["guidance"] is None

        await dealer.ok({"type": "open_betting"})
        betting = await ann.next_of("legal_actions", lambda m: "add_chip" in m["legal"]["actions"])
        assert "close_betting" not in betting["legal"]["actions"]
        await dealer.next_of("legal_actions", lambda m: "close_betting" in m["legal"]["actions"])
        await dealer.ok({"type": "close_betting"})
        guided = await dealer.next_of("legal_actions", lambda m: m["legal"]["guidance"] is not None)
        assert guided["legal"]["guidance"] == {"next": "P1", "reason": "deal"}
        await dealer.ok({"type": "deal_card", "card": "4S"})
        nxt = await dealer.next_of("legal_actions", lambda m: m["seq"] > guided["seq"])
        assert nxt["legal"]["guidance"] == {"next": "B1", "reason": "deal"}

        # a fresh snapshot has the same value the messages left
        async with TableClient.connect(server, "live-1", await server.token("dana")) as again:
            assert again.snapshot["state"]["legal"] == nxt["legal"]

        # the spectator was never sent one: its value cannot change
        assert not [m for m in spectator.received if m.get("type") == "legal_actions"]
        # nor did the player get the dealer's
        assert not [
            m
            for m in ann.received
            if m.get("type") == "legal_actions" and "deal_card" in m["legal"]["actions"]
        ]
