"""Each connection's messages are read in a task of its own (``punto-ws-reader``), which
the connection's handler awaits: it ends with the connection, and a handler cancelled (a
forced shutdown) cancels it — no reader outlives its connection, none keeps reading a
socket nobody answers."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

import pytest
import websockets

from server_support import RunningServer, TableClient, server_on

pytestmark = pytest.mark.asyncio

_READER = "punto-ws-reader"


def _readers() -> list[asyncio.Task[object]]:
    return [task for task in asyncio.all_tasks() if task.get_name() == _READER]


async def _until(condition: object, what: str) -> None:
    """Wait until ``condition()`` holds, looking again after each short pause (the server
    runs in this loop); fails only after a minute, so a busy machine is never a failure."""
    assert callable(condition)
    deadline = time.monotonic() + 60
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.001)


async def _ping(client: TableClient, request_id: str) -> None:
    await client.ws.send(json.dumps({"type": "ping", "request_id": request_id}))
    await client.next_of("pong", lambda m: m.get("request_id") == request_id)


async def test_one_reader_a_connection_answers_and_ends_with_it(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path) as server:
        assert _readers() == []
        async with (
            TableClient.connect(server, "macau-1") as one,
            TableClient.connect(server, "macau-1") as two,
        ):
            await _ping(one, "a")
            await _ping(two, "b")
            readers = _readers()
            assert len(readers) == 2
            assert server.node.hub.count("macau-1") == 2
        await _until(lambda: all(task.done() for task in readers), "the readers ended")
        assert not any(task.cancelled() for task in readers)  # ended: the client left
        assert all(task.exception() is None for task in readers)
        await _until(lambda: server.node.hub.count("macau-1") == 0, "the hub forgot them")


async def test_a_cancelled_handler_cancels_its_reader(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with server_on("sqlite", tmp_path) as server, _client(server) as ws:
        await ws.send(json.dumps({"type": "ping", "request_id": "p"}))
        while json.loads(await ws.recv()).get("type") != "pong":
            pass
        (reader,) = _readers()
        handler = _awaiting(reader)
        handler.cancel()  # as a forced shutdown does
        await _until(reader.done, "the reader ended")
        assert reader.cancelled()
        await _until(lambda: server.node.hub.count("macau-1") == 0, "the hub forgot it")
    # uvicorn reports a handler that ended cancelled (its own logger); none of ours errs
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [r for r in errors if r.name.startswith("punto")], errors


def _awaiting(reader: asyncio.Task[object]) -> asyncio.Task[object]:
    """The task that awaits ``reader`` (the connection's handler)."""
    waiting = [
        task
        for task in asyncio.all_tasks()
        if getattr(task, "_fut_waiter", None) is reader  # asyncio's own field
    ]
    assert len(waiting) == 1, waiting
    return waiting[0]


def _client(server: RunningServer) -> websockets.connect:
    return websockets.connect(f"{server.ws_url}/ws/tables/macau-1", max_queue=None)
