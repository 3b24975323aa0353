"""Pages the server answers a browser itself: the web client's not-found page.

A browser that asks for a path nothing serves (an old link, ``/table/macau-1`` typed by
hand) gets the web client's own page with status 404, its assets pointed at the client's
folder and a mark that the client reads to say, in the reader's language, that the page
does not exist. API paths and non-browser callers keep the protocol's JSON errors.

>>> page = NotFoundPage('<head><link href="css/app.css">')
>>> page.html("/punto")
'<head><meta name="punto-not-found" content="/punto/app/"><link href="/punto/app/css/app.css">'
>>> wants_page("GET", "/table/x", "text/html"), wants_page("GET", "/api/x", "text/html")
(True, False)
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["API_PREFIXES", "NotFoundPage", "wants_page"]

API_PREFIXES = ("/api/", "/ws/", "/healthz", "/metrics", "/openapi", "/docs", "/redoc")
"""Paths that answer machines: a missing one is a JSON error whoever asks."""

_ASSETS = ('href="css/', 'href="img/', 'src="js/', 'src="img/')


def wants_page(method: str, path: str, accept: str) -> bool:
    """Whether a missing ``path`` should answer the not-found page: a browser's page
    request (``GET`` or ``HEAD`` accepting HTML) for a path that is not the API's."""
    return (
        method in ("GET", "HEAD")
        and "text/html" in accept
        and not any(path == p.rstrip("/") or path.startswith(p) for p in API_PREFIXES)
    )


class NotFoundPage:
    """The web client's ``index.html`` as a not-found page for any path."""

    def __init__(self, index: str) -> None:
        self._index = index

    @classmethod
    def of(cls, web_dir: Path) -> NotFoundPage | None:
        """The page made from ``web_dir``'s client (``None`` when there is none)."""
        index = web_dir / "index.html"
        return cls(index.read_text(encoding="utf-8")) if index.is_file() else None

    def html(self, root_path: str) -> str:
        """The page for a server mounted at ``root_path``: assets from the client's folder
        (the page is at another path, and the client's pages may not set a ``<base>``)."""
        app = f"{root_path}/app/"
        text = self._index
        for asset in _ASSETS:
            attribute, _, folder = asset.partition('="')
            text = text.replace(asset, f'{attribute}="{app}{folder}')
        return text.replace("<head>", f'<head><meta name="punto-not-found" content="{app}">', 1)
