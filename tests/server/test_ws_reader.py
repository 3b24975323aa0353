"""Each logged-in connection's messages are read in a task of its own
(``punto-ws-reader``), which the connection's handler awaits (an anonymous watcher's
handler reads for itself: one task fewer for the crowd): it ends with the connection, and
a handler cancelled (a forced shutdown) cancels it — no reader outlives its connection,
none keeps reading a socket nobody answers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path

import pytest
from server_support import TableClient, server_on, until

pytestmark = pytest.mark.asyncio

_READER = "punto-ws-reader"


def _readers() -> list[asyncio.Task[object]]:
    return [task for task in asyncio.all_tasks() if task.get_name() == _READER]


async def _ping(client: TableClient, request_id: str) -> None:
    await client.ws.send(json.dumps({"type": "ping", "request_id": request_id}))
    await client.next_of("pong", lambda m: m.get("request_id") == request_id)


async def test_one_reader_a_connection_answers_and_ends_with_it(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path) as server:
        assert _readers() == []
        async with (
            TableClient.connect(server, "macau-1", await server.token("ann")) as one,
            TableClient.connect(server, "macau-1", await server.token("bob")) as two,
            TableClient.connect(server, "macau-1") as watcher,
        ):
            await _ping(one, "a")
            await _ping(two, "b")
            await _ping(watcher, "w")
            readers = _readers()
            assert len(readers) == 2  # an anonymous watcher's handler reads for itself
            assert server.node.hub.count("macau-1") == 3
        await until(lambda: all(task.done() for task in readers), "the readers ended", timeout=60)
        assert not any(task.cancelled() for task in readers)  # ended: the client left
        assert all(task.exception() is None for task in readers)
        await until(
            lambda: server.node.hub.count("macau-1") == 0, "the hub forgot them", timeout=60
        )


async def test_a_cancelled_handler_cancels_its_reader(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with server_on("sqlite", tmp_path) as server, contextlib.AsyncExitStack() as stack:
        token = await server.token("ann")
        client = await stack.enter_async_context(TableClient.connect(server, "macau-1", token))
        await _ping(client, "p")
        (reader,) = _readers()
        handler = _awaiting(reader)
        handler.cancel()  # as a forced shutdown does
        await until(reader.done, "the reader ended", timeout=60)
        assert reader.cancelled()
        await until(lambda: server.node.hub.count("macau-1") == 0, "the hub forgot it", timeout=60)
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
