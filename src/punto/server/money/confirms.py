"""Group commit of confirms: the confirms of one table that arrive together are written to
the ledger in one database transaction.

A :class:`ConfirmBatcher` collects pending confirms; its task waits a short *window*
(``PUNTO_CONFIRM_WINDOW``, default 2 ms) unless a full *batch* (``PUNTO_CONFIRM_BATCH``,
default 500) is already waiting, then hands the batch to the table's ``flush`` callback,
which checks each confirm against the round in memory, posts the good ones to the ledger
at once and answers every one. While a batch is written the next one fills, so the
database sees one transaction per batch, not one per bet.

Up to *depth* batches are flushed at once (the table server's: three,
:data:`punto.server.tables.confirming.CONFIRM_DEPTH`): while some batches' stakes are
written, the next one is taken and checked. A player has at most one confirm in
the batches being flushed: a second one (another connection, a double click) waits for a
batch after its first one's, where it is checked against the table as the first one left
it.

>>> import asyncio
>>> async def demo() -> list[list[int]]:
...     seen: list[list[int]] = []
...     async def flush(batch: list[Pending[int, int]]) -> None:
...         seen.append([p.item for p in batch])
...         for p in batch:
...             p.future.set_result(p.item * 10)
...     batcher = ConfirmBatcher(flush, window=0.001, size=2)
...     answers = await asyncio.gather(*(batcher.submit(f"p{n}", n) for n in range(3)))
...     await batcher.close()
...     assert answers == [0, 10, 20]
...     return seen
>>> asyncio.run(demo())
[[0, 1], [2]]
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["ConfirmBatcher", "Pending", "retrieve"]

_LOG = logging.getLogger("punto.server.money.confirms")

_I = TypeVar("_I")
_R = TypeVar("_R")


@dataclass(slots=True)
class Pending(Generic[_I, _R]):
    """One confirm waiting for its batch: who sent it, what it is, and its answer."""

    key: str
    """The player: one confirm of each player per batch."""
    item: _I
    future: asyncio.Future[_R] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class ConfirmBatcher(Generic[_I, _R]):
    """Collects confirms and flushes them in bounded batches after a short window."""

    def __init__(
        self,
        flush: Callable[[list[Pending[_I, _R]]], Awaitable[None]],
        *,
        window: float,
        size: int,
        depth: int | Callable[[], int] = 1,
    ) -> None:
        if size < 1 or window < 0 or (isinstance(depth, int) and depth < 1):
            raise ValueError(
                "a confirm batch needs a size of at least 1, a window ≥ 0 and a depth of at least 1"
            )
        self._flush = flush
        self.window = window
        self.size = size
        self._depth = depth
        self._queue: list[Pending[_I, _R]] = []
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._flushing: dict[asyncio.Task[None], frozenset[str]] = {}
        """The batches being flushed, and their players."""
        self.batches = 0
        """Batches flushed so far (tests and metrics)."""

    @property
    def depth(self) -> int:
        """How many batches may be flushed at once now (``depth``, or what it says now
        when it is a function: a table's rules may change between hands)."""
        return self._depth if isinstance(self._depth, int) else max(1, self._depth())

    async def submit(self, key: str, item: _I) -> _R:
        """Queue ``item`` (of player ``key``) and wait for its answer."""
        pending: Pending[_I, _R] = Pending(key, item)
        pending.future.add_done_callback(retrieve)
        self._queue.append(pending)
        self._ready.set()
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="punto-confirms")
        # A sender that goes away does not take its confirm back: once sent, it is
        # written (or refused) with its batch like any other.
        return await asyncio.shield(pending.future)

    def _take(self) -> list[Pending[_I, _R]]:
        """The next batch: at most ``size``, one per player and none of a player whose
        confirm is in a batch being flushed, in arrival order."""
        batch: list[Pending[_I, _R]] = []
        rest: list[Pending[_I, _R]] = []
        keys: set[str] = set()
        for flushing in self._flushing.values():
            keys.update(flushing)
        for pending in self._queue:
            if len(batch) < self.size and pending.key not in keys:
                keys.add(pending.key)
                batch.append(pending)
            else:
                rest.append(pending)
        self._queue = rest
        if not rest:
            self._ready.clear()
        return batch

    async def _run(self) -> None:
        while True:
            await self._ready.wait()
            if len(self._queue) < self.size and self.window > 0:
                await asyncio.sleep(self.window)
            while True:
                batch = self._take() if len(self._flushing) < self.depth else []
                if batch or not self._queue or not self._flushing:
                    break
                # a batch being flushed ends first: as many are under way as may be, or the
                # confirms waiting are of players whose last one is still being flushed
                await asyncio.wait(list(self._flushing), return_when=asyncio.FIRST_COMPLETED)
            if not batch:
                continue
            self.batches += 1
            task = asyncio.create_task(self._flush_one(batch), name="punto-confirm-batch")
            self._flushing[task] = frozenset(p.key for p in batch)
            task.add_done_callback(self._flushed)

    def _flushed(self, task: asyncio.Task[None]) -> None:
        self._flushing.pop(task, None)
        if self._queue:
            self._ready.set()  # confirms that waited for this batch's players

    async def _flush_one(self, batch: list[Pending[_I, _R]]) -> None:
        try:
            await self._flush(batch)
        except Exception as exc:  # answered, never lost: the flush failed as a whole
            _LOG.exception("confirm batch failed")
            for pending in batch:
                if not pending.future.done():
                    pending.future.set_exception(exc)
        for pending in batch:  # a flush must answer each; one that did not is refused
            if not pending.future.done():
                pending.future.set_exception(RuntimeError("confirm left unanswered"))

    async def close(self) -> None:
        """Stop the task; confirms still queued are refused."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for task in list(self._flushing):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for pending in self._queue:
            if not pending.future.done():
                pending.future.cancel()
        self._queue = []


def retrieve(future: asyncio.Future[_R]) -> None:
    """Mark a future's answer seen (whoever waited for it may have gone away meanwhile):
    an error nobody reads is not logged as never retrieved."""
    if not future.cancelled():
        future.exception()
