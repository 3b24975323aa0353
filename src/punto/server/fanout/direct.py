"""uvicorn's WebSocket protocol, lending each connection's socket to the hub for ready
frames (the ASGI extension ``punto.frames``).

Through ASGI every message a client gets is one ``websocket.send``: one pass through
Starlette, uvicorn and the ``websockets`` framer, and one system call, per message and
connection. A table of thousands sends the same text to every client, and a player's bet
brings several messages at once: writing made frames straight to the socket saves those
passes.

:class:`DirectProtocol` is uvicorn's own ``websockets-sansio`` protocol with one addition:
when a connection is accepted, its ASGI scope carries
``extensions["punto.frames"] = {"sink": <Sink>}``, and the hub
(:class:`punto.server.fanout.hub.Connection`) writes the frames it made once
(:func:`punto.server.fanout.frames.text_frame`) to that socket directly, everything a connection
has waiting in one write. The handshake, reading, pings, flow control and the closing
handshake stay uvicorn's. A connection that negotiated ``permessage-deflate``
(``PUNTO_WS_DEFLATE``, as browsers ask) has its messages compressed by its own compressor
(its context carries over from message to message, so no two connections' bytes are the
same), still everything waiting in one write.

It subclasses a class uvicorn does not export (``WebSocketsSansIOProtocol``, since uvicorn
0.35): pyproject.toml pins uvicorn to the versions checked, and
:func:`punto.server.fanout.wsprotocol.ws_protocol` falls back to uvicorn's public
protocol when the installed one lacks what this module uses
(:func:`punto.server.fanout.wsprotocol.missing`).
"""

from __future__ import annotations

import asyncio
import random
import struct
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from uvicorn._types import ASGIReceiveEvent, ASGISendEvent
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from punto.server.fanout.frames import EXTENSION
from punto.server.fanout.keepalive import Keepalive

__all__ = ["READ_AHEAD", "DirectProtocol", "Inbox", "compressed"]

_ANSWERED = (Request("/", Headers()), Response(101, "Switching Protocols", Headers()))
"""What stands for a connection's handshake once answered (one for all connections)."""


class _SocketSink:
    """A connection's socket for ready frames (:class:`punto.server.fanout.frames.Sink`)."""

    __slots__ = ("_protocol", "on_writable")

    def __init__(self, protocol: DirectProtocol) -> None:
        self._protocol = protocol
        self.on_writable: Callable[[], None] | None = None

    def writable(self) -> bool:
        return self._protocol.writable.is_set()

    def write(self, texts: Sequence[str], frame: Callable[[str], bytes]) -> bool:
        protocol = self._protocol
        if protocol.close_sent or protocol.disconnected or protocol.transport.is_closing():
            return False
        conn = protocol.conn
        if conn.extensions:  # compressed: this connection's own compressor frames them
            for text in texts:
                conn.send_text(text.encode())
            protocol.transport.write(b"".join(conn.data_to_send()))
        elif len(texts) == 1:
            protocol.transport.write(frame(texts[0]))
        else:
            protocol.transport.write(b"".join(map(frame, texts)))
        return True


_KEEPALIVES: weakref.WeakKeyDictionary[Config, Keepalive] = weakref.WeakKeyDictionary()
"""Each server's keepalive, by its uvicorn configuration (gone with it)."""


def compressed(path: str) -> bool:
    """Whether a connection to ``path`` (with its query) may negotiate compression: only
    one that logs in (``token=``). Each compressed connection holds its own compressor
    and decompressor (about 46 KB), and its every message is compressed for it alone;
    an anonymous watcher gets the frames made once for all.

    >>> compressed("/ws/tables/macau-1"), compressed("/ws/tables/macau-1?token=abc")
    (False, True)
    """
    _, _, query = path.partition("?")
    return any(part.startswith("token=") for part in query.split("&"))


READ_AHEAD = 8
"""Messages a connection may have received and not yet read before its socket stops
being read (TCP then holds the client back): uvicorn's pause and resume of reading after
every message costs two system calls a message."""


