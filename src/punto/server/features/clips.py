"""Video by game number: a hand's clip from the table's recording [L].

``GET /api/hands/{game}/video`` (a supervisor or administrator; a player for a hand they
bet on) answers where the hand lies in its clip — the hand's start, each card and its end
as wall-clock times and as seconds into the clip — and the clip's playlist URL.
The playlist (``…/video.m3u8``) and its segments are fetched by the browser's ``<video>``
element, which sends no session token: their URLs carry a key the server sealed for that
hand, valid for :data:`CLIP_KEY_SECONDS`. A hand whose recording was pruned answers
``410 video_gone``; one never recorded ``404 no_video`` (docs/server.md, "Video by game
number"; docs/protocol.md §2).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, Response

from punto.errors import (
    AuthError,
    NotFoundError,
    NoVideoError,
    ProtocolError,
    PuntoError,
    VideoGoneError,
)
from punto.server.auth import Role, require_role
from punto.server.features.recordings import Clip, HandVideo, clip_playlist, hand_video
from punto.server.http.api import ActorDep, NodeDep
from punto.server.node import Node
from punto.table.records import GameNumber

__all__ = ["CLIP_KEY_SECONDS", "router"]

CLIP_KEY_SECONDS = 3600.0
"""How long a clip's URLs work after the supervisor opened the hand."""

_PURPOSE = "clip"
_KeyQuery = Annotated[str, Query(min_length=3, max_length=200)]

router = APIRouter()


def _game(text: str) -> str:
    """A well-formed game number (``TABLE-SHOE-HAND``), else a ``bad_message``."""
    try:
        return str(GameNumber.parse(text))
    except PuntoError as exc:
        raise ProtocolError(str(exc)) from None


async def _video(node: Node, game: str, *, now: float) -> tuple[dict[str, Any], HandVideo]:
    record = await node.store.hand(game)
    if record is None:
        raise NotFoundError(f"no hand {game!r}")
    settings = node.settings
    video = await asyncio.to_thread(
        hand_video,
        record,
        node.recordings,
        now=now,
        retention=settings.video_retention,
        margin=settings.video_margin,
    )
    return record, video


def _available(game: str, video: HandVideo) -> Clip:
    if video.state == "gone":
        hours = round(video.retention / 3600, 1)
        raise VideoGoneError(
            f"the video of hand {game} was deleted: video is kept {hours:g} hours [L]"
        )
    if video.clip is None:
        raise NoVideoError(f"no video of hand {game} was recorded")
    return video.clip


def _url(game: str, tail: str, key: str) -> str:
    return f"/api/hands/{quote(game, safe='')}/{tail}?key={quote(key, safe='')}"


@router.get("/api/hands/{game}/video", tags=["records"])
async def hand_clip(game: str, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Where a hand lies in its table's recording: the clip's playlist and the times (and
    positions in the clip) of the hand's start, each card and its end."""
    require_role(actor, *Role, action="watch a hand's video")
    game = _game(game)
    now = node.clock.now()
    record, video = await _video(node, game, now=now)
    if actor.role is Role.DEALER or (
        actor.role is Role.PLAYER and actor.user_id not in record.get("bets", {})
    ):
        raise NotFoundError(f"no hand {game!r} of yours to watch")
    clip = _available(game, video)
    key = node.signer.seal(_PURPOSE, game, expires=now + CLIP_KEY_SECONDS)
    times = record.get("times") or {}
    codes = {str(pos): str(code) for pos, code in record.get("cards") or []}
    marks: list[dict[str, Any]] = [{"mark": "start", "at": video.start}]
    for pos, at in times.get("cards") or []:
        marks.append({"mark": str(pos), "card": codes.get(str(pos)), "at": float(at)})
    marks.append({"mark": "end", "at": video.end})
    for mark in marks:
        mark["offset"] = round(clip.position(mark["at"]), 3)
    return {
        "game": game,
        "table": record.get("table"),
        "state": video.state,
        "playlist": _url(game, "video.m3u8", key),
        "start": video.start,
        "end": video.end,
        "clip_start": clip.begins,
        "duration": round(clip.duration, 3),
        "offset": round(clip.position(video.start), 3),
        "marks": marks,
        "deleted_at": video.deleted_at,
        "expires_at": now + CLIP_KEY_SECONDS,
    }


def _check_key(node: Node, game: str, key: str) -> None:
    if not node.signer.opens(key, _PURPOSE, game):
        raise AuthError("this video link is not valid or has expired: open the hand again")


@router.get("/api/hands/{game}/video.m3u8", tags=["records"], response_class=Response)
async def hand_clip_playlist(game: str, key: _KeyQuery, node: NodeDep) -> Response:
    """The hand's clip as an HLS VOD playlist (``EXT-X-START`` at the hand's start)."""
    game = _game(game)
    _check_key(node, game, key)
    _record, video = await _video(node, game, now=node.clock.now())
    clip = _available(game, video)
    text = clip_playlist(
        clip,
        start_at=clip.position(video.start),
        uri=lambda s: _url(game, f"video/{quote(s.name, safe='')}", key),
    )
    return Response(
        text,
        media_type="application/vnd.apple.mpegurl",
        headers={"Cache-Control": "private, no-store"},
    )


@router.get("/api/hands/{game}/video/{segment}", tags=["records"], response_class=Response)
async def hand_clip_segment(game: str, segment: str, key: _KeyQuery, node: NodeDep) -> Response:
    """One segment of the hand's clip (only the clip's own segments are served)."""
    game = _game(game)
    _check_key(node, game, key)
    record, video = await _video(node, game, now=node.clock.now())
    clip = _available(game, video)
    if node.recordings is None or segment not in {s.name for s in clip.segments}:
        raise NotFoundError(f"no segment {segment!r} in the video of hand {game}")
    path: Path | None = node.recordings.segment_path(str(record.get("table")), segment)
    if path is None:
        raise VideoGoneError(f"segment {segment!r} of hand {game} was deleted")
    media = "video/mp2t" if segment.endswith(".ts") else "video/iso.segment"
    return FileResponse(path, media_type=media, headers={"Cache-Control": "private, max-age=3600"})
