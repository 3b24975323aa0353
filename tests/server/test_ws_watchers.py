"""Anonymous watchers, the crowd at a table: each gets the very text a snapshot built for
it alone would be (one shared text, :mod:`punto.server.fanout.joins`), negotiates no
compression (the frames made once for all reach it as they are), and misses no event
however many join at once mid-hand."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
import websockets
from server_support import server_on, server_ws_protocol

from punto.server.auth import ANONYMOUS
from punto.server.fanout.wsprotocol import PUBLIC

pytestmark = [pytest.mark.asyncio, pytest.mark.integration]


def _text(message: Any) -> str:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


async def test_watchers_get_the_text_a_snapshot_of_their_own_would_be(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path) as server:
        url = f"{server.ws_url}/ws/tables/live-1"  # no dealer: nothing moves, no countdown
        async with websockets.connect(url) as one, websockets.connect(url) as two:
            first, second = await one.recv(), await two.recv()
            own = _text(await server.node.snapshot("live-1", ANONYMOUS))
            assert first == second == own
            await one.send(json.dumps({"type": "resync", "request_id": "r1"}))
            answer = str(await one.recv())
            while '"request_id":"r1"' not in answer:  # the chat's history came first
                answer = str(await one.recv())
            assert json.loads(answer) == {**json.loads(own), "request_id": "r1"}
            assert answer == own[:-1] + ',"request_id":"r1"}'


async def test_only_a_connection_that_logs_in_is_compressed(tmp_path: Path) -> None:
    if server_ws_protocol() == PUBLIC:
        pytest.skip("uvicorn's public protocol negotiates compression for everyone")
    async with server_on("sqlite", tmp_path) as server:
        url = f"{server.ws_url}/ws/tables/live-1"
        token = await server.token("ann")
        async with (
            websockets.connect(url) as watcher,
            websockets.connect(f"{url}?token={token}") as player,
        ):
            await watcher.recv()
            await player.recv()
            assert watcher.protocol.extensions == []
            assert [e.name for e in player.protocol.extensions] == ["permessage-deflate"]


async def _events_until(ws: websockets.ClientConnection, last: int) -> list[int]:
    """The numbers of the events ``ws`` gets until event ``last``."""
    seqs: list[int] = []
    while not seqs or seqs[-1] < last:
        message = orjson.loads(await asyncio.wait_for(ws.recv(), 120))
        if message.get("type") == "event":
            seqs.append(int(message["seq"]))
    return seqs


async def test_a_crowd_joining_mid_hand_misses_no_event(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path) as server, contextlib.AsyncExitStack() as stack:
        url = f"{server.ws_url}/ws/tables/macau-1"
        crowd = await asyncio.gather(
            *(stack.enter_async_context(websockets.connect(url, max_queue=None)) for _ in range(40))
        )
        snapshots = [orjson.loads(await ws.recv()) for ws in crowd]
        last = max(int(s["seq"]) for s in snapshots) + 12  # a few cards and a result on
        seen = await asyncio.gather(*(_events_until(ws, last) for ws in crowd))
        for snapshot, seqs in zip(snapshots, seen, strict=True):
            # every event after the snapshot's, once each, in order
            assert seqs == list(range(int(snapshot["seq"]) + 1, last + 1))
