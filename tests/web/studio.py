"""The ffmpeg "studio" of the video tests (``examples/studio_stream.sh``): a test pattern
with the wall clock burnt in, served as HLS and, when asked, recorded."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from web.web_support import free_port

__all__ = ["needs_ffmpeg", "stop", "studio"]

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "studio_stream.sh"

needs_ffmpeg = pytest.mark.skipif(
    shutil.which("ffmpeg") is None,
    reason="ffmpeg is missing (apt-get install ffmpeg; `make chromium` installs it)",
)
"""Skip a test, saying why, where Debian's ffmpeg is not installed."""


def _segments(url: str, folder: Path | None) -> int:
    """How many segments the live playlist (or, when recording, the recording) lists."""
    if folder is not None:
        return sum(p.read_text().count("#EXTINF") for p in folder.glob("*.m3u8"))
    with contextlib.suppress(httpx.HTTPError):
        answer = httpx.get(url, timeout=2)
        if answer.status_code == 200:
            return answer.text.count("#EXTINF")
    return 0


def _answers(url: str) -> bool:
    with contextlib.suppress(httpx.HTTPError):
        return httpx.options(url, timeout=2).status_code == 204
    return False


@contextlib.contextmanager
def studio(
    record: Path | None = None, *, webrtc: bool = False
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run the studio (recording into ``record`` if given; with ``webrtc``, its WHEP media
    server too, on the playlist's port + 1) until it has two segments; yield its live
    playlist's URL and its process; stop it after."""
    port = free_port(span=3) if webrtc else free_port()
    args = ["bash", str(SCRIPT), *(["--webrtc"] if webrtc else []), str(port)]
    args += [str(record)] if record is not None else []
    env = {**os.environ, "PYTHON": sys.executable}
    process = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env
    )
    url = f"http://127.0.0.1:{port}/live.m3u8"
    whep = f"http://127.0.0.1:{port + 1}/whep"
    try:
        deadline = time.monotonic() + 60
        while _segments(url, record) < 2 or (webrtc and not _answers(whep)):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the studio did not start")
            time.sleep(0.2)  # polls: no event says a segment is written
        yield url, process
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the studio (its whole process group: bash and ffmpeg)."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
