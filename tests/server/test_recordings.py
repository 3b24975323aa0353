"""Video by game number [L]: a hand's record keeps when it started, when each card was
placed and when it ended; the table's HLS recording (segments dated by
EXT-X-PROGRAM-DATE-TIME) gives the hand's clip; recordings older than the retention
("video is kept 24 hours") are pruned, and a hand whose video is gone says so.

Every time here is given (the table's manual clock, ``now=`` for pruning): no sleeps."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from table_support import close, deal, make_table, open_round, seat

from punto.bets import Bet
from punto.cards import Card
from punto.cli import main
from punto.coup import Position
from punto.errors import ServerError
from punto.server.config import Settings
from punto.server.fanout.protocol import hand_record_json
from punto.server.features.recordings import (
    Recordings,
    Segment,
    clip_of,
    clip_playlist,
    hand_video,
    parse_playlist,
)
from punto.table import Fault

T0 = 1_800_000_000.0
"""A wall-clock moment (2027-01-15) the recordings of these tests start at."""
PAST = 1_700_000_000.0
"""A moment long gone (2023-11-14), for the command line, which prunes by the real clock."""


def _pdt(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "+0000"


def _record(folder: Path, start: float, count: int, *, seconds: float = 2.0) -> list[str]:
    """A recording as ffmpeg's hls muxer writes it (EXTINF, then the date, then the
    segment): ``count`` segments from ``start``; the segment files hold a few bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0"]
    names = []
    for i in range(count):
        name = f"seg-{int(start)}-{i:04d}.ts"
        (folder / name).write_bytes(b"G" * 188)
        lines += [
            f"#EXTINF:{seconds:.6f},",
            f"#EXT-X-PROGRAM-DATE-TIME:{_pdt(start + i * seconds)}",
        ]
        lines.append(name)
        names.append(name)
    (folder / f"rec-{int(start)}.m3u8").write_text("\n".join(lines) + "\n")
    return names


# -- the hand record's times ------------------------------------------------------------


def test_l_a_hand_record_keeps_the_time_of_its_start_each_card_and_its_end() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    start = clock.now()
    open_round(table, {"ann": {Bet.BANKER: 1000}})
    close(table, clock)
    placed = []
    for code in ["9S", "2H", "KD", "3C"]:
        clock.advance(1.5)
        placed.append(clock.now())
        table.deal_card(Card.parse(code))
    clock.advance(2.0)
    table.settle()
    record = table.records()[-1]
    assert record.opened_at == start
    assert list(record.card_times) == [Position(p) for p in ("P1", "B1", "P2", "B2")]
    assert list(record.card_times.values()) == placed
    assert record.closed_at == placed[-1] + 2.0
    assert hand_record_json(record)["times"] == {
        "start": start,
        "cards": [["P1", placed[0]], ["B1", placed[1]], ["P2", placed[2]], ["B2", placed[3]]],
        "end": placed[-1] + 2.0,
    }


def test_s7_a_hand_dealt_again_keeps_the_times_of_its_new_cards() -> None:
    table, clock = make_table()
    open_round(table)
    close(table, clock)
    for code in ["4S", "7H", "KD"]:
        table.deal_card(Card.parse(code))
    table.report_fault(Fault.S7_CARD_COUNT_RESTARTED)
    clock.advance(10.0)
    again = clock.now()
    deal(table, "9S 2H KD 3C")
    times = table.records()[-1].card_times
    assert list(times) == [Position(p) for p in ("P1", "B1", "P2", "B2")]
    assert set(times.values()) == {again}


# -- playlists and clips ----------------------------------------------------------------


def test_parse_playlist_dates_every_segment_from_the_program_date_time() -> None:
    text = (
        "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
        f"#EXTINF:2.000,\n#EXT-X-PROGRAM-DATE-TIME:{_pdt(T0)}\na.ts\n"
        "#EXTINF:1.5,\nb.ts\n"  # no date of its own: it runs on from the one before
        "#EXT-X-DISCONTINUITY\n#EXTINF:2.0,\nc.ts\n"  # after a break, no date: unknown
        f"#EXT-X-PROGRAM-DATE-TIME:{_pdt(T0 + 60)}\n#EXTINF:2.0,\nd.ts\n"
        "#EXTINF:2.0,\n../../etc/passwd\n"  # a path is never a segment name
    )
    segments = parse_playlist(text)
    assert [(s.name, s.start, s.duration) for s in segments] == [
        ("a.ts", T0, 2.0),
        ("b.ts", T0 + 2.0, 1.5),
        ("d.ts", T0 + 60, 2.0),
        ("passwd", T0 + 62, 2.0),
    ]
    assert parse_playlist("#EXTM3U\n#EXT-X-PROGRAM-DATE-TIME:yesterday\n#EXTINF:2,\nx.ts\n") == []


