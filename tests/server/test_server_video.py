"""Video by game number [L] on a running server: the stored hand record keeps the wall-clock
time of its start, each card and its end; a supervisor (and the player who bet on the hand)
gets its clip — the recording's segments covering the hand and its margins, as an HLS
playlist starting at the hand — until the recording is pruned, when the hand answers
"video gone" (410), never a server error. Bad input gets typed errors."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from server_support import RunningServer, TableClient, server_on

from punto.server.features.recordings import Recordings, clip_of, parse_playlist

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]

TABLE = "nocomm-1"
STUDIO = Path(__file__).resolve().parents[2] / "examples" / "studio_stream.sh"


async def _a_hand_of(server: RunningServer, player: str) -> str:
    """``player`` bets 1000 on Banker at nocomm-1 until a hand of theirs is settled."""
    token = await server.token(player)
    async with TableClient.connect(server, TABLE, token) as client:
        await client.take_seat(3, chip=1000)
        game = await client.confirm_in_a_round("banker")
        settled = await client.next_of("hand_settled", timeout=30)
        while settled["event"]["game"] != game:
            settled = await client.next_of("hand_settled", timeout=30)
        await client.ok({"type": "stand"})
        await client.ok({"type": "leave"})
    return str(game)


def _pdt(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "+0000"


def _record(folder: Path, start: float, count: int) -> list[str]:
    """A studio's recording of ``count`` 2-second segments from ``start`` (ffmpeg's
    layout: EXTINF, the date, the segment)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2"]
    names = []
    for i in range(count):
        name = f"s{i:03d}.ts"
        (folder / name).write_bytes(bytes([0x47]) * 188 * (i + 1))
        lines += ["#EXTINF:2.000000,", f"#EXT-X-PROGRAM-DATE-TIME:{_pdt(start + 2 * i)}", name]
        names.append(name)
    (folder / "rec-1.m3u8").write_text("\n".join(lines) + "\n")
    return names


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_l_a_supervisor_gets_a_hands_clip_until_the_recording_is_pruned(
    tmp_path: Path,
) -> None:
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    async with server_on(
        "sqlite", tmp_path, betting_seconds=0.6, recordings_dir=recordings
    ) as server:
        game = await _a_hand_of(server, "ann")
        record = await server.node.store.hand(game)
        assert record is not None
        times = record["times"]
        # the times of the start, each card (in dealing order) and the end, from the clock
        assert [pos for pos, _at in times["cards"]] == [pos for pos, _c in record["cards"]]
        moments = [times["start"], *(at for _pos, at in times["cards"]), times["end"]]
        assert moments == sorted(moments)
        assert times["start"] == record["opened_at"]
        assert times["end"] == record["closed_at"]
        assert time.time() - 120 < times["start"] < times["end"] <= time.time()

        sam = _bearer(await server.token("sam"))
        ann = _bearer(await server.token("ann"))
        bob = _bearer(await server.token("bob"))
        # nothing recorded yet: a typed 404, and the hand's record says so
        answer = await server.http.get(f"/api/hands/{game}/video", headers=sam)
        assert (answer.status_code, answer.json()["error"]) == (404, "no_video")
        shown = (await server.http.get(f"/api/hands/{game}", headers=sam)).json()["video"]
        assert shown["state"] == "none"

        # a recording from 20 s before the hand to 20 s after it, in 2-second segments
        begin = float(int(times["start"])) - 20
        count = int((times["end"] - begin) // 2) + 11
        names = _record(recordings / TABLE, begin, count)
        answer = await server.http.get(f"/api/hands/{game}/video", headers=sam)
        assert answer.status_code == 200, answer.text
        clip: dict[str, Any] = answer.json()
        margin = server.node.settings.video_margin
        wanted = clip_of(
            parse_playlist((recordings / TABLE / "rec-1.m3u8").read_text()),
            times["start"] - margin,
            times["end"] + margin,
        )
        assert wanted is not None
        assert clip["clip_start"] == wanted.begins
        assert clip["offset"] == pytest.approx(times["start"] - wanted.begins, abs=1e-3)
        assert margin <= clip["offset"] < margin + 2
        marks = clip["marks"]
        assert [m["mark"] for m in marks] == ["start", *(p for p, _ in times["cards"]), "end"]
        assert [m["card"] for m in marks[1:-1]] == [c for _p, c in record["cards"]]
        for mark in marks:
            assert mark["offset"] == pytest.approx(mark["at"] - wanted.begins, abs=1e-3)
        assert clip["deleted_at"] == pytest.approx(
            times["end"] + server.node.settings.video_retention
        )
        shown = (await server.http.get(f"/api/hands/{game}", headers=sam)).json()["video"]
        assert shown["state"] == "available"

        # the playlist: exactly the segments covering the hand and its margins
        playlist = await server.http.get(clip["playlist"])
        assert playlist.status_code == 200
        assert playlist.headers["content-type"].startswith("application/vnd.apple.mpegurl")
        lines = playlist.text.splitlines()
        uris = [line for line in lines if line and not line.startswith("#")]
        assert [u.split("/video/")[1].split("?")[0] for u in uris] == [
            s.name for s in wanted.segments
        ]
        assert f"#EXT-X-START:TIME-OFFSET={clip['offset']:.3f},PRECISE=YES" in lines
        assert lines[-1] == "#EXT-X-ENDLIST"
        first = await server.http.get(uris[0])
        assert first.status_code == 200
        assert first.headers["content-type"] == "video/mp2t"
        assert first.content == (recordings / TABLE / wanted.segments[0].name).read_bytes()
        # only the clip's own segments, only with the key
        outside = next(n for n in names if n not in {s.name for s in wanted.segments})
        key = clip["playlist"].split("key=")[1]
        answer = await server.http.get(f"/api/hands/{game}/video/{outside}?key={key}")
        assert (answer.status_code, answer.json()["error"]) == (404, "not_found")
        for bad in ("nope", "1.abc", key[:-2] + "xx"):
            answer = await server.http.get(f"/api/hands/{game}/video.m3u8?key={bad}")
            assert answer.status_code in (400, 401), answer.text
        assert (await server.http.get(f"/api/hands/{game}/video.m3u8")).status_code == 400

        # the player who bet on the hand may watch it; another player and a dealer not
        assert (await server.http.get(f"/api/hands/{game}/video", headers=ann)).status_code == 200
        answer = await server.http.get(f"/api/hands/{game}/video", headers=bob)
        assert (answer.status_code, answer.json()["error"]) == (404, "not_found")
        dana = _bearer(await server.token("dana"))
        assert (await server.http.get(f"/api/hands/{game}/video", headers=dana)).status_code == 404
        assert (await server.http.get(f"/api/hands/{game}/video")).status_code == 401

        # bad game numbers: typed errors, never a 5xx
        for bad in (f"{TABLE}-999-001", "macau-1-099-001"):
            answer = await server.http.get(f"/api/hands/{bad}/video", headers=sam)
            assert (answer.status_code, answer.json()["error"]) == (404, "not_found")
        for bad in ("nonsense", "x-y-z", "%20", "a" * 200):
            answer = await server.http.get(f"/api/hands/{bad}/video", headers=sam)
            assert answer.status_code in (400, 404), (bad, answer.text)
            assert answer.json()["error"] in ("bad_message", "not_found")

        # pruned (``punto video prune --retention 0``): the video is gone, and says so
        assert server.node.recordings is not None
        finished = begin + 2 * count  # when the recording ends: the clock pruning is given
        pruned = server.node.recordings.prune(now=finished, retention=0)
        assert pruned.segments == count
        answer = await server.http.get(f"/api/hands/{game}/video", headers=sam)
        assert (answer.status_code, answer.json()["error"]) == (410, "video_gone")
        assert "24 hours" in answer.json()["message"]
        assert (await server.http.get(clip["playlist"])).status_code == 410
        assert (await server.http.get(uris[0])).status_code == 410
        shown = (await server.http.get(f"/api/hands/{game}", headers=sam)).json()["video"]
        assert shown["state"] == "gone"
        assert shown["deleted_at"] == pytest.approx(finished, abs=1e-3)
        mine = (await server.http.get(f"/api/hands/{game}", headers=ann)).json()["video"]
        assert mine["state"] == "gone"


async def test_a_server_without_recordings_says_its_hands_have_no_video(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path, betting_seconds=0.6) as server:
        game = await _a_hand_of(server, "ann")
        sam = _bearer(await server.token("sam"))
        record = (await server.http.get(f"/api/hands/{game}", headers=sam)).json()
        assert record["video"] == {"state": "off", "deleted_at": None, "retention": 86400.0}
        answer = await server.http.get(f"/api/hands/{game}/video", headers=sam)
        assert (answer.status_code, answer.json()["error"]) == (404, "no_video")


@pytest.mark.skipif(
    shutil.which("ffmpeg") is None,
    reason="ffmpeg is missing (apt-get install ffmpeg; `make chromium` installs it)",
)
async def test_the_studio_script_keeps_a_recording_the_server_can_clip(tmp_path: Path) -> None:
    """examples/studio_stream.sh PORT DIR: real ffmpeg segments dated by the wall clock."""
    folder = tmp_path / TABLE
    started = time.time()
    studio = subprocess.Popen(
        ["bash", str(STUDIO), "0", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    recordings = Recordings(tmp_path)
    try:
        deadline = time.monotonic() + 60
        while len(recordings.segments(TABLE)) < 3:
            assert studio.poll() is None, "the studio stopped"
            assert time.monotonic() < deadline, "the studio recorded nothing"
            await asyncio.sleep(0.2)  # polls the folder: no event says a segment is written
    finally:
        if studio.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(studio.pid, signal.SIGTERM)
        studio.wait(timeout=30)
    segments = recordings.segments(TABLE)
    assert len(segments) >= 3
    assert all(1.5 <= s.duration <= 2.5 for s in segments[:-1])
    assert started - 5 < segments[0].start < time.time()
    for a, b in itertools.pairwise(segments):
        assert b.start == pytest.approx(a.end, abs=0.05)
    middle = segments[1].start + 0.5
    clip = clip_of(segments, middle, middle + 0.2)
    assert clip is not None
    assert clip.segments == (segments[1],)
    assert (tmp_path / TABLE / segments[1].name).read_bytes()[:1] == b"\x47"  # MPEG-TS
    last = recordings.segments(TABLE)[-1]
    pruned = recordings.prune(now=last.end, retention=0)
    assert pruned.segments >= len(segments)
    assert recordings.segments(TABLE) == []
    assert list(folder.glob("*.ts")) == []
