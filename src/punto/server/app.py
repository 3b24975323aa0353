"""The ASGI application: :func:`create_app` builds it around one :class:`~punto.server.node.Node`.

Its lifespan starts the node (migrations, demo data, recovery, the tables) and stops it
gracefully (hands finished or voided and refunded, leases released, sockets closed with
``1001``). Errors are the protocol's typed errors (``docs/protocol.md`` §1) with their
HTTP status.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from punto.errors import PuntoError, RateLimitedError
from punto.server.config import Settings
from punto.server.fanout.protocol import error_code, error_message
from punto.server.fanout.ws import table_socket
from punto.server.features.chatlog import router as chatlog_router
from punto.server.features.clips import router as clips_router
from punto.server.features.complaints import router as complaints_router
from punto.server.features.lobbyprefs import router as lobbyprefs_router
from punto.server.features.recall import router as recall_router
from punto.server.http.api import router
from punto.server.http.guard import InputGuard, SecurityHeaders
from punto.server.http.pages import NotFoundPage, wants_page
from punto.server.http.reports import router as reports_router
from punto.server.logging import configure_logging
from punto.server.node import Node
from punto.server.operators.framing import FrameAncestors
from punto.server.operators.launch import Launcher
from punto.server.operators.profiles import router as profiles_router
from punto.server.operators.routes import router as operators_router
from punto.server.store.operators import OperatorStore

__all__ = ["HTTP_STATUS", "TABLE_SOCKETS", "TableServer", "create_app", "table_in_path"]

HTTP_STATUS: dict[str, int] = {
    "bad_message": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "no_video": 404,
    "video_gone": 410,
    "conflict": 409,
    "rate_limited": 429,
    "unavailable": 503,
    "wallet_unavailable": 503,
    "internal": 500,
}
"""The HTTP status of each error code (any other table or ledger refusal: 409)."""


def _error(exc: BaseException) -> JSONResponse:
    code = error_code(exc)
    headers = {}
    if isinstance(exc, RateLimitedError):
        headers["Retry-After"] = str(math.ceil(exc.retry_after))
    return JSONResponse(error_message(exc), status_code=HTTP_STATUS.get(code, 409), headers=headers)


TABLE_SOCKETS = "/ws/tables/"
"""Where the tables' WebSocket endpoint lives: ``/ws/tables/{table_id}``."""


class TableServer(FastAPI):
    """FastAPI, with a table's WebSocket handed straight to its endpoint: a connection
    may stay open for hours, and through the middleware (which pass WebSockets through
    untouched) and the router each one would keep a dozen suspended frames, an exit
    stack and a copy of its scope, about a fifth of what a watcher costs."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A table's WebSocket to :func:`table_socket`; anything else as FastAPI does."""
        if scope["type"] == "websocket":
            table_id = table_in_path(scope.get("path", ""), scope.get("root_path", ""))
            if table_id is not None:
                scope["app"] = self
                scope["path_params"] = {"table_id": table_id}
                await table_socket(WebSocket(scope, receive, send), table_id)
                return
        await super().__call__(scope, receive, send)


def table_in_path(path: str, root_path: str = "") -> str | None:
    """The table id of a path to the tables' WebSocket endpoint (``None``: another path),
    as the route ``/ws/tables/{table_id}`` would match it.

    >>> table_in_path("/ws/tables/macau-1"), table_in_path("/ws/tables/a/b")
    ('macau-1', None)
    >>> table_in_path("/punto/ws/tables/macau-1", "/punto")
    'macau-1'
    """
    if root_path and path.startswith(root_path):
        path = path[len(root_path) :]
    if not path.startswith(TABLE_SOCKETS):
        return None
    table_id = path[len(TABLE_SOCKETS) :]
    return table_id if table_id and "/" not in table_id else None


def create_app(
    settings: Settings | None = None, *, node: Node | None = None, logs: bool = False
) -> FastAPI:
    """The table server for ``settings`` (default: from the environment)."""
    settings = settings or Settings.from_env()
    node = node or Node(settings)
    if logs:
        configure_logging(settings.log_level)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await node.start()
        try:
            yield
        finally:
            await node.close()

    app = TableServer(
        title="Punto table server",
        version="0.1.0",
        summary="Baccarat tables: lobby, accounts, records, reports, administration.",
        description="The WebSocket protocol of the tables is in docs/protocol.md.",
        lifespan=lifespan,
    )
    app.state.node = node
    operators = OperatorStore(node.engine)
    app.state.launcher = Launcher(operators, now=node.clock.now, jurisdictions=node.jurisdictions)
    app.state.framing = framing = FrameAncestors(operators, monotonic=node.clock.now)
    app.add_middleware(InputGuard)
    app.add_middleware(SecurityHeaders, ancestors=framing.origins)
    app.include_router(router)
    app.include_router(reports_router)
    app.include_router(operators_router)
    app.include_router(profiles_router)
    app.include_router(recall_router)
    app.include_router(complaints_router)
    app.include_router(clips_router)
    app.include_router(chatlog_router)
    app.include_router(lobbyprefs_router)
    # TableServer hands these to table_socket before the router; the route documents them
    app.add_api_websocket_route(TABLE_SOCKETS + "{table_id}", table_socket)

    @app.exception_handler(PuntoError)
    async def punto_error(_request: Request, exc: PuntoError) -> JSONResponse:
        return _error(exc)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "request"
        body = {
            "type": "error",
            "error": "bad_message",
            "message": f"{where}: {first.get('msg', 'invalid')}",
            "request_id": None,
        }
        return JSONResponse(body, status_code=400)

    not_found = NotFoundPage.of(settings.web_dir) if settings.web_dir.is_dir() else None

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        accept = request.headers.get("accept", "")
        if (
            exc.status_code == 404
            and not_found is not None
            and wants_page(request.method, request.url.path, accept)
        ):
            root = str(request.scope.get("root_path", ""))
            return HTMLResponse(not_found.html(root), status_code=404)
        code = {404: "not_found", 405: "bad_message", 401: "unauthorized"}.get(
            exc.status_code, "bad_message"
        )
        body = {"type": "error", "error": code, "message": str(exc.detail), "request_id": None}
        return JSONResponse(body, status_code=exc.status_code)

    if settings.web_dir.is_dir():
        app.mount("/app", StaticFiles(directory=settings.web_dir, html=True), name="web")

        @app.get("/", include_in_schema=False)
        async def index() -> RedirectResponse:
            return RedirectResponse("/app/")

    return app
