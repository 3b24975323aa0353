"""One timer pings every WebSocket connection (``punto.server.fanout.keepalive``): each
round pings the connections whose last ping was answered and closes those whose ping went
unanswered for the timeout; under ``punto serve``'s protocol no connection has a ping
timer of its own, a client that answers stays, one that never does is closed."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
from pathlib import Path

import pytest
import websockets
from ledger_support import ledger_database
from server_support import running_server, server_settings, until

from punto.server.fanout.direct import DirectProtocol
from punto.server.fanout.keepalive import Keepalive

pytestmark = pytest.mark.asyncio


class _Conn:
    def __init__(self) -> None:
        self.pending_ping_payload: bytes | None = None
        self.ping_sent_at = 0.0
        self.pings = 0
        self.failed = False

    def ping(self, now: float) -> None:
        self.pings += 1
        self.pending_ping_payload, self.ping_sent_at = b"1234", now

    def keepalive_timeout(self) -> None:
        self.failed = True

    def pong(self) -> None:
        self.pending_ping_payload = None


async def test_a_round_pings_the_answered_and_closes_the_silent() -> None:
    keepalive = Keepalive(asyncio.get_running_loop(), interval=20.0, timeout=20.0)
    answers, silent = _Conn(), _Conn()
    keepalive.add(answers)
    keepalive.add(silent)
    keepalive.tick(now=20.0)
    assert (answers.pings, silent.pings) == (1, 1)
    answers.pong()
    keepalive.tick(now=40.0)
    assert answers.pings == 2
    assert not answers.failed
    assert silent.failed
    assert silent.pings == 1
    assert len(keepalive) == 1  # the failed one is gone
    keepalive.close()


async def test_a_ping_not_yet_due_for_its_timeout_is_left_waiting() -> None:
    keepalive = Keepalive(asyncio.get_running_loop(), interval=5.0, timeout=20.0)
    conn = _Conn()
    keepalive.add(conn)
    keepalive.tick(now=5.0)
    keepalive.tick(now=10.0)  # unanswered for 5 s of 20: neither pinged again nor closed
    assert conn.pings == 1
    assert not conn.failed
    keepalive.tick(now=25.0)
    assert conn.failed
    keepalive.close()


async def test_a_closed_connection_is_pinged_no_more() -> None:
    keepalive = Keepalive(asyncio.get_running_loop(), interval=20.0, timeout=None)
    conn = _Conn()
    keepalive.add(conn)
    keepalive.discard(conn)
    keepalive.tick(now=20.0)
    assert conn.pings == 0
    keepalive.close()


def _silent_client(port: int) -> socket.socket:
    """A WebSocket client that completes its handshake, then never reads or answers."""
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            "GET /ws/tables/live-1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    return sock


@pytest.mark.integration
async def test_connections_are_kept_alive_by_one_timer(tmp_path: Path) -> None:
    async with (
        ledger_database("sqlite", tmp_path) as url,
        running_server(server_settings(url), ws=DirectProtocol, ping=(0.05, 0.05)) as server,
    ):
        port = int(server.url.rsplit(":", 1)[1])
        async with websockets.connect(f"{server.ws_url}/ws/tables/live-1") as client:
            await client.recv()
            silent = await asyncio.to_thread(_silent_client, port)
            try:
                await until(lambda: server.node.hub.count("live-1") == 2, "both connected")
                protocols = [
                    p
                    for p in server.server.server_state.connections
                    if isinstance(p, DirectProtocol)
                ]
                assert all(p.ping_timer is None and p.pong_timer is None for p in protocols)
                await until(lambda: server.node.hub.count("live-1") == 1, "the silent one closed")
                await until(lambda: any(p.last_ping_rtt > 0 for p in protocols), "a pong came back")
                await client.send('{"type":"ping","request_id":"p"}')  # still served
                while "pong" not in str(await client.recv()):
                    pass
            finally:
                silent.close()
