"""A connection's socket is read on while few of its messages wait unread
(``punto.server.fanout.direct.READ_AHEAD``): no pause and resume of reading for every
message, as uvicorn does, and a client that sends faster than the server reads is still
held back by TCP once that many wait."""

from __future__ import annotations

import json
from asyncio import selector_events
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from server_support import TableClient, server_on

from punto.server.fanout.direct import READ_AHEAD, DirectProtocol

pytestmark = pytest.mark.asyncio


def _answering(request_id: str) -> Callable[[dict[str, Any]], bool]:
    return lambda message: message.get("request_id") == request_id


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every pause of reading a WebSocket connection of the server's."""
    seen: list[object] = []
    private = "_SelectorSocketTransport"  # asyncio's socket transport (not exported)
    transport: Any = getattr(selector_events, private)
    original = transport.pause_reading

    def pause_reading(self: Any) -> None:
        if isinstance(self.get_protocol(), DirectProtocol):
            seen.append(self)
        original(self)

    monkeypatch.setattr(transport, "pause_reading", pause_reading)
    return seen


async def test_messages_read_one_by_one_never_pause_the_socket(
    tmp_path: Path, pauses: list[object]
) -> None:
    async with (
        server_on("sqlite", tmp_path) as server,
        TableClient.connect(server, "macau-1") as client,
    ):
        for n in range(30):
            await client.ws.send(json.dumps({"type": "ping", "request_id": f"p{n}"}))
            await client.next_of("pong", _answering(f"p{n}"))
    assert pauses == []  # uvicorn's own protocol paused 30 times


async def test_a_client_sending_faster_than_it_is_read_is_held_back_and_all_answered(
    tmp_path: Path, pauses: list[object]
) -> None:
    burst = 40 * READ_AHEAD
    async with (
        server_on("sqlite", tmp_path) as server,
        TableClient.connect(server, "macau-1") as client,
    ):
        for n in range(burst):  # written at once: the server reads them in a few chunks
            await client.ws.send(json.dumps({"type": "ping", "request_id": f"p{n}"}))
        for n in range(burst):
            await client.next_of("pong", _answering(f"p{n}"))
    assert pauses  # reading stopped once READ_AHEAD messages waited
