"""Settlement pending: a table whose money effect failed waits, and tries it again."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from punto.errors import PuntoError, UnavailableError
from punto.server.fanout.bus import Bus
from punto.server.services import ServerClock
from punto.server.tables.effects import Effect

__all__ = ["MoneyPending"]

_LOG = logging.getLogger("punto.server.tables.pending")

_RETRY_FIRST = 0.5
_RETRY_MAX = 10.0
"""Backoff of a failed money effect's retries (seconds): 0.5, 1, 2 … up to 10."""


@dataclass(slots=True)
class _Failed:
    game: str | None
    reason: str
    tries: int
    retry_at: float


class MoneyPending:
    """Whether a table is *settlement pending* (money first): a money effect failed (the
    ledger or the operator's wallet did not answer), so no new hand and no command until the
    retry, with backoff, has moved the money."""

    def __init__(self, table_id: str, *, clock: ServerClock, bus: Bus) -> None:
        self._id = table_id
        self._clock = clock
        self._bus = bus
        self._failed: _Failed | None = None
        self._tries = 0

    @property
    def pending(self) -> bool:
        """Whether the table waits for its money."""
        return self._failed is not None

    def verify(self) -> None:
        """Refuse commands while the last hand's money is pending."""
        if self._failed is not None:
            raise UnavailableError(
                f"table {self._id} is settling hand {self._failed.game}: its money "
                "has not moved yet (the ledger or the wallet did not answer); the table "
                "resumes by itself"
            )

    def failed(self, effect: Effect, exc: Exception) -> None:
        """``effect`` failed: the table is settlement pending until its retry."""
        tries = self._tries
        delay = min(_RETRY_MAX, _RETRY_FIRST * 2**tries)
        game = getattr(effect, "game", None)
        self._failed = _Failed(
            game=None if game is None else str(game),
            reason=str(exc) if isinstance(exc, PuntoError) else "the ledger did not answer",
            tries=tries + 1,
            retry_at=self._clock.monotonic() + delay,
        )
        _LOG.error(
            "settlement pending: money effect failed",
            exc_info=exc,
            extra={"table": self._id, "effect": type(effect).__name__, "retry_in": delay},
        )

    def moved(self) -> None:
        """The failed effect's retry moved the money: the table goes on."""
        self._failed = None

    def retry_in(self) -> float:
        """Seconds until the retry (``0.0``: due, or nothing pending)."""
        failed = self._failed
        return 0.0 if failed is None else max(0.0, failed.retry_at - self._clock.monotonic())

    def message(self) -> dict[str, Any]:
        """The ``settlement_pending`` message: whether the last hand's money is still on
        its way (and why, and when it is tried again)."""
        failed = self._failed
        return {
            "type": "settlement_pending",
            "table": self._id,
            "pending": failed is not None,
            "game": None if failed is None else failed.game,
            "reason": None if failed is None else failed.reason,
            "retry_in": None if failed is None else round(self.retry_in(), 3),
        }

    async def retry(self, process: Callable[[], Awaitable[None]]) -> float:
        """Try the failed money effect again when due (``process``: the effects' retry
        pass); the delay before the next step."""
        failed = self._failed
        assert failed is not None
        now = self._clock.monotonic()
        if now < failed.retry_at:
            return failed.retry_at - now
        self._tries = failed.tries
        await process()
        if self._failed is not None:
            return self.retry_in()
        self._tries = 0
        _LOG.info("settlement done after all", extra={"table": self._id, "game": failed.game})
        message = self.message()
        message["game"] = failed.game
        await self._bus.publish({"table": self._id, "message": message})
        return 0.0
