"""Which operators' pages may frame the game: the ``frame-ancestors`` of the web client's
Content-Security-Policy, from the enabled operators' registered origins."""

from __future__ import annotations

import logging
from collections.abc import Callable

from punto.server.store.operators import OperatorStore

__all__ = ["REFRESH", "FrameAncestors"]

_log = logging.getLogger("punto.server.operators")

REFRESH = 10.0
"""How long (seconds) a process keeps the origins before it reads them again: an origin
added or an operator disabled reaches every process within this."""


class FrameAncestors:
    """The origins that may frame the game, read from the database at most every
    :data:`REFRESH` seconds."""

    def __init__(self, store: OperatorStore, *, monotonic: Callable[[], float]) -> None:
        self._store = store
        self._monotonic = monotonic
        self._origins: tuple[str, ...] = ()
        self._read_at: float | None = None

    async def origins(self) -> tuple[str, ...]:
        """The registered origins of every enabled operator (none: no page may frame it)."""
        now = self._monotonic()
        if self._read_at is None or now - self._read_at >= REFRESH:
            self._read_at = now
            try:
                self._origins = tuple(await self._store.origins())
            except Exception as exc:  # the database is away: the last origins read stand
                _log.warning("could not read the operators' origins: %s", exc)
        return self._origins

    def forget(self) -> None:
        """Read the origins again at the next answer (an operator changed here)."""
        self._read_at = None
