"""Python's cycle collector kept out of the money path.

A settlement of thousands of bets makes hundreds of thousands of objects, and with
Python's defaults it pays for full collections of the whole heap: :func:`calm` (at start)
freezes what the process made to start with and makes young collections rarer. A young
collection would still run in a large settlement, at a moment chosen by the number of
objects alive, not by the table: :func:`held` keeps the collector off while a round's
money moves and its players hear of it, and the collection runs after, when the table
waits for its next command.

The objects a settlement makes are freed by their reference counts as it ends; holding the
collector delays only the collection of reference cycles, for the length of a settlement.
Settlements of many tables of one process may overlap one after the other: the collector
is never kept off longer than :data:`LONGEST` seconds in a row (a young collection then
runs as a block ends, while later ones still hold it).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

from punto.server.clock import WallClock

__all__ = ["LONGEST", "calm", "held"]

LONGEST = 1.0
"""Seconds the collector stays off at most while blocks that overlap keep it off."""

_held = 0
"""How many :func:`held` blocks are running (tables of one process settle at once)."""
_enabled_before = False
"""Whether the collector was on when the first of them started."""
_since = 0.0
"""When the collector went off (or last collected young objects while held)."""
_now = WallClock().monotonic
"""The clock the collector's hold is measured by (a test sets its own)."""


def calm() -> None:
    """Keep the collector out of the way of a server: the objects made at start (modules,
    the database layer, the web framework) are frozen, never scanned again, and young
    collections run every 20,000 allocations rather than 700."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """No cycle collection while the block runs; the collector is back as it was when the
    last of the blocks running at once ends (blocks of several tasks may overlap).

    >>> import gc
    >>> with held():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    global _held, _enabled_before, _since
    if _held == 0:
        _enabled_before = gc.isenabled()
        _since = _now()
        gc.disable()
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        if _held == 0:
            if _enabled_before:
                gc.enable()
        elif _enabled_before and _now() - _since > LONGEST:
            gc.collect(0)
            _since = _now()
