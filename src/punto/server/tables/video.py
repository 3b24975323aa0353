"""A table's live video: where the table page plays it (docs/studio.md).

WebRTC over WHEP (a media server's egress endpoint: the page POSTs an SDP offer) when the
studio offers it, sub-second; HLS (a live ``.m3u8`` playlist) as the fallback for a browser
or a network without WebRTC; optionally the same picture at other qualities a player may
choose, and a still of the table (a picture the studio refreshes) for the lobby's tile.

>>> video = TableVideo.from_json({"whep_url": "https://media.example/live-1/whep",
...                               "hls_url": "https://media.example/live-1/index.m3u8"})
>>> video.to_json()["qualities"], bool(video)
([], True)
>>> bool(TableVideo())
False
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from punto.errors import ProtocolError

__all__ = ["MAX_QUALITIES", "TableVideo", "VideoQuality"]

_URL = re.compile(r"^https?://[^\s\"<>]{1,490}$")
_NAME = re.compile(r"^[\w.+ -]{1,20}$")
MAX_QUALITIES = 6
"""The most qualities a table's video offers besides its own (automatic) one."""


def _url(value: object, what: str) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not _URL.match(value.strip()):
        raise ProtocolError(
            f"a {what} is an http(s) address of at most 500 characters, not {value!r}"
        )
    return value.strip()


@dataclass(frozen=True, slots=True)
class VideoQuality:
    """The picture at one more quality (``"360p"``), over WHEP, HLS or both."""

    name: str
    whep_url: str | None = None
    hls_url: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ProtocolError(
                f"a video quality's name is 1–20 letters or digits, not {self.name!r}"
            )
        if self.whep_url is None and self.hls_url is None:
            raise ProtocolError(f"video quality {self.name!r} needs a whep_url or an hls_url")

    def to_json(self) -> dict[str, Any]:
        """``{"name", "whep_url", "hls_url"}``."""
        return {"name": self.name, "whep_url": self.whep_url, "hls_url": self.hls_url}


@dataclass(frozen=True, slots=True)
class TableVideo:
    """Where a table's picture is played: WHEP first, HLS as the fallback (either alone);
    ``still_url``: an image of the table (the studio's snapshot, refreshed as it likes)."""

    whep_url: str | None = None
    hls_url: str | None = None
    qualities: tuple[VideoQuality, ...] = ()
    still_url: str | None = None

    def __post_init__(self) -> None:
        if len(self.qualities) > MAX_QUALITIES:
            raise ProtocolError(f"a table's video offers at most {MAX_QUALITIES} qualities")
        names = [q.name for q in self.qualities]
        if len(set(names)) != len(names):
            raise ProtocolError("each video quality needs a name of its own")
        if self.qualities and self.whep_url is None and self.hls_url is None:
            raise ProtocolError("video qualities need the video's own whep_url or hls_url")

    def __bool__(self) -> bool:
        return self.whep_url is not None or self.hls_url is not None

    @classmethod
    def from_json(cls, data: object) -> TableVideo:
        """From :meth:`to_json`'s object; :class:`ProtocolError` names what is wrong."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ProtocolError(f"a table's video is an object, not {data!r}")
        unknown = set(data) - {"whep_url", "hls_url", "qualities", "still_url"}
        if unknown:
            raise ProtocolError(f"a table's video has no {', '.join(sorted(unknown))}")
        qualities = data.get("qualities") or []
        if not isinstance(qualities, list):
            raise ProtocolError("a video's qualities are a list")
        out = []
        for quality in qualities:
            if not isinstance(quality, Mapping) or set(quality) - {"name", "whep_url", "hls_url"}:
                raise ProtocolError(
                    f"a video quality is {{name, whep_url?, hls_url?}}, not {quality!r}"
                )
            out.append(
                VideoQuality(
                    quality.get("name"),  # type: ignore[arg-type]  # checked by VideoQuality
                    _url(quality.get("whep_url"), "WHEP URL"),
                    _url(quality.get("hls_url"), "HLS URL"),
                )
            )
        return cls(
            _url(data.get("whep_url"), "WHEP URL"),
            _url(data.get("hls_url"), "HLS URL"),
            tuple(out),
            _url(data.get("still_url"), "still image URL"),
        )

    def to_json(self) -> dict[str, Any]:
        """``{"whep_url", "hls_url", "qualities": [...], "still_url"}`` (``null``: not
        offered)."""
        return {
            "whep_url": self.whep_url,
            "hls_url": self.hls_url,
            "qualities": [q.to_json() for q in self.qualities],
            "still_url": self.still_url,
        }

    def patched(self, changes: Mapping[str, Any]) -> TableVideo:
        """This video with the keys ``changes`` names replaced (``""`` or ``null`` takes
        one off), as ``PATCH /api/admin/tables/{id}`` ``{"video": {...}}`` does."""
        merged = self.to_json()
        merged.update(changes)
        return TableVideo.from_json(merged)
