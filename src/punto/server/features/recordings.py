"""The tables' video recordings: which stretch of video shows a hand, and pruning [L].

"Video is kept 24 hours" [L]: a studio records each table as HLS — MPEG-TS segments listed
in media playlists whose ``EXT-X-PROGRAM-DATE-TIME`` tags give every segment's wall-clock
start — under ``recordings_dir/<table id>/`` (``examples/studio_stream.sh PORT DIR``). A
hand's record keeps the wall-clock time of its start, of each card and of its end (the
events' clock), so the segments covering ``[start - margin, end + margin]`` are its
*clip*, served as a small VOD playlist. Recordings older than the retention are pruned
(the server's background task, ``punto video prune``), and the time up to which they were
pruned is remembered, so that a hand whose video is gone says so instead of failing.

Only the file system and the clock given here: no web framework.

>>> text = '''#EXTM3U
... #EXT-X-TARGETDURATION:2
... #EXT-X-PROGRAM-DATE-TIME:2026-01-02T03:04:05.000+0000
... #EXTINF:2.000,
... a.ts
... #EXTINF:2.000,
... b.ts
... '''
>>> [(s.name, s.start, s.end) for s in parse_playlist(text)]
[('a.ts', 1767323045.0, 1767323047.0), ('b.ts', 1767323047.0, 1767323049.0)]
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

__all__ = [
    "Clip",
    "HandVideo",
    "Pruned",
    "Recordings",
    "Segment",
    "clip_of",
    "clip_playlist",
    "hand_times",
    "hand_video",
    "parse_playlist",
]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")
"""A segment or table folder name the server serves (no path, no hidden file)."""

_HORIZON = ".pruned-until"
"""The file (in each table's folder) holding the wall-clock time before which its
recordings were deleted."""

_GAP = 0.5
"""Seconds between two segments beyond which the clip marks a discontinuity."""


@dataclass(frozen=True, slots=True)
class Segment:
    """One recorded segment: its file name (in the table's folder), wall-clock start
    (seconds since the epoch) and duration (seconds)."""

    name: str
    start: float
    duration: float

    @property
    def end(self) -> float:
        """When the segment's picture ends."""
        return self.start + self.duration


def _program_date_time(text: str) -> float | None:
    """``2026-01-02T03:04:05.000+0000`` (ffmpeg) or ``…Z`` as seconds, ``None`` if bad."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return None if moment.tzinfo is None else moment.timestamp()


def parse_playlist(text: str) -> list[Segment]:
    """The segments of an HLS media playlist that have a wall-clock time: each
    ``EXT-X-PROGRAM-DATE-TIME`` dates the next segment, and the following ones run on from
    it by their ``EXTINF`` durations until a discontinuity without a new date."""
    out: list[Segment] = []
    moment: float | None = None
    duration: float | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
            moment = _program_date_time(line.partition(":")[2])
        elif line.startswith("#EXT-X-DISCONTINUITY") and not line.startswith(
            "#EXT-X-DISCONTINUITY-SEQUENCE"
        ):
            moment = None  # the next segment needs its own date
        elif line.startswith("#EXTINF:"):
            try:
                duration = float(line[8:].split(",", 1)[0])
            except ValueError:
                duration = None
        elif line and not line.startswith("#"):
            name = line.rsplit("/", 1)[-1].split("?", 1)[0]
            if duration is not None and duration > 0 and moment is not None:
                if _NAME.match(name):
                    out.append(Segment(name, moment, duration))
                moment += duration
            duration = None
    return out


@dataclass(frozen=True, slots=True)
class Clip:
    """The segments that show ``[start, end]`` (a hand with its margins) and where the
    hand starts in them: ``offset`` seconds after the first segment's start."""

    start: float
    end: float
    segments: tuple[Segment, ...]

    @property
    def begins(self) -> float:
        """The wall-clock time of the clip's first picture."""
        return self.segments[0].start

    @property
    def duration(self) -> float:
        """The clip's length in seconds (its segments' durations)."""
        return sum(s.duration for s in self.segments)

    def position(self, moment: float) -> float:
        """Where wall-clock ``moment`` lies in the clip (seconds from its start; the
        segments are played back to back, so a gap between them is skipped)."""
        played = 0.0
        for segment in self.segments:
            if moment < segment.start:
                return played
            if moment < segment.end:
                return played + moment - segment.start
            played += segment.duration
        return played


def clip_of(segments: Iterable[Segment], start: float, end: float) -> Clip | None:
    """The clip of ``[start, end]`` from a table's segments, ``None`` when none of them
    shows any of it.

    >>> segs = [Segment(f"{i}.ts", 100.0 + 2 * i, 2.0) for i in range(10)]
    >>> clip = clip_of(segs, 103.5, 107.0)
    >>> [s.name for s in clip.segments], clip.position(103.5)
    (['1.ts', '2.ts', '3.ts'], 1.5)
    """
    chosen = tuple(sorted((s for s in segments if s.end > start and s.start < end), key=_key))
    return Clip(start, end, chosen) if chosen else None


def _key(segment: Segment) -> tuple[float, str]:
    return segment.start, segment.name


def _iso(moment: float) -> str:
    stamp = datetime.fromtimestamp(moment).astimezone()
    return stamp.isoformat(timespec="milliseconds")


def clip_playlist(clip: Clip, *, start_at: float, uri: Callable[[Segment], str]) -> str:
    """The clip as an HLS VOD playlist whose segments are ``uri(segment)``; it asks the
    player to start at ``start_at`` seconds (``EXT-X-START``) and keeps each segment's
    wall-clock time (``EXT-X-PROGRAM-DATE-TIME``)."""
    target = max(1, math.ceil(max(s.duration for s in clip.segments)))
    lines = [
        "#EXTM3U",
        "#EXT-X-VERSION:6",
        f"#EXT-X-TARGETDURATION:{target}",
        "#EXT-X-MEDIA-SEQUENCE:0",
        "#EXT-X-PLAYLIST-TYPE:VOD",
        f"#EXT-X-START:TIME-OFFSET={start_at:.3f},PRECISE=YES",
    ]
    previous: Segment | None = None
    for segment in clip.segments:
        if previous is not None and abs(segment.start - previous.end) > _GAP:
            lines.append("#EXT-X-DISCONTINUITY")
        lines.append(f"#EXT-X-PROGRAM-DATE-TIME:{_iso(segment.start)}")
        lines.append(f"#EXTINF:{segment.duration:.3f},")
        lines.append(uri(segment))
        previous = segment
    lines.append("#EXT-X-ENDLIST")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class Pruned:
    """What one pruning deleted."""

    segments: int
    playlists: int
    bytes: int
    horizon: float
    """Recordings before this wall-clock time are gone."""


class Recordings:
    """The recordings under ``root`` (one folder per table id), read from their playlists.

    A table's index is cached and read again only when one of its playlists changed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[Path, tuple[tuple[int, int], list[Segment]]] = {}

    def folder(self, table_id: str) -> Path | None:
        """The folder of ``table_id``'s recordings (``None`` for a name that is no plain
        folder name, so that nothing outside ``root`` is ever read)."""
        return self.root / table_id if _NAME.match(table_id) else None

    def _playlist(self, path: Path) -> list[Segment]:
        try:
            stat = path.stat()
        except OSError:
            return []
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:
            segments = parse_playlist(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            return []
        self._cache[path] = (stamp, segments)
        return segments

    def segments(self, table_id: str) -> list[Segment]:
        """Every segment of the table's recordings whose file is still there, in time
        order (a segment listed by two playlists counts once)."""
        folder = self.folder(table_id)
        if folder is None or not folder.is_dir():
            return []
        present = {p.name for p in folder.iterdir() if p.is_file()}
        seen: dict[str, Segment] = {}
        for playlist in sorted(folder.glob("*.m3u8")):
            for segment in self._playlist(playlist):
                if segment.name in present:
                    seen.setdefault(segment.name, segment)
        return sorted(seen.values(), key=_key)

    def segment_path(self, table_id: str, name: str) -> Path | None:
        """The file of segment ``name`` of the table (``None``: no such plain file)."""
        folder = self.folder(table_id)
        if folder is None or not _NAME.match(name) or not name.endswith((".ts", ".m4s")):
            return None
        path = folder / name
        return path if path.is_file() else None

    def horizon(self, table_id: str) -> float:
        """The wall-clock time before which the table's recordings were pruned (0: none)."""
        return self._marker(table_id)[0]

    def pruned_at(self, table_id: str) -> float:
        """When the table's recordings were last pruned past :meth:`horizon` (0: never)."""
        return self._marker(table_id)[1]

    def _marker(self, table_id: str) -> tuple[float, float]:
        folder = self.folder(table_id)
        if folder is None:
            return 0.0, 0.0
        try:
            horizon, _, when = (folder / _HORIZON).read_text(encoding="ascii").partition(" ")
            return float(horizon or 0), float(when or horizon or 0)
        except (OSError, ValueError):
            return 0.0, 0.0

    def tables(self) -> list[str]:
        """The tables that have a recordings folder."""
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if p.is_dir() and _NAME.match(p.name))

    def prune(self, *, now: float, retention: float) -> Pruned:
        """Delete every recording that ended before ``now - retention``: segments (by
        their playlists' dates, or their files' times when no playlist lists them),
        then playlists with nothing left that were not written since. Remembers the
        horizon per table."""
        horizon = now - retention
        removed = playlists = size = 0
        for table_id in self.tables():
            folder = self.root / table_id
            dated = {s.name: s for s in self._all_listed(folder)}
            for path in sorted(folder.iterdir()):
                if not path.is_file() or path.suffix not in (".ts", ".m4s"):
                    continue
                segment = dated.get(path.name)
                try:
                    stat = path.stat()
                    ended = segment.end if segment is not None else stat.st_mtime
                    if ended <= horizon:
                        path.unlink()
                        removed += 1
                        size += stat.st_size
                except OSError:
                    continue
            left = {p.name for p in folder.iterdir()}
            for playlist in sorted(folder.glob("*.m3u8")):
                listed = self._playlist(playlist)
                try:
                    written = playlist.stat().st_mtime
                except OSError:
                    continue
                if written <= horizon and not any(s.name in left for s in listed):
                    playlist.unlink(missing_ok=True)
                    self._cache.pop(playlist, None)
                    playlists += 1
            if self.horizon(table_id) < horizon:
                marker = folder / _HORIZON
                temporary = folder / f"{_HORIZON}.{os.getpid()}"
                temporary.write_text(f"{horizon:.3f} {now:.3f}\n", encoding="ascii")
                temporary.replace(marker)
        return Pruned(segments=removed, playlists=playlists, bytes=size, horizon=horizon)

    def _all_listed(self, folder: Path) -> Sequence[Segment]:
        out: list[Segment] = []
        for playlist in sorted(folder.glob("*.m3u8")):
            out.extend(self._playlist(playlist))
        return out


