"""Saying so when numba compiles: a first run after install spends seconds compiling
the shoe loop, and a caller may want to tell the user (``punto simulate`` does).

Numba keeps compiled kernels on disk (``cache=True``: in a ``__pycache__`` folder beside
each source file, in the user's cache when that folder is read-only, or under
``NUMBA_CACHE_DIR`` when that is set), so only the first run, or the first after an
upgrade, compiles. Numba's
event API says when a compilation starts; a cache load starts none.

>>> from numba import njit
>>> said = []
>>> with compile_notice(said.append) as compiled:
...     _ = njit(lambda x: x + 1)(1)
>>> said[0] is None, said[1] == compiled.seconds > 0
(True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from numba.core import event

__all__ = ["CompileNotice", "CompileTime", "compile_notice"]

CompileNotice = Callable[[float | None], None]
"""Called with ``None`` when compilation starts, then with the seconds it took (once
per warm-up, however many kernels compile)."""


class CompileTime(event.Listener):
    """What :func:`compile_notice` saw: ``seconds`` spent compiling (0.0 if nothing
    compiled)."""

    def __init__(self, notice: CompileNotice | None) -> None:
        self.notice = notice
        self.started: float | None = None
        self.seconds = 0.0

    def on_start(self, event: event.Event) -> None:
        """The first compilation starts: say so."""
        if self.started is None:
            self.started = time.perf_counter()
            if self.notice is not None:
                self.notice(None)

    def on_end(self, event: event.Event) -> None:
        """Nothing: the block's end closes the notice (kernels compile nested)."""


@contextmanager
def compile_notice(notice: CompileNotice | None = None) -> Iterator[CompileTime]:
    """Within the block, call ``notice(None)`` when numba starts compiling and
    ``notice(seconds)`` at the block's end if it did (nothing when every kernel was
    already loaded or came from numba's cache); the yielded :class:`CompileTime` holds
    the seconds afterwards."""
    listener = CompileTime(notice)
    with event.install_listener("numba:compile", listener):
        yield listener
    if listener.started is not None:
        listener.seconds = time.perf_counter() - listener.started
        if notice is not None:
            notice(listener.seconds)
