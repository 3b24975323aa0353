"""What the server lets in, and what its pages may do: two small ASGI middlewares.

- :class:`InputGuard` checks every HTTP request before the application sees it: no
  control character (NUL …) in the path or the query; a body of at most
  :data:`MAX_BODY` bytes (413), checked *before* it is parsed; a JSON body nested at
  most :data:`~punto.server.fanout.protocol.MAX_DEPTH` levels with no control character in any
  text (400). Refusals are the protocol's typed errors.
- :class:`SecurityHeaders` adds a Content-Security-Policy (only the server's own
  scripts and styles; media and playlists from the tables' video servers; framing only by
  the registered operators' pages), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer`` and, when no operator may frame the game,
  ``X-Frame-Options: DENY`` to every answer (the
  interactive API pages at ``/docs`` and ``/redoc`` load their scripts from a CDN, so
  they get no CSP).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote_plus

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from punto.errors import ProtocolError, PuntoError
from punto.server.fanout.protocol import control_character, decode_json, error_message

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "MAX_BODY",
    "InputGuard",
    "SecurityHeaders",
    "content_security_policy",
]

MAX_BODY = 65_536
"""The largest REST request body, in bytes."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https: http:; "
    "media-src 'self' blob: https: http:; "
    "connect-src 'self' ws: wss: https: http:; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The web client's policy: its own scripts, styles and fonts only, no frames. A table's live
video comes from a media server or CDN an administrator names at run time (its stream URL), so
``media-src`` admits any http(s) origin (and ``blob:``), and ``connect-src`` too, because the
table page reads the stream's playlist to measure its delay; ``img-src`` likewise, for the
tables' stills and the dealers' photos the studio serves (``video.still_url``,
``PUNTO_DEALER_PHOTOS``). Scripts stay ``'self'`` only, so
no other origin can run code on the page."""


def content_security_policy(ancestors: tuple[str, ...]) -> str:
    """The policy with ``frame-ancestors`` listing ``ancestors`` (none: ``'none'``)."""
    if not ancestors:
        return CONTENT_SECURITY_POLICY
    return CONTENT_SECURITY_POLICY.replace(
        "frame-ancestors 'none'", "frame-ancestors " + " ".join(ancestors)
    )


_NO_CSP = ("/docs", "/redoc")


async def _refuse(send: Send, status: int, error: PuntoError) -> None:
    body = json.dumps(error_message(error)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class InputGuard:
    """Refuse oversized, too deeply nested or control-character-laden requests before
    the application parses them (see the module docstring)."""

    def __init__(self, app: ASGIApp, *, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check an HTTP request's size, nesting and text, then pass it on."""
        if scope["type"] != "http":  # the WebSocket endpoint checks its own input
            await self.app(scope, receive, send)
            return
        query = unquote_plus(scope.get("query_string", b"").decode("latin-1"))
        bad = control_character(scope.get("path", "")) or control_character(query)
        if bad is not None:
            await _refuse(send, 400, ProtocolError(f"the address holds a control character {bad}"))
            return
        headers = dict(scope.get("headers", []))
        length = headers.get(b"content-length", b"").decode("latin-1").strip()
        if length.isdigit() and int(length) > self.max_body:
            await _refuse(send, 413, ProtocolError(f"a body may be at most {self.max_body} bytes"))
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _once(message, receive), send)
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
            if len(body) > self.max_body:
                error = ProtocolError(f"a body may be at most {self.max_body} bytes")
                await _refuse(send, 413, error)
                return
        kind = headers.get(b"content-type", b"application/json").decode("latin-1").lower()
        if body and "json" in kind:
            try:
                decode_json(bytes(body), limit=self.max_body, where="body")
            except ProtocolError as exc:
                await _refuse(send, 400, exc)
                return
        await self.app(scope, _once({"type": "http.request", "body": bytes(body)}, receive), send)


def _once(first: Message, receive: Receive) -> Receive:
    """``receive`` that answers ``first`` once, then the client's own messages."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return first
        return await receive()

    return replay


class SecurityHeaders:
    """Add the security headers to every HTTP answer (see the module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        ancestors: Callable[[], Awaitable[tuple[str, ...]]] | None = None,
    ) -> None:
        self.app = app
        self._ancestors = ancestors
        """The origins whose pages may frame the game (the operators' registered ones)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on and add the headers to its HTTP answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = not str(scope.get("path", "")).startswith(_NO_CSP)
        ancestors = await self._ancestors() if self._ancestors is not None and csp else ()
        policy = content_security_policy(ancestors).encode()

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[Any] = list(message.get("headers", []))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                ]
                if not ancestors:
                    headers.append((b"x-frame-options", b"DENY"))
                if csp:
                    headers.append((b"content-security-policy", policy))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
