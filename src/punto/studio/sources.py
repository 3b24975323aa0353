"""Where a card reader's lines come from: standard input (a keyboard-wedge scanner types
into it, or a file is piped in), a file, a serial device (the shoe's reader on a serial or
USB-serial port) or a TCP socket (a networked reader that serves its reads).

``SOURCE`` is ``-`` (standard input), ``tcp:HOST:PORT``, or a path: a character device is
opened as a serial port (raw, at ``baud``), anything else is read as a file.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
import termios
import threading
import tty
from collections.abc import AsyncIterator
from typing import BinaryIO

from punto.errors import ReaderError

__all__ = ["BAUDS", "check", "lines"]

BAUDS = {
    1200: termios.B1200,
    2400: termios.B2400,
    4800: termios.B4800,
    9600: termios.B9600,
    19200: termios.B19200,
    38400: termios.B38400,
    57600: termios.B57600,
    115200: termios.B115200,
}
"""The serial speeds a reader may run at."""

_LINE_MAX = 256
"""The longest read kept (a reader sends a few characters a card)."""


def check(source: str, *, baud: int = 9600) -> None:
    """Raise :class:`ReaderError` now for a source :func:`lines` could not read."""
    if source.startswith("tcp:"):
        _address(source)
    elif source != "-":
        _open(source, baud).close()


async def lines(source: str, *, baud: int = 9600) -> AsyncIterator[str]:
    """Each line ``source`` sends, as text, until it ends."""
    if source.startswith("tcp:"):
        async for line in _tcp(source):
            yield line
        return
    if source == "-":
        stream: BinaryIO = sys.stdin.buffer
        close = False
    else:
        stream = _open(source, baud)
        close = True
    try:
        async for line in _threaded(stream):
            yield line
    finally:
        if close:
            stream.close()


def _open(path: str, baud: int) -> BinaryIO:
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise ReaderError(f"cannot read the card reader at {path}: {exc.strerror}") from None
    if not stat.S_ISCHR(mode):
        return open(path, "rb")  # closed by lines()
    if baud not in BAUDS:
        raise ReaderError(f"a serial reader runs at one of {', '.join(map(str, BAUDS))} baud")
    fd = os.open(path, os.O_RDONLY | os.O_NOCTTY)
    if os.isatty(fd):
        tty.setraw(fd, termios.TCSANOW)  # keeps what the reader sent while this opened
        attrs = termios.tcgetattr(fd)
        attrs[4] = attrs[5] = BAUDS[baud]
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
    return os.fdopen(fd, "rb", buffering=0)


def _address(source: str) -> tuple[str, int]:
    host, _, port = source.removeprefix("tcp:").rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ReaderError(f"a TCP reader is tcp:HOST:PORT, not {source!r}")
    return host, int(port)


async def _tcp(source: str) -> AsyncIterator[str]:
    host, port = _address(source)
    try:
        reader, writer = await asyncio.open_connection(host, port, limit=_LINE_MAX * 4)
    except OSError as exc:
        raise ReaderError(f"cannot connect to the card reader at {host}:{port}: {exc}") from None
    try:
        while raw := await _readline(reader):
            yield _text(raw)
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def _readline(reader: asyncio.StreamReader) -> bytes:
    try:
        return await reader.readline()
    except ValueError:  # a line longer than any read: its first part, the rest skipped
        return await reader.read(_LINE_MAX)


async def _threaded(stream: BinaryIO) -> AsyncIterator[str]:
    """The lines of a blocking stream, read in a thread (files, terminals and serial ports
    alike) and handed over in order."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[bytes | None] = asyncio.Queue()

    def pump() -> None:
        try:
            for raw in iter(stream.readline, b""):
                loop.call_soon_threadsafe(queue.put_nowait, raw)
        except (OSError, ValueError):  # closed under the thread: the source has ended
            pass
        finally:
            loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=pump, name="punto-card-reader", daemon=True).start()
    while (raw := await queue.get()) is not None:
        yield _text(raw)


def _text(raw: bytes) -> str:
    return raw[:_LINE_MAX].decode("utf-8", "replace")