@dataclass(frozen=True, slots=True)
class HandVideo:
    """Where a hand's video stands: ``available`` (with its ``clip``), ``gone`` (pruned
    after the retention [L]), ``none`` (never recorded) or ``off`` (this server keeps no
    recordings); ``deleted_at``: when it is (or was) deleted."""

    state: str
    start: float
    end: float
    deleted_at: float | None
    retention: float
    clip: Clip | None = None

    def json(self) -> dict[str, object]:
        """The ``video`` of a hand's record (``GET /api/hands/{game}``)."""
        return {
            "state": self.state,
            "deleted_at": self.deleted_at,
            "retention": self.retention,
        }


def hand_times(record: Mapping[str, Any]) -> tuple[float, float]:
    """A stored hand record's wall-clock start and end (a hand not over yet: its last
    card, or its start)."""
    times = record.get("times") or {}
    start = float(times.get("start") or record.get("opened_at") or 0.0)
    cards = [float(at) for _pos, at in times.get("cards") or []]
    end = times.get("end") or record.get("closed_at")
    return start, float(end) if end else max([start, *cards])


def hand_video(
    record: Mapping[str, Any],
    recordings: Recordings | None,
    *,
    now: float,
    retention: float,
    margin: float,
) -> HandVideo:
    """The video of one stored hand record: its clip with ``margin`` seconds either side
    when the recording is there."""
    start, end = hand_times(record)
    deleted_at = end + retention
    if recordings is None:
        return HandVideo("off", start, end, None, retention)
    table = str(record.get("table") or str(record.get("game", "")).rsplit("-", 2)[0])
    if end <= now - retention:
        return HandVideo("gone", start, end, deleted_at, retention)
    if end <= recordings.horizon(table):  # pruned before its time (``--retention 0``)
        return HandVideo("gone", start, end, recordings.pruned_at(table), retention)
    clip = clip_of(recordings.segments(table), start - margin, end + margin)
    if clip is None:
        return HandVideo("none", start, end, None, retention)
    return HandVideo("available", start, end, deleted_at, retention, clip)
