"""A process's background upkeep besides its tables: the seamless wallet's outbox and
the pruning of old video recordings."""

from __future__ import annotations

import asyncio
import logging
from collections import deque

from punto.server.clock import ServerClock
from punto.server.config import Settings
from punto.server.features.recordings import Recordings
from punto.server.money.bank import Bank
from punto.server.store.storage import ServerStore

__all__ = ["Upkeep"]

_LOG = logging.getLogger("punto.server.node")


class Upkeep:
    """The loops a process runs beside its tables (each runs until cancelled)."""

    def __init__(
        self,
        settings: Settings,
        *,
        bank: Bank,
        store: ServerStore,
        recordings: Recordings | None,
        clock: ServerClock,
    ) -> None:
        self._settings = settings
        self._bank = bank
        self._store = store
        self._recordings = recordings
        self._clock = clock

    async def write_owed(self, *, upto: int, advance: bool = True) -> None:
        """Write down the wallet calls the ledger owes players, up to its transaction
        ``upto``, that no process wrote (:meth:`WalletOutbox.write_owed`)."""
        try:
            await self._bank.outbox.write_owed(upto=upto, advance=advance)
        except asyncio.CancelledError:
            raise
        except Exception:  # the retry loop looks again
            _LOG.exception("wallet calls owed not written down")

    async def outbox_loop(self) -> None:
        """Retry the wallet calls the operator has not answered yet, until it does; and
        write down those the ledger owes that no process wrote (it stopped between the
        ledger's commit and the outbox's row), once the outbox's hold has passed since
        their commit (the process that owes one writes it well within that)."""
        seen: deque[tuple[float, int]] = deque()
        while True:
            await asyncio.sleep(self._settings.outbox_seconds)
            try:
                await self._bank.outbox.deliver()
                now = self._clock.monotonic()
                seen.append((now, await self._store.ledger_last_seq()))
            except asyncio.CancelledError:
                raise
            except Exception:
                _LOG.exception("wallet outbox delivery failed")
                continue
            upto = None
            while seen and now - seen[0][0] >= self._bank.outbox.hold:
                upto = seen.popleft()[1]
            if upto is not None:
                await self.write_owed(upto=upto)

    async def prune_loop(self) -> None:
        """Delete the recordings older than the retention [L], now and then every
        ``video_prune_seconds``."""
        recordings = self._recordings
        assert recordings is not None
        while True:
            try:
                pruned = await asyncio.to_thread(
                    recordings.prune,
                    now=self._clock.now(),
                    retention=self._settings.video_retention,
                )
                if pruned.segments or pruned.playlists:
                    _LOG.info(
                        "recordings pruned",
                        extra={"segments": pruned.segments, "bytes": pruned.bytes},
                    )
            except asyncio.CancelledError:
                raise
            except Exception:
                _LOG.exception("pruning the recordings failed")
            await asyncio.sleep(self._settings.video_prune_seconds)