def test_the_clip_is_the_segments_covering_the_hand_and_its_margins() -> None:
    segments = [Segment(f"{i}.ts", T0 + 2 * i, 2.0) for i in range(30)]
    clip = clip_of(segments, T0 + 10.5 - 3, T0 + 21.0 + 3)
    assert clip is not None
    assert [s.name for s in clip.segments] == [f"{i}.ts" for i in range(3, 12)]
    assert clip.begins == T0 + 6
    assert clip.position(T0 + 10.5) == pytest.approx(4.5)
    assert clip.duration == 18.0
    assert clip_of(segments, T0 + 100, T0 + 110) is None
    # a gap in the recording is skipped: positions count only the recorded picture
    gappy = clip_of([Segment("a.ts", T0, 2.0), Segment("b.ts", T0 + 10, 2.0)], T0, T0 + 12)
    assert gappy is not None
    assert gappy.position(T0 + 11) == 3.0
    assert gappy.position(T0 + 5) == 2.0


def test_the_clip_playlist_is_a_vod_playlist_starting_at_the_hand() -> None:
    clip = clip_of([Segment("a.ts", T0, 2.0), Segment("b.ts", T0 + 10, 2.0)], T0, T0 + 12)
    assert clip is not None
    text = clip_playlist(clip, start_at=1.25, uri=lambda s: f"/seg/{s.name}?key=k")
    lines = text.splitlines()
    assert lines[0] == "#EXTM3U"
    assert "#EXT-X-PLAYLIST-TYPE:VOD" in lines
    assert lines[-1] == "#EXT-X-ENDLIST"
    assert "#EXT-X-START:TIME-OFFSET=1.250,PRECISE=YES" in lines
    assert [line for line in lines if line.startswith("/seg/")] == [
        "/seg/a.ts?key=k",
        "/seg/b.ts?key=k",
    ]
    assert "#EXT-X-DISCONTINUITY" in lines
    dates = [parse_playlist(text)[i].start for i in range(2)]
    assert dates == [T0, T0 + 10]


# -- the recordings folder, pruning and the hand's video -------------------------------


def test_recordings_read_each_table_folder_and_ignore_missing_files(tmp_path: Path) -> None:
    names = _record(tmp_path / "macau-1", T0, 5)
    (tmp_path / "macau-1" / names[1]).unlink()
    recordings = Recordings(tmp_path)
    assert [s.name for s in recordings.segments("macau-1")] == [names[i] for i in (0, 2, 3, 4)]
    assert recordings.segments("nobody") == []
    assert recordings.segments("../macau-1") == []
    assert recordings.segment_path("macau-1", names[0]) == tmp_path / "macau-1" / names[0]
    assert recordings.segment_path("macau-1", "../x.ts") is None
    assert recordings.segment_path("macau-1", "rec.m3u8") is None


def test_l_pruning_deletes_the_recordings_older_than_the_retention(tmp_path: Path) -> None:
    day = 24 * 3600.0
    old = _record(tmp_path / "macau-1", T0, 10)  # T0 .. T0 + 20
    new = _record(tmp_path / "macau-1", T0 + 3600, 10)  # an hour later
    orphan = tmp_path / "macau-1" / "orphan.ts"
    orphan.write_bytes(b"x")
    os.utime(orphan, (T0, T0))
    for playlist in (tmp_path / "macau-1").glob("*.m3u8"):
        os.utime(playlist, (T0 + 3620, T0 + 3620))
    recordings = Recordings(tmp_path)
    # a day after the first recording ended, it and the orphan go; the newer one stays
    pruned = recordings.prune(now=T0 + 20 + day, retention=day)
    assert (pruned.segments, pruned.bytes) == (11, 10 * 188 + 1)
    assert pruned.horizon == T0 + 20
    assert [s.name for s in recordings.segments("macau-1")] == new
    assert not any((tmp_path / "macau-1" / n).exists() for n in old)
    assert recordings.horizon("macau-1") == T0 + 20
    # pruning again changes nothing; a day after the second, everything goes
    assert recordings.prune(now=T0 + 20 + day, retention=day).segments == 0
    last = recordings.prune(now=T0 + 3620 + day, retention=day)
    assert (last.segments, last.playlists) == (10, 2)
    assert list((tmp_path / "macau-1").glob("*.m3u8")) == []
    assert recordings.segments("macau-1") == []


