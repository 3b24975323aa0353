"""Coalesced bet totals (issue 11, issue 14 item 3): a player's own confirm is answered
and shown to them as its ``bets_confirmed`` event; the other players and spectators get,
for each batch of confirms, one ``bet_totals`` message — per bet area every player's
confirmed total and the number of bettors, and the Player/Banker split [L] — instead of
every confirm as a frame of its own. A refused command changes nothing and sends none."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ledger_support import BACKENDS
from server_support import RunningServer, TableClient, betting_players, server_on

pytestmark = pytest.mark.asyncio


async def _register(server: RunningServer, name: str) -> str:
    answer = await server.http.post(
        "/api/auth/register", json={"username": name, "password": "pw-123456"}
    )
    answer.raise_for_status()
    return str(answer.json()["token"])


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
async def test_others_get_exact_totals_and_the_player_their_own_confirm(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path, betting_seconds=600.0, confirm_window=0.005) as server:
        names = [f"tot{n}" for n in range(6)]
        tokens = [await _register(server, name) for name in names]
        async with contextlib.AsyncExitStack() as stack:
            dealer, clients = await betting_players(stack, server, tokens)
            spectator = await stack.enter_async_context(TableClient.connect(server, "live-1"))
            # players 0-2 on Banker (1000 each, player 0 twice), 3-5 on Player; 5 also Tie
            plan: list[list[str]] = [
                ["banker", "banker"],
                ["banker"],
                ["banker"],
                ["player"],
                ["player"],
                ["player", "tie"],
            ]
            for client, bets in zip(clients, plan, strict=True):
                for bet in bets:
                    await client.ok({"type": "add_chip", "bet": bet})
            spectator.skip_to_end()
            answers = await asyncio.gather(*(c.request({"type": "confirm"}) for c in clients))
            assert [a["type"] for a in answers] == ["ok"] * 6  # each confirm answered
            game = str(server.node.runners["live-1"].table.game)
            expected = {
                "banker": {"amount": 4000, "bettors": 3},
                "player": {"amount": 3000, "bettors": 3},
                "tie": {"amount": 1000, "bettors": 1},
            }

            def complete(m: dict[str, Any]) -> bool:
                return bool(m["totals"] == expected)

            def by(player: str) -> Callable[[dict[str, Any]], bool]:
                return lambda m: bool(m["event"]["player"] == player)

            for n, client in enumerate(clients):  # its own confirm, as an event
                own = await client.next_of("bets_confirmed", by(names[n]))
                assert own["event"]["game"] == game
                await client.next_of("balance", lambda m: m["reason"] == "confirmed")
                others = [
                    m
                    for m in client.received
                    if m.get("type") == "event"
                    and m["event"]["kind"] == "bets_confirmed"
                    and m["event"]["player"] != names[n]
                ]
                assert others == []  # others' confirms came as totals
            for watcher in (spectator, clients[0], clients[5]):
                seen = [
                    m for m in watcher.received if m.get("type") == "bet_totals" and complete(m)
                ]
                last = seen[0] if seen else await watcher.next_of("bet_totals", complete)
                assert last["game"] == game
                assert last["split"] == {"player": 3000, "banker": 4000}
            shown = [
                m
                for m in spectator.received
                if m.get("type") == "event" and m["event"]["kind"] == "bets_confirmed"
            ]
            assert shown == []
            to_dealer = await dealer.next_of("bets_confirmed", by(names[5]))  # every one
            assert to_dealer["event"]["bets"] == {"player": 1000, "tie": 1000}

            # a late spectator's snapshot carries the same totals
            async with TableClient.connect(server, "live-1") as late:
                assert late.snapshot["state"]["totals"] == expected
                assert late.snapshot["state"]["split"] == {"player": 3000, "banker": 4000}

            # bad input: a typed error, nothing moved, no totals sent
            await spectator.ws.send('{"type": "ping", "request_id": "p0"}')
            await spectator.next_of("pong")
            mark = len(spectator.received)
            refused = await clients[1].request({"type": "confirm"})  # nothing to confirm
            assert refused["type"] == "error"
            bad = await clients[1].request({"type": "add_chip", "bet": "no-such-area"})
            assert bad["type"] == "error"
            await spectator.ws.send('{"type": "ping", "request_id": "p1"}')
            await spectator.next_of("pong")
            assert not any(m.get("type") == "bet_totals" for m in spectator.received[mark:])
            table = server.node.runners["live-1"].table
            assert {b.value: a for b, (a, _n) in table.bet_totals().items()} == {
                "banker": 4000,
                "player": 3000,
                "tie": 1000,
            }


@pytest.mark.slow
@pytest.mark.parametrize("interval", [0.0, 0.4])
async def test_totals_go_out_at_most_once_an_interval_and_the_last_is_exact(
    interval: float, tmp_path: Path
) -> None:
    """``PUNTO_TOTALS_INTERVAL``: the first change goes at once, the changes within the
    interval after it as one message at its end; 0 sends one after every batch."""
    async with server_on(
        "sqlite",
        tmp_path,
        betting_seconds=600.0,
        confirm_window=0.0,
        totals_interval=interval,
    ) as server:
        tokens = [await _register(server, f"iv{n}") for n in range(8)]
        async with contextlib.AsyncExitStack() as stack:
            _dealer, clients = await betting_players(stack, server, tokens)
            spectator = await stack.enter_async_context(TableClient.connect(server, "live-1"))
            for client in clients:
                await client.ok({"type": "add_chip", "bet": "banker"})
            await spectator.ws.send('{"type": "ping", "request_id": "mark"}')
            await spectator.next_of("pong")
            spectator.skip_to_end()
            loop = asyncio.get_running_loop()
            started = loop.time()
            for client in clients:  # one after another: a batch each
                assert (await client.request({"type": "confirm"}))["type"] == "ok"
            last = await spectator.next_of(
                "bet_totals", lambda m: m["totals"].get("banker", {}).get("amount") == 8000
            )
            elapsed = loop.time() - started
            assert last["totals"]["banker"] == {"amount": 8000, "bettors": 8}
            sent = [m for m in spectator.received if m.get("type") == "bet_totals"]
            if interval == 0:
                assert len(sent) == 8  # one per batch
            else:  # at once, then at most one at the end of each interval
                assert 1 <= len(sent) <= 2 + int(elapsed / interval)
                assert len(sent) < 8 or elapsed >= 6 * interval


async def test_a_snapshot_shows_a_player_their_own_bets_and_the_totals(tmp_path: Path) -> None:
    """A (re)connecting player's snapshot holds their own confirmed bets and confirms and
    the table's totals, not a copy of every player's bets and confirm events (at a table
    of thousands that copy would be most of the snapshot, and players get others' confirms
    as totals only); a spectator's holds none; the dealer's holds everyone's."""
    async with server_on("sqlite", tmp_path, betting_seconds=600.0) as server:
        tokens = [await server.token(name) for name in ("ann", "bob")]
        async with contextlib.AsyncExitStack() as stack:
            _, (ann, bob) = await betting_players(stack, server, tokens)
            await ann.ok({"type": "confirm", "bets": {"banker": 2000}})
            await bob.ok({"type": "confirm", "bets": {"player": 1000}})
            views = {
                "ann": await stack.enter_async_context(
                    TableClient.connect(server, "live-1", tokens[0])
                ),
                "spectator": await stack.enter_async_context(TableClient.connect(server, "live-1")),
                "dealer": await stack.enter_async_context(
                    TableClient.connect(server, "live-1", await server.token("dana"))
                ),
            }
            seen = {who: c.snapshot["state"]["bets"] for who, c in views.items()}
            assert seen == {
                "ann": {"ann": {"banker": 2000}},
                "spectator": {},
                "dealer": {"ann": {"banker": 2000}, "bob": {"player": 1000}},
            }
            assert views["ann"].snapshot["you"]["bets"] == {"banker": 2000}
            confirms = {
                who: sorted(
                    e["player"] for e in c.snapshot["recent"] if e["kind"] == "bets_confirmed"
                )
                for who, c in views.items()
            }  # others' confirms come as totals, in the snapshot as live
            assert confirms == {"ann": ["ann"], "spectator": [], "dealer": ["ann", "bob"]}
            for client in views.values():
                assert client.snapshot["state"]["totals"] == {
                    "banker": {"amount": 2000, "bettors": 1},
                    "player": {"amount": 1000, "bettors": 1},
                }
