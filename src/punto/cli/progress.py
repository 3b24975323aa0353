"""A text progress bar for long runs of the command line (``punto simulate --progress``).

>>> import io
>>> out = io.StringIO()
>>> show = progress_bar(out, width=4)
>>> show(2, 4); show(4, 4)
>>> out.getvalue().split(chr(13))[2][:16]
'[####] 4/4 hands'
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from punto.simulation import Progress

__all__ = ["progress_bar"]


def progress_bar(stream: TextIO | None = None, *, width: int = 40) -> Progress:
    """A text progress bar on ``stream`` (default: standard error), redrawn in place."""
    out = stream or sys.stderr
    started = time.perf_counter()

    def show(done: int, total: int) -> None:
        filled = width * done // total
        rate = done / max(time.perf_counter() - started, 1e-9)
        out.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} hands "
            f"({rate / 1e6:.1f} M/s)"
        )
        if done >= total:
            out.write("\n")
        out.flush()

    return show