def _hand(start: float, end: float, table: str = "macau-1") -> dict[str, object]:
    return {
        "game": f"{table}-001-004",
        "table": table,
        "opened_at": start,
        "closed_at": end,
        "times": {"start": start, "cards": [["P1", start + 3]], "end": end},
    }


def test_l_a_hand_knows_whether_its_video_is_there_gone_or_never_recorded(
    tmp_path: Path,
) -> None:
    day = 24 * 3600.0
    _record(tmp_path / "macau-1", T0, 30)  # T0 .. T0 + 60
    recordings = Recordings(tmp_path)
    hand = _hand(T0 + 20, T0 + 31)

    def video(record: dict[str, object], now: float) -> tuple[str, float | None]:
        found = hand_video(record, recordings, now=now, retention=day, margin=3.0)
        return found.state, found.deleted_at

    assert video(hand, T0 + 100) == ("available", T0 + 31 + day)
    found = hand_video(hand, recordings, now=T0 + 100, retention=day, margin=3.0)
    assert found.clip is not None
    assert found.clip.begins == T0 + 16  # the segment showing 17 s: 3 s of margin
    assert found.clip.position(T0 + 20) == 4.0
    assert video(_hand(T0 + 500, T0 + 510), T0 + 600) == ("none", None)
    assert video(_hand(T0 + 20, T0 + 31, table="nocomm-1"), T0 + 100) == ("none", None)
    # a day after its end the video is gone, even before the files are pruned
    assert video(hand, T0 + 31 + day) == ("gone", T0 + 31 + day)
    # pruned early (``punto video prune --retention 0``): gone from then on
    recordings.prune(now=T0 + 200, retention=0)
    assert video(hand, T0 + 201) == ("gone", T0 + 200)
    assert video(_hand(T0 + 300, T0 + 310), T0 + 400) == ("none", None)
    off = hand_video(hand, None, now=T0, retention=day, margin=3.0)
    assert off.json() == {"state": "off", "deleted_at": None, "retention": day}


# -- settings and the command line --------------------------------------------------------


def test_the_video_settings_come_from_the_environment(tmp_path: Path) -> None:
    settings = Settings.from_env({})
    assert (settings.recordings_dir, settings.video_retention) == (None, 24 * 3600.0)
    env = {
        "PUNTO_RECORDINGS_DIR": str(tmp_path),
        "PUNTO_VIDEO_RETENTION": "7200",
        "PUNTO_VIDEO_MARGIN": "5",
        "PUNTO_VIDEO_PRUNE_SECONDS": "60",
    }
    settings = Settings.from_env(env)
    assert settings.recordings_dir == tmp_path
    assert (settings.video_retention, settings.video_margin) == (7200.0, 5.0)
    assert settings.video_prune_seconds == 60.0
    for name, value in (("PUNTO_VIDEO_RETENTION", "0"), ("PUNTO_VIDEO_MARGIN", "-1")):
        with pytest.raises(ServerError):
            Settings.from_env({name: value})
    with pytest.raises(ServerError, match="bad server setting"):
        Settings.from_env({"PUNTO_VIDEO_RETENTION": "a day"})


def test_punto_video_prune_deletes_what_is_older_than_the_retention(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(tmp_path / "macau-1", PAST, 3)
    assert main(["video", "prune", "--dir", str(tmp_path), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["segments"], answer["bytes"]) == (3, 3 * 188)
    assert Recordings(tmp_path).segments("macau-1") == []
    monkeypatch.delenv("PUNTO_RECORDINGS_DIR", raising=False)
    assert main(["video", "prune"]) == 2
    assert "PUNTO_RECORDINGS_DIR" in capsys.readouterr().err
    assert main(["video", "prune", "--dir", str(tmp_path / "none")]) == 2
    assert main(["video", "prune", "--dir", str(tmp_path), "--retention", "-1"]) == 2
    monkeypatch.setenv("PUNTO_RECORDINGS_DIR", str(tmp_path))
    assert main(["video", "prune", "--retention", "3600"]) == 0
    assert "deleted 0 segments" in capsys.readouterr().out
