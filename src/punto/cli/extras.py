"""Commands whose packages are an optional extra of ``punto`` (``punto[server]``: the
table server and the ledger's database store; ``punto[ray]``: a Ray cluster).

The core (rules, bets, roads, exact analysis, the compiled simulator) needs only numpy and
numba; a command that needs more imports it when it runs, and says which extra to install
when it is missing.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from punto.errors import MissingExtraError

__all__ = ["EXTRA_PACKAGES", "load_extra"]

EXTRA_PACKAGES: dict[str, frozenset[str]] = {
    "server": frozenset(
        {
            "aiosqlite",
            "alembic",
            "asyncpg",
            "fastapi",
            "httpx",
            "orjson",
            "prometheus_client",
            "pydantic",
            "redis",
            "sqlalchemy",
            "starlette",
            "uvicorn",
            "websockets",
        }
    ),
    "ray": frozenset({"ray"}),
}
"""The top-level packages each extra installs."""


def load_extra(module: str, *, extra: str, command: str) -> ModuleType:
    """Import ``module``; :class:`MissingExtraError` (``install punto[extra]``) when a
    package of ``extra`` is missing.

    >>> load_extra("punto.cli.output", extra="server", command="serve").__name__
    'punto.cli.output'
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing not in EXTRA_PACKAGES[extra]:
            raise
        raise MissingExtraError(
            f"punto {command} needs the {extra!r} extra ({missing} is not installed): "
            f"install punto[{extra}] (pip install 'punto[{extra}]')",
            extra=extra,
        ) from None
