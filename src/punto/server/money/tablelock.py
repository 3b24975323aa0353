"""A table's lock, under which its state changes: a command holds it alone; a batch of
confirms holds it twice — to be checked, and again to be taken once its stakes are
written — and while its stakes are written the table's next batch may be checked.

A command (``async with lock``) waits until no batch is *open* (checked and not yet
taken): the checks of an open batch hold until it is taken, as if the lock had been held
all along. A command waiting goes first: no batch is checked while one waits, so a dealer
closing the betting is not held off by a crowd confirming. A batch that was checked is
always taken (:meth:`TableLock.taking` does not wait for a command), so nothing waits for
ever. A player's change of their own chips on the layout (:meth:`TableLock.for_player`)
changes nothing another player's confirm was checked against (a confirm is checked against
the others' *confirmed* bets): it waits only while a batch holding a confirm of that
player is open, and never holds a batch off.

>>> import asyncio
>>> async def demo() -> list[str]:
...     lock, seen = TableLock(), []
...     async with lock.checking():
...         seen.append("batch 1 checked")
...     async def command() -> None:
...         async with lock:
...             seen.append("command")
...     waiting = asyncio.create_task(command())
...     await asyncio.sleep(0)  # the command waits for the open batch
...     async with lock.taking():
...         seen.append("batch 1 taken")
...     lock.taken()
...     await waiting
...     return seen
>>> asyncio.run(demo())
['batch 1 checked', 'batch 1 taken', 'command']
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from types import TracebackType

from punto.table.legal import Action

__all__ = ["OWN_CHIPS", "TableLock"]

OWN_CHIPS = frozenset(
    {Action.CHOOSE_CHIP, Action.ADD_CHIP, Action.UNDO, Action.CLEAR, Action.DOUBLE, Action.REBET}
)
"""A player's changes of their own chips on the layout: they wait for no other player's
confirms being written (:meth:`TableLock.for_player`)."""


class TableLock:
    """Commands alone; batches of confirms checked while earlier ones are written."""

    def __init__(self) -> None:
        self._mutex = asyncio.Lock()
        self._open = 0
        self._none_open = asyncio.Event()
        self._none_open.set()
        self._wanted = 0
        self._none_wanted = asyncio.Event()
        self._none_wanted.set()
        self._players: dict[str, int] = {}
        """The players with a confirm in an open batch (how many batches)."""
        self._turn = asyncio.Event()
        """Set when a batch is taken (then replaced)."""

    @property
    def open(self) -> int:
        """Batches checked and not yet taken."""
        return self._open

    async def __aenter__(self) -> None:
        """Hold the lock alone: once no batch is open (none opens while this waits)."""
        self._wanted += 1
        self._none_wanted.clear()
        try:
            await self._take(lambda: self._none_open, lambda: not self._open)
        finally:
            self._wanted -= 1
            if not self._wanted:
                self._none_wanted.set()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._mutex.release()

    @asynccontextmanager
    async def politely(self) -> AsyncIterator[None]:
        """Hold the lock alone, as ``async with lock`` does, but without going first:
        batches go on being checked while this waits for a moment none is open (the
        table's loop woken by a command, with nothing due by the clock)."""
        await self._take(lambda: self._none_open, lambda: not self._open)
        try:
            yield
        finally:
            self._mutex.release()

    @asynccontextmanager
    async def for_player(self, player: str) -> AsyncIterator[None]:
        """Hold the lock for a change of ``player``'s own chips: once no open batch holds
        a confirm of theirs (batches may be open)."""
        await self._take(lambda: self._turn, lambda: player not in self._players)
        try:
            yield
        finally:
            self._mutex.release()

    @asynccontextmanager
    async def checking(self, players: Iterable[str] = ()) -> AsyncIterator[None]:
        """Hold the lock to check a batch of ``players``' confirms (once no command
        waits); the batch is open from the block's end, if it ends without an exception,
        until :meth:`taken`."""
        await self._take(lambda: self._none_wanted, lambda: not self._wanted)
        try:
            yield
            self._open += 1
            self._none_open.clear()
            for player in players:
                self._players[player] = self._players.get(player, 0) + 1
        finally:
            self._mutex.release()

    @asynccontextmanager
    async def taking(self) -> AsyncIterator[None]:
        """Hold the lock to take an open batch (commands waiting or not)."""
        async with self._mutex:
            yield

    async def _take(self, then: Callable[[], asyncio.Event], ok: Callable[[], bool]) -> None:
        """Hold the mutex at a moment ``ok()`` is true; between tries, wait for the event
        ``then()`` was before the try (it is set when ``ok()`` may have become true)."""
        while True:
            event = then()
            await self._mutex.acquire()
            if ok():
                return
            self._mutex.release()
            await event.wait()

    def taken(self, players: Iterable[str] = ()) -> None:
        """An open batch of ``players``' confirms is taken (or given up): once none is
        open, commands go on."""
        if self._open < 1:
            raise RuntimeError("no batch of confirms is open")
        self._open -= 1
        if not self._open:
            self._none_open.set()
        for player in players:
            if self._players.get(player, 0) > 1:
                self._players[player] -= 1
            else:
                self._players.pop(player, None)
        self._turn.set()
        self._turn = asyncio.Event()
