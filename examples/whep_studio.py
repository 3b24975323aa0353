"""A WebRTC media server for the development studio: WHEP out (RFC 9725's egress
protocol) of the raw picture ``examples/studio_stream.sh --webrtc`` renders.

    python examples/whep_studio.py --port 8091 --source /tmp/studio.yuv --size 640x360

The source is a stream of raw ``yuv420p`` frames of ``--size`` (a named pipe, a file, or
``-`` for standard input): uncompressed, so the picture reaches the viewers without a
second encoder's delay. A viewer POSTs an SDP offer (``Content-Type: application/sdp``)
to ``/whep``; the answer comes back ``201 Created`` with the session's ``Location``, which
a ``DELETE`` ends. Every viewer gets the newest frame, encoded for its own connection
(aiortc: VP8 or H.264); with ``--qualities`` the picture is also offered at lower sizes
(``/whep/360p``, …) for a player who chooses one. ``POST /drop`` closes every viewer's
connection, as a media server restart would, so a player's page can be seen to recover.

A studio of real size uses a media server that speaks WHIP in and WHEP out (MediaMTX,
Janus, OvenMediaEngine, a cloud service): docs/studio.md. This one needs aiortc
(``pip install aiortc``; ``make test`` installs it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fractions
import logging
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any, BinaryIO

import numpy as np
import uvicorn
from aiortc import MediaStreamTrack, RTCPeerConnection, RTCSessionDescription
from av import VideoFrame
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "POST, DELETE, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, Authorization",
    "Access-Control-Expose-Headers": "Location",
}
HEIGHTS = {"720p": 720, "360p": 360, "180p": 180}
"""The lower sizes ``--qualities`` offers, by name."""
TIME_BASE = fractions.Fraction(1, 90000)


class Source:
    """The newest frame of the raw picture, read by a thread of its own."""

    def __init__(self, path: str, width: int, height: int) -> None:
        self.path = path
        self.width = width
        self.height = height
        self.frame: VideoFrame | None = None
        self.ended = False
        self._waiters: list[asyncio.Future[VideoFrame]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._start = time.monotonic()

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start reading (frames are handed to viewers on ``loop``)."""
        self._loop = loop
        threading.Thread(target=self._read, name="source", daemon=True).start()

    def _read(self) -> None:
        size = self.width * self.height * 3 // 2
        stream: BinaryIO = sys.stdin.buffer if self.path == "-" else open(self.path, "rb")  # noqa: SIM115
        with stream:
            while True:
                data = stream.read(size)
                if len(data) < size:
                    break
                planes = np.frombuffer(data, np.uint8).reshape(self.height * 3 // 2, self.width)
                frame = VideoFrame.from_ndarray(planes, format="yuv420p")
                frame.pts = round((time.monotonic() - self._start) / TIME_BASE)
                frame.time_base = TIME_BASE
                assert self._loop is not None
                self._loop.call_soon_threadsafe(self._publish, frame)
        self._loop.call_soon_threadsafe(self._end)  # type: ignore[union-attr]

    def _publish(self, frame: VideoFrame) -> None:
        self.frame = frame
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(frame)

    def _end(self) -> None:
        self.ended = True
        for waiter in self._waiters:
            if not waiter.done():
                waiter.cancel()

    async def next(self) -> VideoFrame:
        """The next frame to arrive."""
        if self.ended:
            raise ConnectionError("the studio's picture ended")
        waiter: asyncio.Future[VideoFrame] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        return await waiter


class Picture(MediaStreamTrack):
    """One viewer's video: each new frame of the source, at ``height`` when given."""

    kind = "video"

    def __init__(self, source: Source, height: int | None = None) -> None:
        super().__init__()
        self.source = source
        self.height = height

    async def recv(self) -> VideoFrame:
        """The next frame (a viewer that falls behind skips to the newest)."""
        try:
            frame = await self.source.next()
        except (ConnectionError, asyncio.CancelledError):
            self.stop()
            raise
        if self.height is None or frame.height <= self.height:
            return frame
        width = round(frame.width * self.height / frame.height / 2) * 2
        out = frame.reformat(width=width, height=self.height)
        out.pts, out.time_base = frame.pts, frame.time_base
        return out


class Studio:
    """The source and its viewers' connections."""

    def __init__(self, source: Source, qualities: list[str]) -> None:
        self.source = source
        self.qualities = qualities
        self.peers: dict[str, RTCPeerConnection] = {}
        self.ended: set[str] = set()
        """Sessions already over (a viewer's DELETE after a drop is still answered 200)."""

    async def answer(self, offer: str, quality: str | None) -> tuple[str, str]:
        """A new viewer's session and the SDP answer to its offer."""
        pc = RTCPeerConnection()
        session = uuid.uuid4().hex
        self.peers[session] = pc

        @pc.on("connectionstatechange")
        async def closed() -> None:
            if pc.connectionState in {"failed", "closed"}:
                await self.end(session)

        await pc.setRemoteDescription(RTCSessionDescription(sdp=offer, type="offer"))
        height = HEIGHTS[quality] if quality is not None else None
        pc.addTrack(Picture(self.source, height))
        await pc.setLocalDescription(await pc.createAnswer())
        return session, pc.localDescription.sdp

    async def end(self, session: str) -> bool:
        """Close one viewer's connection (False: no such session)."""
        pc = self.peers.pop(session, None)
        if pc is None:
            return session in self.ended
        self.ended.add(session)
        await pc.close()
        return True

    async def drop(self) -> int:
        """Close every viewer's connection; how many there were."""
        sessions = list(self.peers)
        for session in sessions:
            await self.end(session)
        return len(sessions)


def app(studio: Studio) -> Starlette:
    """The WHEP endpoints of ``studio``."""

    async def whep(request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers=CORS)
        quality = request.path_params.get("quality")
        if quality is not None and quality not in studio.qualities:
            return Response("no such quality", status_code=404, headers=CORS)
        if request.headers.get("content-type", "").split(";")[0] != "application/sdp":
            return Response("an SDP offer, please", status_code=415, headers=CORS)
        if studio.source.ended:
            return Response("the studio's picture ended", status_code=503, headers=CORS)
        session, sdp = await studio.answer((await request.body()).decode(), quality)
        location = f"/whep/session/{session}"
        headers = {**CORS, "Location": location}
        return Response(sdp, status_code=201, media_type="application/sdp", headers=headers)

    async def session(request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers=CORS)
        if request.method == "PATCH":  # trickle ICE: the answer held every candidate
            return Response(status_code=405, headers=CORS)
        found = await studio.end(request.path_params["session"])
        return Response(status_code=200 if found else 404, headers=CORS)

    async def drop(request: Request) -> Response:
        return Response(f"{await studio.drop()}\n", headers=CORS)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        studio.source.start(asyncio.get_running_loop())
        yield
        await studio.drop()

    return Starlette(
        routes=[
            Route("/whep", whep, methods=["POST", "OPTIONS"]),
            Route("/whep/session/{session}", session, methods=["DELETE", "PATCH", "OPTIONS"]),
            Route("/whep/{quality}", whep, methods=["POST", "OPTIONS"]),
            Route("/drop", drop, methods=["POST"]),
        ],
        lifespan=lifespan,
    )


def main(argv: list[str] | None = None) -> None:
    """Serve WHEP until stopped."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8091)
    parser.add_argument("--source", required=True, help="raw yuv420p frames: a pipe, a file or -")
    parser.add_argument("--size", default="640x360", help="the frames' WIDTHxHEIGHT")
    parser.add_argument(
        "--qualities", default="", help="lower sizes also offered, e.g. 360p,180p (default: none)"
    )
    args = parser.parse_args(argv)
    qualities = [q for q in args.qualities.split(",") if q]
    unknown = set(qualities) - set(HEIGHTS)
    if unknown:
        parser.error(f"unknown qualities {sorted(unknown)}; known: {', '.join(HEIGHTS)}")
    try:
        width, height = (int(n) for n in args.size.split("x"))
    except ValueError:
        parser.error(f"--size is WIDTHxHEIGHT, not {args.size!r}")
    if width <= 0 or height <= 0 or width % 2 or height % 2:
        parser.error(f"--size needs even positive sides, not {args.size!r}")
    logging.getLogger("aioice").setLevel(logging.WARNING)
    config: dict[str, Any] = {"log_level": "warning", "lifespan": "on"}
    studio = Studio(Source(args.source, width, height), qualities)
    uvicorn.run(app(studio), host=args.host, port=args.port, **config)


if __name__ == "__main__":
    main()
