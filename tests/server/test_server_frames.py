"""Messages reach real WebSocket clients whole and in order on every way the server sends
them (issue 11, fan-out): frames made once and written by the hub to the socket uvicorn
lends (``punto serve``), the same with ``permessage-deflate`` negotiated (each connection's
own compressor), and plain ASGI sends (another server); a client that stops reading is
dropped with 4408 while the table and the other clients go on."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import websockets
from ledger_support import ledger_database
from server_support import RunningServer, TableClient, running_server, server_settings
from websockets.exceptions import ConnectionClosed

from punto.server.fanout.direct import DirectProtocol
from punto.server.fanout.ws import CLOSE_SLOW

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]

WAYS: dict[str, tuple[str | type[asyncio.Protocol], bool, bool]] = {
    "direct": (DirectProtocol, False, True),
    "direct-deflate": (DirectProtocol, True, True),
    "asgi": ("websockets-sansio", False, False),
}
"""How the server sends: uvicorn's protocol, compression, whether the hub writes itself."""


@asynccontextmanager
async def server(tmp_path: Path, way: str, **changes: object) -> AsyncIterator[RunningServer]:
    protocol, deflate, _ = WAYS[way]
    async with ledger_database("sqlite", tmp_path) as url:
        settings = server_settings(url, ws_deflate=deflate, **changes)
        async with running_server(settings, ws=protocol) as running:
            yield running


@pytest.mark.parametrize("way", list(WAYS))
async def test_every_message_arrives_whole_and_in_order(tmp_path: Path, way: str) -> None:
    async with server(tmp_path, way) as running:
        token = await running.token("ann")  # compression is for those who log in
        async with (
            TableClient.connect(running, "macau-1", token) as one,
            TableClient.connect(running, "macau-1") as two,
        ):
            await _every_message_arrives_whole_and_in_order(running, way, one, two)


async def _every_message_arrives_whole_and_in_order(
    running: RunningServer, way: str, one: TableClient, two: TableClient
) -> None:
    """``one`` a player, ``two`` an anonymous watcher."""
    conns = running.node.hub.connections("macau-1")
    assert len(conns) == 2
    assert all(conn.direct is WAYS[way][2] for conn in conns)
    assert (one.ws.protocol.extensions != []) is WAYS[way][1]
    assert two.ws.protocol.extensions == []  # an anonymous watcher: frames made once
    for n in range(200):  # pipelined: the answers come back in the order asked
        await one.ws.send(json.dumps({"type": "ping", "request_id": f"p{n}"}))
    pongs = [(await one.next_of("pong"))["request_id"] for _ in range(200)]
    assert pongs == [f"p{n}" for n in range(200)]
    await one.ws.send(json.dumps({"type": "roads", "format": "svg", "request_id": "r"}))
    roads = await one.next_of("roads", lambda m: m.get("request_id") == "r")
    assert len(json.dumps(roads)) > 125  # a frame with a longer length field
    for client in (one, two):  # the table's events reach both, whole
        settled = await client.next_of("hand_settled", timeout=60)
        assert settled["event"]["game"]


def _small_socket(port: int) -> socket.socket:
    """A connected socket whose receive buffer is small (its peer's writes stall soon)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.setblocking(False)
    return sock


async def _read_all(ws: websockets.ClientConnection) -> None:
    while True:
        await ws.recv()


@pytest.mark.parametrize("way", list(WAYS))
async def test_a_client_that_stops_reading_is_dropped_and_the_others_go_on(
    tmp_path: Path, way: str
) -> None:
    async with (
        server(tmp_path, way, ws_queue=20) as running,
        TableClient.connect(running, "macau-1") as reader,
    ):
        port = int(running.url.rsplit(":", 1)[1])
        url = f"{running.ws_url}/ws/tables/macau-1"
        slow = running.node.metrics.slow_consumers
        async with websockets.connect(
            url, sock=_small_socket(port), max_queue=1, max_size=2**24
        ) as stuck:
            sent = 0
            while slow._value.get() == 0:  # it asks and never reads
                assert sent < 50_000, "the client was never dropped"
                for _ in range(50):
                    sent += 1
                    await stuck.send(json.dumps({"type": "roads", "format": "svg"}))
                await asyncio.sleep(0.01)
            await reader.ws.send(json.dumps({"type": "ping", "request_id": "still"}))
            assert (await reader.next_of("pong"))["request_id"] == "still"
            with pytest.raises(ConnectionClosed) as closed:
                await _read_all(stuck)  # what it had, then the close
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == CLOSE_SLOW
        assert running.node.hub.count("macau-1") == 1
        settled = await reader.next_of("hand_settled", timeout=60)
        assert settled["event"]["game"]
