"""The WebSocket endpoint ``/ws/tables/{table_id}`` (``docs/protocol.md`` §3).

Each connection has a reader (this coroutine) and a bounded queue of outgoing messages
(:class:`~punto.server.fanout.hub.Connection`), written by the hub straight to the socket where
the WebSocket layer lends it (:mod:`punto.server.fanout.direct`) and otherwise by a writer
task: the table never waits for a slow client, which is dropped with ``4408`` when its
queue fills. Every message is parsed and validated
(:func:`punto.server.fanout.protocol.parse_command`) and answered with exactly one ``ok`` or
``error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any, cast
from urllib.parse import urlsplit

import orjson
from prometheus_client import Counter
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from punto.errors import (
    AuthError,
    ForbiddenError,
    NotFoundError,
    ProtocolError,
    PuntoError,
    UnavailableError,
)
from punto.server.auth import ANONYMOUS, Actor, Role
from punto.server.fanout.frames import EXTENSION, Sink
from punto.server.fanout.hub import Connection
from punto.server.fanout.joins import Made, with_request_id
from punto.server.fanout.protocol import (
    Ping,
    Resync,
    Roads,
    control_character,
    decode_json,
    error_message,
    parse_command,
)
from punto.server.node import Node

__all__ = [
    "CLOSE_EXPIRED",
    "CLOSE_NO_TABLE",
    "CLOSE_ORIGIN",
    "CLOSE_SLOW",
    "origin_allowed",
    "table_socket",
]

_LOG = logging.getLogger("punto.server.fanout.ws")

CLOSE_EXPIRED = 4401
"""The token is invalid or expired."""
CLOSE_NO_TABLE = 4404
"""No such table."""
CLOSE_ORIGIN = 4403
"""The page's origin is not allowed to connect."""
CLOSE_SLOW = 4408
"""The client reads too slowly (its queue is full): reconnect for a new snapshot."""
CLOSE_GOING_AWAY = 1001
"""The server is shutting down."""


def _dumps(message: Mapping[str, Any]) -> str:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


async def _writer(websocket: WebSocket, conn: Connection, node: Node) -> None:
    """Send the queued texts in order; close with the right code when told to stop."""
    sent = node.metrics.ws_messages.labels("out")  # looked up once, not per message
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                break
            await websocket.send_text(text)
            sent.inc()
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    await _close(websocket, conn, node)


async def _close(websocket: WebSocket, conn: Connection, node: Node) -> None:
    """Close with the code that says why the hub closed the connection."""
    code, reason = CLOSE_GOING_AWAY, "server shutting down"
    if conn.slow:
        code, reason = CLOSE_SLOW, "too slow: reconnect"
    elif conn in node.ended:
        code, reason = CLOSE_EXPIRED, "the session was ended: log in again"
    with contextlib.suppress(Exception):
        if websocket.application_state is WebSocketState.CONNECTED:
            await websocket.close(code=code, reason=reason)


def _sink(websocket: WebSocket) -> Sink | None:
    """The connection's socket for ready frames, where the WebSocket layer lends it
    (:mod:`punto.server.fanout.direct`)."""
    lent = (websocket.scope.get("extensions") or {}).get(EXTENSION)
    return cast("Sink", lent["sink"]) if isinstance(lent, dict) else None


async def _refuse(websocket: WebSocket, code: int, error: PuntoError) -> None:
    """Accept, say why in a typed ``error`` message, and close with ``code`` (closing
    before accepting would reach the client as a bare HTTP 403)."""
    await websocket.accept()
    with contextlib.suppress(Exception):
        await websocket.send_text(_dumps(error_message(error)))
        await websocket.close(code=code, reason=str(error)[:120])


