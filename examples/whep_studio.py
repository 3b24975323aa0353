"""A WebRTC media server for the development studio: WHEP out (RFC 9725's egress
protocol) of a live MPEG-TS stream in (what ``examples/studio_stream.sh --webrtc`` feeds it).

    python examples/whep_studio.py --port 8091 --source udp://127.0.0.1:8092

A viewer POSTs an SDP offer (``Content-Type: application/sdp``) to ``/whep``; the answer
comes back ``201 Created`` with the session's ``Location``, which a ``DELETE`` ends. Every
viewer gets the one decoded picture, encoded for its own connection (aiortc: VP8 or H.264
video, Opus audio); with ``--qualities`` the picture is also offered at lower sizes
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
import uuid
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from aiortc import MediaStreamTrack, RTCPeerConnection, RTCSessionDescription
from aiortc.contrib.media import MediaPlayer, MediaRelay
from av import Packet, VideoFrame
from av.frame import Frame
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


class Scaled(MediaStreamTrack):
    """The source picture at a lower height (same frame rate and timestamps)."""

    kind = "video"

    def __init__(self, source: MediaStreamTrack, height: int) -> None:
        super().__init__()
        self.source = source
        self.height = height

    async def recv(self) -> Frame | Packet[Any]:
        """The next source frame, scaled."""
        frame = await self.source.recv()
        if not isinstance(frame, VideoFrame) or frame.height <= self.height:
            return frame
        width = round(frame.width * self.height / frame.height / 2) * 2
        out = frame.reformat(width=width, height=self.height)
        out.pts, out.time_base = frame.pts, frame.time_base or fractions.Fraction(1, 90000)
        return out


class Studio:
    """The source and its viewers' connections."""

    def __init__(self, source: str, qualities: list[str]) -> None:
        self.source = source
        self.qualities = qualities
        self.player: MediaPlayer | None = None
        self.relay = MediaRelay()
        self.peers: dict[str, RTCPeerConnection] = {}

    def open(self) -> MediaPlayer:
        """The source, opened once."""
        if self.player is None:
            options = {"fflags": "nobuffer", "flags": "low_delay", "probesize": "32768"}
            if self.source.startswith("udp:"):
                options["fifo_size"] = "1000000"
                options["overrun_nonfatal"] = "1"
            self.player = MediaPlayer(self.source, format="mpegts", options=options)
        return self.player

    async def answer(self, offer: str, quality: str | None) -> tuple[str, str]:
        """A new viewer's session and the SDP answer to its offer."""
        player = self.open()
        pc = RTCPeerConnection()
        session = uuid.uuid4().hex
        self.peers[session] = pc

        @pc.on("connectionstatechange")
        async def closed() -> None:
            if pc.connectionState in {"failed", "closed"}:
                await self.end(session)

        await pc.setRemoteDescription(RTCSessionDescription(sdp=offer, type="offer"))
        if player.video is not None:
            video = self.relay.subscribe(player.video, buffered=False)
            if quality is not None:
                video = Scaled(video, HEIGHTS[quality])
            pc.addTrack(video)
        if player.audio is not None:
            pc.addTrack(self.relay.subscribe(player.audio, buffered=False))
        await pc.setLocalDescription(await pc.createAnswer())
        return session, pc.localDescription.sdp

    async def end(self, session: str) -> bool:
        """Close one viewer's connection (False: no such session)."""
        pc = self.peers.pop(session, None)
        if pc is None:
            return False
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
        # the source is opened (its UDP port bound, its streams found) before any viewer
        await asyncio.to_thread(studio.open)
        yield
        await studio.drop()
        if studio.player is not None:
            for track in (studio.player.video, studio.player.audio):
                if track is not None:
                    track.stop()

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
    parser.add_argument("--source", required=True, help="the live MPEG-TS stream (udp://…)")
    parser.add_argument(
        "--qualities", default="", help="lower sizes also offered, e.g. 360p,180p (default: none)"
    )
    args = parser.parse_args(argv)
    qualities = [q for q in args.qualities.split(",") if q]
    unknown = set(qualities) - set(HEIGHTS)
    if unknown:
        parser.error(f"unknown qualities {sorted(unknown)}; known: {', '.join(HEIGHTS)}")
    logging.getLogger("aioice").setLevel(logging.WARNING)
    config: dict[str, Any] = {"log_level": "warning", "lifespan": "on"}
    uvicorn.run(app(Studio(args.source, qualities)), host=args.host, port=args.port, **config)


if __name__ == "__main__":
    main()
