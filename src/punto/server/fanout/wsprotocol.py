"""Which uvicorn WebSocket protocol a server runs: the hook that lends each connection's
socket to the hub (:class:`punto.server.fanout.direct.DirectProtocol`) when the installed
uvicorn has what it subclasses, otherwise uvicorn's public ``websockets-sansio``.

The hook subclasses a class uvicorn does not export; :func:`missing` checks, when this
module is imported, that the installed uvicorn still has it with every method and field
the hook uses. Over the public protocol the hub sends each message as an ASGI
``websocket.send`` (:mod:`punto.server.fanout.ws`): the same messages, slower.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import logging

__all__ = ["PRIVATE", "PUBLIC", "missing", "ws_protocol"]

_LOG = logging.getLogger("punto.server.fanout")

PUBLIC = "websockets-sansio"
"""uvicorn's public name of the protocol the hook extends (``uvicorn.Config(ws=...)``)."""

PRIVATE = "uvicorn.protocols.websockets.websockets_sansio_impl"
"""The uvicorn module whose ``WebSocketsSansIOProtocol`` the hook subclasses."""

_METHODS = (
    "send_receive_event_to_app",
    "handle_connect",
    "resume_writing",
    "send",
    "start_keepalive",
    "stop_keepalive",
    "keepalive_timeout",
)
"""The methods the hook overrides and calls."""
_FIELDS = (
    "read_paused",
    "queue",
    "transport",
    "conn",
    "close_sent",
    "disconnected",
    "writable",
    "scope",
    "request",
    "response",
    "config",
    "loop",
    "ping_interval",
    "ping_timeout",
    "pending_ping_payload",
    "ping_sent_at",
)
"""The fields of uvicorn's protocol the hook reads or sets."""


def missing() -> str | None:
    """Why the hook cannot run on the installed uvicorn (``None``: it can): its base
    class, or a method or field of it the hook uses, is not there."""
    try:
        module = importlib.import_module(PRIVATE)
    except ImportError:
        return f"uvicorn has no {PRIVATE}"
    base = getattr(module, "WebSocketsSansIOProtocol", None)
    if not isinstance(base, type) or not issubclass(base, asyncio.Protocol):
        return f"{PRIVATE} has no WebSocketsSansIOProtocol"
    for name in _METHODS:
        if not callable(getattr(base, name, None)):
            return f"uvicorn's WebSocketsSansIOProtocol has no {name}()"
    try:
        source = inspect.getsource(base)
    except (OSError, TypeError):
        return "uvicorn's WebSocketsSansIOProtocol has no source to check"
    for name in _FIELDS:
        if f"self.{name}" not in source:
            return f"uvicorn's WebSocketsSansIOProtocol has no field {name}"
    return None


_MISSING = missing()


def ws_protocol() -> type[asyncio.Protocol] | str:
    """The protocol for ``uvicorn.Config(ws=...)``: the hook, or :data:`PUBLIC` when the
    installed uvicorn lacks what it uses (a warning says why)."""
    if _MISSING is not None:
        _LOG.warning("WebSocket frames sent through ASGI: %s", _MISSING, extra={"protocol": PUBLIC})
        return PUBLIC
    from punto.server.fanout.direct import DirectProtocol  # imports the private class

    return DirectProtocol