def origin_allowed(origin: str, *, host: str, allowed: tuple[str, ...]) -> bool:
    """Whether a browser page at ``origin`` may connect: the server's own origin (its
    ``Host``) or one of the configured ``allowed`` origins (``*``: any).

    >>> origin_allowed("https://punto.example", host="punto.example", allowed=())
    True
    >>> origin_allowed("https://evil.example", host="punto.example", allowed=())
    False
    >>> origin_allowed("https://app.example", host="punto.example", allowed=("https://app.example",))
    True
    """
    if "*" in allowed or origin.rstrip("/") in allowed:
        return True
    return urlsplit(origin).netloc.lower() == host.lower() != ""


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Serve one client of one table until it goes."""
    node: Node = websocket.app.state.node
    origin = websocket.headers.get("origin")
    if origin is not None and not origin_allowed(
        origin, host=websocket.headers.get("host", ""), allowed=node.settings.allowed_origins
    ):
        error = ForbiddenError(f"connections from {origin[:80]} are not allowed")
        await _refuse(websocket, CLOSE_ORIGIN, error)
        return
    token = websocket.query_params.get("token")
    try:
        actor = await node.authenticate(token) if token else ANONYMOUS
    except AuthError as exc:
        await _refuse(websocket, CLOSE_EXPIRED, exc)
        return
    try:
        if control_character(table_id) is not None:
            raise NotFoundError("no such table")
        config = await node.config(table_id)
    except NotFoundError as exc:
        await _refuse(websocket, CLOSE_NO_TABLE, exc)
        return
    if not config.enabled or node.shutting_down:
        await _refuse(websocket, CLOSE_GOING_AWAY, UnavailableError("the table is closed"))
        return
    await websocket.accept()
    conn = node.hub.connect(table_id, actor, sink=_sink(websocket))
    if actor.token_id is not None:
        node.sessions.setdefault(actor.token_id, set()).add(conn)

    def too_slow(slow: Connection) -> None:
        node.metrics.slow_consumers.inc()
        slow.close()

    conn.on_slow = too_slow
    closer: list[asyncio.Task[None]] = []
    writer = None
    if conn.direct:  # the hub writes its frames; a task only to send the close frame
        conn.on_closed = lambda closed: closer.append(
            asyncio.create_task(_close(websocket, closed, node), name="punto-ws-close")
        )
    else:
        writer = asyncio.create_task(_writer(websocket, conn, node), name="punto-ws-writer")
    player = actor.user_id if actor.role is Role.PLAYER else None
    node.metrics.ws_connections.inc()
    try:
        await _send_snapshot(node, conn, table_id, actor)
        with contextlib.suppress(PuntoError):
            conn.send(await _chat_history(node, table_id, actor))
        if player is not None:
            await node.connected(table_id, player, connected=True)
        if _watcher(actor):  # a watcher only reads: its reader is this handler
            await _read(websocket, node, conn, table_id, actor)
        else:
            # the reader in a task of its own resumes through its own few frames, not
            # through uvicorn's, the middleware's and the router's; cancelling this
            # handler cancels it
            await asyncio.create_task(
                _read(websocket, node, conn, table_id, actor), name="punto-ws-reader"
            )
    finally:
        node.metrics.ws_connections.dec()
        node.hub.disconnect(conn)
        if actor.token_id is not None:
            left = node.sessions.get(actor.token_id, set())
            left.discard(conn)
            if not left:
                node.sessions.pop(actor.token_id, None)
        if player is not None:
            with contextlib.suppress(Exception):
                await node.connected(table_id, player, connected=False)
        last = writer if writer is not None else (closer[0] if closer else None)
        if last is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(last, 2.0)
            if not last.done():
                last.cancel()
        node.ended.discard(conn)


def _watcher(actor: Actor) -> bool:
    """An anonymous watcher: every one sees the same snapshot and chat."""
    return actor.user_id is None and actor.role is None


async def _send_snapshot(
    node: Node, conn: Connection, table_id: str, actor: Actor, request_id: str | None = None
) -> None:
    """A new snapshot (the answer to ``resync``: it carries the request's id); anonymous
    watchers share one text (:class:`punto.server.fanout.joins.Joins`)."""
    conn.restart()
    try:
        if _watcher(actor):
            text, seq = await node.joins.shared(table_id, lambda: _snapshot(node, table_id, actor))
            if request_id is not None:
                text = with_request_id(text, request_id, _dumps_str)
            conn.start(text, seq=seq)
            return
        async with node.joins.turn():
            snapshot = await node.snapshot(table_id, actor)
    except PuntoError as exc:
        conn.start(_dumps(error_message(exc, request_id)), seq=-1)
        return
    if request_id is not None:
        snapshot["request_id"] = request_id
    conn.start(_dumps(snapshot), seq=snapshot["seq"])


async def _snapshot(node: Node, table_id: str, actor: Actor) -> Made:
    snapshot = await node.snapshot(table_id, actor)
    return _dumps(snapshot), snapshot["seq"]


async def _chat_history(node: Node, table_id: str, actor: Actor) -> str:
    """The ``chat_history`` message's text (one for every anonymous watcher)."""
    if not _watcher(actor):
        return _dumps(await node.chat.history(table_id, actor))

    async def make() -> Made:
        return _dumps(await node.chat.history(table_id, actor)), -1

    return (await node.joins.shared(table_id, make, part="chat_history"))[0]


def _dumps_str(value: str) -> str:
    return orjson.dumps(value).decode()


async def _read(
    websocket: WebSocket, node: Node, conn: Connection, table_id: str, actor: Actor
) -> None:
    received = node.metrics.ws_messages.labels("in")
    reading = _Reading()
    expiry = None
    if actor.expires_at is not None:
        # one timer for the connection, not one armed and cancelled for every message (a
        # fortieth of a confirm's work): at the expiry an idle reader's client is told and
        # closed with 4401 by the writer once the error is written (a close sent from here
        # went before it: the client never learnt why), and the closing handshake ends the
        # read; a command under way is answered first, then the check below closes
        delay = max(0.0, actor.expires_at - node.clock.now())
        expiry = asyncio.get_running_loop().call_later(delay, reading.expire, node, conn)
    try:
        while not conn.closed:
            if actor.expires_at is not None and actor.expires_at <= node.clock.now():
                _expire(node, conn)
                return
            reading.idle = True
            try:
                frame = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            finally:
                reading.idle = False
            if frame["type"] == "websocket.disconnect":
                return
            await _answer(frame, node, conn, table_id, actor, received)
    finally:
        if expiry is not None:
            expiry.cancel()


class _Reading:
    """Whether a connection's reader waits for the client's next message (its session's
    expiry closes it only then)."""

    __slots__ = ("idle",)

    def __init__(self) -> None:
        self.idle = False

    def expire(self, node: Node, conn: Connection) -> None:
        if self.idle:
            _expire(node, conn)


def _expire(node: Node, conn: Connection) -> None:
    """The session token expired: say so; the writer then closes with 4401."""
    if not conn.closed:
        conn.send(_dumps(error_message(AuthError("the session token has expired"))))
        node.end_session(conn)


async def _answer(
    frame: Mapping[str, Any],
    node: Node,
    conn: Connection,
    table_id: str,
    actor: Actor,
    received: Counter,
) -> None:
    """Parse, check and carry out one message; answer it with one ``ok`` or ``error``."""
    received.inc()
    request_id = None
    try:
        text = frame.get("text")
        if text is None:
            raise ProtocolError("frames are JSON text, not binary")
        data = decode_json(text, texts=False)  # size and nesting checked before parsing
        request_id = _request_id(data)
        if not isinstance(data, dict):
            raise ProtocolError("a message must be a JSON object")
        command = parse_command(data)  # and every text field
        if isinstance(command, Ping):
            conn.send(
                _dumps({"type": "pong", "request_id": command.request_id, "time": node.clock.now()})
            )
            return
        if isinstance(command, Resync):
            await _send_snapshot(node, conn, table_id, actor, command.request_id)
            return
        if isinstance(command, Roads):
            roads = await node.roads(table_id, svg=command.format == "svg")
            conn.send(_dumps({**roads, "request_id": command.request_id}))
            return
        if actor.role is None:
            raise AuthError(f"{command.type}: log in to play; anonymous watchers only watch")
        if node.shutting_down:
            raise UnavailableError("the server is shutting down")
        events = await node.command_count(table_id, actor, command)
        conn.send(_dumps({"type": "ok", "request_id": command.request_id, "events": events}))
    except PuntoError as exc:
        conn.send(_dumps(error_message(exc, request_id)))
    except Exception:
        _LOG.exception("message failed", extra={"table": table_id})
        conn.send(_dumps(error_message(RuntimeError("internal"), request_id)))


def _request_id(data: object) -> str | None:
    """The ``request_id`` of a decoded message, even a malformed one, to echo in the error."""
    if isinstance(data, dict):
        rid = data.get("request_id")
        if isinstance(rid, str) and len(rid) <= 64:
            return rid
    return None
