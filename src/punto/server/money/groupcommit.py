"""One ledger write for the confirms of every table of a process that arrive together.

Each table groups its own confirms (:class:`~punto.server.money.confirms.ConfirmBatcher`) and
checks them against its round in memory; the good ones go to the ledger in one database
transaction (:meth:`~punto.ledger.store.LedgerStore.confirm_many`). At a few hundred bets
a second spread over several tables, each table's batch holds a confirm or two, and a
database transaction costs far more than the confirms in it (round trips, a connection
from the pool, the transaction's begin and commit: about 1 ms of the server's CPU on this
project's 2-core machine, against some 50 µs for each confirm in it). A
:class:`GroupCommit` writes the batches of all tables as one: while one write is under
way, the batches handed to it wait, and the next write takes all of them at once
(bounded by ``size`` confirms; one table's batch is never split). Nothing waits for a
timer: a batch handed to an idle group commit is written at once.

Up to ``writers`` writes may be under way at once (one unless asked). With one, the server
has nothing to do while a write waits for the database when every table's batches are in
it (a table has at most three batches under way: :mod:`punto.server.money.confirms`); the
server's PostgreSQL writes up to four (``PUNTO_CONFIRM_WRITERS``), so some writes' batches
are checked and answered while others are in the database. Two writes of one round run
side by side until each credits the round's escrow, which they lock last, one after the
other; two moving the same player's account (a player betting at two tables) run one
after the other on its lock: every write locks the accounts it moves in one order. A
second write starts only once ``spare_from`` items wait (a transaction's own cost is worth
that many): fewer wait for the write under way and go in the next with whatever came
meanwhile.

A writer may keep what its writes need from one write to the next while batches wait for
it (``hold``: the server's keeps a database connection, without the pool's lending and
taking back around every write), and gives it back when nothing waits.

Each batch gets its own answers, in order, as if written alone: one confirm refused
(short of funds, a closed round, a replayed key) refuses only itself, and a database
failure fails every batch of that write (each table then retries or answers it as it
would have its own). The ledger checks the merged requests in order against the locked
balances, so a player betting at two tables at once never goes below zero.

>>> import asyncio
>>> async def demo() -> tuple[list[int], list[list[int]]]:
...     writes: list[list[int]] = []
...     async def write(items: list[int]) -> list[int]:
...         writes.append(list(items))
...         await asyncio.sleep(0)
...         return [n * 10 for n in items]
...     commits = GroupCommit(write, size=10)
...     a, b, c = await asyncio.gather(
...         commits.write([1]), commits.write([2, 3]), commits.write([4])
...     )
...     return a + b + c, writes
>>> asyncio.run(demo())  # three tables' batches handed over together: one write
([10, 20, 30, 40], [[1, 2, 3, 4]])
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Generic, TypeVar

from punto.server.money.confirms import retrieve

__all__ = ["GroupCommit"]

_I = TypeVar("_I")
_R = TypeVar("_R")

Write = Callable[[list[_I]], Awaitable[Sequence[_R]]]


class GroupCommit(Generic[_I, _R]):
    """Writes the batches handed to it together: at most ``writers`` writes at a time,
    each taking every batch that waited for it (up to ``size`` items)."""

    def __init__(
        self,
        write: Write[_I, _R],
        *,
        size: int,
        writers: int = 1,
        spare_from: int = 1,
        hold: Callable[[], AbstractAsyncContextManager[Write[_I, _R]]] | None = None,
    ) -> None:
        if size < 1:
            raise ValueError("a group commit needs a size of at least 1")
        if writers < 1:
            raise ValueError("a group commit needs at least one writer")
        if spare_from < 1:
            raise ValueError("a second writer needs at least 1 item waiting")
        self._write = write
        self._hold = hold
        """Entered by a writer before its first write, left once nothing waits for it: the
        write it gives is used instead of ``write`` meanwhile."""
        self.size = size
        self.writers = writers
        self.spare_from = spare_from
        self._waiting: list[tuple[Sequence[_I], asyncio.Future[list[_R]]]] = []
        self._tasks: set[asyncio.Task[None]] = set()
        """The tasks writing the batches handed over, while there are any (at most
        ``writers``; each leaves the set as it ends, in the same step as its last look
        at the batches waiting, so none is left waiting with no task to take it)."""
        self.writes = 0
        """Writes made so far (tests and metrics)."""

    @property
    def waiting(self) -> int:
        """Batches handed over and not yet taken by a write."""
        return len(self._waiting)

    @property
    def under_way(self) -> int:
        """Writes under way (each a task that takes the next batches when it is done)."""
        return len(self._tasks)

    async def write(self, items: Sequence[_I]) -> list[_R]:
        """Write ``items`` with whatever else is waiting; their answers, in order. The
        write's exception, if it failed as a whole."""
        future: asyncio.Future[list[_R]] = asyncio.get_running_loop().create_future()
        future.add_done_callback(retrieve)
        self._waiting.append((items, future))
        if not self._tasks or (
            len(self._tasks) < self.writers
            and sum(len(waiting) for waiting, _ in self._waiting) >= self.spare_from
        ):
            task = asyncio.create_task(self._drain(), name="punto-group-commit")
            self._tasks.add(task)
            task.add_done_callback(self._ended)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            # A caller stopped (a table given up) takes back its batch if no write has
            # taken it yet: nothing of it is written that the table would not know of. A
            # write under way is the other tables' too: it goes on.
            for n, (_, waiting) in enumerate(self._waiting):
                if waiting is future:
                    del self._waiting[n]
                    future.cancel()
                    break
            raise

    def _take(self) -> list[tuple[Sequence[_I], asyncio.Future[list[_R]]]]:
        """The batches of the next write: in the order they came, up to ``size`` items
        (always at least one batch, however large)."""
        taken: list[tuple[Sequence[_I], asyncio.Future[list[_R]]]] = []
        count = 0
        while self._waiting:
            items = self._waiting[0][0]
            if taken and count + len(items) > self.size:
                break
            taken.append(self._waiting.pop(0))
            count += len(items)
        return taken

    async def _drain(self) -> None:
        try:
            while self._waiting:  # batches came while the writer was leaving its hold
                if self._hold is None:
                    await self._drain_with(self._write)
                else:
                    try:
                        async with self._hold() as write:
                            await self._drain_with(write)
                    except Exception:  # entering or leaving the hold failed (a write's
                        # own failure is its batches'): the writer goes on without it
                        await self._drain_with(self._write)
        finally:
            task = asyncio.current_task()
            if task is not None:
                self._tasks.discard(task)
            self._orphans()

    async def _drain_with(self, write: Write[_I, _R]) -> None:
        """Write the batches waiting, a write after another, until none waits."""
        while self._waiting:
            taken = self._take()
            merged = [item for items, _ in taken for item in items]
            self.writes += 1
            try:
                answers = list(await write(merged))
                if len(answers) != len(merged):
                    raise RuntimeError(
                        f"a group commit wrote {len(merged)} items and got {len(answers)} answers"
                    )
            except Exception as exc:
                for _, future in taken:
                    if not future.done():
                        future.set_exception(exc)
                continue
            except BaseException:
                for _, future in taken:
                    future.cancel()
                raise
            start = 0
            for items, future in taken:
                if not future.done():
                    future.set_result(answers[start : start + len(items)])
                start += len(items)

    def _ended(self, task: asyncio.Task[None]) -> None:
        """A writer's task ended: it has left the writers already unless it was cancelled
        before its first step (its ``finally`` never ran), and then it leaves now, or it
        would be counted as a writer for ever (with one writer, no batch would be written
        again)."""
        if task in self._tasks:
            self._tasks.discard(task)
            self._orphans()

    def _orphans(self) -> None:
        """With no writer left (the last was cancelled), nothing waits: the batches still
        waiting are cancelled (their callers take them back)."""
        if not self._tasks:
            for _, future in self._waiting:
                if not future.done():
                    future.cancel()
            self._waiting.clear()