class Inbox:
    """A connection's received ASGI events for its handler: what uvicorn uses of an
    :class:`asyncio.Queue` (``put_nowait``, ``get``, ``empty``, ``qsize``) over a list.
    A queue starts with three 64-slot blocks, 2 KB, for a watcher that may never send a
    message; one reader (the handler) takes them in order.

    >>> import asyncio
    >>> async def demo() -> list[str]:
    ...     inbox = Inbox()
    ...     getting = asyncio.ensure_future(inbox.get())
    ...     await asyncio.sleep(0)
    ...     inbox.put_nowait({"type": "websocket.connect"})
    ...     inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
    ...     return [(await getting)["type"], (await inbox.get())["type"]]
    >>> asyncio.run(demo())
    ['websocket.connect', 'websocket.disconnect']
    """

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[ASGIReceiveEvent] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: ASGIReceiveEvent) -> None:
        """Add an event; wake the handler waiting for one."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> ASGIReceiveEvent:
        """The next event, once there is one."""
        while not self._items:
            waiter = asyncio.get_running_loop().create_future()
            self._waiter = waiter
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.pop(0)  # a few at most: reading pauses at READ_AHEAD

    def empty(self) -> bool:
        """Whether no event waits."""
        return not self._items

    def qsize(self) -> int:
        """How many events wait."""
        return len(self._items)


class DirectProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol plus the ``punto.frames`` extension, and
    reading paused only once :data:`READ_AHEAD` messages wait unread."""

    _sink: _SocketSink | None = None

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        """uvicorn's, with an :class:`Inbox` for its queue of received events."""
        super().__init__(config, server_state, app_state, _loop)
        self.queue = Inbox()  # type: ignore[assignment]  # what uvicorn uses of a Queue

    def send_receive_event_to_app(self) -> None:
        """uvicorn's, without its pause after each message: paused at
        :data:`READ_AHEAD` waiting (uvicorn's ``receive`` resumes once they are read)."""
        paused = self.read_paused
        self.read_paused = True  # uvicorn pauses only a socket not paused yet
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= READ_AHEAD and not self.close_sent:
            self.read_paused = True
            self.transport.pause_reading()

    def handle_connect(self, event: Request) -> None:
        """The handshake as uvicorn does it, without compression for an anonymous
        watcher (:func:`compressed`); then the sink in the scope."""
        if not compressed(event.path):
            self.conn.available_extensions = []
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # accepted (not refused)
            self._sink = _SocketSink(self)
            scope["extensions"][EXTENSION] = {"sink": self._sink}

    async def send(self, message: ASGISendEvent) -> None:
        """uvicorn's; once the handshake is answered, its request and response go, and
        the scope's headers (a connection keeps no headers it will not read again: the
        endpoint reads them before it accepts)."""
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            self.request.headers.clear()  # the request lives on in the parser's frame
            headers = self.scope["headers"]
            if isinstance(headers, list):
                headers.clear()
            self.request, self.response = _ANSWERED

    def start_keepalive(self) -> None:
        """Pinged by the server's one :class:`~punto.server.fanout.keepalive.Keepalive`
        rather than by timers of its own."""
        keepalive = self._keepalive()
        if keepalive is not None:
            keepalive.add(self)

    def stop_keepalive(self) -> None:
        """No more pings (uvicorn's own timers, if any, stopped too)."""
        super().stop_keepalive()
        keepalive = _KEEPALIVES.get(self.config)
        if keepalive is not None:
            keepalive.discard(self)

    def ping(self, now: float) -> None:
        """A keepalive ping, as uvicorn sends it (its pong handled by uvicorn)."""
        if self.close_sent or self.transport.is_closing():
            return
        self.pending_ping_payload = struct.pack("!I", random.getrandbits(32))
        self.ping_sent_at = now
        self.conn.send_ping(self.pending_ping_payload)
        self.transport.write(b"".join(self.conn.data_to_send()))

    def _keepalive(self) -> Keepalive | None:
        interval = self.ping_interval
        if interval is None or interval <= 0:
            return None
        keepalive = _KEEPALIVES.get(self.config)
        if keepalive is None or not keepalive.on(self.loop):
            keepalive = Keepalive(self.loop, interval=interval, timeout=self.ping_timeout)
            _KEEPALIVES[self.config] = keepalive
        return keepalive

    def resume_writing(self) -> None:
        """The transport takes data again: the hub writes what waited."""
        super().resume_writing()
        sink = self._sink
        if sink is not None and sink.on_writable is not None:
            sink.on_writable()
