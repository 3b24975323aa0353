"""How joining clients get their snapshot: anonymous watchers share one text per table
state; everyone else's is made for them, a few at a time.

A burst of handshakes (a table's link shared, a process restarted) brings thousands of
watchers in a few seconds. Every anonymous watcher sees the same snapshot, so
:meth:`Joins.shared` makes it once — on another process than the table's owner, one
request to the owner however many join — and hands every joiner the same string, which the
hub frames once (:class:`punto.server.fanout.hub.Outbox`). A shared text serves a joiner only
while it is as new as what the table's clients have been sent: it was asked for when the
hub's count of the table's deliveries (:meth:`punto.server.fanout.hub.Hub.version`) was what
it is now, so whatever reached the table's clients since reaches the joiner after it,
exactly as for a snapshot of its own. Its ``closes_in`` counts down from when it was made,
so it serves for :data:`SHARE_SECONDS` at most.

The others (players, the dealer, supervisors: each snapshot holds the viewer's own seat,
money and view of the cards) take turns, :data:`BUILDS` at once, so a burst of them waits
for the table rather than holding thousands of half-made snapshots at one time.

>>> import asyncio
>>> joins = Joins(version=lambda table: 0, monotonic=lambda: 0.0)
>>> made = []
>>> async def make() -> tuple[str, int]:
...     made.append(1)
...     return '{"type":"snapshot","seq":4}', 4
>>> async def burst() -> list[tuple[str, int]]:
...     return await asyncio.gather(*(joins.shared("t1", make) for _ in range(100)))
>>> texts = asyncio.run(burst())
>>> len(made), len({id(text) for text, _ in texts})
(1, 1)
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

__all__ = ["BUILDS", "SHARE_SECONDS", "Joins", "Made", "with_request_id"]

SHARE_SECONDS = 0.1
"""The longest a shared snapshot serves joiners after it was made (its ``closes_in`` is
then that much too long: a tenth of a second of the betting countdown)."""

BUILDS = 32
"""Snapshots of players and staff made at once on one process; the rest wait their turn."""

Made = tuple[str, int]
"""A snapshot's text and the number of the last event it includes."""


@dataclass(slots=True)
class _Shared:
    version: int
    task: asyncio.Future[Made]
    made: float | None = None
    """When the text was made (``None``: still being made)."""


class Joins:
    """Snapshots for joining clients: one shared text per table state for anonymous
    watchers (:meth:`shared`), turns for everyone else's (:meth:`turn`)."""

    def __init__(
        self,
        *,
        version: Callable[[str], int],
        monotonic: Callable[[], float],
        share_seconds: float = SHARE_SECONDS,
        builds: int = BUILDS,
    ) -> None:
        self._version = version
        self._monotonic = monotonic
        self._share_seconds = share_seconds
        self._builds = asyncio.Semaphore(builds)
        self._shared: dict[tuple[str, str], _Shared] = {}
        self.made = 0
        """Shared snapshots made so far (tests, the benchmark)."""

    async def shared(
        self, table_id: str, make: Callable[[], Awaitable[Made]], *, part: str = "snapshot"
    ) -> Made:
        """The table's snapshot (or another ``part`` of what a joiner gets, such as the
        chat's history) for an anonymous watcher: the one being made or made within
        :data:`SHARE_SECONDS` while the table's clients were sent nothing new, otherwise a
        new one from ``make`` (its error reaches every joiner waiting for it)."""
        key = (table_id, part)
        version = self._version(table_id)
        entry = self._shared.get(key)
        if entry is None or entry.version != version or self._stale(entry):
            entry = _Shared(version, asyncio.ensure_future(make()))
            self._shared[key] = entry
            self.made += 1
            entry.task.add_done_callback(functools.partial(self._done, key, entry))
        # shielded: a joiner that goes away does not take the others' snapshot with it
        return await asyncio.shield(entry.task)

    def _stale(self, entry: _Shared) -> bool:
        return entry.made is not None and self._monotonic() - entry.made > self._share_seconds

    def _done(self, key: tuple[str, str], entry: _Shared, _task: object) -> None:
        entry.made = self._monotonic()
        failed = entry.task.cancelled() or entry.task.exception() is not None
        if failed and self._shared.get(key) is entry:
            del self._shared[key]  # the next joiner asks again

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Hold one of the :data:`BUILDS` turns while a snapshot of one's own is made."""
        async with self._builds:
            yield


def with_request_id(text: str, request_id: str, dumps: Callable[[str], str]) -> str:
    """A JSON object's text with ``request_id`` added last, as the answer to a request
    (the shared text unchanged for everyone else).

    >>> with_request_id('{"type":"snapshot","seq":3}', "r1", lambda s: f'"{s}"')
    '{"type":"snapshot","seq":3,"request_id":"r1"}'
    """
    return f'{text[:-1]},"request_id":{dumps(request_id)}}}'
