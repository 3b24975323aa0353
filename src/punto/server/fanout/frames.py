r"""WebSocket text frames made once and written straight to a connection's socket.

The table sends the same text to thousands of connections (one event's ``watcher`` view,
a ``bet_totals``, a ``countdown``). A server's frames are not masked (RFC 6455 §5.1), so
that text's frame is the same bytes for every connection: :func:`text_frame` makes it
once, and a :class:`Sink` — a connection's socket as the WebSocket layer lends it
(:mod:`punto.server.fanout.direct`) — takes a connection's waiting frames in one write.

>>> text_frame('{"type":"pong"}')
b'\x81\x0f{"type":"pong"}'
>>> len(text_frame("x" * 200)), text_frame("x" * 200)[:4]
(204, b'\x81~\x00\xc8')
>>> text_frame("x" * 70_000)[:10]
b'\x81\x7f\x00\x00\x00\x00\x00\x01\x11p'
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Protocol

__all__ = ["EXTENSION", "Sink", "text_frame"]

EXTENSION = "punto.frames"
"""The ASGI scope extension that lends a connection's socket: ``{"sink": <Sink>}``."""

_FIN_TEXT = 0x81
"""FIN and the text opcode: a whole message in one frame."""


def text_frame(text: str) -> bytes:
    """One unmasked, uncompressed WebSocket frame holding ``text`` whole."""
    payload = text.encode()
    size = len(payload)
    if size < 126:
        head = bytes((_FIN_TEXT, size))
    elif size < 1 << 16:
        head = struct.pack("!BBH", _FIN_TEXT, 126, size)
    else:
        head = struct.pack("!BBQ", _FIN_TEXT, 127, size)
    return head + payload


class Sink(Protocol):
    """A connection's socket, lent by the WebSocket layer for ready frames."""

    on_writable: Callable[[], None] | None
    """Called when the socket takes data again after :meth:`writable` said no."""

    def writable(self) -> bool:
        """Whether the socket takes data now (its buffer is below its high-water mark)."""

    def write(self, texts: Sequence[str], frame: Callable[[str], bytes]) -> bool:
        """Write ``texts`` as whole frames in one write (``frame``: a text's uncompressed
        frame, made once for every connection); ``False`` when the connection is closing
        or gone."""
